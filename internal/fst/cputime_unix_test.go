//go:build unix

package fst

import "syscall"

// cpuNanos returns the CPU time (user+system) this process has used. The
// benchmarks report it beside wall time because the machine they run on is
// shared: wall time per op then includes time spent waiting for a core.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
