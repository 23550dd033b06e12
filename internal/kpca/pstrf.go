package kpca

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// pstrf is LAPACK's blocked pivoted Cholesky on the upper triangle of a,
// PᵀAP = UᵀU with tolerance tol ≥ 0, returning the rank and piv (0-based).
// It is gonum's Dpstrf, upper case (BSD-3-Clause, same operations in the
// same order), with poll called between blocks of columns: a kernel map
// of 5,000 objects factors for seconds, and an interrupted statement must
// stop within one block, not at the end.
func pstrf(a []float64, n, lda int, piv []int, tol float64, poll func() error) (int, error) {
	impl := gonum.Implementation{}
	nb := impl.Ilaenv(1, "DPOTRF", "U", n, -1, -1, -1)
	if n == 0 {
		return 0, nil
	}
	if nb <= 1 || n <= nb {
		r, _ := impl.Dpstf2(blas.Upper, n, a, lda, piv, tol, make([]float64, 2*n))
		return r, nil
	}
	for i := range piv {
		piv[i] = i
	}
	ajj := a[0]
	for i := 1; i < n; i++ {
		if aii := a[i*lda+i]; aii > ajj { // not max: LAPACK's NaN handling
			ajj = aii
		}
	}
	if ajj <= 0 || math.IsNaN(ajj) {
		return 0, nil
	}
	dots, work := make([]float64, n), make([]float64, n)
	for k := 0; k < n; k += nb {
		if err := poll(); err != nil {
			return 0, err
		}
		jb := min(nb, n-k)
		if r, done := pstrfPanel(a, n, lda, piv, tol, k, jb, dots, work); done {
			return r, nil
		}
		if j := k + jb; j < n {
			blas64.Implementation().Dsyrk(blas.Upper, blas.Trans, n-j, jb, -1, a[k*lda+j:], lda, 1, a[j*lda+j:], lda)
		}
	}
	return n, nil
}

// pstrfPanel factors columns k..k+jb−1 with pivoting (Dpstrf's inner
// loop); done reports that the remaining diagonal fell to tol at column r.
func pstrfPanel(a []float64, n, lda int, piv []int, tol float64, k, jb int, dots, work []float64) (r int, done bool) {
	bi := blas64.Implementation()
	for i := k; i < n; i++ {
		dots[i] = 0
	}
	for j := k; j < k+jb; j++ {
		for i := j; i < n; i++ {
			if j > k {
				tmp := a[(j-1)*lda+i]
				dots[i] += tmp * tmp
			}
			work[i] = a[i*lda+i] - dots[i]
		}
		pvt, ajj := j, a[j*lda+j]
		if j > 0 {
			ajj = work[pvt]
			for l := j + 1; l < n; l++ {
				if wl := work[l]; wl > ajj {
					pvt, ajj = l, wl
				}
			}
			if ajj <= tol || math.IsNaN(ajj) {
				a[j*lda+j] = ajj
				return j, true
			}
		} else {
			for l := 1; l < n; l++ { // the first pivot: the largest diagonal
				if a[l*lda+l] > ajj {
					pvt, ajj = l, a[l*lda+l]
				}
			}
		}
		if j != pvt {
			a[pvt*lda+pvt] = a[j*lda+j]
			bi.Dswap(j, a[j:], lda, a[pvt:], lda)
			if pvt < n-1 {
				bi.Dswap(n-pvt-1, a[j*lda+(pvt+1):], 1, a[pvt*lda+(pvt+1):], 1)
			}
			bi.Dswap(pvt-j-1, a[j*lda+(j+1):], 1, a[(j+1)*lda+pvt:], lda)
			dots[j], dots[pvt] = dots[pvt], dots[j]
			piv[j], piv[pvt] = piv[pvt], piv[j]
		}
		ajj = math.Sqrt(ajj)
		a[j*lda+j] = ajj
		if j < n-1 {
			bi.Dgemv(blas.Trans, j-k, n-j-1, -1, a[k*lda+j+1:], lda, a[k*lda+j:], lda, 1, a[j*lda+j+1:], 1)
			bi.Dscal(n-j-1, 1/ajj, a[j*lda+j+1:], 1)
		}
	}
	return 0, false
}
