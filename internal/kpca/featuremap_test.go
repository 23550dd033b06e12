package kpca

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFeatureMapReproducesKernel checks the defining property of the
// Ghiasi-Shirazi–Qaraei map on real data with positive semi-definite
// kernels: ⟨φ(x_i), φ(z)⟩ = k(x_i, z) to 1e-8 relative to
// sqrt(k(x_i, x_i)·k(z, z)) (the Cauchy–Schwarz bound on |k(x_i, z)|), for
// every training object x_i, both for training z (Stored) and new z
// (Apply), and that Apply on a training row gives Stored.
func TestFeatureMapReproducesKernel(t *testing.T) {
	iris := irisX(t)
	digits := digitsX(t)
	irisNew := [][]float64{{5.0, 3.4, 1.5, 0.2}, {7.0, 3.5, 2.0, 1.0}, {0, 0, 0, 0}, {6.3, 2.5, 5.0, 1.9}}
	cases := []struct {
		name    string
		X, Z    [][]float64
		kernel  kernelFunc
		wantDim int     // 0: not checked
		relTol  float64 // 0: the default
	}{
		{"iris gauss(sigma=1) (duplicate rows: singular)", iris, irisNew, gauss(1), 0, 0},
		{"iris linear (rank 4), n·ε tolerance", iris, irisNew, linear, 4, 150 * eps},
		{"iris linear (rank 4), default tolerance", iris, irisNew, linear, 0, 0},
		{"iris poly(degree=2, r=1) (rank 15), n·ε tolerance", iris, irisNew, poly(2, 1), 15, 150 * eps},
		{"digits[:400]/16 gauss(sigma=1)", digits[:400], digits[1000:1010], gauss(1), 400, 0},
		{"digits[:300]/16 gauss(sigma=4) (ill-conditioned)", digits[:300], digits[1000:1010], gauss(4), 0, 0},
		{"digits[:300]/16 gauss(sigma=30) (numerically singular)", digits[:300], digits[1000:1010], gauss(30), 0, 0},
		{"iris gauss(sigma=5) (numerically singular)", iris, irisNew, gauss(5), 0, 0},
		{"iris gauss(sigma=20) (numerically singular)", iris, irisNew, gauss(20), 0, 0},
		{"digits[:300]/16 poly(degree=3, r=1)", digits[:300], digits[1200:1210], poly(3, 1), 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.X)
			m, err := FitMap(gram(c.X, c.kernel), MapOptions{RelTol: c.relTol})
			if err != nil {
				t.Fatal(err)
			}
			if c.wantDim != 0 && m.Dim() != c.wantDim {
				t.Errorf("dimension %d, want %d", m.Dim(), c.wantDim)
			}
			if m.Dim()+m.Dropped != n {
				t.Errorf("dim %d + dropped %d ≠ n %d", m.Dim(), m.Dropped, n)
			}
			stored := make([][]float64, n)
			for i := range c.X {
				stored[i] = m.Stored(i, nil)
			}
			var worst float64
			check := func(what string, phiZ []float64, z []float64) {
				kzz := c.kernel(z, z)
				for i, x := range c.X {
					want := c.kernel(x, z)
					e := math.Abs(dot(stored[i], phiZ) - want)
					if scale := math.Sqrt(c.kernel(x, x) * kzz); scale > 0 {
						e /= scale
					}
					worst = math.Max(worst, e)
					if !(e <= 1e-8) {
						t.Fatalf("%s: ⟨φ(x_%d), φ(z)⟩ = %.15g, k = %.15g (relative error %.2g)", what, i, dot(stored[i], phiZ), want, e)
					}
				}
			}
			for l := 0; l < n; l += 7 {
				check("training z", stored[l], c.X[l])
				applied, err := m.Apply(kernelRow(c.X, c.X[l], c.kernel), nil)
				if err != nil {
					t.Fatal(err)
				}
				check("training z via Apply", applied, c.X[l])
			}
			for _, z := range c.Z {
				phi, err := m.Apply(kernelRow(c.X, z, c.kernel), nil)
				if err != nil {
					t.Fatal(err)
				}
				check("new z", phi, z)
			}
			t.Logf("dimension %d (dropped %d, tolerance %.2g), worst relative error %.1e", m.Dim(), m.Dropped, m.Tolerance, worst)
		})
	}
}

// TestFeatureMapIsGramFactor: stacking the training vectors gives Φ with
// ΦΦᵀ = K, the Gram matrix computed directly from the data, on a
// non-singular example (all objects are pivots) and on a singular one
// (duplicated rows), to rounding.
func TestFeatureMapIsGramFactor(t *testing.T) {
	digits := digitsX(t)
	for _, c := range []struct {
		name string
		X    [][]float64
		dim  int
	}{
		{"digits[:40] gauss(sigma=1)", digits[:40], 40},
		{"digits[:20] twice", append(append([][]float64(nil), digits[:20]...), digits[:20]...), 20},
	} {
		K := gram(c.X, gauss(1))
		m, err := FitMap(copySym(K), MapOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Dim() != c.dim {
			t.Errorf("%s: dimension %d, want %d", c.name, m.Dim(), c.dim)
		}
		n := len(c.X)
		for i := 0; i < n; i++ {
			for l := 0; l < n; l++ {
				if got := dot(m.Stored(i, nil), m.Stored(l, nil)); math.Abs(got-K.At(i, l)) > 1e-13 {
					t.Fatalf("%s: (ΦΦᵀ)_%d,%d = %.17g, K = %.17g", c.name, i, l, got, K.At(i, l))
				}
			}
		}
	}
}

func TestFeatureMapErrors(t *testing.T) {
	iris := irisX(t)
	withNaN := gram(iris[:5], gauss(1))
	withNaN.SetSym(1, 4, math.NaN())
	stop := errors.New("stop")
	cases := []struct {
		name string
		K    *mat.SymDense
		opt  MapOptions
		want string
	}{
		{"no objects", nil, MapOptions{}, "no objects"},
		{"NaN", withNaN, MapOptions{}, "entry (1, 4) is NaN"},
		{"not PSD", gram(iris, func(a, b []float64) float64 { return gauss(1)(a, b) - 0.05*dot(a, b) }), MapOptions{}, "not positive semi-definite"},
		{"zero kernel", mat.NewSymDense(4, nil), MapOptions{}, "no positive diagonal entry"},
		{"interrupt", gram(iris, gauss(1)), MapOptions{Interrupt: func() error { return stop }}, "stop"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FitMap(c.K, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
	m, err := FitMap(gram(iris, gauss(1)), MapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Apply(make([]float64, 3), nil); err == nil || !strings.Contains(err.Error(), "needs 150") {
		t.Errorf("short row: %v", err)
	}
	row := make([]float64, 150)
	row[9] = math.Inf(1)
	if _, err := m.Apply(row, nil); err == nil || !strings.Contains(err.Error(), "kernel value 9") {
		t.Errorf("Inf: %v", err)
	}
}

// TestFeatureMapFloat32: rounded to float32, as kernel_map returns its
// vectors, the map still reproduces a kernel bounded by 1 to 1e-5.
func TestFeatureMapFloat32(t *testing.T) {
	round := func(v []float64) []float64 {
		for i := range v {
			v[i] = float64(float32(v[i]))
		}
		return v
	}
	digits := digitsX(t)
	for _, sigma := range []float64{1, 5, 30} {
		X := digits[:300]
		k := gauss(sigma)
		m, err := FitMap(gram(X, k), MapOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for _, z := range digits[1500:1520] {
			phi, err := m.Apply(kernelRow(X, z, k), nil)
			if err != nil {
				t.Fatal(err)
			}
			round(phi)
			for i, x := range X {
				e := math.Abs(dot(round(m.Stored(i, nil)), phi) - k(x, z))
				worst = math.Max(worst, e)
			}
		}
		if !(worst <= 1e-5) {
			t.Errorf("gauss(sigma=%g): worst float32 error %.2g", sigma, worst)
		}
		t.Logf("gauss(sigma=%g): dimension %d, worst float32 error %.1e", sigma, m.Dim(), worst)
	}
}
