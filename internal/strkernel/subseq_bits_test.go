package strkernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// TestSubseqSameBits compares subseqAll with the loops it replaced
// (refSubseqAll, subseq_ref_test.go) bit for bit: random strings of many
// lengths over small and large alphabets (Unicode included), and long ones
// whose cells pass 2^511, so that rows switch from runRow to the
// cell-by-cell loops with per-cell exponents part way through; with the
// assembly loop where there is one, and without.
func TestSubseqSameBits(t *testing.T) {
	have := useRowAVX2
	defer func() { useRowAVX2 = have }()
	for _, asm := range []bool{false, true} {
		if asm && !have {
			t.Log("no assembly loop on this machine")
			continue
		}
		useRowAVX2 = asm
		t.Run(map[bool]string{false: "go", true: "avx2"}[asm], testSubseqSameBits)
	}
}

func testSubseqSameBits(t *testing.T) {
	alphabets := []struct {
		name string
		syms []rune
	}{
		{"ab", []rune("ab")},
		{"acgt", []rune("acgt")},
		{"latin", []rune("abcdefghijklmnopqrstuvwxyz ,.")},
		{"unicode", []rune("аб вгдеёжз漢字かな😀🎉é\u200c\U0010FFFF")},
	}
	news := []rune(strings.Join(readColumn(t, "reuters.csv", 2), " "))
	r := rand.New(rand.NewPCG(1, 2))
	randStr := func(syms []rune, n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = syms[r.IntN(len(syms))]
		}
		return out
	}
	window := func(n int) []int32 {
		a := r.IntN(len(news) - n)
		return Decode(string(news[a:a+n]), Char).Chars()
	}
	type gen func() []int32
	type bitsCase struct {
		name   string
		trials int
		s, t   gen
	}
	var cases []bitsCase
	for _, a := range alphabets {
		short := func() []int32 { return randStr(a.syms, 1+r.IntN(40)) }
		long := func() []int32 { return randStr(a.syms, 200+r.IntN(1800)) }
		cases = append(cases, bitsCase{"short/" + a.name, 300, short, short},
			bitsCase{"long/" + a.name, 6, long, long})
	}
	newsWin := func() []int32 { return window(100 + r.IntN(1900)) }
	blocks := func(x, y string) gen {
		return func() []int32 { return []int32(strings.Repeat(x, 1500) + strings.Repeat(y, 1500)) }
	}
	cases = append(cases, bitsCase{"news", 8, newsWin, newsWin},
		bitsCase{"blocks", 1, blocks("a", "b"), blocks("b", "a")})
	ws, wsRef := new(Workspace), new(Workspace)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for range c.trials {
				s, u := c.s(), c.t()
				got, err := subseqAll(s, u, ws, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				want, err := refSubseqAll(s, u, wsRef, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("|s| = %d, |t| = %d: got %v·2^%d, the old loops %v·2^%d",
						len(s), len(u), got.M, got.E, want.M, want.E)
				}
			}
		})
	}
}

// TestAnyRowSameCells checks anyRow cell by cell, every row, against the
// old cell-by-cell loop (refOneRow), values and exponents, on texts whose
// cells pass 2^511 many times over; with the assembly loop where there is
// one, and without. The final value alone could hide a cell left at or
// above cellMax: moving a cell up an exponent is exact, so such a cell
// changes no later sum until it overflows.
func TestAnyRowSameCells(t *testing.T) {
	have := useRowAVX2
	defer func() { useRowAVX2 = have }()
	r := rand.New(rand.NewPCG(3, 4))
	news := []rune(strings.Join(readColumn(t, "reuters.csv", 2), " "))
	for _, tc := range []struct {
		name string
		syms []rune
		n    int
	}{
		{"ab", []rune("ab"), 1500},
		{"acgt", []rune("acgt"), 1500},
		{"latin", []rune("abcdefghijklmnopqrstuvwxyz "), 2000},
		{"news", nil, 2500},
	} {
		s, u := make([]int32, tc.n), make([]int32, tc.n)
		for i := range s {
			if tc.syms == nil {
				s[i], u[i] = news[i], news[len(news)-tc.n+i]
			} else {
				s[i], u[i] = tc.syms[r.IntN(len(tc.syms))], tc.syms[r.IntN(len(tc.syms))]
			}
		}
		for _, asm := range []bool{false, true} {
			if asm && !have {
				continue
			}
			useRowAVX2 = asm
			t.Run(fmt.Sprintf("%s/avx2=%v", tc.name, asm), func(t *testing.T) { checkAnyRows(t, s, u) })
		}
	}
}

func checkAnyRows(t *testing.T, s, u []int32) {
	n := len(u)
	size := n + 1 + runBlock
	ws := new(Workspace)
	in := ws.occurrences(u).in
	vRef, eRef := make([]float64, n+1), make([]int32, n+1)
	v, w := make([]float64, size), make([]float64, size)
	e, ew := make([]int32, size), make([]int32, size)
	for j := range vRef {
		vRef[j], v[j], w[j] = 1, 1, 1
	}
	moved := 0
	for i, x := range s {
		occ := in(x)
		if occ == nil {
			continue
		}
		refOneRow(x, u, vRef[1:], eRef[1:])
		anyRow(occ, v, e, w, ew, n)
		v, w, e, ew = w, v, ew, e
		for j := range n + 1 {
			if v[j] != vRef[j] || e[j] != eRef[j] {
				t.Fatalf("row %d, column %d: %v·2^(512·%d), the old loop %v·2^(512·%d)",
					i, j, v[j], e[j], vRef[j], eRef[j])
			}
		}
		moved = max(moved, int(e[n]))
	}
	if moved < 1 {
		t.Fatalf("the last cell stayed at exponent %d: the test needs longer texts", moved)
	}
}

// TestRunMaxBits checks the bits of runMax written in subseq_amd64.s.
func TestRunMaxBits(t *testing.T) {
	if b := math.Float64bits(runMax); b != 0x5fdfffffffffe000 {
		t.Errorf("runMax is %#x, subseq_amd64.s says 0x5fdfffffffffe000", b)
	}
}

// TestExpRowLayout checks the offsets of expRow's fields that
// subseq_amd64.s reads and writes.
func TestExpRowLayout(t *testing.T) {
	var st expRow
	got := [4]uintptr{unsafe.Offsetof(st.i), unsafe.Offsetof(st.j), unsafe.Offsetof(st.p), unsafe.Offsetof(st.kp)}
	if got != [4]uintptr{0, 8, 16, 24} {
		t.Errorf("expRow's fields are at %v, subseq_amd64.s expects 0, 8, 16, 24", got)
	}
}
