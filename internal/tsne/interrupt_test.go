package tsne

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// TestFitInterrupted: an interrupt at any check — in the affinities, the
// iterations, inside an iteration's gradient, or the final KL — stops
// both methods with the interrupt's error and no embedding; an
// uninterrupted exact fit checks inside every iteration's O(n²) work, not
// only between iterations.
func TestFitInterrupted(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	X := make([][]float64, 300)
	for i := range X {
		X[i] = []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	}
	stop := errors.New("stop")
	for _, method := range []Method{Exact, BarnesHut} {
		opt := Options{Dims: 2, Perplexity: 10, Seed: 1, Iterations: 250, Method: method}
		var calls atomic.Int64
		opt.Interrupt = func() error { calls.Add(1); return nil }
		if _, err := Fit(len(X), euclidRows(X), opt); err != nil {
			t.Fatal(err)
		}
		total := calls.Load()
		if method == Exact && total < 250*(1+2*int64(len(X)/pollRows(len(X)))) {
			t.Errorf("exact: %d checks in 250 iterations of %d objects: not inside the gradient", total, len(X))
		}
		for _, after := range []int64{0, total / 10, total / 2, total - 1} {
			var made atomic.Int64
			opt.Interrupt = func() error {
				if made.Add(1) > after {
					return stop
				}
				return nil
			}
			e, err := Fit(len(X), euclidRows(X), opt)
			if err != stop || e != nil {
				t.Errorf("method %v, stop at check %d of %d: err %v", method, after+1, total, err)
			}
		}
	}
}
