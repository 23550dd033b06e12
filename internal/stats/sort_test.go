package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortPolled: the same order as slices.Sort (NaNs first) on random,
// repeated, sorted and reversed values, and a poll at least every
// sortLeaf elements of a partition.
func TestSortPolled(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 20*sortLeaf + 123
	gen := map[string]func(i int) float64{
		"random":   func(int) float64 { return r.NormFloat64() },
		"repeated": func(int) float64 { return float64(r.IntN(5)) },
		"sorted":   func(i int) float64 { return float64(i) },
		"reversed": func(i int) float64 { return float64(n - i) },
		"constant": func(int) float64 { return 7 },
		"NaNs": func(i int) float64 {
			if i%1000 == 0 {
				return math.NaN()
			}
			return r.Float64()
		},
	}
	for name, f := range gen {
		a := make([]float64, n)
		for i := range a {
			a[i] = f(i)
		}
		want := slices.Clone(a)
		slices.Sort(want)
		polls := 0
		if err := sortPolled(a, func() error { polls++; return nil }); err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if a[i] != want[i] && !(math.IsNaN(a[i]) && math.IsNaN(want[i])) {
				t.Fatalf("%s: position %d is %v, want %v", name, i, a[i], want[i])
			}
		}
		if polls < n/sortLeaf {
			t.Fatalf("%s: %d polls for %d values, want at least %d", name, polls, n, n/sortLeaf)
		}
	}
}

// TestSortPolledStops: the interrupt's error ends the sort at the next
// poll and is returned.
func TestSortPolledStops(t *testing.T) {
	a := make([]float64, 50*sortLeaf)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range a {
		a[i] = r.Float64()
	}
	stop := errors.New("stop")
	polls := 0
	err := sortPolled(a, func() error {
		if polls++; polls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || polls != 3 {
		t.Fatalf("err %v after %d polls, want stop after 3", err, polls)
	}
}

// BenchmarkSortPolled: the polled sort beside slices.Sort on 2²⁰ random
// distances (the cost of being interruptible).
func BenchmarkSortPolled(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	src := make([]float64, 1<<20)
	for i := range src {
		src[i] = r.ExpFloat64()
	}
	a := make([]float64, len(src))
	for _, bc := range []struct {
		name string
		sort func([]float64)
	}{
		{"polled", func(a []float64) { _ = sortPolled(a, func() error { return nil }) }},
		{"slices.Sort", slices.Sort[[]float64]},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				copy(a, src)
				bc.sort(a)
			}
		})
	}
}
