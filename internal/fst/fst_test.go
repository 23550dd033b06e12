package fst

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

type row struct {
	src, dst int64
	final    bool
	in, out  Label
	w        float64
}

func buildRows(rows []row) (*FST, error) {
	var b Builder
	for _, r := range rows {
		var err error
		if r.final {
			err = b.AddFinal(r.src, r.w)
		} else {
			err = b.AddArc(r.src, r.dst, r.in, r.out, r.w)
		}
		if err != nil {
			return nil, err
		}
	}
	return b.Build()
}

func arc(src, dst int64, in, out Label, w float64) row {
	return row{src: src, dst: dst, in: in, out: out, w: w}
}
func fin(q int64, w float64) row { return row{src: q, final: true, w: w} }

func TestBuilderErrors(t *testing.T) {
	tests := []struct {
		name string
		rows []row
		want any    // pointer to the error type expected
		msg  string // substring of the message
	}{
		{"negative src", []row{arc(-1, 0, 1, 1, 1)}, new(*StateError), "row 1: state -1 is negative"},
		{"negative dst", []row{fin(0, 1), arc(0, -3, 1, 1, 1)}, new(*StateError), "row 2: state -3"},
		{"negative label", []row{arc(0, 1, -2, 1, 1)}, new(*LabelError), "label -2"},
		{"NaN weight", []row{arc(0, 1, 1, 1, math.NaN())}, new(*WeightError), "arc weight NaN"},
		{"Inf final", []row{arc(0, 1, 1, 1, 1), fin(1, math.Inf(-1))}, new(*WeightError), "row 2: final weight -Inf"},
		{"finals overflow", []row{fin(0, math.MaxFloat64), fin(0, math.MaxFloat64)}, new(*WeightError), "+Inf"},
		{"no final", []row{arc(0, 1, 1, 1, 1)}, new(*NoFinalError), "no final state"},
		{"final weight 0", []row{arc(0, 1, 1, 1, 1), fin(1, 0)}, new(*NoFinalError), "no final state"},
		{"unreachable", []row{arc(0, 1, 1, 1, 1), fin(1, 1), fin(5, 1), fin(7, 2)}, new(*UnreachableFinalError), "final states 5, 7 cannot be reached"},
		{"reached by weight 0 only", []row{arc(0, 1, 1, 1, 0), fin(1, 1)}, new(*UnreachableFinalError), "final state 1 cannot"},
		{"no state 0", []row{arc(1, 2, 1, 1, 1), fin(2, 1)}, new(*UnreachableFinalError), "final state 2 cannot"},
	}
	for _, tc := range tests {
		_, err := buildRows(tc.rows)
		if err == nil || !errors.As(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want %T containing %q", tc.name, err, tc.want, tc.msg)
		}
	}
}

// TestBuilderSemantics: parallel arcs and final weights add, zero arcs are
// absent, useless states are removed and the caller's ids kept.
func TestBuilderSemantics(t *testing.T) {
	f, err := buildRows([]row{
		arc(0, 10, 1, 2, 0.5), arc(0, 10, 1, 2, 0.25), // parallel: 0.75
		arc(10, 20, 2, 2, 3), fin(20, 1), fin(20, 1), // final weight 2
		arc(0, 30, 1, 1, 1),  // 30 reaches no final state
		arc(40, 20, 1, 1, 1), // 40 is not reachable
		arc(10, 20, 1, 1, 0), // weight 0: absent
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.NumStates() != 3 || f.NumArcs() != 3 {
		t.Fatalf("%v, want 3 states and 3 arcs", f)
	}
	if names := []int64{f.Name(0), f.Name(1), f.Name(2)}; !slices.Equal(names, []int64{0, 10, 20}) {
		t.Errorf("names %v", names)
	}
	m, _ := Compile(f)
	for _, tc := range []struct {
		x, y []Label
		want float64
	}{{[]Label{1, 2}, []Label{2, 2}, 0.75 * 3 * 2}, {[]Label{1, 1}, []Label{2, 1}, 0}, {[]Label{1}, []Label{1}, 0}} {
		got, err := m.Weight(tc.x, tc.y, nil, strkernel.Limits{})
		if err != nil || got.Float64() != tc.want {
			t.Errorf("T(%v, %v) = %v, %v; want %v", tc.x, tc.y, got.Float64(), err, tc.want)
		}
	}
}

// naiveCompose is composition without the ε-filter: every interleaving of
// ε-moves of a and b, and their joint move, is a path of its own.
func naiveCompose(a, b *FST) *FST {
	var r raw
	id := func(q1, q2 int32) int32 { return q1*int32(b.NumStates()) + q2 }
	r.final = make([]float64, a.NumStates()*b.NumStates())
	for q1 := range a.NumStates() {
		for q2 := range b.NumStates() {
			s := id(int32(q1), int32(q2))
			r.final[s] = a.Final(q1) * b.Final(q2)
			add := func(in, out Label, d int32, w float64) {
				r.src = append(r.src, s)
				r.arcs = append(r.arcs, Arc{In: in, Out: out, Dst: d, W: w})
			}
			for _, x := range a.Arcs(q1) {
				for _, y := range b.Arcs(q2) {
					if x.Out == y.In {
						add(x.In, y.Out, id(x.Dst, y.Dst), x.W*y.W)
					}
				}
				if x.Out == Epsilon {
					add(x.In, Epsilon, id(x.Dst, int32(q2)), x.W)
				}
			}
			for _, y := range b.Arcs(q2) {
				if y.In == Epsilon {
					add(Epsilon, y.Out, id(int32(q1), y.Dst), y.W)
				}
			}
		}
	}
	f, _ := r.connect()
	return f
}

// TestEpsilonFilter: a writes ε while reading 1, b reads ε while writing 2,
// so (a∘b)(1, 2) = a(1, ε)·b(ε, 2) = 1·1. Without the filter the two
// ε-moves are matched three ways (a first, b first, together) and the sum
// is 3; with longer runs the over-count grows like the number of
// interleavings.
func TestEpsilonFilter(t *testing.T) {
	a, _ := buildRows([]row{arc(0, 1, 1, Epsilon, 1), fin(1, 1)})
	b, _ := buildRows([]row{arc(0, 1, Epsilon, 2, 1), fin(1, 1)})
	x, y := []Label{1}, []Label{2}
	sum := func(c *FST) float64 {
		l, _ := Compose(Acceptor(x), c, Bound{})
		r, _ := Compose(l, Acceptor(y), Bound{})
		v, err := PathSum(r)
		if err != nil {
			t.Fatal(err)
		}
		return v.Float64()
	}
	ab, _ := Compose(a, b, Bound{})
	if got := sum(ab); got != 1 {
		t.Errorf("filtered (a∘b)(1, 2) = %v, want 1", got)
	}
	if got := sum(naiveCompose(a, b)); got != 3 {
		t.Errorf("naive (a∘b)(1, 2) = %v, want the over-count 3", got)
	}
	// Runs of two ε-moves on each side: 1 path, naive Delannoy number D(2,2) = 13.
	a2, _ := buildRows([]row{arc(0, 1, 1, Epsilon, 1), arc(1, 2, 1, Epsilon, 1), fin(2, 1)})
	b2, _ := buildRows([]row{arc(0, 1, Epsilon, 2, 1), arc(1, 2, Epsilon, 2, 1), fin(2, 1)})
	x, y = []Label{1, 1}, []Label{2, 2}
	ab2, _ := Compose(a2, b2, Bound{})
	if got, naive := sum(ab2), sum(naiveCompose(a2, b2)); got != 1 || naive != 13 {
		t.Errorf("runs of 2: filtered %v (want 1), naive %v (want 13)", got, naive)
	}
}

// TestComposeBrute: (a∘b)(x, y) = Σ_z a(x, z)·b(z, y) on random pairs, by
// enumeration of the output z of a.
func TestComposeBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 0
	for n < 300 {
		ra, rb := randomFST(r, 2), randomFST(r, 2)
		a, err1 := ra.build()
		b, err2 := rb.build()
		if err1 != nil || err2 != nil || ra.hasCycle(func(x rawArc) bool { return x.in == Epsilon }) ||
			rb.hasCycle(func(x rawArc) bool { return x.in == Epsilon && x.out == Epsilon }) {
			continue
		}
		ab, err := Compose(a, b, Bound{})
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			x, y := randomString(r, 2, 4), randomString(r, 2, 4)
			var want float64
			for z, w := range ra.outputs(x) {
				want += w * rb.weight(labelsOf(z), y)
			}
			if got := pathWeight(ab, x, y); !closeRel(got, want, 1e-12) {
				t.Fatalf("(a∘b)(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
		n++
	}
}

func labelsOf(z string) []Label {
	out := make([]Label, len(z))
	for i := range z {
		out[i] = Label(z[i])
	}
	return out
}

func TestInvert(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 200; {
		raw := randomFST(r, 3)
		f, err := raw.build()
		if err != nil || raw.hasCycle(func(a rawArc) bool { return a.in == Epsilon && a.out == Epsilon }) {
			continue
		}
		m, err := Compile(f.Invert())
		if err != nil {
			t.Fatal(err)
		}
		x, y := randomString(r, 3, 5), randomString(r, 3, 5)
		got, _ := m.Weight(y, x, nil, strkernel.Limits{})
		if want := raw.weight(x, y); !closeRel(got.Float64(), want, 1e-12) {
			t.Fatalf("T⁻¹(y, x) = %v, T(x, y) = %v", got.Float64(), want)
		}
		n++
	}
}

// TestCycles: the errors name the states of the cycle, by the caller's ids.
func TestCycles(t *testing.T) {
	f, _ := buildRows([]row{
		arc(0, 5, 1, 1, 1), arc(5, 9, Epsilon, Epsilon, 0.5), arc(9, 5, Epsilon, Epsilon, 0.5),
		arc(5, 7, Epsilon, 3, 1), arc(7, 7, Epsilon, 2, 1), fin(7, 1),
	})
	_, err := Compile(f)
	var ec *EpsilonCycleError
	if !errors.As(err, &ec) || !slices.Equal(ec.States, []int64{5, 9}) || ec.InputOnly ||
		!strings.Contains(err.Error(), "5 → 9 → 5") {
		t.Errorf("Compile: %v", err)
	}
	g, _ := buildRows([]row{arc(0, 1, 1, 1, 1), arc(1, 1, Epsilon, 2, 1), fin(1, 1)})
	if _, err := Compile(g); err != nil {
		t.Errorf("an ε:2 loop is no ε:ε cycle: %v", err)
	}
	_, err = NewKernelFST(g, Bound{})
	if !errors.As(err, &ec) || !slices.Equal(ec.States, []int64{1}) || !ec.InputOnly {
		t.Errorf("NewKernelFST: %v", err)
	}
	// An ε:ε cycle off every accepting path is harmless.
	h, _ := buildRows([]row{arc(0, 1, 1, 1, 1), fin(1, 1), arc(0, 2, Epsilon, Epsilon, 1), arc(2, 2, Epsilon, Epsilon, 1)})
	if _, err := NewKernelFST(h, Bound{}); err != nil {
		t.Errorf("dead cycle: %v", err)
	}
	var ce *CycleError
	if _, err := PathSum(g); !errors.As(err, &ce) || !slices.Equal(ce.States, []int64{1}) {
		t.Errorf("PathSum: %v", err)
	}
}

// TestLimits: the per-pair bound is strkernel's LimitError, the
// composition's a SizeError, and Check stops a long call.
func TestLimits(t *testing.T) {
	tr := gappyFST(t, Gappy{N: 2, Lambda: 0.5}, []Label{1, 2})
	k, err := NewKernelFST(tr, Bound{})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]Label, 99)
	for i := range x {
		x[i] = Label(1 + i%2)
	}
	want := k.Machine().Cells(99, 99)
	if want != 100*100*int64(k.U().NumStates()) {
		t.Fatalf("Cells = %d", want)
	}
	_, err = k.EvalLabels(x, x, nil, strkernel.Limits{MaxCells: want - 1})
	var le *strkernel.LimitError
	if !errors.As(err, &le) || le.Cells != want || le.Max != want-1 {
		t.Errorf("EvalLabels: %v", err)
	}
	if _, err := k.EvalLabels(x, x, nil, strkernel.Limits{MaxCells: want}); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	_, err = NewKernelFST(tr, Bound{MaxBytes: 10})
	var se *SizeError
	if !errors.As(err, &se) || se.Max != 10 {
		t.Errorf("compose: %v", err)
	}
	stop := errors.New("interrupted")
	long := make([]Label, 3000)
	for i := range long {
		long[i] = 1
	}
	_, err = k.EvalLabels(long, long, nil, strkernel.Limits{Check: func() error { return stop }})
	if err != stop {
		t.Errorf("Check: %v", err)
	}
	_, err = Gappy{N: 3, Lambda: 0.5}.EvalLabels(long, long, nil, strkernel.Limits{MaxCells: 3*3000*3000 - 1})
	if !errors.As(err, &le) || le.Cells != 3*3000*3000 {
		t.Errorf("gappy: %v", err)
	}
}

func gappyFST(t testing.TB, g Gappy, alphabet []Label) *FST {
	f, err := GappyTransducer(g, alphabet)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
