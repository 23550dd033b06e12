package par

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Team runs a job's tasks on the calling goroutine and on helper
// goroutines that stay awake between jobs: the Lanczos solver's matrix
// products. A product takes a few hundred microseconds, about as long as
// the operating system takes to wake a parked thread on a virtual machine
// (measured: 0.1 to 1 ms), so a goroutine started per product would join
// too late to help. Helpers spin on the current job, yielding the
// processor to any other goroutine that wants it, and exit after TeamIdle
// without one; they never park, so a team needs no closing and leaks
// nothing.
//
// Tasks are claimed one at a time, and the caller waits only for tasks
// that a helper has claimed: a helper that is slow to start (or not
// started, on a busy machine) leaves its share to the caller. Which
// goroutine runs a task never changes what the task computes. A panic in
// a task, on a helper or on the caller, is recovered: the job's other
// claimed tasks finish, unclaimed ones are skipped, and Do returns a
// *PanicError.
type Team struct {
	name  string
	size  int32 // helpers wanted
	alive atomic.Int32
	cur   atomic.Pointer[job]
}

// TeamIdle is how long a helper spins without a job before it exits.
const TeamIdle = 500 * time.Microsecond

type job struct {
	name  string
	run   func(task int)
	tasks int32
	next  atomic.Int32
	done  atomic.Int32
	err   atomic.Pointer[PanicError]
}

// NewTeam returns a team of workers goroutines (the caller and
// workers − 1 helpers, started by the first job); name names the function
// in a *PanicError.
func NewTeam(name string, workers int) *Team {
	return &Team{name: name, size: int32(max(0, workers-1))}
}

// Alive reports how many helpers are running (spinning or working).
func (t *Team) Alive() int { return int(t.alive.Load()) }

// Do runs run(task) for task in [0, tasks) and returns when every started
// task has finished: nil, or the first panic of a task as a *PanicError.
func (t *Team) Do(tasks int, run func(task int)) error {
	j := &job{name: t.name, run: run, tasks: int32(tasks)}
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
	if p := j.err.Load(); p != nil {
		return p
	}
	return nil
}

func (j *job) work() {
	for task := j.next.Add(1) - 1; task < j.tasks; task = j.next.Add(1) - 1 {
		if j.err.Load() == nil {
			j.runTask(int(task))
		}
		j.done.Add(1)
	}
}

func (j *job) runTask(task int) {
	defer func() {
		if err := recovered(j.name, recover()); err != nil {
			j.err.CompareAndSwap(nil, err.(*PanicError))
		}
	}()
	j.run(task)
}

func (t *Team) help(j *job) {
	defer t.alive.Add(-1) // runTask recovers every panic; this is for Goexit
	for {
		j.work()
		deadline := time.Now().Add(TeamIdle)
		for spins := 1; ; spins++ {
			if next := t.cur.Load(); next != j {
				j = next
				break
			}
			if spins%256 == 0 {
				// Yield to goroutines waiting for this processor (a
				// spinning goroutine is otherwise preempted only after
				// 10 ms), and give up after TeamIdle. A job stored after
				// the last look finds one helper fewer and runs without
				// it; nothing waits for us.
				runtime.Gosched()
				if time.Now().After(deadline) {
					return
				}
			}
		}
	}
}
