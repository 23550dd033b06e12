package cluster

import (
	"math"
	"testing"

	"github.com/ksql/ksql/internal/rng"
)

// ringsGram is the gauss Gram matrix of n points on two noisy concentric
// rings (radii 0.3 and 1), the data kernel k-means is for.
func ringsGram(n int, sigma float64) []float64 {
	X := make([]float64, 2*n)
	r := rng.New(1)
	for i := 0; i < n; i++ {
		rad := 0.3 + 0.7*float64(i%2) + 0.05*(uniform(r)-0.5)
		th := 2 * math.Pi * uniform(r)
		X[2*i], X[2*i+1] = rad*math.Cos(th), rad*math.Sin(th)
	}
	return gaussGram(X, n, 2, sigma)
}

// BenchmarkKernelKMeans2000: 2,000 objects, k = 2, ten restarts, on a
// Gram matrix already computed.
func BenchmarkKernelKMeans2000(b *testing.B) {
	n := 2000
	K := ringsGram(n, 0.3)
	b.ResetTimer()
	for range b.N {
		if _, err := KernelKMeans(K, n, opts(2)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpectral2000: the same data, k = 2 (Lanczos, then k-means on
// the embedding); the affinity is copied in each iteration, as Spectral
// overwrites it.
func BenchmarkSpectral2000(b *testing.B) {
	n := 2000
	K := ringsGram(n, 0.1)
	A := make([]float64, len(K))
	b.ResetTimer()
	for range b.N {
		copy(A, K)
		if _, err := Spectral(A, n, opts(2)); err != nil {
			b.Fatal(err)
		}
	}
}
