package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTile4x8 adds the packed product to a tile that is not zero, for
// lengths around the kernel's loop, against the sum written out.
func TestTile4x8(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 8))
	for _, k := range []int{0, 1, 2, 7, 64, 301} {
		a, b := make([]float64, 4*k), make([]float64, 8*k)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		for i := range b {
			b[i] = r.NormFloat64()
		}
		var tile [32]float64
		for i := range tile {
			tile[i] = float64(i)
		}
		Tile4x8(a, b, k, &tile)
		for p := 0; p < 4; p++ {
			for q := 0; q < 8; q++ {
				want := float64(p*8 + q)
				for i := 0; i < k; i++ {
					want += a[i*4+p] * b[i*8+q]
				}
				if math.Abs(tile[p*8+q]-want) > 1e-12*float64(k+1) {
					t.Fatalf("k=%d (%d,%d): %v, want %v", k, p, q, tile[p*8+q], want)
				}
			}
		}
	}
}
