// Package par runs every parallel loop of ksql's internal packages: Gram
// rows, cross-Gram rows, Nyström rows, the matrix products of the Lanczos
// solver, and background work such as a LAPACK call that cannot be
// interrupted. It owns every goroutine those packages start, so that a
// panic in any of them becomes an error returned to the caller (a
// *PanicError naming the function) instead of killing the host process.
//
// Loops hand out indices dynamically, so which worker computes an index
// depends on timing; callers keep results bit-identical for every worker
// count by making each index's computation independent of the worker and
// of what that worker computed before (per-worker scratch space only).
package par

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// PanicError is a panic in a worker, recovered and returned to the caller
// of the loop that started it.
type PanicError struct {
	// Func names the parallel function whose worker panicked, e.g.
	// "kernels.Gram".
	Func string
	// Value is what the worker panicked with.
	Value any
	// Stack is the worker's stack when it panicked, for a bug report.
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%s: internal error: a worker panicked: %v", e.Func, e.Value)
}

// Unwrap returns the panic value when it is an error (a runtime error such
// as an index out of range), so errors.As can find it.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// recovered turns a recovered panic value into a *PanicError; nil stays nil.
func recovered(name string, r any) error {
	if r == nil {
		return nil
	}
	return &PanicError{Func: name, Value: r, Stack: debug.Stack()}
}

// Workers returns how many workers For uses for n indices when asked for
// want: want, or runtime.GOMAXPROCS(0) when want ≤ 0, and never more than
// n (but at least 1).
func Workers(want, n int) int {
	if want <= 0 {
		want = runtime.GOMAXPROCS(0)
	}
	return max(1, min(want, n))
}

// For runs body(w, i) for every i in [0, n) on Workers(workers, n)
// goroutines, w being the worker's number in [0, Workers(workers, n)), so
// that a caller can give each worker its own scratch space. Indices are
// handed out chunk at a time (chunk ≤ 0 counts as 1), in increasing order.
// After the first error no new index is started; For returns, once every
// worker has stopped, the error of the lowest-numbered worker that failed.
// A panic in body is recovered as a *PanicError naming name. With one
// worker, body runs on the calling goroutine.
func For(name string, n, workers, chunk int, body func(w, i int) error) error {
	if n <= 0 {
		return nil
	}
	chunk = max(1, chunk)
	w := Workers(workers, n)
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, w)
	work := func(t int) {
		defer func() {
			if err := recovered(name, recover()); err != nil {
				errs[t] = err
				failed.Store(true)
			}
		}()
		for !failed.Load() {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			for i := lo; i < min(lo+chunk, n); i++ {
				if err := body(t, i); err != nil {
					errs[t] = err
					failed.Store(true)
					return
				}
			}
		}
	}
	if w == 1 {
		work(0)
	} else {
		var wg sync.WaitGroup
		for t := range w {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work(t)
			}()
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Go runs f on a new goroutine and returns a channel that receives its
// error (a panic in f recovered as a *PanicError naming name) and is then
// closed. The channel is buffered: a caller that stops waiting (after an
// interrupt) leaks nothing but the goroutine's remaining work.
func Go(name string, f func() error) <-chan error {
	done := make(chan error, 1)
	go func() {
		defer close(done)
		var err error
		defer func() {
			if p := recovered(name, recover()); p != nil {
				err = p
			}
			done <- err
		}()
		err = f()
	}()
	return done
}

// Future is a result computed on a goroutine of its own while its caller
// goes on (Start), waited for when needed (Wait).
type Future[T any] struct {
	done <-chan error
	val  T
	err  error
}

// Start runs f on a new goroutine (through Go: a panic is a *PanicError
// naming name).
func Start[T any](name string, f func() (T, error)) *Future[T] {
	fu := &Future[T]{}
	fu.done = Go(name, func() (err error) {
		fu.val, err = f()
		return err
	})
	return fu
}

// Wait returns f's result once it has finished; calling it again returns
// the same.
func (fu *Future[T]) Wait() (T, error) {
	if fu.done != nil {
		fu.err, fu.done = <-fu.done, nil
	}
	return fu.val, fu.err
}
