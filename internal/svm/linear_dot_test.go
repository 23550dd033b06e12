package svm

import (
	"math"
	"testing"

	"github.com/ksql/ksql/internal/rng"
)

// TestDotF32SameBits: the assembly and Go loops give the same bits for
// every length (whole blocks of sixteen, of four, and a tail), and both
// are the inner product to float64 rounding; axpy likewise.
func TestDotF32SameBits(t *testing.T) {
	g := rng.New(5)
	for n := 0; n <= 70; n++ {
		w, x := make([]float64, n), make([]float32, n)
		var exact float64 // compensated, as a reference
		var comp float64
		for j := range x {
			w[j] = unit(g)*4 - 2
			x[j] = float32(unit(g)*200 - 100)
			y := w[j]*float64(x[j]) - comp
			t := exact + y
			comp = (t - exact) - y
			exact = t
		}
		saved := useAVX2
		useAVX2 = false
		goDot := dotF32(w, x)
		wGo := append([]float64(nil), w...)
		axpyF32(-0.37, x, wGo)
		useAVX2 = saved
		asmDot := dotF32(w, x)
		wAsm := append([]float64(nil), w...)
		axpyF32(-0.37, x, wAsm)
		if math.Float64bits(goDot) != math.Float64bits(asmDot) {
			t.Fatalf("n=%d: Go %v, assembly %v", n, goDot, asmDot)
		}
		if math.Abs(goDot-exact) > 1e-12*(1+math.Abs(exact))*float64(n+1) {
			t.Errorf("n=%d: %v, exact %v", n, goDot, exact)
		}
		for j := range w {
			want := w[j] + -0.37*float64(x[j])
			if math.Float64bits(wGo[j]) != math.Float64bits(want) || math.Float64bits(wAsm[j]) != math.Float64bits(want) {
				t.Fatalf("n=%d: axpy element %d: Go %v, assembly %v, want %v", n, j, wGo[j], wAsm[j], want)
			}
		}
	}
}

func unit(g *rng.SplitMix64) float64 { return float64(g.Next()>>11) / (1 << 53) }
