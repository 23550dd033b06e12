package krr

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// gaussGram returns the Gaussian Gram matrix (σ² = 0.25) of n random
// points in the unit square, row-major, both triangles, and labels.
func gaussGram(n int, seed uint64) ([]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	x, z := make([]float64, n), make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i], z[i] = r.Float64(), r.Float64()
		y[i] = math.Sin(3*x[i]) + z[i]
	}
	K := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dz := x[i]-x[j], z[i]-z[j]
			v := math.Exp(-(dx*dx + dz*dz) / 0.5)
			K[i*n+j], K[j*n+i] = v, v
		}
	}
	return K, y
}

// TestFitMatchesGonum: the blocked Cholesky solve gives what gonum's
// mat.Cholesky (the factorisation it replaced) gives, to 1e-9 relative to
// the largest coefficient.
func TestFitMatchesGonum(t *testing.T) {
	for _, n := range []int{1, 3, 200, 517} {
		K, y := gaussGram(n, uint64(n))
		A := mat.NewSymDense(n, append([]float64(nil), K...))
		for i := 0; i < n; i++ {
			A.SetSym(i, i, A.At(i, i)+1e-2)
		}
		var ch mat.Cholesky
		if !ch.Factorize(A) {
			t.Fatal("gonum refused the matrix")
		}
		want := mat.NewVecDense(n, nil)
		if err := ch.SolveVecTo(want, mat.NewVecDense(n, y)); err != nil {
			t.Fatal(err)
		}
		got, err := FitPolled(K, y, 1e-2, nil)
		if err != nil {
			t.Fatal(err)
		}
		scale := mat.Norm(want, math.Inf(1))
		for i, v := range got {
			if math.Abs(v-want.AtVec(i)) > 1e-9*scale {
				t.Fatalf("n=%d: c[%d] = %v, gonum %v", n, i, v, want.AtVec(i))
			}
		}
	}
}

// stopAfter returns a poll that fails with stop from its (after+1)-th call
// on, and the number of calls.
func stopAfter(after int64, stop error) (func() error, *atomic.Int64) {
	var calls atomic.Int64
	return func() error {
		if calls.Add(1) > after {
			return stop
		}
		return nil
	}, &calls
}

// TestFitsInterrupted: an interrupt at any check stops each fit with the
// interrupt's error and no result; an uninterrupted fit checks often
// enough (≥ one check per 2²² multiply–adds of its factorisation or
// epochs, a few milliseconds) to stop promptly at any size.
func TestFitsInterrupted(t *testing.T) {
	const n = 600
	K, y := gaussGram(n, 9)
	marks := []int{0, 50, 100, 150, 200, 250, 300, 350}
	m := len(marks)
	C := make([]float64, n*m)
	for i := 0; i < n; i++ {
		for l, p := range marks {
			C[i*m+l] = K[i*n+p]
		}
	}
	W := make([]float64, m*m)
	for a, p := range marks {
		for b, q := range marks {
			W[a*m+b] = K[p*n+q]
		}
	}
	fits := []struct {
		name string
		work float64 // multiply–adds
		fit  func(poll func() error) (any, error)
	}{
		{"exact", float64(n * n * n / 6), func(poll func() error) (any, error) {
			return FitPolled(append([]float64(nil), K...), y, 1e-3, poll)
		}},
		{"nystrom", float64(n * m * m / 2), func(poll func() error) (any, error) {
			return FitNystromWPolled(C, W, y, 1e-3, poll)
		}},
		{"klms", float64(30 * 2 * n * n), func(poll func() error) (any, error) {
			return FitLMS(K, y, 1e-3, 30, Batch, poll)
		}},
	}
	stop := errors.New("stop")
	for _, f := range fits {
		count, calls := stopAfter(math.MaxInt64, stop)
		if _, err := f.fit(count); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if got, want := calls.Load(), int64(f.work/(1<<22)); got < want {
			t.Errorf("%s: %d checks for %.3g multiply–adds, want ≥ %d", f.name, got, f.work, want)
		}
		for _, after := range []int64{0, 1, calls.Load() / 2, calls.Load() - 1} {
			poll, made := stopAfter(after, stop)
			res, err := f.fit(poll)
			if err != stop {
				t.Errorf("%s, stop at check %d of %d: err %v", f.name, after+1, calls.Load(), err)
			}
			if res != nil && !isNil(res) {
				t.Errorf("%s, stop at check %d: a result came back", f.name, after+1)
			}
			if made.Load() > after+2 { // a second worker may be inside a piece
				t.Errorf("%s, stop at check %d: %d checks made", f.name, after+1, made.Load())
			}
		}
	}
}

func isNil(v any) bool {
	switch x := v.(type) {
	case []float64:
		return x == nil
	case *LMSResult:
		return x == nil
	}
	return false
}

// TestFitStopsPromptly cancels an exact fit of 4,000 objects at a random
// moment within its first half (as long as an uncancelled fit took: the
// speed depends on the machine and its load, so a fit that finishes
// first is tried again with half the time), from another goroutine as a
// statement's cancel comes, and checks that it returns the interrupt
// within a small fraction of that.
func TestFitStopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("factors a 4,000×4,000 matrix")
	}
	const n = 4000
	K, y := gaussGram(n, 4)
	t0 := time.Now()
	if _, err := FitPolled(slices.Clone(K), y, 1e-3, nil); err != nil {
		t.Fatal(err)
	}
	first := time.Since(t0)
	whole := first
	stop := errors.New("stop")
	for range 4 {
		var at atomic.Int64
		poll := func() error {
			if at.Load() != 0 {
				return stop
			}
			return nil
		}
		delay := whole/20 + time.Duration(rand.Int64N(int64(whole/2)))
		timer := time.AfterFunc(delay, func() { at.Store(time.Now().UnixNano()) })
		c, err := FitPolled(slices.Clone(K), y, 1e-3, poll)
		end := time.Now()
		timer.Stop()
		if err == nil && at.Load() == 0 {
			whole /= 2 // finished before the cancel: a faster moment of the machine
			continue
		}
		if err != stop || c != nil {
			t.Fatalf("cancelled at %v: err %v, %d coefficients", delay, err, len(c))
		}
		late := end.Sub(time.Unix(0, at.Load()))
		t.Logf("cancelled %v after the start, returned %v later", delay, late)
		if late > time.Second {
			t.Errorf("returned %v after the cancel", late)
		}
		return
	}
	t.Fatalf("four fits finished before their cancels (an uncancelled one took %v)", first)
}
