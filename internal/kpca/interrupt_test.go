package kpca

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// TestFitsInterrupted: for every long computation of the package — the
// dense and Lanczos exact fits, the feature map's pivoted Cholesky, both
// Nyström fits and the spectrum — an interrupt at any check (the first,
// a few in, half-way, the last) returns the interrupt's error and no
// result, and the check is made at least once per 2²² multiply–adds of
// the dense work (a few milliseconds) in an uninterrupted run.
func TestFitsInterrupted(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const n, dim = 400, 3
	X := make([][]float64, n)
	for i := range X {
		X[i] = []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	}
	K := gram(X, gauss(1.5))
	marks := []int{3, 40, 77, 150, 201, 260, 333, 399}
	row := func(_, i int, dst []float64) error {
		for l, p := range marks {
			dst[l] = K.At(i, p)
		}
		return nil
	}
	block := func(lo, hi int, dst []float64) error {
		for i := lo; i < hi; i++ {
			row(0, i, dst[(i-lo)*len(marks):])
		}
		return nil
	}
	full := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			full[i*n+j] = K.At(i, j)
		}
	}
	fits := []struct {
		name string
		work float64 // multiply–adds of the dense work
		fit  func(poll func() error) (any, error)
	}{
		{"dense", 2 * n * n * n / 3, func(poll func() error) (any, error) {
			return Fit(copySym(K), Options{Components: 3, Solver: Dense, Interrupt: poll})
		}},
		{"lanczos", 0, func(poll func() error) (any, error) {
			return Fit(copySym(K), Options{Components: 3, Solver: Lanczos, Interrupt: poll})
		}},
		{"map", n * n * n / 6, func(poll func() error) (any, error) {
			return FitMap(copySym(K), MapOptions{Interrupt: poll})
		}},
		{"nystrom", 0, func(poll func() error) (any, error) {
			return FitNystrom(n, marks, row, Options{Components: 3, Interrupt: poll, Workers: 2})
		}},
		{"nystrom stream", 0, func(poll func() error) (any, error) {
			return FitNystromStream(n, marks, block, Options{Components: 3, Interrupt: poll})
		}},
		{"spectrum", 2 * n * n * n / 3, func(poll func() error) (any, error) {
			s, err := SpectrumOf(full, n, poll)
			if err != nil {
				return nil, err
			}
			return &s, nil
		}},
	}
	stop := errors.New("stop")
	for _, f := range fits {
		var calls atomic.Int64
		if _, err := f.fit(func() error { calls.Add(1); return nil }); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		total := calls.Load()
		if want := int64(f.work / (1 << 22)); total < max(want, 2) {
			t.Errorf("%s: %d checks for %.3g multiply–adds", f.name, total, f.work)
		}
		for _, after := range []int64{0, 1, total / 2, total - 1} {
			var made atomic.Int64
			res, err := f.fit(func() error {
				if made.Add(1) > after {
					return stop
				}
				return nil
			})
			if made.Load() <= after { // fewer checks this time (the dense solver's last stage is checked by a 20 ms ticker)
				if err != nil {
					t.Errorf("%s, never stopped: %v", f.name, err)
				}
				continue
			}
			if err != stop {
				t.Errorf("%s, stop at check %d of %d: err %v", f.name, after+1, total, err)
			}
			if !nilResult(res) {
				t.Errorf("%s, stop at check %d: a result came back", f.name, after+1)
			}
		}
	}
}

func nilResult(v any) bool {
	switch x := v.(type) {
	case *Model:
		return x == nil
	case *Map:
		return x == nil
	case *Spectrum:
		return x == nil
	}
	return v == nil
}
