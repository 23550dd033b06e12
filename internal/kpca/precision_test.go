package kpca

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// linearGram is the float64 Gram matrix of 1-D points under the linear
// kernel, as a kernel computation would round it.
func linearGram(x []float64) *mat.SymDense {
	K := mat.NewSymDense(len(x), nil)
	for i := range x {
		for j := i; j < len(x); j++ {
			K.SetSym(i, j, x[i]*x[j])
		}
	}
	return K
}

// TestCentringPrecision: points around 10⁸
// that differ by a few units are not "identical" (their linear kernel
// values differ by ~10⁸, the spread's square is lost in their rounding:
// a *PrecisionError says so), and truly identical objects give
// ErrIdentical whatever the magnitude and n, even where fl(n·c)/n ≠ c.
func TestCentringPrecision(t *testing.T) {
	_, err := Fit(linearGram([]float64{1e8, 1e8 + 1, 1e8 + 2, 1e8 + 4}), Options{Components: 1})
	var pe *PrecisionError
	if !errors.As(err, &pe) || errors.Is(err, ErrIdentical) || pe.MaxAbs < 1e16 {
		t.Errorf("points around 1e8: %v, want a *PrecisionError", err)
	}
	for _, c := range []float64{1, 0.1, 1.0 / 3, 7.3, (1e8 + 1) * (1e8 + 1), 1e-300, 1e300, 3.0000000000000004, 0.7 * 0.7} {
		for _, n := range []int{2, 3, 5, 7, 300} {
			_, err := Fit(constMatrix(n, c), Options{Components: 1})
			if !errors.Is(err, ErrIdentical) {
				t.Errorf("%d identical objects, K = %g: %v", n, c, err)
			}
		}
	}
	// Shifted far enough to take the compensated path but not too far:
	// the eigenvalue is that of the centred points, Σ(x − x̄)², computed
	// here from the points (independently of any Gram matrix).
	for _, shift := range []float64{1e5, 3e5, 1e6} {
		x := []float64{shift, shift + 1, shift + 2, shift + 4, shift + 8}
		var mean, ss float64
		for _, v := range x {
			mean += v / float64(len(x))
		}
		for _, v := range x {
			ss += (v - mean) * (v - mean)
		}
		m, err := Fit(linearGram(x), Options{Components: 1})
		if err != nil {
			t.Errorf("shift %g: %v", shift, err)
			continue
		}
		// The stored values' own rounding (ε/2·shift² each) bounds what any
		// centring can recover; the plain one lost several times more.
		if d := math.Abs(m.Eigenvalues[0] - ss); d > float64(len(x))*eps*shift*shift {
			t.Errorf("shift %g: eigenvalue %.10g, want %.10g (error %.2g)", shift, m.Eigenvalues[0], ss, d)
		}
	}
}
