package dense

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// mulWork is the multiply–adds of one band of Mul: a few milliseconds.
const mulWork = 1 << 23

// Mul sets the rows×cols matrix D = op(A)·B (all row-major), op(A) being
// A (rows×k, stride lda) or, with trans, Aᵀ (A k×rows), by gonum's Dgemm a
// band of D's rows at a time with poll (nil: none) before each: products
// of thousands of landmarks are seconds. Each row of D is the same sums
// whatever the band.
func Mul(trans bool, rows, cols, k int, A []float64, lda int, B []float64, ldb int, D []float64, ldd int, poll func() error) error {
	if poll == nil {
		poll = noPoll
	}
	band := max(1, mulWork/max(1, cols*k))
	bi := blas64.Implementation()
	for r0 := 0; r0 < rows; r0 += band {
		if err := poll(); err != nil {
			return err
		}
		rb := min(band, rows-r0)
		if trans {
			bi.Dgemm(blas.Trans, blas.NoTrans, rb, cols, k, 1, A[r0:], lda, B, ldb, 0, D[r0*ldd:], ldd)
		} else {
			bi.Dgemm(blas.NoTrans, blas.NoTrans, rb, cols, k, 1, A[r0*lda:], lda, B, ldb, 0, D[r0*ldd:], ldd)
		}
	}
	return nil
}
