package svm

import (
	"errors"
	"math"
	"reflect"
	"sync/atomic"
	"testing"
)

// workerProblem is randomProblem with a third class (about a third of the
// rows, by the sign of x₁ − 0.43), so that every pair of classes has more
// than minSplit rows; target is a smooth function of x for regression.
func workerProblem(n int) (x [][]float64, y []int, target []float64) {
	x, y = randomProblem(21, n, 3)
	target = make([]float64, n)
	for i, r := range x {
		if r[1] > 0.43 {
			y[i] = 2
		}
		target[i] = math.Sin(r[0]) + 0.5*r[2]
	}
	return x, y, target
}

// workerFits are the fits whose columns the workers share: one-vs-one
// pairs (side by side, and each column shared when there are fewer pairs
// than workers) and the single problems. fit sets opt's type and
// parameters.
var workerFits = []struct {
	name, fn string // fn: the function named by a *PanicError
	fit      func(k Kernel, y []int, target []float64, opt Options) (*Model, error)
}{
	{"csvc3", "svm.Fit", func(k Kernel, y []int, _ []float64, o Options) (*Model, error) {
		o.C, o.Tol = 1, 1e-3
		return Fit(k, y, o)
	}},
	{"nusvc3", "svm.Fit", func(k Kernel, y []int, _ []float64, o Options) (*Model, error) {
		o.Type, o.Nu, o.Tol = NuSVC, 0.3, 1e-3
		return Fit(k, y, o)
	}},
	{"one_class", "svm.FitOneClass", func(k Kernel, y []int, _ []float64, o Options) (*Model, error) {
		o.Type, o.Nu, o.Tol = OneClass, 0.2, 1e-3
		return FitOneClass(k, len(y), o)
	}},
	{"eps_svr", "svm.FitRegression", func(k Kernel, _ []int, t []float64, o Options) (*Model, error) {
		o.Type, o.C, o.Epsilon, o.Tol = EpsilonSVR, 1, 0.1, 1e-3
		return FitRegression(k, t, o)
	}},
}

// TestWorkersSameBits: every worker count gives the fit of one worker, to
// the bit. With 7 workers the 3 pairs of classes run side by side and
// each shares its columns between 2 goroutines; the single problems share
// theirs between 7. Pieces of splitChunk values show that columns were
// shared.
func TestWorkersSameBits(t *testing.T) {
	x, y, target := workerProblem(1600)
	k := newGauss(x, 1)
	for _, c := range workerFits {
		t.Run(c.name, func(t *testing.T) {
			base, err := c.fit(k, y, target, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{2, 7} {
				var pieces atomic.Int32
				counted := KernelFunc(func(i int, idx []int, dst []float64) error {
					if len(idx) == splitChunk {
						pieces.Add(1)
					}
					return k.Column(i, idx, dst)
				})
				m, err := c.fit(counted, y, target, Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(m, base) {
					t.Errorf("workers %d: the fit differs from one worker's", workers)
				}
				if workers == 7 && pieces.Load() == 0 {
					t.Errorf("workers %d: no column was shared", workers)
				}
			}
		})
	}
}

// TestSharedColumnFailures: the callback's error or panic in a piece of a
// shared column reaches the caller as a *ColumnError naming the column's
// row, or a *PanicError naming the fit; an interrupt's error, as is. The
// first call of splitChunk values is a piece: the first column of every
// fit is the full problem's, longer than minSplit.
func TestSharedColumnFailures(t *testing.T) {
	x, y, target := workerProblem(1600)
	k := newGauss(x, 1)
	bad := errors.New("bad piece")
	stop := errors.New("interrupted")
	for _, c := range workerFits {
		t.Run(c.name, func(t *testing.T) {
			var row, pieces atomic.Int32
			failing := func(fail func() error) Kernel {
				return KernelFunc(func(i int, idx []int, dst []float64) error {
					if len(idx) == splitChunk {
						row.Store(int32(i))
						pieces.Add(1)
						if err := fail(); err != nil {
							return err
						}
					}
					return k.Column(i, idx, dst)
				})
			}
			opt := Options{Workers: 7}
			_, err := c.fit(failing(func() error { panic("boom") }), y, target, opt)
			var pe *PanicError
			if !errors.As(err, &pe) || pe.Value != "boom" || pe.Func != c.fn {
				t.Errorf("panic: got %v, want a PanicError of %s", err, c.fn)
			}

			_, err = c.fit(failing(func() error { return bad }), y, target, opt)
			var ce *ColumnError
			if !errors.As(err, &ce) || !errors.Is(err, bad) || ce.Row != int(row.Load()) {
				t.Errorf("error: got %v, want a ColumnError of row %d", err, row.Load())
			}

			pieces.Store(0)
			opt.Interrupt = func() error {
				if pieces.Load() > 20 {
					return stop
				}
				return nil
			}
			_, err = c.fit(failing(func() error { return nil }), y, target, opt)
			if !errors.Is(err, stop) {
				t.Errorf("interrupt: got %v, want the interrupt's error", err)
			}
		})
	}
}

// TestPanicStopsOtherPairs: a panic in one worker's subproblem stops the
// other workers' subproblems at their next poll (after the column they
// are computing), not after they finish: a digits pair takes dozens of
// columns.
func TestPanicStopsOtherPairs(t *testing.T) {
	x, y := loadDigits(t)
	k := newGauss(x, math.Sqrt(500))
	var calls, after atomic.Int32
	var panicked atomic.Bool
	_, err := Fit(KernelFunc(func(i int, idx []int, dst []float64) error {
		if len(idx) > 1 {
			if panicked.Load() {
				after.Add(1)
			} else if calls.Add(1) == 40 {
				panicked.Store(true)
				panic("boom")
			}
		}
		return k.Column(i, idx, dst)
	}), y, Options{C: 1, Tol: 1e-5, Workers: 2})
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" {
		t.Fatalf("got %v, want a PanicError", err)
	}
	if n := after.Load(); n > 4 {
		t.Errorf("%d columns after the panic, want the other worker stopped", n)
	}
}
