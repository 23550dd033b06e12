package par

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestForEveryIndexOnce: each index runs exactly once, on a worker number
// below Workers, for every worker count and chunk size.
func TestForEveryIndexOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers, chunk int }{
		{0, 4, 1}, {1, 4, 1}, {7, 1, 3}, {100, 2, 1}, {100, 3, 7}, {1000, 8, 64}, {5, 0, 0},
	} {
		counts := make([]atomic.Int32, tc.n)
		w := Workers(tc.workers, tc.n)
		var badWorker atomic.Bool
		err := For("test", tc.n, tc.workers, tc.chunk, func(worker, i int) error {
			if worker < 0 || worker >= w {
				badWorker.Store(true)
			}
			counts[i].Add(1)
			return nil
		})
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if badWorker.Load() {
			t.Errorf("%+v: a worker number outside [0, %d)", tc, w)
		}
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("%+v: index %d ran %d times", tc, i, c)
			}
		}
	}
}

// TestForError: the first failing worker's error comes back and no index
// is started after it, up to the chunks already claimed.
func TestForError(t *testing.T) {
	stop := errors.New("stop")
	for _, workers := range []int{1, 2, 4} {
		var ran atomic.Int32
		err := For("test", 100000, workers, 1, func(_, i int) error {
			ran.Add(1)
			if i == 10 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Errorf("workers=%d: got %v, want stop", workers, err)
		}
		if r := ran.Load(); r > 1000 {
			t.Errorf("workers=%d: %d indices ran after an error at index 10", workers, r)
		}
	}
}

// TestForPanic: a panic in one worker is returned as a *PanicError naming
// the function, with the panic's value, and the process goes on.
func TestForPanic(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		err := For("kernels.Gram", 1000, workers, 3, func(_, i int) error {
			if i == 500 {
				var s []int
				_ = s[i] // index out of range: a runtime error
			}
			return nil
		})
		var pe *PanicError
		if !errors.As(err, &pe) {
			t.Fatalf("workers=%d: got %v (%T), want a *PanicError", workers, err, err)
		}
		if pe.Func != "kernels.Gram" || !strings.HasPrefix(err.Error(), "kernels.Gram: ") ||
			!strings.Contains(err.Error(), "index out of range") {
			t.Errorf("workers=%d: error %q does not name the function and the panic", workers, err)
		}
		if !strings.Contains(string(pe.Stack), "TestForPanic") {
			t.Errorf("workers=%d: the stack does not show the panicking function:\n%s", workers, pe.Stack)
		}
	}
}

// TestGo: Go delivers f's error, or its panic as a *PanicError.
func TestGo(t *testing.T) {
	want := errors.New("done")
	if err := <-Go("test", func() error { return want }); err != want {
		t.Errorf("Go returned %v, want %v", err, want)
	}
	if err := <-Go("test", func() error { return nil }); err != nil {
		t.Errorf("Go returned %v, want nil", err)
	}
	err := <-Go("kpca.syev", func() error { panic(fmt.Sprintf("boom %d", 42)) })
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Func != "kpca.syev" || !strings.Contains(err.Error(), "boom 42") {
		t.Errorf("Go of a panicking f returned %v", err)
	}
}

// TestTeam: every task runs exactly once per job, whether helpers are
// spinning, exiting after TeamIdle, or being started, and Do returns only
// after the last task has finished.
func TestTeam(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		tm := NewTeam("test", workers)
		for rep := 0; rep < 300; rep++ {
			tasks := 1 + rep%13
			counts := make([]atomic.Int32, tasks)
			var finished atomic.Int32
			err := tm.Do(tasks, func(task int) {
				if task%5 == 0 {
					time.Sleep(time.Microsecond) // let a helper claim the rest
				}
				counts[task].Add(1)
				finished.Add(1)
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := finished.Load(); got != int32(tasks) {
				t.Fatalf("workers=%d rep %d: Do returned after %d of %d tasks", workers, rep, got, tasks)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("workers=%d rep %d: task %d ran %d times", workers, rep, i, c)
				}
			}
			if rep%100 == 99 {
				time.Sleep(2 * TeamIdle) // helpers exit; the next job starts new ones
			}
		}
	}
}

// TestTeamPanic: a panic in any task, whichever goroutine runs it, comes
// back from Do as a *PanicError naming the team, every task that started
// has finished by then, and the team keeps working afterwards.
func TestTeamPanic(t *testing.T) {
	tm := NewTeam("kpca.upperOp", 3)
	for rep := 0; rep < 200; rep++ {
		bad := rep % 8
		var running atomic.Int32
		err := tm.Do(8, func(task int) {
			running.Add(1)
			defer running.Add(-1)
			if task == bad {
				panic("injected")
			}
			time.Sleep(time.Microsecond)
		})
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Func != "kpca.upperOp" || !strings.Contains(err.Error(), "injected") {
			t.Fatalf("rep %d: Do returned %v, want the injected panic", rep, err)
		}
		if r := running.Load(); r != 0 {
			t.Fatalf("rep %d: Do returned with %d tasks still running", rep, r)
		}
		var ok atomic.Int32
		if err := tm.Do(8, func(int) { ok.Add(1) }); err != nil || ok.Load() != 8 {
			t.Fatalf("rep %d: the next job got %v after %d of 8 tasks", rep, err, ok.Load())
		}
	}
}

// TestTeamIdle: helpers stop spinning soon after the last job. TeamIdle
// is the promise (at most 1 ms); the wait allowed here is far longer,
// because a shared machine may not schedule the helper for a while.
func TestTeamIdle(t *testing.T) {
	if TeamIdle > time.Millisecond {
		t.Fatalf("TeamIdle is %v; helpers must stop spinning within 1 ms", TeamIdle)
	}
	tm := NewTeam("test", 3)
	if err := tm.Do(16, func(int) { time.Sleep(10 * time.Microsecond) }); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for tm.Alive() > 0 {
		if time.Since(start) > 2*time.Second {
			t.Fatalf("%d helpers still spinning 2 s after the last job", tm.Alive())
		}
		time.Sleep(50 * time.Microsecond)
	}
	t.Logf("helpers gone %v after the last job", time.Since(start))
}

// A Future's result and error come back from Wait, again on a second call;
// a panic comes back as a *PanicError naming the future.
func TestFuture(t *testing.T) {
	fu := Start("sum", func() (int, error) { return 42, errors.New("late") })
	for range 2 {
		if v, err := fu.Wait(); v != 42 || err == nil || err.Error() != "late" {
			t.Fatalf("Wait() = %d, %v", v, err)
		}
	}
	bad := Start("boom", func() (int, error) { panic("no") })
	var pe *PanicError
	if _, err := bad.Wait(); !errors.As(err, &pe) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("a panicking future: %v", err)
	}
}

// TestTeamFor: every index once; with errors, the lowest failing index's
// error (tasks are claimed in order, so every index below it ran); a
// panic as a *PanicError; a nil team runs For.
func TestTeamFor(t *testing.T) {
	for _, tm := range []*Team{nil, NewTeam("test", 1), NewTeam("test", 3)} {
		for rep := 0; rep < 200; rep++ {
			n := 1 + rep%17
			counts := make([]atomic.Int32, n)
			if err := tm.For("test", n, 3, func(i int) error { counts[i].Add(1); return nil }); err != nil {
				t.Fatal(err)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("team %v rep %d: index %d ran %d times", tm != nil, rep, i, c)
				}
			}
			bad := rep % n
			err := tm.For("test", n, 3, func(i int) error {
				if i >= bad && i%2 == bad%2 {
					return fmt.Errorf("index %d", i)
				}
				return nil
			})
			if want := fmt.Sprintf("index %d", bad); err == nil || err.Error() != want {
				t.Fatalf("team %v rep %d: error %v, want %s", tm != nil, rep, err, want)
			}
		}
		err := tm.For("test", 5, 3, func(i int) error {
			if i == 3 {
				panic("boom")
			}
			return nil
		})
		var pe *PanicError
		if !errors.As(err, &pe) {
			t.Fatalf("team %v: a panic came back as %v", tm != nil, err)
		}
	}
}

// TestTeamSlots: the teams of a process share GOMAXPROCS − 1 helpers;
// while one team's helpers are busy, another team's Do runs on its caller
// and its For on For's goroutines, every index once either way.
func TestTeamSlots(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	for start := time.Now(); helping.Load() > 0; time.Sleep(50 * time.Microsecond) { // earlier tests' helpers leave
		if time.Since(start) > 2*time.Second {
			t.Fatalf("%d helpers still spinning", helping.Load())
		}
	}
	busy := NewTeam("busy", 3)
	release, done := make(chan struct{}), make(chan error)
	var started atomic.Int32
	go func() {
		done <- busy.Do(3, func(int) { started.Add(1); <-release })
	}()
	for start := time.Now(); started.Load() < 3; time.Sleep(10 * time.Microsecond) { // both helpers and the caller hold a task
		if time.Since(start) > 2*time.Second {
			close(release)
			<-done
			t.Fatalf("%d of 3 tasks started, %d helpers", started.Load(), busy.Alive())
		}
	}
	other := NewTeam("other", 3)
	var ran atomic.Int32
	if err := other.Do(8, func(int) { ran.Add(1) }); err != nil || ran.Load() != 8 || other.Alive() != 0 {
		t.Errorf("Do beside a busy team: %v, %d tasks, %d helpers (want nil, 8, 0)", err, ran.Load(), other.Alive())
	}
	counts := make([]atomic.Int32, 20)
	if err := other.For("other", 20, 0, func(i int) error { counts[i].Add(1); return nil }); err != nil {
		t.Error(err)
	}
	for i := range counts {
		if c := counts[i].Load(); c != 1 {
			t.Errorf("For beside a busy team: index %d ran %d times", i, c)
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
