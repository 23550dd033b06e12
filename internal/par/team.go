package par

import (
	"runtime"
	"sync"
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

// helping counts the helpers of every team in the process: at most one
// fewer than the processors spin at once, so that fits running side by
// side (a model search's) do not each keep every core spinning; a team
// that finds no slot runs its jobs on its caller (Do) or on For's
// goroutines (For).
var helping atomic.Int32

// mostHelpers is how many helpers may spin at once.
func mostHelpers() int32 { return int32(runtime.GOMAXPROCS(0) - 1) }

// takeSlot takes a helper slot, if one is left.
func takeSlot() bool {
	for h := helping.Load(); h < mostHelpers(); h = helping.Load() {
		if helping.CompareAndSwap(h, h+1) {
			return true
		}
	}
	return false
}

// slotsLeft is whether a helper slot is free now.
func slotsLeft() bool { return helping.Load() < mostHelpers() }

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
	for a := t.alive.Load(); a < t.size && takeSlot(); a = t.alive.Load() {
		if t.alive.CompareAndSwap(a, a+1) {
			go t.help(j)
		} else {
			helping.Add(-1)
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
	defer func() { // runTask recovers every panic; this is for Goexit
		t.alive.Add(-1)
		helping.Add(-1)
	}()
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

// For runs body(i) for i in [0, n) as a job of t, for a caller whose
// phases follow each other faster than the system wakes a thread (a
// blocked factorisation: dozens of phases of a millisecond), so that
// For's goroutines, started each phase, would join late. After a body's
// error no index above it starts; For returns the error of the lowest
// index that failed (every index below it ran), or a panic's *PanicError
// naming name. A nil t, or a team that finds every helper slot taken by
// other teams (fits running side by side, each on some of the cores),
// runs the indices on For(name, n, workers, 1, ·), with the same error.
func (t *Team) For(name string, n, workers int, body func(i int) error) error {
	var low lowest
	low.first.Store(int64(n))
	if t == nil || t.size > 0 && t.alive.Load() == 0 && !slotsLeft() {
		err := For(name, n, workers, 1, func(_, i int) error { return low.run(i, body) })
		if _, ok := err.(*PanicError); ok {
			return err
		}
		return low.err
	}
	if err := t.Do(n, func(i int) {
		if int64(i) < low.first.Load() {
			low.run(i, body)
		}
	}); err != nil {
		if p, ok := err.(*PanicError); ok { // named as For's own, not after the team
			return &PanicError{Func: name, Value: p.Value, Stack: p.Stack}
		}
		return err
	}
	return low.err
}

// lowest keeps the error of the lowest index that failed.
type lowest struct {
	first atomic.Int64
	mu    sync.Mutex
	err   error
}

func (l *lowest) run(i int, body func(i int) error) error {
	err := body(i)
	if err != nil {
		l.mu.Lock()
		if int64(i) < l.first.Load() {
			l.first.Store(int64(i))
			l.err = err
		}
		l.mu.Unlock()
	}
	return err
}
