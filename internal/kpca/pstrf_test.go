package kpca

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// randomPSD returns an n×n Gram matrix of n random points in dim
// dimensions (rank min(n, dim)), row-major with stride n.
func randomPSD(r *rand.Rand, n, dim int) []float64 {
	X := make([]float64, n*dim)
	for i := range X {
		X[i] = r.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			var s float64
			for k := range dim {
				s += X[i*dim+k] * X[j*dim+k]
			}
			a[i*n+j] = s
		}
	}
	return a
}

// TestPstrfIsDpstrf: the interruptible factorisation gives gonum's Dpstrf
// bits — rank, pivots and factor — across the block size (full rank and
// rank-deficient, with and without a tolerance that stops it early).
func TestPstrfIsDpstrf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, dim int }{{1, 1}, {40, 50}, {64, 70}, {65, 70}, {130, 200}, {200, 30}, {300, 300}} {
		for _, tol := range []float64{0, 1e-3} {
			a := randomPSD(r, c.n, c.dim)
			b := slices.Clone(a)
			pa, pb := make([]int, c.n), make([]int, c.n)
			ra, err := pstrf(a, c.n, c.n, pa, tol, noPoll)
			if err != nil {
				t.Fatal(err)
			}
			rb, _ := gonum.Implementation{}.Dpstrf(blas.Upper, c.n, b, c.n, pb, tol, make([]float64, 2*c.n))
			if ra != rb || !slices.Equal(pa, pb) {
				t.Fatalf("n=%d dim=%d tol=%v: rank %d pivots %v, Dpstrf %d %v", c.n, c.dim, tol, ra, pa[:min(8, c.n)], rb, pb[:min(8, c.n)])
			}
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("n=%d dim=%d tol=%v: entry %d is %v, Dpstrf %v", c.n, c.dim, tol, i, a[i], b[i])
				}
			}
		}
	}
}

// TestPstrfInterrupted: an error from poll stops the factorisation at the
// next block and is returned.
func TestPstrfInterrupted(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 300
	a := randomPSD(r, n, n)
	stop := errors.New("stop")
	calls := 0
	_, err := pstrf(a, n, n, make([]int, n), 0, func() error {
		if calls++; calls == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 2 {
		t.Fatalf("err %v after %d polls, want stop after 2", err, calls)
	}
}
