package dense

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// spd returns a random symmetric positive definite n×n matrix, row-major
// (both triangles), with eigenvalues spread over a few orders of magnitude
// like a regularised Gram matrix's.
func spd(r *rand.Rand, n int) []float64 {
	X := make([]float64, n*n)
	for i := range X {
		X[i] = r.NormFloat64()
	}
	A := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += X[i*n+k] * X[j*n+k]
			}
			s /= float64(n)
			if i == j {
				s += 1e-2
			}
			A[i*n+j], A[j*n+i] = s, s
		}
	}
	return A
}

// TestCholeskyMatchesGonum compares the blocked factor and the solves with
// gonum's Dpotrf (mat.Cholesky), across panel heights that divide n or not
// and with and without the assembly tile; the factor is bit-identical for
// one, two and seven workers (panelCols chunks each panel differently).
func TestCholeskyMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 64, 129, 300} {
		A := spd(r, n)
		var ref mat.Cholesky
		if !ref.Factorize(mat.NewSymDense(n, append([]float64(nil), A...))) {
			t.Fatalf("n=%d: gonum refused the matrix", n)
		}
		var U mat.TriDense
		ref.UTo(&U)
		b := make([]float64, n)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		want := mat.NewVecDense(n, nil)
		if err := ref.SolveVecTo(want, mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		for _, nb := range []int{1, 3, 16, 128} {
			for _, avx := range []bool{useAVX2, false} {
				name := fmt.Sprintf("n=%d/nb=%d/avx=%v", n, nb, avx)
				var got [3][]float64
				for w, procs := range []int{1, 2, 7} {
					got[w] = append([]float64(nil), A...)
					withSettings(nb, avx, procs, func() {
						ok, err := Cholesky(got[w], n, n, nil)
						if !ok || err != nil {
							t.Fatalf("%s: ok=%v err=%v", name, ok, err)
						}
					})
				}
				worst := 0.0
				for i := 0; i < n; i++ {
					for j := i; j < n; j++ {
						if got[0][i*n+j] != got[1][i*n+j] || got[0][i*n+j] != got[2][i*n+j] {
							t.Fatalf("%s: U[%d][%d] differs between 1, 2 and 7 workers", name, i, j)
						}
						worst = math.Max(worst, math.Abs(got[0][i*n+j]-U.At(i, j)))
					}
					for j := 0; j < i; j++ {
						if got[0][i*n+j] != A[i*n+j] {
							t.Fatalf("%s: the lower triangle was written at (%d, %d)", name, i, j)
						}
					}
				}
				if worst > 1e-9 {
					t.Errorf("%s: factor differs from gonum's by %.3g", name, worst)
				}
				x := append([]float64(nil), b...)
				if err := SolveUT(got[0], n, n, x, 1, nil); err != nil {
					t.Fatal(err)
				}
				if err := SolveU(got[0], n, n, x, 1, nil); err != nil {
					t.Fatal(err)
				}
				for i, v := range x {
					if math.Abs(v-want.AtVec(i)) > 1e-9*math.Max(1, math.Abs(want.AtVec(i))) {
						t.Fatalf("%s: solution[%d] = %v, gonum %v", name, i, v, want.AtVec(i))
					}
				}
			}
		}
	}
}

func withSettings(nb int, avx bool, procs int, f func()) {
	savedNB, savedAVX := cholBlock, useAVX2
	savedProcs := runtime.GOMAXPROCS(procs)
	cholBlock, useAVX2 = nb, avx
	defer func() {
		cholBlock, useAVX2 = savedNB, savedAVX
		runtime.GOMAXPROCS(savedProcs)
	}()
	f()
}

// TestSolveManyColumns checks SolveUT and SolveU with several right-hand
// sides against one column at a time.
func TestSolveManyColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	const n, c = 150, 3
	A := spd(r, n)
	if ok, err := Cholesky(A, n, n, nil); !ok || err != nil {
		t.Fatal(ok, err)
	}
	B := make([]float64, n*c)
	for i := range B {
		B[i] = r.NormFloat64()
	}
	X := append([]float64(nil), B...)
	if err := SolveUT(A, n, n, X, c, nil); err != nil {
		t.Fatal(err)
	}
	if err := SolveU(A, n, n, X, c, nil); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < c; j++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = B[i*c+j]
		}
		SolveUT(A, n, n, x, 1, nil)
		SolveU(A, n, n, x, 1, nil)
		for i := range x {
			if math.Abs(x[i]-X[i*c+j]) > 1e-12*math.Max(1, math.Abs(x[i])) {
				t.Fatalf("column %d row %d: %v with %d columns, %v alone", j, i, X[i*c+j], c, x[i])
			}
		}
	}
}

// TestCholeskyNotPD: a matrix with a negative or NaN pivot is refused,
// not factored into NaNs.
func TestCholeskyNotPD(t *testing.T) {
	for _, tc := range []struct {
		name string
		A    []float64
	}{
		{"indefinite", []float64{1, 2, 2, 1}},
		{"zero", []float64{0, 0, 0, 0}},
		{"nan", []float64{1, 0, 0, math.NaN()}},
	} {
		if ok, err := Cholesky(tc.A, 2, 2, nil); ok || err != nil {
			t.Errorf("%s: ok=%v err=%v, want false, nil", tc.name, ok, err)
		}
	}
}

// TestCholeskyInterrupted: poll's error stops the factorisation at its
// next check, on a matrix big enough for hundreds of checks, and is
// returned as it is.
func TestCholeskyInterrupted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 700
	A := spd(r, n)
	stop := errors.New("stop")
	for _, after := range []int{0, 1, 5, 40} {
		var calls atomic.Int64
		poll := func() error {
			if calls.Add(1) > int64(after) {
				return stop
			}
			return nil
		}
		ok, err := Cholesky(append([]float64(nil), A...), n, n, poll)
		if ok || err != stop {
			t.Errorf("stop after %d checks: ok=%v err=%v", after, ok, err)
		}
		// The other worker may be inside a piece when the error comes.
		if c := calls.Load(); c > int64(after)+2 {
			t.Errorf("stop after %d checks: %d checks made", after, c)
		}
	}
	var calls atomic.Int64
	if ok, err := Cholesky(append([]float64(nil), A...), n, n, func() error { calls.Add(1); return nil }); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if calls := calls.Load(); calls < 50 {
		t.Errorf("%d checks for n = %d: too few to stop promptly", calls, n)
	}
}
