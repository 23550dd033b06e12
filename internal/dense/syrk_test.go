package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSyrkSub: C −= PᵀP on the upper triangle of a strided C, against the
// sum written out; the strict lower triangle and the padding past m are
// untouched.
func TestSyrkSub(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ k, m, ldp, ldc int }{{0, 5, 5, 5}, {1, 1, 1, 1}, {3, 13, 17, 15}, {64, 70, 80, 71}, {128, 301, 301, 310}} {
		P, C := make([]float64, c.k*c.ldp), make([]float64, c.m*c.ldc)
		for i := range P {
			P[i] = r.NormFloat64()
		}
		for i := range C {
			C[i] = r.NormFloat64()
		}
		orig := append([]float64(nil), C...)
		var w CholWork
		if err := w.SyrkSub(P, c.k, c.m, c.ldp, C, c.ldc, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.ldc; j++ {
				want := orig[i*c.ldc+j]
				if j >= i && j < c.m {
					for l := 0; l < c.k; l++ {
						want -= P[l*c.ldp+i] * P[l*c.ldp+j]
					}
				}
				if got := C[i*c.ldc+j]; math.Abs(got-want) > 1e-12*float64(c.k+1) {
					t.Fatalf("%+v: C[%d][%d] = %v, want %v", c, i, j, got, want)
				}
			}
		}
	}
}
