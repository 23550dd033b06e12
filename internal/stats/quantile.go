package stats

import (
	"errors"
	"math"

	"github.com/ksql/ksql/internal/rng"
)

// ErrFewVectors is returned when there are fewer than two vectors, so no
// pair to measure.
var ErrFewVectors = errors.New("needs at least two vectors")

// Distances are the pairwise distances of a set of vectors, sorted.
type Distances struct {
	L2, L1  []float64 // Euclidean and Manhattan distances, each sorted ascending
	Sampled bool      // pairs drawn at random rather than all of them
}

// PairDistances measures all n(n−1)/2 pairs of xs when that is at most
// maxPairs, else maxPairs pairs of distinct vectors drawn from seed (with
// replacement, as kernlab's sigest draws them). interrupt, if not nil, is
// polled every row or every 4096 pairs, and through the sorts.
func PairDistances(xs [][]float64, maxPairs int, seed uint64, interrupt func() error) (Distances, error) {
	n := len(xs)
	if n < 2 {
		return Distances{}, ErrFewVectors
	}
	all := n * (n - 1) / 2
	var d Distances
	if all <= maxPairs {
		d.L2, d.L1 = make([]float64, 0, all), make([]float64, 0, all)
		for i := range n {
			if err := poll(interrupt); err != nil {
				return Distances{}, err
			}
			for j := i + 1; j < n; j++ {
				e, m := dist(xs[i], xs[j])
				d.L2, d.L1 = append(d.L2, e), append(d.L1, m)
			}
		}
	} else {
		d.Sampled = true
		d.L2, d.L1 = make([]float64, maxPairs), make([]float64, maxPairs)
		g := rng.New(seed)
		for p := range maxPairs {
			if p%4096 == 0 {
				if err := poll(interrupt); err != nil {
					return Distances{}, err
				}
			}
			i := int(g.Below(uint64(n)))
			j := int(g.Below(uint64(n - 1)))
			if j >= i {
				j++
			}
			d.L2[p], d.L1[p] = dist(xs[i], xs[j])
		}
	}
	for _, xs := range [][]float64{d.L2, d.L1} {
		if err := sortPolled(xs, interrupt); err != nil {
			return Distances{}, err
		}
	}
	return d, nil
}

func poll(interrupt func() error) error {
	if interrupt == nil {
		return nil
	}
	return interrupt()
}

func dist(a, b []float64) (l2, l1 float64) {
	for k, x := range a {
		t := x - b[k]
		l2 += t * t
		l1 += math.Abs(t)
	}
	if math.IsInf(l2, 0) || (l2 < 0x1p-900 && l1 != 0) {
		// The squares left float64's range though the distance may not:
		// measure in units of the largest difference.
		return scaledNorm(a, b), l1
	}
	return math.Sqrt(l2), l1
}

// scaledNorm is ‖a − b‖ as s·sqrt(Σ((a_k − b_k)/s)²), s the largest
// |a_k − b_k|, which neither overflows nor underflows where the distance
// itself is a float64.
func scaledNorm(a, b []float64) float64 {
	s := 0.0
	for k, x := range a {
		s = max(s, math.Abs(x-b[k]))
	}
	if s == 0 || math.IsInf(s, 0) {
		return s
	}
	var sum float64
	for k, x := range a {
		t := (x - b[k]) / s
		sum += t * t
	}
	return s * math.Sqrt(sum)
}

// Quantile is the q-quantile (0 ≤ q ≤ 1) of ascending sorted values by
// linear interpolation between order statistics, numpy's default. An
// order statistic itself, or a run of equal ones, is returned as it is:
// interpolating towards a +Inf neighbour gave 0·Inf or Inf − Inf, NaN.
func Quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	if f := h - float64(lo); f != 0 && sorted[lo+1] != sorted[lo] {
		return sorted[lo] + f*(sorted[lo+1]-sorted[lo])
	}
	return sorted[lo]
}
