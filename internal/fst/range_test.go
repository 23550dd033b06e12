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
		k, err := NewKernelFST(f, Bound{})
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
	}
}

// TestWideCell: two branches read a^n, one with weight 2 per symbol, the
// other 1/2, and only the second can finish (on b). At cell (n, n) their
// entries differ by 4^n, far more than float64 spans: with one exponent per
// cell the small entry would be flushed to 0. T(a^n b, a^n b) = 2^-n
// exactly.
func TestWideCell(t *testing.T) {
	f, err := buildRows([]row{
		arc(0, 1, 1, 1, 2), arc(1, 1, 1, 1, 2), arc(1, 3, 3, 3, 1),
		arc(0, 2, 1, 1, 0.5), arc(2, 2, 1, 1, 0.5), arc(2, 3, 2, 2, 1), fin(3, 1),
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := Compile(f)
	ws := new(Workspace)
	for _, n := range []int{60, 400, 2000} {
		x := append(repeat(1, n), 2)
		got, err := m.Weight(x, x, ws, strkernel.Limits{})
		if err != nil || got != xfloat.Make(1, -int64(n)) {
			t.Errorf("n=%d: %v·2^%d, %v; want 2^-%d", n, got.M, got.E, err, n)
		}
	}
}

// TestExtremeWeights: weights outside [2^-128, 2^128) carry an exponent of
// their own: T(a^n, a^n) = (1e300)^n·1e-300 and, on a second path, ε:ε
// arcs of 1e-200 and 1e200.
func TestExtremeWeights(t *testing.T) {
	f, _ := buildRows([]row{arc(0, 1, 1, 1, 1e300), arc(1, 1, 1, 1, 1e300), arc(1, 2, 0, 0, 1e-200),
		arc(2, 3, 0, 0, 1e200), fin(3, 1e-300)})
	m, _ := Compile(f)
	if m.ab[0].wk == 0 || m.ee[0].wk == 0 {
		t.Fatal("no wide weights")
	}
	for _, n := range []int{1, 5, 40} {
		got, err := m.Weight(repeat(1, n), repeat(1, n), nil, strkernel.Limits{})
		want := xfloat.Mul(xfloat.Pow(xfloat.New(1e300), n), xfloat.Mul(xfloat.Mul(xfloat.New(1e-200), xfloat.New(1e200)), xfloat.New(1e-300)))
		if err != nil || math.Abs(xfloat.Div(got, want).Float64()-1) > 1e-13 {
			t.Errorf("n=%d: %v·2^%d, want %v·2^%d", n, got.M, got.E, want.M, want.E)
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
	k, err := NewKernelFST(allSubsequences(alphabet), Bound{})
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

// TestReference: on random machines, weights up to 4 (some beyond
// 2^±128) and strings up to 120 symbols, the programme equals the same
// programme with an xfloat per entry and no shortcut.
func TestReference(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	ws := new(Workspace)
	n := 0
	for it := 0; n < 60 && it < 100000; it++ {
		raw := randomFST(r, 2)
		for i := range raw.arcs {
			raw.arcs[i].w *= 2
			if r.IntN(20) == 0 {
				raw.arcs[i].w *= []float64{1e-60, 1e60}[r.IntN(2)]
			}
		}
		f, err := raw.build()
		if err != nil {
			continue
		}
		m, err := Compile(f)
		if err != nil {
			continue
		}
		x, y := randomString(r, 2, 120), randomString(r, 2, 120)
		ax, ok1 := denseLabels(nil, x, &m.in)
		by, ok2 := denseLabels(nil, y, &m.out)
		if !ok1 || !ok2 {
			continue
		}
		want := m.refPair(ax, by)
		// Both sweeps: state by state (when the machine allows it) and
		// cell by cell.
		for _, plan := range [][]stateSweep{m.byState, nil} {
			m.byState = plan
			got, err := m.pair(ax, by, ws, strkernel.Limits{})
			if err != nil || got.IsZero() != want.IsZero() || !got.IsZero() && math.Abs(xfloat.Div(got, want).Float64()-1) > 1e-10 {
				t.Fatalf("it %d (state sweep %v): %v·2^%d, reference %v·2^%d", it, plan != nil, got.M, got.E, want.M, want.E)
			}
		}
		got := want
		if !got.IsZero() {
			n++
		}
	}
	if n < 60 {
		t.Errorf("only %d non-zero cases", n)
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
