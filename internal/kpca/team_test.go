package kpca

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTeam: every task runs exactly once per job, whether helpers are
// spinning, exiting after teamIdle, or being started, and do returns only
// after the last task has finished.
func TestTeam(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		tm := newTeam(workers)
		for rep := 0; rep < 300; rep++ {
			tasks := 1 + rep%13
			counts := make([]atomic.Int32, tasks)
			var finished atomic.Int32
			tm.do(tasks, func(task int) {
				if task%5 == 0 {
					time.Sleep(time.Microsecond) // let a helper claim the rest
				}
				counts[task].Add(1)
				finished.Add(1)
			})
			if got := finished.Load(); got != int32(tasks) {
				t.Fatalf("workers=%d rep %d: do returned after %d of %d tasks", workers, rep, got, tasks)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("workers=%d rep %d: task %d ran %d times", workers, rep, i, c)
				}
			}
			if rep%100 == 99 {
				time.Sleep(2 * teamIdle) // helpers exit; the next job starts new ones
			}
		}
	}
}
