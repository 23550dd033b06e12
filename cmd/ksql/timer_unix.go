//go:build unix

package main

import (
	"fmt"
	"syscall"
	"time"
)

// cpuTimes returns the user and system CPU time used so far.
func cpuTimes() [2]time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return [2]time.Duration{}
	}
	return [2]time.Duration{time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())}
}

// printTimer prints the time a statement took, in sqlite3's format.
func (s *Shell) printTimer(t0 time.Time, ru0 [2]time.Duration) {
	ru := cpuTimes()
	fmt.Fprintf(s.con, "Run Time: real %.3f user %.6f sys %.6f\n",
		time.Since(t0).Seconds(), (ru[0] - ru0[0]).Seconds(), (ru[1] - ru0[1]).Seconds())
}
