package tsne

import (
	"github.com/ksql/ksql/internal/cputime"
	"math"
	"testing"

	"github.com/ksql/ksql/internal/par"
)

// tripled is the digits three times over, copy c shifted by 0.01·c in
// every pixel: 5,391 objects with near-duplicates.
func tripled(b testing.TB) [][]float64 {
	X := digits(b)
	T := make([][]float64, 3*len(X))
	for i := range T {
		src, c := X[i%len(X)], float64(i/len(X))
		T[i] = make([]float64, len(src))
		for j, v := range src {
			T[i][j] = v + 0.01*c
		}
	}
	return T
}

// gaussMatrix is gaussRows' n×n matrix, computed once (on every core) so
// that a benchmark times the fit and not the distances, as the anchor's
// precomputed matrix does.
func gaussMatrix(b testing.TB, X [][]float64, sigma float64) []float64 {
	n := len(X)
	D := make([]float64, n*n)
	rows := gaussRows(X, sigma)
	if err := par.For("bench", n, 0, 16, func(_, i int) error { return rows(i, D[i*n:(i+1)*n]) }); err != nil {
		b.Fatal(err)
	}
	return D
}

// BenchmarkTripled5391BarnesHut: Barnes–Hut t-SNE of the digits three
// times over (tripled), gauss σ = 30 distances precomputed, perplexity
// 30, 1,000 iterations; cpu/wall is CPU time over wall time. The anchor is
// scikit-learn's TSNE(method='barnes_hut', metric='precomputed') on the
// same matrix (testdata/bench_tsne5391.py).
func BenchmarkTripled5391BarnesHut(b *testing.B) {
	X := tripled(b)
	n := len(X)
	D := gaussMatrix(b, X, 30)
	rows := func(i int, dst []float64) error { copy(dst, D[i*n:(i+1)*n]); return nil }
	var kl float64
	cpu0 := cputime.Process().Seconds()
	for b.Loop() {
		e, err := Fit(n, rows, Options{Dims: 2, Perplexity: 30, Iterations: 1000, Method: BarnesHut})
		if err != nil {
			b.Fatal(err)
		}
		kl = e.KL
	}
	b.ReportMetric(kl, "KL")
	b.ReportMetric((cputime.Process().Seconds()-cpu0)/b.Elapsed().Seconds(), "cpu/wall")
	if math.IsNaN(kl) {
		b.Fatal("NaN KL")
	}
}
