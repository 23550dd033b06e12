package svm

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
)

func TestFitErrors(t *testing.T) {
	x, y := randomProblem(5, 20, 2)
	k := newGauss(x, 1)
	ok := Options{C: 1, Tol: 1e-3}
	with := func(f func(*Options)) Options { o := ok; f(&o); return o }
	failing := errors.New("source went away")
	cases := []struct {
		name string
		kern Kernel
		y    []int
		opt  Options
		want error
	}{
		{"one class", k, make([]int, 20), ok, &ClassCountError{Classes: 1}},
		{"no rows", k, nil, ok, &ClassCountError{Classes: 0}},
		{"negative label", k, append([]int{-1}, y[1:]...), ok, &LabelError{Problem: NegativeLabel, Row: 0, Label: -1}},
		{"huge label", k, append([]int{1 << 40}, y[1:]...), ok, &LabelError{Problem: LabelTooLarge, Row: 0, Label: 1 << 40, Classes: 20}},
		{"empty class", k, func() []int {
			z := append([]int(nil), y...)
			z[0] = 3 // classes 0, 1, 3: class 2 has no rows
			return z
		}(), ok, &LabelError{Problem: EmptyClass, Row: -1, Label: 2, Classes: 4}},
		{"C zero", k, y, with(func(o *Options) { o.C = 0 }), &ParamError{Name: "C", Value: 0, Allowed: "a finite number > 0"}},
		{"C negative", k, y, with(func(o *Options) { o.C = -1 }), &ParamError{Name: "C", Value: -1, Allowed: "a finite number > 0"}},
		{"C inf", k, y, with(func(o *Options) { o.C = math.Inf(1) }), &ParamError{Name: "C", Value: math.Inf(1), Allowed: "a finite number > 0"}},
		{"tol zero", k, y, with(func(o *Options) { o.Tol = 0 }), &ParamError{Name: "Tol", Value: 0, Allowed: "a finite number > 0"}},
		{"tol negative", k, y, with(func(o *Options) { o.Tol = -1e-3 }), &ParamError{Name: "Tol", Value: -1e-3, Allowed: "a finite number > 0"}},
		{"weights length", k, y, with(func(o *Options) { o.ClassWeight = []float64{1} }), &ParamError{Name: "ClassWeight", Index: -1, Value: 1, Allowed: "one weight per class"}},
		{"weight zero", k, y, with(func(o *Options) { o.ClassWeight = []float64{1, 0} }), &ParamError{Name: "ClassWeight", Index: 1, Value: 0, Allowed: "a finite number > 0"}},
		{"cache negative", k, y, with(func(o *Options) { o.CacheBytes = -1 }), &ParamError{Name: "CacheBytes", Value: -1, Allowed: "≥ 0 (0: the default)"}},
		{"max iter negative", k, y, with(func(o *Options) { o.MaxIter = -5 }), &ParamError{Name: "MaxIter", Value: -5, Allowed: "≥ 0 (0: the default)"}},
		{"kernel error", KernelFunc(func(i int, idx []int, dst []float64) error {
			if len(idx) > 1 {
				return failing
			}
			dst[0] = 1
			return nil
		}), y, ok, &ColumnError{Row: -2, Err: failing}},
		{"kernel NaN", KernelFunc(func(i int, idx []int, dst []float64) error {
			for t, j := range idx {
				dst[t] = k.eval(k.row(i), j)
				if i == 3 && j == 7 {
					dst[t] = math.NaN()
				}
			}
			return nil
		}), y, ok, &KernelValueError{Row: 3, Col: 7}},
		{"kernel beyond float32", KernelFunc(func(i int, idx []int, dst []float64) error {
			for t := range idx {
				dst[t] = 1e39
			}
			return nil
		}), y, ok, &KernelValueError{Row: 0, Col: 0, Value: 1e39}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(tc.kern, tc.y, tc.opt)
			if err == nil {
				t.Fatalf("no error; model %+v", m)
			}
			if err.Error() == "" {
				t.Error("empty message")
			}
			switch want := tc.want.(type) {
			case *ColumnError:
				var ce *ColumnError
				if !errors.As(err, &ce) || !errors.Is(err, failing) {
					t.Fatalf("got %v, want a ColumnError wrapping %v", err, failing)
				}
			case *KernelValueError:
				var ke *KernelValueError
				if !errors.As(err, &ke) {
					t.Fatalf("got %T %v, want a KernelValueError", err, err)
				}
				if want.Row == 3 { // the NaN case: which pair of rows
					if !math.IsNaN(ke.Value) || !((ke.Row == 3 && ke.Col == 7) || (ke.Row == 7 && ke.Col == 3)) {
						t.Fatalf("got %+v, want K(3, 7) = NaN", ke)
					}
				} else if !reflect.DeepEqual(ke, want) {
					t.Fatalf("got %+v, want %+v", ke, want)
				}
			default:
				if !reflect.DeepEqual(err, tc.want) {
					t.Fatalf("got %#v (%v), want %#v", err, err, tc.want)
				}
			}
			t.Log(err)
		})
	}
}

func TestFitNaNOptions(t *testing.T) {
	x, y := randomProblem(5, 20, 2)
	for _, opt := range []Options{{C: math.NaN(), Tol: 1}, {C: 1, Tol: math.NaN()}, {C: 1, Tol: 1, ClassWeight: []float64{1, math.NaN()}}} {
		_, err := Fit(newGauss(x, 1), y, opt)
		var pe *ParamError
		if !errors.As(err, &pe) || !math.IsNaN(pe.Value) {
			t.Errorf("%+v: got %v, want a ParamError holding NaN", opt, err)
		}
	}
}

// TestInterrupt stops a fit from the interrupt callback, with one worker
// and with two, and gets the callback's error back.
func TestInterrupt(t *testing.T) {
	x, y := loadDigits(t)
	stop := errors.New("interrupted")
	for _, workers := range []int{1, 2} {
		var calls atomic.Int32
		_, err := Fit(newGauss(x, math.Sqrt(500)), y, Options{C: 1, Tol: 1e-5, Workers: workers,
			Interrupt: func() error {
				if calls.Add(1) > 3 {
					return stop
				}
				return nil
			}})
		if !errors.Is(err, stop) {
			t.Fatalf("workers %d: got %v, want the interrupt's error", workers, err)
		}
	}
}

// TestPanicInWorker turns a panic in the callback on a worker goroutine
// into a PanicError.
func TestPanicInWorker(t *testing.T) {
	x, y := randomProblem(6, 30, 2)
	for i := range y {
		y[i] = i % 3
	}
	k := newGauss(x, 1)
	_, err := Fit(KernelFunc(func(i int, idx []int, dst []float64) error {
		if len(idx) > 1 && i == 17 {
			panic("boom")
		}
		return k.Column(i, idx, dst)
	}), y, Options{C: 1, Tol: 1e-3, Workers: 2})
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" {
		t.Fatalf("got %v, want a PanicError", err)
	}
}

// TestNonPSDKernel fits with an indefinite "kernel": a random symmetric
// matrix with unit diagonal and off-diagonal values up to ±1.5, so that
// even 2×2 minors are indefinite (|K_ij| ≤ 1 would keep every pair's
// curvature K_ii + K_jj − 2K_ij ≥ 0, and SMO, which only sees pairs,
// could not tell). The solver terminates and reports the negative
// curvature it met.
func TestNonPSDKernel(t *testing.T) {
	const n = 60
	rng := rand.New(rand.NewPCG(7, 7))
	kmat := make([][]float64, n)
	for i := range kmat {
		kmat[i] = make([]float64, n)
	}
	for i := range kmat {
		kmat[i][i] = 1
		for j := i + 1; j < n; j++ {
			v := 3*rng.Float64() - 1.5
			kmat[i][j], kmat[j][i] = v, v
		}
	}
	y := make([]int, n)
	for i := range y {
		y[i] = rng.IntN(3)
	}
	kern := KernelFunc(func(i int, idx []int, dst []float64) error {
		for t, j := range idx {
			dst[t] = kmat[i][j]
		}
		return nil
	})
	m, err := Fit(kern, y, Options{C: 1, Tol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	neg := 0
	for _, w := range m.Warnings {
		if w.Kind == NegativeCurvature {
			neg++
			if w.Count <= 0 || !(w.Value < 0) {
				t.Errorf("warning %+v: want a positive count and a negative curvature", w)
			}
		}
	}
	if neg == 0 {
		t.Fatalf("no negative-curvature warning: %+v", m.Warnings)
	}
	t.Logf("warnings: %+v; iterations %d", m.Warnings, m.Iterations())

	// A PSD kernel on the same labels gives none.
	x, _ := randomProblem(7, n, 3)
	m, err = Fit(newGauss(x, 1), y, Options{C: 1, Tol: 1e-3})
	if err != nil || len(m.Warnings) != 0 {
		t.Fatalf("gauss: err %v, warnings %+v", err, m.Warnings)
	}
}

// TestNegativeDiagonal reports K(x, x) < 0.
func TestNegativeDiagonal(t *testing.T) {
	x, y := randomProblem(8, 30, 2)
	k := newGauss(x, 1)
	m, err := Fit(KernelFunc(func(i int, idx []int, dst []float64) error {
		for t, j := range idx {
			dst[t] = k.eval(k.row(i), j)
			if i == j && i%10 == 0 {
				dst[t] = -0.5
			}
		}
		return nil
	}), y, Options{C: 1, Tol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range m.Warnings {
		if w.Kind == NegativeDiagonal {
			found = w.Count == 3 && w.Value == -0.5
		}
	}
	if !found {
		t.Fatalf("want a NegativeDiagonal warning for 3 rows at −0.5, got %+v", m.Warnings)
	}
}

// TestMaxIter stops a pair at the iteration bound with a warning; the
// solution is still feasible.
func TestMaxIter(t *testing.T) {
	x, y := randomProblem(9, 80, 3)
	m, err := Fit(newGauss(x, 1.2), y, Options{C: 2, Tol: 1e-6, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	if m.Converged() || m.Pairs[0].Iterations != 5 || len(m.Warnings) != 1 ||
		m.Warnings[0] != (Warning{Kind: MaxIterReached, A: 0, B: 1, Count: 5}) {
		t.Fatalf("pairs %+v, warnings %+v", m.Pairs, m.Warnings)
	}
	alpha, sign := binaryAlphas(m, y)
	var s float64
	for i := range alpha {
		s += sign[i] * alpha[i]
		if alpha[i] < 0 || alpha[i] > 2 {
			t.Fatalf("α_%d = %g infeasible", i, alpha[i])
		}
	}
	if math.Abs(s) > 1e-12 {
		t.Fatalf("yᵀα = %g", s)
	}
}

// TestSameBitsAnyCacheOrWorkers: a cache of two columns (constant
// eviction, and the swaps of shrinking on evicted and partial columns)
// and two workers must give exactly the fit of a cache that holds
// everything, since every kernel value is recomputed to the same bits.
func TestSameBitsAnyCacheOrWorkers(t *testing.T) {
	x, y := loadDigits(t)
	x, y = subset(x, y, []int{0, 3, 5, 8}, nil)
	k := newGauss(x, math.Sqrt(500))
	base, err := Fit(k, y, Options{C: 1, Tol: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{
		{C: 1, Tol: 1e-5, CacheBytes: 1},
		{C: 1, Tol: 1e-5, CacheBytes: 40 * 4 * 360},
		{C: 1, Tol: 1e-5, Workers: 2},
		{C: 1, Tol: 1e-5, Workers: 3, CacheBytes: 1},
	} {
		m, err := Fit(k, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m, base) {
			t.Errorf("cache %d, workers %d: the fit differs", opt.CacheBytes, opt.Workers)
		}
	}
}

// TestSplitColumns: with two classes and two workers the columns are
// computed in pieces on two goroutines; the fit is the same bits.
func TestSplitColumns(t *testing.T) {
	x, y := randomProblem(12, 2500, 3)
	k := newGauss(x, 1)
	var calls, short atomic.Int32
	split := KernelFunc(func(i int, idx []int, dst []float64) error {
		calls.Add(1)
		if len(idx) > 1 && len(idx) <= 1250 {
			short.Add(1)
		}
		return k.Column(i, idx, dst)
	})
	a, err := Fit(k, y, Options{C: 1, Tol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(split, y, Options{C: 1, Tol: 1e-3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if short.Load() == 0 {
		t.Fatalf("no column was split (%d calls)", calls.Load())
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("split columns changed the fit")
	}
}

// TestNoShrinking: without shrinking the path differs but the optimum
// does not (to the tolerance). The solver itself tells whether shrinking
// set variables aside.
func TestNoShrinking(t *testing.T) {
	const n = 600
	x, y := randomProblem(11, n, 3)
	g, err := group(y)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, n)
	ys := make([]int8, n)
	g.fill(0, 1, rows, ys)
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = 1
	}
	var res [2]binaryResult
	var minActive [2]int
	for k, shrinking := range []bool{true, false} {
		s := newSolver(newGauss(x, 1), &poller{stop: new(atomic.Bool)}, n, 1)
		s.eps, s.maxIter, s.shrinking = 1e-6, 1<<30, shrinking
		if res[k], err = s.solve(rows, ys, 10, 10, diag, make([]float64, n)); err != nil {
			t.Fatal(err)
		}
		minActive[k] = s.minActive
	}
	if minActive[0] >= n || minActive[1] != n {
		t.Errorf("smallest active set: %d with shrinking, %d without (of %d)", minActive[0], minActive[1], n)
	}
	a, b := res[0], res[1]
	if math.Abs(a.rho-b.rho) > 1e-5 || math.Abs(a.obj-b.obj) > 1e-6*math.Abs(b.obj) {
		t.Fatalf("shrinking: rho %g obj %g; none: rho %g obj %g", a.rho, a.obj, b.rho, b.obj)
	}
	t.Logf("iterations %d with shrinking (active set down to %d), %d without; rho %.9f %.9f",
		a.iter, minActive[0], b.iter, a.rho, b.rho)
}

// TestVote checks libsvm's voting and tie rule on hand-made decision values.
func TestVote(t *testing.T) {
	cases := []struct {
		k    int
		dec  []float64
		want int
	}{
		{2, []float64{0.3}, 1},
		{2, []float64{-0.3}, 0},
		{2, []float64{0}, 1},                   // libsvm: value 0 is not > 0, so the second class
		{3, []float64{1, -1, 1}, 0},            // 0>1, 2>0, 1>2: one vote each, lowest wins
		{3, []float64{-1, -1, 1}, 1},           // 1>0, 2>0, 1>2
		{3, []float64{0, 0, 0}, 2},             // zeros vote for the larger class
		{4, []float64{-1, 1, -1, 1, 1, -1}, 1}, // votes 0:1, 1:2, 2:1, 3:2 → tie of 1 and 3
	}
	for _, tc := range cases {
		m := &Model{Classes: tc.k}
		if got := m.Vote(tc.dec); got != tc.want {
			t.Errorf("k=%d dec %v: class %d, want %d", tc.k, tc.dec, got, tc.want)
		}
	}
}

func TestBalancedWeights(t *testing.T) {
	got := BalancedWeights([]int{0, 0, 0, 1, 2, 2}, 3)
	want := []float64{6.0 / 9, 6.0 / 3, 6.0 / 6}
	for c := range want {
		if math.Abs(got[c]-want[c]) > 1e-15 {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestModelLengths(t *testing.T) {
	x, y := randomProblem(5, 20, 2)
	for i := range y {
		y[i] = i % 3
	}
	m, err := Fit(newGauss(x, 1), y, Options{C: 1, Tol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	ns := len(m.Support)
	if _, err := m.Predict(make([]float64, ns+1), make([]float64, 3)); err == nil {
		t.Error("kv too long: no error")
	}
	if err := m.Decision(make([]float64, ns), make([]float64, 2)); err == nil {
		t.Error("dec too short: no error")
	}
	if err := m.PredictBatch(make([]float64, 2*ns), make([]float64, 6), make([]int, 3)); err == nil {
		t.Error("batch of 3 with kv of 2: no error")
	}
	bad := *m
	bad.Intercept = bad.Intercept[:2]
	if err := bad.Validate(); err == nil {
		t.Error("short Intercept validates")
	}
	// PredictBatch agrees with Predict row by row.
	k := newGauss(x, 1)
	kv := make([]float64, len(x)*ns)
	for i := range x {
		supportKV(k, m, x[i], kv[i*ns:(i+1)*ns])
	}
	classes := make([]int, len(x))
	dec := make([]float64, len(x)*3)
	if err := m.PredictBatch(kv, dec, classes); err != nil {
		t.Fatal(err)
	}
	one := make([]float64, 3)
	for i := range x {
		c, _ := m.Predict(kv[i*ns:(i+1)*ns], one)
		if c != classes[i] || !reflect.DeepEqual(one, dec[i*3:(i+1)*3]) {
			t.Fatalf("row %d: batch %d %v, single %d %v", i, classes[i], dec[i*3:(i+1)*3], c, one)
		}
	}
}

// TestRestrict fits a subset through Restrict and through a copy of the
// subset's data: the same bits, with Support mapped back by rows.
func TestRestrict(t *testing.T) {
	x, y := randomProblem(13, 90, 3)
	var rows []int
	var sx [][]float64
	var sy []int
	for i := 0; i < len(x); i += 3 {
		rows = append(rows, i)
		sx = append(sx, x[i])
		sy = append(sy, y[i])
	}
	direct, err := Fit(newGauss(sx, 1), sy, Options{C: 1, Tol: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	viaRestrict, err := Fit(Restrict(newGauss(x, 1), rows), sy, Options{C: 1, Tol: 1e-6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(direct, viaRestrict) {
		t.Fatal("Restrict changed the fit")
	}
}

func TestPairClasses(t *testing.T) {
	q := 0
	for a := 0; a < 5; a++ {
		for b := a + 1; b < 5; b++ {
			if ga, gb := pairClasses(q, 5); ga != a || gb != b {
				t.Fatalf("pair %d: (%d, %d), want (%d, %d)", q, ga, gb, a, b)
			}
			q++
		}
	}
}
