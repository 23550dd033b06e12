package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReviewCrossBasisReusedWork: one CrossWork reused over blocks of
// changing sizes (tiled and not, partial tiles) gives Gauss pair by pair.
func TestReviewCrossBasisReusedWork(t *testing.T) {
	spec, err := Parse("gauss(sigma=0.9)")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 3, 17} {
		vec := func() Object {
			x := make([]float64, d)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			return spec.PrepareVec(Vec{F64: x})
		}
		for _, m := range []int{1, 7, 8, 9, 30} {
			basis := make([]Object, m)
			for j := range basis {
				basis[j] = vec()
			}
			bs := spec.NewBasis(basis)
			var w CrossWork
			for _, n := range []int{1024, 5, 9, 1024, 3, 300, 8, 4, 13} {
				a := make([]Object, n)
				for i := range a {
					a[i] = vec()
				}
				a[0] = basis[m-1]
				dst := make([]float64, n*m)
				if err := spec.CrossBasis(a, bs, dst, GramOptions{Workers: 1}, &w); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					for j := range m {
						if want := Gauss(a[i].Vec, basis[j].Vec, 0.9); math.Abs(dst[i*m+j]-want) > 1e-13 {
							t.Fatalf("d=%d m=%d n=%d (%d,%d): %v want %v", d, m, n, i, j, dst[i*m+j], want)
						}
					}
				}
			}
		}
	}
}
