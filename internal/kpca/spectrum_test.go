package kpca

import (
	"math"
	"testing"
)

// TestSpectrumOf checks the summary on matrices whose eigenvalues are known
// in closed form.
func TestSpectrumOf(t *testing.T) {
	for _, tc := range []struct {
		name      string
		K         []float64
		n         int
		values    []float64
		symmetric bool
		negMass   float64
	}{
		// [[2,1],[1,2]]: eigenvalues 3 and 1.
		{"psd", []float64{2, 1, 1, 2}, 2, []float64{3, 1}, true, 0},
		// [[1,2],[2,1]]: eigenvalues 3 and −1, trace 2.
		{"indefinite", []float64{1, 2, 2, 1}, 2, []float64{3, -1}, true, 0.5},
		// [[1,3],[1,1]]: its symmetric part is [[1,2],[2,1]].
		{"asymmetric", []float64{1, 3, 1, 1}, 2, []float64{3, -1}, false, 0.5},
		// diag(0, −2): trace −2 ≤ 0, so the mass is relative to Σ|λ|.
		{"negative trace", []float64{0, 0, 0, -2}, 2, []float64{0, -2}, true, 1},
		// 1·1ᵀ on 3 objects: rank one, eigenvalues 3, 0, 0.
		{"rank one", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}, 3, []float64{3, 0, 0}, true, 0},
	} {
		s, err := SpectrumOf(tc.K, tc.n, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, v := range tc.values {
			if math.Abs(s.Values[i]-v) > 1e-12 {
				t.Errorf("%s: values %v, want %v", tc.name, s.Values, tc.values)
				break
			}
		}
		if s.Symmetric != tc.symmetric || math.Abs(s.NegativeMass-tc.negMass) > 1e-12 ||
			math.Abs(s.Min-tc.values[tc.n-1]) > 1e-12 {
			t.Errorf("%s: %+v", tc.name, s)
		}
	}
}
