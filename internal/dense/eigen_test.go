package dense

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// symmetric returns a random symmetric n×n matrix, row-major, with both
// triangles set, its entries times scale.
func symmetric(r *rand.Rand, n int, scale float64) []float64 {
	A := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := scale * r.NormFloat64()
			A[i*n+j], A[j*n+i] = v, v
		}
	}
	return A
}

// TestEigenMatchesGonum compares EigenValues and EigenSym with gonum's
// Dsyev (mat.EigenSym) on sizes below, at and above the blocking
// threshold and several bands per panel, and on matrices that Dsyev
// scales: eigenvalues to 1e-9 of the largest, eigenvectors to 1e-9 up to
// sign (the eigenvalues of random matrices are well separated).
func TestEigenMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		n     int
		scale float64
	}{{1, 1}, {2, 1}, {5, 1}, {32, 1}, {33, 1}, {100, 1}, {257, 1}, {40, 1e-160}, {40, 1e160}} {
		t.Run(fmt.Sprintf("n=%d/scale=%g", tc.n, tc.scale), func(t *testing.T) {
			n := tc.n
			A := symmetric(r, n, tc.scale)
			var ref mat.EigenSym
			if !ref.Factorize(mat.NewSymDense(n, append([]float64(nil), A...)), true) {
				t.Fatal("gonum did not converge")
			}
			want := ref.Values(nil)
			var V mat.Dense
			ref.VectorsTo(&V)
			top := math.Max(math.Abs(want[0]), math.Abs(want[n-1]))
			vals, err := EigenValues(append([]float64(nil), A...), n, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			a := append([]float64(nil), A...)
			vals2, err := EigenSym(a, n, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Abs(vals[i]-want[i]) > 1e-9*top || math.Abs(vals2[i]-want[i]) > 1e-9*top {
					t.Fatalf("eigenvalue %d: %v and %v, gonum %v", i, vals[i], vals2[i], want[i])
				}
				sign := 1.0
				if a[0*n+i]*V.At(0, i) < 0 {
					sign = -1
				}
				for k := 0; k < n; k++ {
					if d := math.Abs(sign*a[k*n+i] - V.At(k, i)); d > 1e-9 {
						t.Fatalf("eigenvector %d entry %d: %v, gonum %v", i, k, sign*a[k*n+i], V.At(k, i))
					}
				}
			}
		})
	}
}

// TestEigenInterrupted: poll's error stops the reduction at its next
// check and is returned; an uninterrupted run checks often.
func TestEigenInterrupted(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	const n = 300
	A := symmetric(r, n, 1)
	stop := errors.New("stop")
	for _, after := range []int{0, 1, 10, 100} {
		calls := 0
		poll := func() error {
			if calls++; calls > after {
				return stop
			}
			return nil
		}
		if _, err := EigenValues(append([]float64(nil), A...), n, n, poll); err != stop {
			t.Errorf("EigenValues, stop after %d checks: %v", after, err)
		}
		if calls != after+1 {
			t.Errorf("EigenValues, stop after %d checks: %d checks made", after, calls)
		}
		calls = 0
		if _, err := EigenSym(append([]float64(nil), A...), n, n, poll); err != stop {
			t.Errorf("EigenSym, stop after %d checks: %v", after, err)
		}
	}
	calls := 0
	if _, err := EigenValues(append([]float64(nil), A...), n, n, func() error { calls++; return nil }); err != nil {
		t.Fatal(err)
	}
	if calls < n/2 {
		t.Errorf("%d checks for n = %d: too few to stop promptly", calls, n)
	}
}
