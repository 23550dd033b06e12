package strkernel

import (
	"math/rand/v2"
	"strings"
	"testing"
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
