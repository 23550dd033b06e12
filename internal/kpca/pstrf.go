package kpca

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/ksql/ksql/internal/par"
)

// pstrf is LAPACK's blocked pivoted Cholesky on the upper triangle of a,
// PᵀAP = UᵀU with tolerance tol ≥ 0, returning the rank and piv (0-based).
// It is gonum's Dpstrf, upper case (BSD-3-Clause, same operations in the
// same order), with poll called before every column of a panel and every
// band of rows of the trailing update: a kernel map of 30,000 objects
// factors for minutes, one block of 64 columns for seconds, and an
// interrupted statement must stop within milliseconds.
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
		jb := min(nb, n-k)
		r, done, err := pstrfPanel(a, n, lda, piv, tol, k, jb, dots, work, poll)
		if err != nil || done {
			return r, err
		}
		if j := k + jb; j < n {
			if err := syrkRows(n-j, jb, a[k*lda+j:], lda, a[j*lda+j:], lda, poll); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

// syrkRows is Dsyrk(Upper, Trans, m, k, −1, p, ldp, 1, c, ldc) — the
// trailing update c −= pᵀp — in bands of rows shared among workers, with
// poll before each band: at n = 30,000 the whole update is seconds. Each
// row is gonum's loop for that row (axpys in the same order), so the bits
// are Dsyrk's whatever the number of workers.
func syrkRows(m, k int, p []float64, ldp int, c []float64, ldc int, poll func() error) error {
	const bandWork = 1 << 23 // multiply–adds: a few milliseconds
	band := max(1, bandWork/(k*m))
	bi := blas64.Implementation()
	return par.For("kpca: pivoted Cholesky", (m+band-1)/band, 0, 1, func(_, b int) error {
		if err := poll(); err != nil {
			return err
		}
		for i := b * band; i < min(m, (b+1)*band); i++ {
			row := c[i*ldc+i : i*ldc+m]
			for l := 0; l < k; l++ {
				if f := -p[l*ldp+i]; f != 0 {
					bi.Daxpy(m-i, f, p[l*ldp+i:l*ldp+m], 1, row, 1)
				}
			}
		}
		return nil
	})
}

// pstrfPanel factors columns k..k+jb−1 with pivoting (Dpstrf's inner
// loop); done reports that the remaining diagonal fell to tol at column r.
// poll is called before each column (O(jb·n) work).
func pstrfPanel(a []float64, n, lda int, piv []int, tol float64, k, jb int, dots, work []float64, poll func() error) (r int, done bool, err error) {
	bi := blas64.Implementation()
	for i := k; i < n; i++ {
		dots[i] = 0
	}
	for j := k; j < k+jb; j++ {
		if err := poll(); err != nil {
			return 0, false, err
		}
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
				return j, true, nil
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
	return 0, false, nil
}
