package fst

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// denseFST returns n states with deg arcs each, all reading and writing
// label 1 with weight w, to pseudo-random successors, state n−1 final:
// T∘T⁻¹ pairs every two states with deg² arcs.
func denseFST(t testing.TB, n, deg int, w float64) *FST {
	var b Builder
	for k := range n * deg {
		if err := b.AddArc(int64(k/deg), int64((k*7919+1)%n), 1, 1, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AddFinal(int64(n-1), 1); err != nil {
		t.Fatal(err)
	}
	f, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// allocated returns the bytes allocated by f (garbage included): an upper
// bound of the heap it held at its peak.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestComposeBytes: Bytes(states, arcs), the unit of Bound.MaxBytes, is at
// least what composing, trimming and compiling T∘T⁻¹ allocate in all
// (so at least their peak), for small and large dense transducers and a
// gappy one, but for fixed costs of a few KiB (slack).
func TestComposeBytes(t *testing.T) {
	machines := []struct {
		name string
		f    *FST
	}{
		{"dense 20×3", denseFST(t, 20, 3, 0.5)},
		{"dense 200×5", denseFST(t, 200, 5, 0.5)},
		{"dense 90×7", denseFST(t, 90, 7, 0.5)},
		{"dense 64×8", denseFST(t, 64, 8, 0.5)},
		{"gappy3", gappyFST(t, Gappy{N: 3, Lambda: 0.5}, []Label{1, 2, 3, 4})},
	}
	for _, m := range machines {
		var k *Kernel
		var err error
		got := allocated(func() { k, err = NewKernelFST(m.f, Bound{}) })
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		est := Bytes(k.U().NumStates(), k.U().NumArcs())
		const slack = 64 << 10
		if uint64(est)+slack < got {
			t.Errorf("%s: %d states, %d arcs: Bytes = %d < %d allocated", m.name, k.U().NumStates(), k.U().NumArcs(), est, got)
		}
		t.Logf("%s: %d states, %d arcs: Bytes = %d, allocated %d", m.name, k.U().NumStates(), k.U().NumArcs(), est, got)
	}
}

// TestComposeBound: a transducer whose T∘T⁻¹ would hold tens of GB (1,000
// states, 30,000 arcs on one symbol) is refused with a *SizeError carrying
// the bound, having allocated less than the bound.
func TestComposeBound(t *testing.T) {
	f := denseFST(t, 1000, 30, 0.5)
	const max = 32 << 20
	var err error
	got := allocated(func() { _, err = NewKernelFST(f, Bound{MaxBytes: max}) })
	var se *SizeError
	if !errors.As(err, &se) || se.Max != max || se.Bytes <= max {
		t.Fatalf("err = %v", err)
	}
	t.Logf("allocated %d bytes for a bound of %d", got, max)
	if got > max {
		t.Errorf("allocated %d bytes for a bound of %d", got, max)
	}
	stop := errors.New("stop")
	if _, err := NewKernelFST(f, Bound{Check: func() error { return stop }}); err != stop {
		t.Errorf("Check: %v", err)
	}
}

// TestWeightRange: weights whose products leave float64 keep their
// exponent. On ε-free transducers every path reading x has |x| arcs, so
// scaling every arc by c and every final weight by d scales T(x, y) by
// c^|x|·d and K(s, t) by c^(|s|+|t|)·d²: with c = 2^±600 and d = 2^±900
// the scaled values, far outside float64, must have the mantissas of the
// unscaled ones (checked against enumeration in TestBruteForce) and the
// exponents shifted exactly.
func TestWeightRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for it := range 300 {
		raw := randomFST(r, 2)
		for i := range raw.arcs {
			if raw.arcs[i].in == Epsilon {
				raw.arcs[i].in = 1
			}
			if raw.arcs[i].out == Epsilon {
				raw.arcs[i].out = 2
			}
		}
		f, err := raw.build()
		if err != nil {
			continue
		}
		sign := 1 - 2*(it%2) // overflow and underflow in turn
		c, d := 600*sign, 900*sign
		scaled := scaleFST(f, c, d)
		k1, err1 := NewKernelFST(f, Bound{})
		k2, err2 := NewKernelFST(scaled, Bound{})
		if err1 != nil || err2 != nil {
			t.Fatalf("it %d: %v, %v", it, err1, err2)
		}
		m1, _ := Compile(f)
		m2, _ := Compile(scaled)
		for range 5 {
			x, y := randomString(r, 2, 4), randomString(r, 2, 4)
			v1, _ := k1.EvalLabels(x, y, nil, strkernel.Limits{})
			v2, _ := k2.EvalLabels(x, y, nil, strkernel.Limits{})
			checkShift(t, it, "K", v1, v2, int64(c*(len(x)+len(y))+2*d))
			w1, _ := m1.Weight(x, y, nil, strkernel.Limits{})
			w2, _ := m2.Weight(x, y, nil, strkernel.Limits{})
			checkShift(t, it, "T", w1, w2, int64(c*len(x)+d))
		}
	}
}

// scaleFST returns f with every arc weight times 2^c, every final weight
// times 2^d, as exponents (the float64 weights would overflow).
func scaleFST(f *FST, c, d int) *FST {
	g := &FST{final: f.final, off: f.off, names: f.names, arcs: make([]Arc, len(f.arcs)), finalE: make([]int32, len(f.final))}
	for i, a := range f.arcs {
		a.E += int32(c)
		g.arcs[i] = a
	}
	for q := range g.finalE {
		g.finalE[q] = int32(d)
	}
	return g
}

func checkShift(t *testing.T, it int, what string, v1, v2 xfloat.F, shift int64) {
	t.Helper()
	if v1.IsZero() != v2.IsZero() {
		t.Fatalf("it %d: %s: %v and scaled %v", it, what, v1, v2)
	}
	if v1.IsZero() {
		return
	}
	if v2.E-v1.E != shift || math.Abs(v2.M-v1.M) > 1e-12*math.Abs(v1.M) {
		t.Fatalf("it %d: %s: %v·2^%d, scaled %v·2^%d, want the exponent %d higher", it, what, v1.M, v1.E, v2.M, v2.E, shift)
	}
}

// TestMulW: products in range are the float64 product (bits); others keep
// their exponent, checked by their logarithm.
func TestMulW(t *testing.T) {
	cases := []struct {
		w1    float64
		e1    int32
		w2    float64
		e2    int32
		exact bool    // the float64 product itself, want
		want  float64 // or the natural log of the product
	}{
		{0.5, 0, 3, 0, true, 1.5},
		{-2, 0, 0.25, 0, true, -0.5},
		{0, 0, 1e300, 0, true, 0},
		{1e200, 0, 1e200, 0, false, 400 * math.Ln10},
		{1e-200, 0, 1e-200, 0, false, -400 * math.Ln10},
		{3, 1000, 5, -4, false, math.Log(15) + 996*math.Ln2},
	}
	for _, c := range cases {
		w, e := mulW(c.w1, c.e1, c.w2, c.e2)
		if c.exact {
			if e != 0 || w != c.want {
				t.Errorf("mulW(%v, %v) = %v·2^%d, want %v", c.w1, c.w2, w, e, c.want)
			}
			continue
		}
		if got := xfloat.Make(w, int64(e)).Log(); math.Abs(got-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("mulW(%v·2^%d, %v·2^%d): log %v, want %v", c.w1, c.e1, c.w2, c.e2, got, c.want)
		}
	}
}
