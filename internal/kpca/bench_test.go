package kpca

import (
	"math"
	"sync"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
	"gonum.org/v1/gonum/mat"
)

// tiledDigits returns n rows of digits.csv / 16: the 1,797 rows as they are,
// then copies of them with uniform noise in ±0.01 on every feature (so that
// no two rows coincide), from a fixed SplitMix64 stream.
func tiledDigits(b testing.TB, n int) [][]float64 {
	d := digitsX(b)
	rng := splitMix64{2024}
	out := make([][]float64, n)
	for i := range out {
		src := d[i%len(d)]
		out[i] = append([]float64(nil), src...)
		if i >= len(d) {
			for j := range out[i] {
				out[i][j] += 0.01 * rng.symmetric()
			}
		}
	}
	return out
}

// parallelGram computes a gauss Gram matrix on all cores, as the product's
// gram code does, so that "Gram + fit" is an end-to-end figure.
func parallelGram(X [][]float64, k kernelFunc) *mat.SymDense {
	n := len(X)
	g := mat.NewSymDense(n, nil)
	raw := g.RawSymmetric()
	var wg sync.WaitGroup
	const w = 2
	for t := 0; t < w; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := t; i < n; i += w {
				for j := i; j < n; j++ {
					raw.Data[i*raw.Stride+j] = k(X[i], X[j])
				}
			}
		}()
	}
	wg.Wait()
	return g
}

// BenchmarkFitExact: exact kernel PCA of 2,000 digits (/16, tiled), 5
// components, from a precomputed Gram matrix (the copy that Fit consumes is
// made outside the timer), and with the Gram matrix computed in the loop.
// Compare with testdata/bench_sklearn.py. sigma=5.657 is sqrt(32), i.e.
// scikit-learn's default rbf gamma = 1/n_features = 1/64.
func BenchmarkFitExact(b *testing.B) {
	X := tiledDigits(b, 2000)
	for _, sigma := range []float64{1, math.Sqrt(32)} {
		K := parallelGram(X, gauss(sigma))
		name := "gauss(sigma=1)"
		if sigma != 1 {
			name = "gauss(sigma=5.657)"
		}
		b.Run("fit/"+name, func(b *testing.B) {
			work := mat.NewSymDense(2000, nil)
			for b.Loop() {
				b.StopTimer()
				work.CopySym(K)
				b.StartTimer()
				m, err := Fit(work, Options{Components: 5})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(m.Products), "products")
			}
		})
		b.Run("gram+fit/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(parallelGram(X, gauss(sigma)), Options{Components: 5}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFitDense2000 shows what the Lanczos solver saves: the same fit
// with LAPACK's full eigendecomposition.
func BenchmarkFitDense2000(b *testing.B) {
	X := tiledDigits(b, 2000)
	K := parallelGram(X, gauss(1))
	work := mat.NewSymDense(2000, nil)
	for b.Loop() {
		b.StopTimer()
		work.CopySym(K)
		b.StartTimer()
		if _, err := Fit(work, Options{Components: 5, Solver: Dense}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNystrom: 20,000 tiled digits, 500 landmarks, 5 components,
// gauss(sigma=1), kernel values computed by the row callback (included).
func BenchmarkNystrom(b *testing.B) {
	X := tiledDigits(b, 20000)
	L, err := SampleLandmarks(len(X), 500, 0)
	if err != nil {
		b.Fatal(err)
	}
	k := gauss(1)
	for b.Loop() {
		m, err := FitNystrom(len(X), L, rowFunc(X, L, k), Options{Components: 5})
		if err != nil {
			b.Fatal(err)
		}
		if m.Eigenvalues[0] <= 0 {
			b.Fatal(m.Eigenvalues)
		}
	}
}

// BenchmarkProject: one new object through an exact model of 2,000 objects
// and 5 components, and through a feature map of 500 objects (allocation-free).
func BenchmarkProject(b *testing.B) {
	X := tiledDigits(b, 2000)
	m, err := Fit(parallelGram(X, gauss(1)), Options{Components: 5})
	if err != nil {
		b.Fatal(err)
	}
	kz := kernelRow(X, digitsX(b)[5], gauss(1))
	dst := make([]float64, 5)
	b.Run("kpca n=2000 k=5", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.Project(kz, dst); err != nil {
				b.Fatal(err)
			}
		}
	})
	fm, err := FitMap(parallelGram(X[:500], gauss(1)), MapOptions{})
	if err != nil {
		b.Fatal(err)
	}
	phi := make([]float64, fm.Dim())
	b.Run("map n=500", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fm.Apply(kz[:500], phi); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// sqlDigits returns the objects of sqltests' BenchmarkKPCAExactDigits2000:
// the rows of digits.csv (raw pixels 0..16), copy c of row i with c·0.01
// added to every pixel, n in all.
func sqlDigits(b testing.TB, n int) []kernels.Object {
	X := loadCSV(b, "digits.csv", 2, 66, 1)
	objs := make([]kernels.Object, n)
	for i := range objs {
		src, c := X[i%len(X)], float64(i/len(X))
		v := make([]float64, len(src))
		for j := range src {
			v[j] = src[j] + c*0.01
		}
		objs[i] = kernels.Object{Vec: kernels.Vec{F64: v}}
	}
	return objs
}

// BenchmarkFitDigits2000 is the exact fit of sqltests'
// BenchmarkKPCAExactDigits2000 without SQL: gauss(sigma=√32) (scikit-learn's
// default gamma 1/64) on 2,000 digits, 5 components. "gram" is
// kernels.Spec.Gram into NewGram storage, "fit" is Fit (centring and
// Lanczos) on a copy made outside the timer, "gram+fit" both.
func BenchmarkFitDigits2000(b *testing.B) {
	objs := sqlDigits(b, 2000)
	spec, err := kernels.Parse("gauss(sigma=5.656854249492381)")
	if err != nil {
		b.Fatal(err)
	}
	n := len(objs)
	gramInto := func(K *Gram) {
		if err := spec.Gram(objs, K.Upper(), kernels.GramOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("gram", func(b *testing.B) {
		for b.Loop() {
			K := NewGram(n)
			gramInto(K)
			K.Release()
		}
	})
	ref := NewGram(n)
	gramInto(ref)
	b.Run("fit", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			K := NewGram(n)
			copy(K.Upper(), ref.Upper())
			b.StartTimer()
			m, err := K.Fit(Options{Components: 5})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(m.Products), "products")
		}
	})
	b.Run("gram+fit", func(b *testing.B) {
		for b.Loop() {
			K := NewGram(n)
			gramInto(K)
			if _, err := K.Fit(Options{Components: 5}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFitMapDigits: the kernel_map fit of the 1,797 digits (pixels
// /16, gauss(sigma=1)), the factorisation alone, the Gram matrix copied in
// before each run. The anchor is scipy.linalg.eigh of the same matrix
// (testdata/bench_eigh.py), what the map took before the pivoted
// Cholesky; see the note in testdata/README.md.
func BenchmarkFitMapDigits(b *testing.B) {
	X := digitsX(b)
	K := parallelGram(X, gauss(1))
	work := mat.NewSymDense(len(X), nil)
	var dim int
	for b.Loop() {
		work.CopySym(K)
		m, err := FitMap(work, MapOptions{})
		if err != nil {
			b.Fatal(err)
		}
		dim = m.Dim()
	}
	b.ReportMetric(float64(dim), "dim")
}
