package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCrossProduct compares the blocked CᵀC with plain sums, on sizes that
// are not multiples of the block, panel or tile, with and without the
// assembly tile.
func TestCrossProduct(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][2]int{{1, 1}, {3, 5}, {300, 37}, {513, 64}, {40, 129}} {
		n, m := sz[0], sz[1]
		C := make([]float64, n*m)
		for i := range C {
			C[i] = r.NormFloat64()
		}
		for _, avx := range []bool{useAVX2, false} {
			saved := useAVX2
			useAVX2 = avx
			G := make([]float64, m*m)
			err := CrossProduct(C, n, m, G, nil)
			useAVX2 = saved
			if err != nil {
				t.Fatal(err)
			}
			for p := 0; p < m; p++ {
				for q := p; q < m; q++ {
					var want, mag float64
					for i := 0; i < n; i++ {
						want += C[i*m+p] * C[i*m+q]
						mag += math.Abs(C[i*m+p] * C[i*m+q])
					}
					if math.Abs(G[p*m+q]-want) > 1e-13*mag {
						t.Fatalf("n=%d m=%d avx=%v: G[%d][%d] = %v, want %v", n, m, avx, p, q, G[p*m+q], want)
					}
				}
			}
		}
	}
}
