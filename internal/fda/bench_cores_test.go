package fda

import (
	"fmt"
	"github.com/ksql/ksql/internal/cputime"
	"testing"
)

// BenchmarkFitCores: the fit (KKᵀ, the blocked Cholesky, the rank-limited
// eigenproblem, the projections) at n = 1,000 and 4,000, 3 classes,
// reg = 1e-3; cpu/wall is CPU time over wall time. The anchor is
// scipy.linalg.eigh(M, N + reg·I) (testdata/bench_eigh.py).
func BenchmarkFitCores(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		K, y := classData(n, 3, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cpu0 := cputime.Process().Seconds()
			for b.Loop() {
				if _, err := FitPolled(K, y, 3, 2, 1e-3, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process().Seconds()-cpu0)/b.Elapsed().Seconds(), "cpu/wall")
		})
	}
}
