package kpca

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestReviewPstrfNaNAtChunkStart: a NaN on the remaining diagonal is never
// a pivot unless it is the first candidate (LAPACK's scan: a NaN compares
// false). When a row is long enough to be split into column chunks, a NaN
// that happens to start a chunk other than the first must not hide the
// larger entries after it in that chunk: the pivots stay Dpstrf's.
func TestReviewPstrfNaNAtChunkStart(t *testing.T) {
	const n, dim, nan = 1200, 1300, 600
	for _, nb := range []int{128, 64} {
		r := rand.New(rand.NewPCG(11, 12))
		a := scaledPSD(r, n, dim, func(i int) float64 {
			if i > nan { // the largest diagonals lie after the NaN
				return 3
			}
			return 1
		})
		a[nan*n+nan] = math.NaN()
		b := slices.Clone(a)
		pa, pb := make([]int, n), make([]int, n)
		ra := withBlock(nb, func() int {
			ra, err := pstrf(a, n, n, pa, 1e-9, noPoll)
			if err != nil {
				t.Fatal(err)
			}
			return ra
		})
		rb, _ := gonum.Implementation{}.Dpstrf(blas.Upper, n, b, n, pb, 1e-9, make([]float64, 2*n))
		name := fmt.Sprintf("nb=%d", nb)
		if ra != rb {
			t.Errorf("%s: rank %d, Dpstrf %d", name, ra, rb)
		}
		for i := range min(ra, rb) {
			if pa[i] != pb[i] {
				t.Fatalf("%s: pivot %d is %d, Dpstrf's %d", name, i, pa[i], pb[i])
			}
		}
	}
}
