package kpca

import (
	"math"
	"testing"
)

// TestTopEigen: both solvers return the k largest eigenpairs of a
// symmetric matrix, checked by their residuals ‖Av − λv‖, orthonormality,
// and agreement of the two solvers' values.
func TestTopEigen(t *testing.T) {
	n, k := 300, 4
	r := splitMix64{7}
	A := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := r.symmetric()
			A[i*n+j], A[j*n+i] = v, v
		}
	}
	var got [][]float64
	for _, s := range []Solver{Dense, Lanczos} {
		work := append([]float64(nil), A...)
		vals, vecs, err := TopEigen(work, n, n, k, Options{Solver: s})
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < k; j++ {
			res, norm := 0.0, 0.0
			for i := 0; i < n; i++ {
				av := 0.0
				for l := 0; l < n; l++ {
					av += A[i*n+l] * vecs[l*k+j]
				}
				res = math.Max(res, math.Abs(av-vals[j]*vecs[i*k+j]))
				norm += vecs[i*k+j] * vecs[i*k+j]
			}
			if res > 1e-8 || math.Abs(norm-1) > 1e-10 || (j > 0 && vals[j] > vals[j-1]) {
				t.Fatalf("%v: pair %d: λ=%v residual %v, ‖v‖² %v", s, j, vals[j], res, norm)
			}
		}
		got = append(got, vals)
	}
	for j := range got[0] {
		if math.Abs(got[0][j]-got[1][j]) > 1e-9 {
			t.Fatalf("dense %v, lanczos %v", got[0], got[1])
		}
	}
	if _, _, err := TopEigen(make([]float64, 4), 2, 2, 3, Options{}); err == nil {
		t.Fatal("k > n accepted")
	}
}
