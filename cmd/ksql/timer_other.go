//go:build !unix

package main

import (
	"fmt"
	"time"
)

func cpuTimes() [2]time.Duration { return [2]time.Duration{} }

// printTimer prints the wall-clock time a statement took.
func (s *Shell) printTimer(t0 time.Time, _ [2]time.Duration) {
	fmt.Fprintf(s.con, "Run Time: real %.3f\n", time.Since(t0).Seconds())
}
