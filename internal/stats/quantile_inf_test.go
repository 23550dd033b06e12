package stats

import (
	"math"
	"testing"
)

// Quantiles next to distances past float64's range: an order statistic is
// returned as it is, and only a value interpolated towards +Inf is +Inf
// (the formula alone gave 0·Inf or Inf − Inf, NaN, which SQLite shows as
// NULL).
func TestQuantileNextToInf(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		sorted []float64
		q      float64
		want   float64
	}{
		{[]float64{1, 1e308, inf}, 0, 1},
		{[]float64{1, 1e308, inf}, 0.25, 1 + 0.5*(1e308-1)},
		{[]float64{1, 1e308, inf}, 0.5, 1e308},
		{[]float64{1, 1e308, inf}, 0.75, inf},
		{[]float64{1, 1e308, inf}, 1, inf},
		{[]float64{inf, inf}, 0.5, inf},
		{[]float64{2, 2, 2}, 0.3, 2},
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},
	} {
		if got := Quantile(c.sorted, c.q); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.sorted, c.q, got, c.want)
		}
	}
}

// On finite values the result is the bits of numpy's formula
// sorted[lo] + (h − lo)·(sorted[lo+1] − sorted[lo]), every q.
func TestQuantileFiniteBits(t *testing.T) {
	sorted := []float64{0.1, 0.1, 0.3, 1.7, 2.25, 1e300, 1.5e308}
	for k := 0; k <= 1000; k++ {
		q := float64(k) / 1000
		h := q * float64(len(sorted)-1)
		lo := int(math.Floor(h))
		want := sorted[len(sorted)-1]
		if lo < len(sorted)-1 {
			want = sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
		}
		if got := Quantile(sorted, q); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Quantile(q=%v) = %v, want %v", q, got, want)
		}
	}
}
