package stats

import (
	"math"
	"slices"
	"testing"
)

// relClose fails unless got is want to a relative tol (close is absolute
// below 1, which says nothing of values near 1e-200).
func relClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

// Values at float64's limits: numpy's reference data scaled by factors
// whose squares (or sums of n² products) leave float64 give the reference
// answers scaled as the statistics scale: distances and MMD² linearly,
// the alignment and the p-value not at all.
func TestStatisticsAtFloatLimits(t *testing.T) {
	r := loadRef(t)
	N := len(r.A) + len(r.B)
	base, err := MMDTest(slices.Clone(r.Gram), N, len(r.A), 200, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs := append(slices.Clone(r.A), r.B...)
	n := len(r.Classes)
	for _, s := range []float64{2e307, 1e300, 1e-300, 1e200, 1e-200, 3} {
		K := slices.Clone(r.Gram)
		for i := range K {
			K[i] *= s
		}
		m, err := MMDTest(K, N, len(r.A), 200, 7, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s >= 1e-200 { // 1e-300 times the Gram matrix is subnormal in part: no precision to compare
			relClose(t, "MMD² unbiased", m.Unbiased, base.Unbiased*s, 1e-12)
			relClose(t, "MMD² biased", m.Biased, base.Biased*s, 1e-12)
			if m.PValue != base.PValue {
				t.Errorf("scale %g: p-value %v, unscaled %v", s, m.PValue, base.PValue)
			}
		}

		Y := slices.Clone(r.Numbers)
		for i := range Y {
			Y[i] *= s
		}
		K = slices.Clone(r.Gram)
		for i := range K {
			K[i] *= min(s, 1e150) // K's own scale, within a range its values keep their digits
		}
		a, err := Alignment(K, n, Y, 1, nil)
		if err != nil {
			t.Fatalf("scale %g: %v", s, err)
		}
		close(t, "alignment", a, r.AlignNumbers, 1e-12)

		scaled := make([][]float64, len(xs))
		for i, x := range xs {
			scaled[i] = make([]float64, len(x))
			for k, v := range x {
				scaled[i][k] = v * s
			}
		}
		if s < 1e-200 { // the differences themselves are subnormal
			continue
		}
		d, err := PairDistances(scaled, 1000, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range r.Quantiles {
			relClose(t, "L2 quantile", Quantile(d.L2, q), r.L2Quantiles[i]*s, 1e-12)
			relClose(t, "L1 quantile", Quantile(d.L1, q), r.L1Quantiles[i]*s, 1e-12)
		}
	}
}
