package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gramLike is a Gaussian Gram matrix of n random points in the unit
// square plus 1e-3·I: what an exact krr fit factors.
func gramLike(n int) []float64 {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = r.Float64(), r.Float64()
	}
	A := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			v := math.Exp(-(dx*dx + dy*dy) / 0.5)
			if i == j {
				v += 1e-3
			}
			A[i*n+j], A[j*n+i] = v, v
		}
	}
	return A
}

// BenchmarkCholesky times the blocked factorisation against gonum's
// Dpotrf (mat.Cholesky), the one call it replaced, on the same matrices.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{1000, 2000, 4500} {
		A := gramLike(n)
		work := make([]float64, len(A))
		b.Run(fmt.Sprintf("blocked/n=%d", n), func(b *testing.B) {
			var w CholWork
			for b.Loop() {
				copy(work, A)
				if ok, err := w.Cholesky(work, n, n, nil); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
		b.Run(fmt.Sprintf("gonum/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(work, A)
				var ch mat.Cholesky
				if !ch.Factorize(mat.NewSymDense(n, work)) {
					b.Fatal("not PD")
				}
			}
		})
	}
}

// BenchmarkEigenValues times the polled reduction and QL/QR iteration
// against gonum's Dsyev without vectors (mat.EigenSym), which
// kernel_spectrum called before.
func BenchmarkEigenValues(b *testing.B) {
	for _, n := range []int{500, 2000} {
		A := gramLike(n)
		work := make([]float64, len(A))
		b.Run(fmt.Sprintf("polled/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(work, A)
				if _, err := EigenValues(work, n, n, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gonum/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(work, A)
				var eig mat.EigenSym
				if !eig.Factorize(mat.NewSymDense(n, work), false) {
					b.Fatal("no convergence")
				}
			}
		})
	}
}

// BenchmarkEigenSym times the eigendecomposition with vectors (polled
// reduction, then LAPACK's) against gonum's Dsyev (mat.EigenSym), which
// kpca's dense solver called before.
func BenchmarkEigenSym(b *testing.B) {
	const n = 1000
	A := gramLike(n)
	work := make([]float64, len(A))
	b.Run("polled", func(b *testing.B) {
		for b.Loop() {
			copy(work, A)
			if _, err := EigenSym(work, n, n, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for b.Loop() {
			copy(work, A)
			var eig mat.EigenSym
			if !eig.Factorize(mat.NewSymDense(n, work), true) {
				b.Fatal("no convergence")
			}
		}
	})
}
