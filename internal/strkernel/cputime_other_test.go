//go:build !unix

package strkernel

// cpuNanos is not measured on this system; benchmarks then report 0.
func cpuNanos() int64 { return 0 }
