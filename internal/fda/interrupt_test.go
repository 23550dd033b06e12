package fda

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// referenceFit is the fit as it was before the rank-(classes − 1)
// formulation: gonum's Cholesky of N + reg·I, C = L⁻¹ M L⁻ᵀ formed in
// full and its complete eigendecomposition (Dsyev), O(n³) and not
// interruptible. It is the independent computation FitPolled is checked
// against.
func referenceFit(K []float64, y []int, classes, components int, reg float64) (vals, alpha []float64) {
	n := len(y)
	Km := mat.NewDense(n, n, K)
	counts := make([]float64, classes)
	for _, c := range y {
		counts[c]++
	}
	means := mat.NewDense(n, classes, nil)
	all := make([]float64, n)
	for i := 0; i < n; i++ {
		for j, c := range y {
			v := K[i*n+j]
			means.Set(i, c, means.At(i, c)+v/counts[c])
			all[i] += v / float64(n)
		}
	}
	Mw := mat.NewSymDense(n, nil)
	for c := 0; c < classes; c++ {
		Mw.SymRankOne(Mw, counts[c], means.ColView(c))
	}
	B := mat.NewSymDense(n, nil)
	B.SymOuterK(1, Km)
	var negMw mat.SymDense
	negMw.ScaleSym(-1, Mw)
	B.AddSym(B, &negMw)
	M := mat.NewSymDense(n, nil)
	M.SymRankOne(Mw, -float64(n), mat.NewVecDense(n, all))
	for i := 0; i < n; i++ {
		B.SetSym(i, i, B.At(i, i)+reg)
	}
	var ch mat.Cholesky
	if !ch.Factorize(B) {
		panic("reference: not positive definite")
	}
	var L mat.TriDense
	ch.LTo(&L)
	var T, C mat.Dense
	if err := T.Solve(&L, M); err != nil {
		panic(err)
	}
	if err := C.Solve(&L, T.T()); err != nil {
		panic(err)
	}
	Cs := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			Cs.SetSym(i, j, 0.5*(C.At(i, j)+C.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(Cs, true) {
		panic("reference: no convergence")
	}
	ev := eig.Values(nil)
	var V mat.Dense
	eig.VectorsTo(&V)
	alpha = make([]float64, n*components)
	var a mat.VecDense
	for j := 0; j < components; j++ {
		vals = append(vals, ev[n-1-j])
		if err := a.SolveVec(L.T(), V.ColView(n-1-j)); err != nil {
			panic(err)
		}
		for i := 0; i < n; i++ {
			alpha[i*components+j] = a.AtVec(i)
		}
		signRule(alpha, n, components, j)
	}
	return vals, alpha
}

// classData returns the Gaussian Gram matrix (σ² = 0.5) of n points in
// the plane drawn around one centre per class, and their classes.
func classData(n, classes int, seed uint64) ([]float64, []int) {
	r := rand.New(rand.NewPCG(seed, 2))
	x, z := make([]float64, n), make([]float64, n)
	y := make([]int, n)
	for i := range x {
		y[i] = i % classes
		x[i] = math.Cos(float64(y[i])) + 0.6*r.NormFloat64()
		z[i] = math.Sin(float64(y[i])) + 0.6*r.NormFloat64()
	}
	K := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dz := x[i]-x[j], z[i]-z[j]
			v := math.Exp(-(dx*dx + dz*dz))
			K[i*n+j], K[j*n+i] = v, v
		}
	}
	return K, y
}

// TestMatchesFullEigendecomposition: eigenvalues and directions equal the
// full n×n eigendecomposition's to 1e-9 (relative to the largest), for
// 2 to 5 classes and every number of components.
func TestMatchesFullEigendecomposition(t *testing.T) {
	for _, tc := range []struct{ n, classes int }{{12, 2}, {90, 3}, {200, 4}, {301, 5}} {
		K, y := classData(tc.n, tc.classes, uint64(tc.n))
		for k := 1; k < tc.classes; k++ {
			t.Run(fmt.Sprintf("n=%d/classes=%d/k=%d", tc.n, tc.classes, k), func(t *testing.T) {
				wantVals, wantAlpha := referenceFit(K, y, tc.classes, k, 1e-3)
				m, err := FitPolled(K, y, tc.classes, k, 1e-3, nil)
				if err != nil {
					t.Fatal(err)
				}
				for j, v := range wantVals {
					if math.Abs(m.Eigenvalues[j]-v) > 1e-9*wantVals[0] {
						t.Fatalf("eigenvalue %d: %v, full %v", j, m.Eigenvalues[j], v)
					}
				}
				scale := 0.0
				for _, v := range wantAlpha {
					scale = math.Max(scale, math.Abs(v))
				}
				for i, v := range wantAlpha {
					if math.Abs(m.Alpha[i]-v) > 1e-9*scale {
						t.Fatalf("α[%d][%d] = %v, full %v", i/k, i%k, m.Alpha[i], v)
					}
				}
			})
		}
	}
}

// TestFitInterrupted: an interrupt at any check stops the fit with the
// interrupt's error and no model; an uninterrupted fit checks at least
// once per 2²² multiply–adds (a few milliseconds).
func TestFitInterrupted(t *testing.T) {
	const n, classes = 500, 3
	K, y := classData(n, classes, 5)
	var calls atomic.Int64
	if _, err := FitPolled(K, y, classes, 2, 1e-3, func() error { calls.Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	total := calls.Load()
	if want := int64(n * n * n * 4 / 3 / 2 / (1 << 22)); total < want {
		t.Errorf("%d checks for n = %d, want ≥ %d", total, n, want)
	}
	stop := errors.New("stop")
	for _, after := range []int64{0, 1, total / 3, total / 2, total - 1} {
		var made atomic.Int64
		m, err := FitPolled(K, y, classes, 2, 1e-3, func() error {
			if made.Add(1) > after {
				return stop
			}
			return nil
		})
		if err != stop || m != nil {
			t.Errorf("stop at check %d of %d: err %v, model %v", after+1, total, err, m != nil)
		}
		if made.Load() > after+2 { // a second worker may be inside a piece
			t.Errorf("stop at check %d: %d checks made", after+1, made.Load())
		}
	}
}

// TestFitStopsPromptly cancels a fit of 3,000 objects (seconds of
// products and factorisation here) at a random moment from another
// goroutine and checks that it returns the interrupt at once.
func TestFitStopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 3,000 objects")
	}
	K, y := classData(3000, 3, 6)
	stop := errors.New("stop")
	var at atomic.Int64
	delay := time.Duration(50+rand.IntN(300)) * time.Millisecond
	timer := time.AfterFunc(delay, func() { at.Store(time.Now().UnixNano()) })
	defer timer.Stop()
	m, err := FitPolled(K, y, 3, 2, 1e-3, func() error {
		if at.Load() != 0 {
			return stop
		}
		return nil
	})
	end := time.Now()
	if err != stop || m != nil {
		t.Fatalf("cancelled at %v: err %v (make n bigger if it finished)", delay, err)
	}
	late := end.Sub(time.Unix(0, at.Load()))
	t.Logf("cancelled %v after the start, returned %v later", delay, late)
	if late > time.Second {
		t.Errorf("returned %v after the cancel", late)
	}
}
