package kpca

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// randomPSD returns an n×n Gram matrix of n random points in dim
// dimensions (rank min(n, dim)), row-major with stride n.
func randomPSD(r *rand.Rand, n, dim int) []float64 { return scaledPSD(r, n, dim, nil) }

// scaledPSD is randomPSD with point i's coordinates times scale(i) (nil:
// 1), drawn in the same order.
func scaledPSD(r *rand.Rand, n, dim int, scale func(i int) float64) []float64 {
	X := make([]float64, n*dim)
	for i := range X {
		X[i] = r.NormFloat64()
		if scale != nil {
			X[i] *= scale(i / dim)
		}
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

// TestPstrfIsDpstrf: the blocked factorisation gives gonum's Dpstrf —
// the unblocked-update code it replaced, bit for bit — rank and pivots
// exactly and the factor to 1e-9 of the largest diagonal, across panel
// heights (full rank and rank-deficient, with and without a tolerance
// that stops it early), and PᵀAP = UᵀU on the factored part.
func TestPstrfIsDpstrf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []struct{ n, dim int }{{1, 1}, {40, 50}, {64, 70}, {65, 70}, {130, 200}, {200, 30}, {300, 400}, {700, 900}}
	for _, nb := range []int{64, 7, 128} {
		for _, c := range cases {
			for _, tol := range []float64{0, 1e-3} {
				if c.dim < c.n && tol == 0 {
					tol = 1e-9 // past the rank the pivots are rounding noise
				}
				a := randomPSD(r, c.n, c.dim)
				orig, b := slices.Clone(a), slices.Clone(a)
				pa, pb := make([]int, c.n), make([]int, c.n)
				ra := withBlock(nb, func() int {
					ra, err := pstrf(a, c.n, c.n, pa, tol, noPoll)
					if err != nil {
						t.Fatal(err)
					}
					return ra
				})
				rb, _ := gonum.Implementation{}.Dpstrf(blas.Upper, c.n, b, c.n, pb, tol, make([]float64, 2*c.n))
				name := fmt.Sprintf("nb=%d n=%d dim=%d tol=%v", nb, c.n, c.dim, tol)
				if ra != rb || !slices.Equal(pa, pb) {
					t.Fatalf("%s: rank %d pivots %v, Dpstrf %d %v", name, ra, pa[:min(8, c.n)], rb, pb[:min(8, c.n)])
				}
				top := slices.Max(diagOf(orig, c.n))
				for i := 0; i < ra; i++ {
					for j := i; j < c.n; j++ {
						if d := math.Abs(a[i*c.n+j] - b[i*c.n+j]); d > 1e-9*top {
							t.Fatalf("%s: U[%d][%d] = %v, Dpstrf %v", name, i, j, a[i*c.n+j], b[i*c.n+j])
						}
					}
				}
				checkReconstruction(t, name, orig, a, pa, c.n, ra, top)
			}
		}
	}
}

// withBlock runs f with the panel height nb.
func withBlock[T any](nb int, f func() T) T {
	defer func(old int) { pstrfBlock = old }(pstrfBlock)
	pstrfBlock = nb
	return f()
}

func diagOf(a []float64, n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = a[i*n+i]
	}
	return d
}

// checkReconstruction: (PᵀAP)[i][j] = Σ_l U[l][i]·U[l][j] over the r
// factored rows, for every pair among the first r pivots, to 1e-9 of the
// largest diagonal (written out, independent of the factorisation's
// order of operations).
func checkReconstruction(t *testing.T, name string, A, U []float64, piv []int, n, r int, top float64) {
	t.Helper()
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			var s float64
			for l := 0; l <= i; l++ {
				s += U[l*n+i] * U[l*n+j]
			}
			if want := A[piv[i]*n+piv[j]]; math.Abs(s-want) > 1e-9*top {
				t.Fatalf("%s: (UᵀU)[%d][%d] = %v, (PᵀAP) %v", name, i, j, s, want)
			}
		}
	}
}

// TestPstrfWorkers: the factor is bit-identical with one worker and with
// several, for matrices big enough that the panel rows and the trailing
// update are split.
func TestPstrfWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct{ n, dim, nb int }{{600, 700, 64}, {1100, 1200, 128}, {900, 300, 64}} {
		A := randomPSD(r, c.n, c.dim)
		var ref []float64
		var refPiv []int
		for _, procs := range []int{1, 2, 5} {
			a, piv := slices.Clone(A), make([]int, c.n)
			old := runtime.GOMAXPROCS(procs)
			_ = withBlock(c.nb, func() int {
				if _, err := pstrf(a, c.n, c.n, piv, 1e-9, noPoll); err != nil {
					t.Fatal(err)
				}
				return 0
			})
			runtime.GOMAXPROCS(old)
			if ref == nil {
				ref, refPiv = a, piv
				continue
			}
			if !slices.Equal(piv, refPiv) {
				t.Fatalf("n=%d: pivots differ with %d workers", c.n, procs)
			}
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("n=%d: entry %d is %v with %d workers, %v with one", c.n, i, a[i], procs, ref[i])
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
