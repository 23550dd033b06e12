package kpca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// withSpectrum returns Q·diag(lambda)·Qᵀ for a random orthogonal Q (from the
// QR factorisation of a Gaussian matrix), as full row-major storage.
func withSpectrum(lambda []float64, seed uint64) []float64 {
	n := len(lambda)
	r := rand.New(rand.NewPCG(seed, 7))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, r.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	var ql mat.Dense
	ql.Apply(func(i, j int, v float64) float64 { return v * lambda[j] }, &q)
	var a mat.Dense
	a.Mul(&ql, q.T())
	out := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			out[i*n+j] = (a.At(i, j) + a.At(j, i)) / 2
		}
	}
	return out
}

func spectrum(n int, f func(i int) float64) []float64 {
	l := make([]float64, n)
	for i := range l {
		l[i] = f(i)
	}
	return l
}

// TestLanczosMatchesDense compares the Lanczos solver with LAPACK's dense
// one on matrices of known spectrum: eigenvalues to 1e-10 of ‖A‖, vectors
// to 1e-8 (|⟨v_L, v_D⟩| ≥ 1 − 1e-8), and residuals ‖Av − λv‖ ≤ 1e-10·‖A‖.
func TestLanczosMatchesDense(t *testing.T) {
	cases := []struct {
		name   string
		lambda []float64
		k      int
	}{
		{"geometric decay n=400 k=10", spectrum(400, func(i int) float64 { return math.Pow(0.9, float64(i)) }), 10},
		{"slow decay n=300 k=8 (gaps 1e-3)", spectrum(300, func(i int) float64 {
			if i < 20 {
				return 1 - 1e-3*float64(i)
			}
			return 0.5 * math.Pow(0.99, float64(i))
		}), 8},
		{"rank 15 PSD n=300 k=15", spectrum(300, func(i int) float64 {
			if i < 15 {
				return float64(15 - i)
			}
			return 0
		}), 15},
		{"indefinite n=300 k=5 (largest |λ| negative)", spectrum(300, func(i int) float64 { return 1 - 2.5*float64(i)/299 }), 5},
		{"small n=30 k=6 (full Krylov space)", spectrum(30, func(i int) float64 { return 1 / float64(i+1) }), 6},
		{"k=40 of n=500 (restarts with a large basis)", spectrum(500, func(i int) float64 { return 1 / math.Sqrt(float64(i+1)) }), 40},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.lambda)
			a := withSpectrum(c.lambda, uint64(ci+1))
			lz, err := lanczos(newUpperOp(a, n, n, 2), n, c.k, noPoll)
			if err != nil {
				t.Fatal(err)
			}
			de, err := denseEigen(append([]float64(nil), a...), n, n, c.k, noPoll)
			if err != nil {
				t.Fatal(err)
			}
			norm := math.Max(math.Abs(de.minEig), math.Abs(de.vals[0]))
			av := make([]float64, n)
			worstVec := 0.0
			for j := 0; j < c.k; j++ {
				if math.Abs(lz.vals[j]-de.vals[j]) > 1e-10*norm {
					t.Errorf("eigenvalue %d: lanczos %.15g, dense %.15g", j+1, lz.vals[j], de.vals[j])
				}
				v, w := column(lz.vecs, n, c.k, j), column(de.vecs, n, c.k, j)
				if d := 1 - math.Abs(dot(v, w)); d > 1e-8 {
					t.Errorf("eigenvector %d: 1 − |⟨v_L, v_D⟩| = %.2g", j+1, d)
				}
				worstVec = math.Max(worstVec, 1-math.Abs(dot(v, w)))
				blas64.Gemv('N', 1, blas64.General{Rows: n, Cols: n, Stride: n, Data: a}, vec(v), 0, vec(av))
				var r float64
				for i := range av {
					r += (av[i] - lz.vals[j]*v[i]) * (av[i] - lz.vals[j]*v[i])
				}
				if math.Sqrt(r) > 1e-10*norm {
					t.Errorf("eigenpair %d: residual %.2g", j+1, math.Sqrt(r))
				}
			}
			if !(lz.minEig >= de.minEig-1e-10*norm) {
				t.Errorf("smallest Ritz value %g is below the smallest eigenvalue %g", lz.minEig, de.minEig)
			}
			t.Logf("%d products, worst vector error %.1e, smallest Ritz %.4g (true %.4g)", lz.matvecs, worstVec, lz.minEig, de.minEig)
		})
	}
}

func column(v []float64, n, k, j int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = v[i*k+j]
	}
	return c
}

// TestLanczosSmallestRitzProvesIndefinite: on an indefinite matrix the
// smallest Ritz value that Fit reports as MinEigenvalue is negative.
func TestLanczosSmallestRitzProvesIndefinite(t *testing.T) {
	n := 300
	a := withSpectrum(spectrum(n, func(i int) float64 { return math.Pow(0.95, float64(i)) - 0.1*float64(i%3) }), 9)
	lz, err := lanczos(newUpperOp(a, n, n, 1), n, 3, noPoll)
	if err != nil {
		t.Fatal(err)
	}
	if !(lz.minEig < -0.1) {
		t.Errorf("smallest Ritz value %g", lz.minEig)
	}
}

func TestSignRule(t *testing.T) {
	v := []float64{
		0.1, -0.5, 0.3,
		-0.7, 0.5, -0.3,
		0.2, 0.1, 0.3,
	}
	fixSigns(v, 3, 3)
	// column 0: −0.7 is largest, so flipped; column 1: |−0.5| = |0.5|, the
	// lowest index (−0.5) decides, so flipped; column 2: three ties, row 0
	// is positive, so kept.
	want := []float64{
		-0.1, 0.5, 0.3,
		0.7, -0.5, -0.3,
		-0.2, -0.1, 0.3,
	}
	for i := range v {
		if v[i] != want[i] {
			t.Fatalf("got %v, want %v", v, want)
		}
	}
}

// TestUpperOp: the upper-triangle product equals a plain full product, on
// one and several workers, with a stride wider than n.
func TestUpperOp(t *testing.T) {
	n, stride := 1100, 1103
	r := rand.New(rand.NewPCG(3, 4))
	a := make([]float64, n*stride)
	full := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := r.NormFloat64()
			a[i*stride+j] = v
			full[i*n+j], full[j*n+i] = v, v
		}
		for j := 0; j < i; j++ {
			a[i*stride+j] = math.NaN() // the lower triangle must not be read
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	want := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			want[i] += full[i*n+j] * x[j]
		}
	}
	for _, w := range []int{1, 2, 3} {
		op := newUpperOp(a, n, stride, w)
		got := make([]float64, n)
		for rep := 0; rep < 2; rep++ { // the accumulators are reused
			op.mul(got, x)
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
					t.Fatalf("workers=%d rep %d: y[%d] = %.15g, want %.15g", w, rep, i, got[i], want[i])
				}
			}
		}
	}
}
