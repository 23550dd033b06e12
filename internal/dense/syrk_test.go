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

// TestSubScaledIsTheLoop: the AVX2 row update gives the written-out
// loop's bits for lengths around its step of eight, for f = 0 and signed
// zeros too.
func TestSubScaledIsTheLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{0, 1, 7, 8, 9, 16, 31, 256, 257} {
		for _, f := range []float64{0, -0.0, 1.5, r.NormFloat64()} {
			dst, src := make([]float64, n), make([]float64, n+3)
			for i := range dst {
				dst[i] = r.NormFloat64()
				if i%5 == 0 {
					dst[i] = math.Copysign(0, -1)
				}
			}
			for i := range src {
				src[i] = r.NormFloat64()
			}
			want := append([]float64(nil), dst...)
			for c := range want {
				want[c] -= f * src[c]
			}
			subScaled(dst, f, src)
			for c := range dst {
				if math.Float64bits(dst[c]) != math.Float64bits(want[c]) {
					t.Fatalf("n=%d f=%v: entry %d is %v, loop %v", n, f, c, dst[c], want[c])
				}
			}
		}
	}
}
