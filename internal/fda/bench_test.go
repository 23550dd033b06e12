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

// BenchmarkCrossPredict times 5-fold cross-validation against one fit of
// all the rows: five fits on 4/5 of them, about 5·(4/5)³ ≈ 2.6 fits.
func BenchmarkCrossPredict(b *testing.B) {
	const n = 1000
	K, y := classData(n, 3, 1)
	fold := make([]int, n)
	for i := range fold {
		fold[i] = (i / 3) % 5 // classData deals the classes in turn: every fold keeps every class
	}
	b.Run("fit", func(b *testing.B) {
		for b.Loop() {
			if _, err := FitPolled(K, y, 3, 2, 1e-3, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("folds=5", func(b *testing.B) {
		for b.Loop() {
			if _, err := CrossPredict(K, y, 3, 2, 1e-3, fold, 5, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
