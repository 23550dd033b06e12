package fda

import (
	"fmt"
	"testing"
)

// BenchmarkFit times the fit against the full-eigendecomposition
// formulation it replaced (referenceFit), on 3 classes.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{600, 1200} {
		K, y := classData(n, 3, 1)
		b.Run(fmt.Sprintf("rank/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := FitPolled(K, y, 3, 2, 1e-3, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("full/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				referenceFit(K, y, 3, 2, 1e-3)
			}
		})
	}
}
