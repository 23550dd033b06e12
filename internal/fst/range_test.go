package fst

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// These tests take values far outside float64, where the exponent each
// cell carries matters, and check them against closed forms and against
// strkernel's all-subsequences kernel (itself computed with extended range).

func repeat(l Label, n int) []Label {
	x := make([]Label, n)
	for i := range x {
		x[i] = l
	}
	return x
}

// TestLongClosedForms: one state, a loop a:a/w: T(a^n, a^n) = w^n and
// (T∘T⁻¹)(a^n, a^n) = w^2n, exactly (powers of two).
func TestLongClosedForms(t *testing.T) {
	for _, w := range []float64{2, 0.5} {
		f, _ := buildRows([]row{arc(0, 0, 1, 1, w), fin(0, 1)})
		m, _ := Compile(f)
		k, err := NewKernelFST(f, strkernel.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		ws := new(Workspace)
		for _, n := range []int{10, 1100, 3000} {
			x := repeat(1, n)
			e := int64(n)
			if w < 1 {
				e = -e
			}
			got, err := m.Weight(x, x, ws, strkernel.Limits{})
			if err != nil || got != xfloat.Make(1, e) {
				t.Errorf("w=%v n=%d: T = %v·2^%d, %v; want 2^%d", w, n, got.M, got.E, err, e)
			}
			got, err = k.EvalLabels(x, x, ws, strkernel.Limits{})
			if err != nil || got != xfloat.Make(1, 2*e) {
				t.Errorf("w=%v n=%d: T∘T⁻¹ = %v·2^%d, %v; want 2^%d", w, n, got.M, got.E, err, 2*e)
			}
		}
		if ws.slowPairs != 0 {
			t.Errorf("w=%v: %d pairs took the slow path", w, ws.slowPairs)
		}
	}
}

// TestWideCell: two branches read a^n, one with weight 2 per symbol, the
// other 1/2, and only the second can finish (on b). At cell (n, n) their
// entries differ by 4^n: past the fast path's spread the pair must be
// redone with an xfloat per entry, and T(a^n b, a^n b) = 2^-n exactly.
func TestWideCell(t *testing.T) {
	f, err := buildRows([]row{
		arc(0, 1, 1, 1, 2), arc(1, 1, 1, 1, 2), arc(1, 3, 3, 3, 1),
		arc(0, 2, 1, 1, 0.5), arc(2, 2, 1, 1, 0.5), arc(2, 3, 2, 2, 1), fin(3, 1),
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := Compile(f)
	for _, tc := range []struct {
		n    int
		slow int
	}{{60, 0}, {400, 1}, {2000, 1}} {
		ws := new(Workspace)
		x := append(repeat(1, tc.n), 2)
		got, err := m.Weight(x, x, ws, strkernel.Limits{})
		if err != nil || got != xfloat.Make(1, -int64(tc.n)) || ws.slowPairs != tc.slow {
			t.Errorf("n=%d: %v·2^%d, %v, slow pairs %d; want 2^-%d, %d", tc.n, got.M, got.E, err, ws.slowPairs, tc.n, tc.slow)
		}
	}
}

// allSubsequences is the counting transducer of every subsequence: T(s, z)
// is the number of occurrences of z in s, so T∘T⁻¹ is the
// all-subsequences kernel, about 2^(1.4·n) on texts of n symbols.
func allSubsequences(alphabet []Label) *FST {
	var b Builder
	for _, x := range alphabet {
		b.AddArc(0, 0, x, Epsilon, 1)
		b.AddArc(0, 0, x, x, 1)
	}
	b.AddFinal(0, 1)
	f, _ := b.Build()
	return f
}

func TestAllSubsequencesLong(t *testing.T) {
	texts := readColumn(t, "reuters.csv", 2)
	s := prefixRunes(t, texts[:20], 4000)
	u := prefixRunes(t, texts[20:], 3500)
	syms := NewSymbols(strkernel.Char)
	for _, r := range s + u {
		syms.Intern(string(r))
	}
	var alphabet []Label
	for l := 1; l <= syms.Len(); l++ {
		alphabet = append(alphabet, Label(l))
	}
	k, err := NewKernelFST(allSubsequences(alphabet), strkernel.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ws := new(Workspace)
	a, b := syms.Encode(nil, s), syms.Encode(nil, u)
	for _, p := range [][2]string{{s, u}, {s, s}, {u, u}, {s[:300], u[:200]}} {
		x, y := syms.Encode(nil, p[0]), syms.Encode(nil, p[1])
		got, err := k.EvalLabels(x, y, ws, strkernel.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := strkernel.Eval(strkernel.Params{Kind: strkernel.Subseq}, strkernel.Decode(p[0], strkernel.Char),
			strkernel.Decode(p[1], strkernel.Char), nil, strkernel.Limits{})
		if r := xfloat.Div(got, want); math.Abs(r.Float64()-1) > 1e-11 {
			t.Errorf("|s|=%d |t|=%d: %v·2^%d, subseq %v·2^%d", len(x), len(y), got.M, got.E, want.M, want.E)
		}
	}
	if ws.slowPairs != 0 {
		t.Errorf("%d pairs took the slow path", ws.slowPairs)
	}
	// normalize stays finite and in (0, 1].
	kab, _ := k.EvalLabels(a, b, ws, strkernel.Limits{})
	kaa, _ := k.EvalLabels(a, a, ws, strkernel.Limits{})
	kbb, _ := k.EvalLabels(b, b, ws, strkernel.Limits{})
	if kab.E < 1100 {
		t.Errorf("K(s, t) = 2^%d is not past float64", kab.E)
	}
	// (The normalized value itself, about 2^-1900 here, is below float64.)
	if nv := xfloat.Div(kab, xfloat.Sqrt(xfloat.Mul(kaa, kbb))); !(nv.M > 0 && xfloat.Cmp(nv, xfloat.New(1)) <= 0) {
		t.Errorf("normalized %v·2^%d", nv.M, nv.E)
	}
}

// TestFastSlowAgree: on random machines, weights up to 4 and strings up to
// 200 symbols (cells rescaled, neighbours at different exponents), the
// fast path equals the xfloat-per-entry path.
func TestFastSlowAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	ws := new(Workspace)
	n := 0
	for it := 0; n < 60 && it < 100000; it++ {
		raw := randomFST(r, 2)
		for i := range raw.arcs {
			raw.arcs[i].w *= 2
		}
		f, err := raw.build()
		if err != nil {
			continue
		}
		m, err := Compile(f)
		if err != nil {
			continue
		}
		x, y := randomString(r, 2, 200), randomString(r, 2, 200)
		ax, ok1 := denseLabels(nil, x, &m.in)
		by, ok2 := denseLabels(nil, y, &m.out)
		if !ok1 || !ok2 {
			continue
		}
		fast, ok, err := m.fastPair(ax, by, ws, strkernel.Limits{})
		if err != nil || !ok {
			continue
		}
		slow, _ := m.slowPair(ax, by, ws, strkernel.Limits{})
		if fast.IsZero() != slow.IsZero() || !fast.IsZero() && math.Abs(xfloat.Div(fast, slow).Float64()-1) > 1e-10 {
			t.Fatalf("it %d: fast %v·2^%d, slow %v·2^%d", it, fast.M, fast.E, slow.M, slow.E)
		}
		if !fast.IsZero() {
			n++
		}
	}
}

// prefixRunes returns the first n code points of the texts joined by spaces.
func prefixRunes(tb testing.TB, texts []string, n int) string {
	r := []rune(strings.Join(texts, " "))
	if len(r) < n {
		tb.Fatalf("only %d code points", len(r))
	}
	return string(r[:n])
}
