package fda

import (
	"fmt"
	"syscall"
	"testing"
)

func cpuSeconds() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkFitCores: the fit (KKᵀ, the blocked Cholesky, the rank-limited
// eigenproblem, the projections) at n = 1,000 and 4,000, 3 classes,
// reg = 1e-3; cpu/wall is CPU time over wall time. The anchor is
// scipy.linalg.eigh(M, N + reg·I) (testdata/bench_eigh.py).
func BenchmarkFitCores(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		K, y := classData(n, 3, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cpu0 := cpuSeconds()
			for b.Loop() {
				if _, err := FitPolled(K, y, 3, 2, 1e-3, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)/b.Elapsed().Seconds(), "cpu/wall")
		})
	}
}
