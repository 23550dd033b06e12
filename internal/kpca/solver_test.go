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
// one and several workers, with a stride wider than n, with the assembly
// kernels and without, for sizes that leave rows outside the four-row
// groups (n mod 16 = 12 and 15) and sizes below the parallel threshold.
func TestUpperOp(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, n := range []int{1, 7, 37, 1100, 1103} {
		stride := n + 3
		r := rand.New(rand.NewPCG(3, uint64(n)))
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
		for _, avx := range []bool{false, saved} {
			useAVX2 = avx
			for _, w := range []int{1, 2, 3} {
				op := newUpperOp(a, n, stride, w)
				got := make([]float64, n)
				for rep := 0; rep < 2; rep++ { // the accumulators are reused
					if err := op.mul(got, x); err != nil {
						t.Fatal(err)
					}
					for i := range got {
						if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
							t.Fatalf("n=%d avx=%v workers=%d rep %d: y[%d] = %.15g, want %.15g", n, avx, w, rep, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// blockDiag returns the full n×n matrix made of copies[i] copies of the
// symmetric block blocks[i] on the diagonal: its eigenvalues are exactly
// (bit for bit) repeated, the case where single-vector Lanczos breaks down.
func blockDiag(blocks [][]float64, sizes, copies []int) ([]float64, int) {
	n := 0
	for i, b := range sizes {
		n += b * copies[i]
	}
	a := make([]float64, n*n)
	at := 0
	for i, b := range sizes {
		for c := 0; c < copies[i]; c++ {
			for r := 0; r < b; r++ {
				for s := 0; s < b; s++ {
					a[(at+r)*n+at+s] = blocks[i][r*b+s]
				}
			}
			at += b
		}
	}
	return a, n
}

// TestLanczosRepeatedEigenvalues: exactly repeated eigenvalues, found by
// probing the complement after a breakdown, agree with the dense solver.
func TestLanczosRepeatedEigenvalues(t *testing.T) {
	b1 := []float64{4, 1, 0, 1, 3, 1, 0, 1, 2} // eigenvalues ≈ 4.73, 3, 1.27
	b2 := []float64{10, 2, 2, 1}               // ≈ 10.4, 0.62
	cases := []struct {
		name   string
		blocks [][]float64
		sizes  []int
		copies []int
		k      int
	}{
		{"one block ×150, k=6 (top eigenvalue ×150)", [][]float64{b1}, []int{3}, []int{150}, 6},
		{"b2 ×3 and b1 ×120, k=5", [][]float64{b2, b1}, []int{2, 3}, []int{3, 120}, 5},
		{"b2 ×2 and b1 ×120, k=8", [][]float64{b2, b1}, []int{2, 3}, []int{2, 120}, 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, n := blockDiag(c.blocks, c.sizes, c.copies)
			lz, err := lanczos(newUpperOp(a, n, n, 1), n, c.k, noPoll)
			if err != nil {
				t.Fatal(err)
			}
			de, err := denseEigen(append([]float64(nil), a...), n, n, c.k, noPoll)
			if err != nil {
				t.Fatal(err)
			}
			for j := range de.vals {
				if math.Abs(lz.vals[j]-de.vals[j]) > 1e-10*de.vals[0] {
					t.Errorf("eigenvalue %d: lanczos %.15g, dense %.15g (all: %v vs %v)", j+1, lz.vals[j], de.vals[j], lz.vals, de.vals)
					break
				}
			}
			// The eigenvectors of a repeated eigenvalue are not unique, but
			// they must be orthonormal eigenvectors.
			for p := 0; p < c.k; p++ {
				vp := column(lz.vecs, n, c.k, p)
				for q := p; q < c.k; q++ {
					want := 0.0
					if p == q {
						want = 1
					}
					if d := dot(vp, column(lz.vecs, n, c.k, q)); math.Abs(d-want) > 1e-10 {
						t.Errorf("⟨v_%d, v_%d⟩ = %g", p, q, d)
					}
				}
			}
			t.Logf("%d products: %v", lz.matvecs, lz.vals)
		})
	}
}

// TestFitIdentityKernel: K = I (e.g. normalize(ngram) on texts that share
// no n-gram) centres to I − 11ᵀ/n, eigenvalue 1 with multiplicity n − 1.
func TestFitIdentityKernel(t *testing.T) {
	n := 400
	K := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		K.SetSym(i, i, 1)
	}
	m, err := Fit(K, Options{Components: 5, Solver: Lanczos})
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range m.Eigenvalues {
		if math.Abs(v-1) > 1e-12 || math.Abs(m.ExplainedRatio[j]-1/float64(n-1)) > 1e-12 {
			t.Errorf("component %d: eigenvalue %.15g, ratio %.15g", j+1, v, m.ExplainedRatio[j])
		}
	}
}
