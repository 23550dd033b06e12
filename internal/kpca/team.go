package kpca

import (
	"runtime"
	"sync/atomic"
	"time"
)

// team runs a job's tasks on the calling goroutine and on helper
// goroutines that stay awake between jobs. A Lanczos product takes a few
// hundred microseconds, about as long as the operating system takes to
// wake a parked thread on a virtual machine (measured: 0.1 to 1 ms), so a
// goroutine started per product would join too late to help. Helpers spin
// on the current job, yielding the processor to any other goroutine that
// wants it, and exit after teamIdle without one; they never park, so a
// team needs no closing and leaks nothing.
//
// Tasks are claimed one at a time, and the caller waits only for tasks
// that a helper has claimed: a helper that is slow to start (or not
// started, on a busy machine) leaves its share to the caller. Which
// goroutine runs a task never changes what the task computes.
type team struct {
	size  int32 // helpers wanted
	alive atomic.Int32
	cur   atomic.Pointer[job]
}

// teamIdle is how long a helper waits for the next job before exiting.
const teamIdle = 500 * time.Microsecond

type job struct {
	run   func(task int)
	tasks int32
	next  atomic.Int32
	done  atomic.Int32
}

func newTeam(workers int) *team { return &team{size: int32(max(0, workers-1))} }

// do runs run(task) for task in [0, tasks) and returns when all are done.
func (t *team) do(tasks int, run func(task int)) {
	j := &job{run: run, tasks: int32(tasks)}
	t.cur.Store(j)
	for a := t.alive.Load(); a < t.size; a = t.alive.Load() {
		if t.alive.CompareAndSwap(a, a+1) {
			go t.help(j)
		}
	}
	j.work()
	for spins := 1; j.done.Load() < j.tasks; spins++ {
		if spins%64 == 0 {
			runtime.Gosched() // the helper may have been descheduled mid-task
		}
	}
}

func (j *job) work() {
	for task := j.next.Add(1) - 1; task < j.tasks; task = j.next.Add(1) - 1 {
		j.run(int(task))
		j.done.Add(1)
	}
}

func (t *team) help(j *job) {
	for {
		j.work()
		deadline := time.Now().Add(teamIdle)
		for spins := 1; ; spins++ {
			if next := t.cur.Load(); next != j {
				j = next
				break
			}
			if spins%256 == 0 {
				// Yield to goroutines waiting for this processor (a
				// spinning goroutine is otherwise preempted only after
				// 10 ms), and give up after teamIdle. A job stored after
				// the last look finds one helper fewer and runs without
				// it; nothing waits for us.
				runtime.Gosched()
				if time.Now().After(deadline) {
					t.alive.Add(-1)
					return
				}
			}
		}
	}
}
