package dense

import (
	"errors"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/ksql/ksql/internal/par"
)

// The symmetric eigenproblem as LAPACK's Dsyev solves it — Householder
// reduction to tridiagonal form (Dsytrd, 4n³/3 flops: 6 s for n = 2,000
// here), then the tridiagonal problem — with the reduction checking for an
// interrupt between pieces of a few milliseconds. The reduction is gonum's
// Dsytrd and Dlatrd, upper case (BSD-3-Clause), the same operations in the
// same order except that the rank-2k update of each panel is done a band
// of rows at a time (so its sums may differ from gonum's in the last
// bits). Everything runs on the calling goroutine or in gonum's own
// deterministic products, so results do not depend on the number of cores.

// ErrNoConvergence is a tridiagonal QL/QR iteration that did not converge.
var ErrNoConvergence = errors.New("the eigenvalue computation did not converge")

// tridiagPoll is the flops of one band of a panel's rank-2k update.
const tridiagPoll = 1 << 24

// EigenValues returns the eigenvalues, ascending, of the n×n symmetric
// matrix whose upper triangle is in a (row-major, stride lda), which it
// overwrites. poll (nil: none) is called every few milliseconds of work.
func EigenValues(a []float64, n, lda int, poll func() error) ([]float64, error) {
	if poll == nil {
		poll = noPoll
	}
	d, e, scale, err := reduce(a, n, lda, poll)
	if err != nil || n == 0 {
		return d, err
	}
	// The QL/QR iteration is O(n²), a second at the largest n: it runs
	// aside and is waited for with checks, on slices nothing else reads.
	// (Dsteqr without vectors, not Dsterf: gonum's Dsterf indexes out of
	// range when it rescales a block of tiny entries.)
	err = waitPolled("dense.EigenValues", poll, func() error {
		if !(gonum.Implementation{}).Dsteqr(lapack.EVCompNone, n, d, e, nil, 1, nil) {
			return ErrNoConvergence
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	unscale(d, scale)
	return d, nil
}

// EigenSym returns the eigenvalues, ascending, of the n×n symmetric matrix
// whose upper triangle is in a (row-major, stride lda) and leaves the
// matching unit eigenvectors in a's columns, as Dsyev does. The reduction
// checks poll every few milliseconds; the rest (forming Q, then the
// implicit QL/QR iteration with vectors) is LAPACK's, which cannot be
// stopped: it runs on another goroutine while poll is checked every 20 ms,
// and after an interrupt it finishes in the background, still writing to
// a, which the caller must then drop.
func EigenSym(a []float64, n, lda int, poll func() error) ([]float64, error) {
	if poll == nil {
		poll = noPoll
	}
	d, e, scale, err := reduce(a, n, lda, poll)
	if err != nil || n == 0 {
		return d, err
	}
	tau := e[n:]
	err = waitPolled("dense.EigenSym", poll, func() error {
		impl := gonum.Implementation{}
		work := []float64{0}
		impl.Dorgtr(blas.Upper, n, a, lda, tau, work, -1)
		work = make([]float64, max(int(work[0]), 2*n))
		impl.Dorgtr(blas.Upper, n, a, lda, tau, work, len(work))
		if !impl.Dsteqr(lapack.EVOrig, n, d, e, a, lda, work) {
			return ErrNoConvergence
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	unscale(d, scale)
	return d, nil
}

// waitPolled runs f on another goroutine and waits for it, checking poll
// every 20 ms; poll's error is returned at once.
func waitPolled(name string, poll func() error, f func() error) error {
	if err := poll(); err != nil {
		return err
	}
	done := par.Go(name, f)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			if err := poll(); err != nil {
				return err
			}
		}
	}
}

// reduce scales a into LAPACK's safe range as Dsyev does and reduces it
// to tridiagonal form: d (n), and e of length 2n whose first n−1 entries
// are the off-diagonal and whose second half holds τ.
func reduce(a []float64, n, lda int, poll func() error) (d, e []float64, scale float64, err error) {
	d, e = make([]float64, n), make([]float64, 2*n)
	if n == 0 {
		return d, e, 1, nil
	}
	if n == 1 {
		d[0] = a[0]
		a[0] = 1
		return d, e, 1, nil
	}
	scale = 1
	anrm := 0.0
	for i := 0; i < n; i++ {
		for _, v := range a[i*lda+i : i*lda+n] {
			anrm = math.Max(anrm, math.Abs(v))
		}
	}
	const smlnum = 0x1p-1022 / 0x1p-52
	if rmin, rmax := math.Sqrt(smlnum), math.Sqrt(1/smlnum); anrm > 0 && anrm < rmin {
		scale = rmin / anrm
	} else if anrm > rmax {
		scale = rmax / anrm
	}
	if scale != 1 {
		for i := 0; i < n; i++ {
			blas64.Implementation().Dscal(n-i, scale, a[i*lda+i:], 1)
		}
	}
	err = tridiagonal(a, n, lda, d, e[:n], e[n:], poll)
	return d, e, scale, err
}

func unscale(d []float64, scale float64) {
	if scale != 1 {
		for i := range d {
			d[i] /= scale
		}
	}
}

// tridiagonal is gonum's Dsytrd, upper case, with poll.
func tridiagonal(a []float64, n, lda int, d, e, tau []float64, poll func() error) error {
	impl := gonum.Implementation{}
	nb := impl.Ilaenv(1, "DSYTRD", "U", n, -1, -1, -1)
	nx := n
	if 1 < nb && nb < n {
		if nx = max(nb, impl.Ilaenv(3, "DSYTRD", "U", n, -1, -1, -1)); nx >= n {
			nx = n
		}
	} else {
		nb = 1
	}
	w := make([]float64, n*nb)
	kk := n - ((n-nx+nb-1)/nb)*nb
	for i := n - nb; i >= kk; i -= nb {
		if err := latrd(i+nb, nb, a, lda, e, tau, w, nb, poll); err != nil {
			return err
		}
		if err := syr2kBands(i, nb, a, lda, w, poll); err != nil {
			return err
		}
		for j := i; j < i+nb; j++ {
			a[(j-1)*lda+j] = e[j-1]
			d[j] = a[j*lda+j]
		}
	}
	if err := poll(); err != nil {
		return err
	}
	impl.Dsytd2(blas.Upper, kk, a, lda, d, e, tau)
	return nil
}

// syr2kBands is Dsyr2k(Upper, NoTrans, i, nb, −1, V, W, 1, A) with V the
// columns i..i+nb of a and W the panel's w: A[:i, :i] −= VWᵀ + WVᵀ, a band
// of rows at a time (its diagonal block, then the block right of it).
func syr2kBands(i, nb int, a []float64, lda int, w []float64, poll func() error) error {
	bi := blas64.Implementation()
	band := max(8, tridiagPoll/(4*nb*max(i, 1)))
	for r0 := 0; r0 < i; r0 += band {
		if err := poll(); err != nil {
			return err
		}
		r1 := min(i, r0+band)
		bi.Dsyr2k(blas.Upper, blas.NoTrans, r1-r0, nb, -1, a[r0*lda+i:], lda, w[r0*nb:], nb, 1, a[r0*lda+r0:], lda)
		if r1 < i {
			bi.Dgemm(blas.NoTrans, blas.Trans, r1-r0, i-r1, nb, -1, a[r0*lda+i:], lda, w[r1*nb:], nb, 1, a[r0*lda+r1:], lda)
			bi.Dgemm(blas.NoTrans, blas.Trans, r1-r0, i-r1, nb, -1, w[r0*nb:], nb, a[r1*lda+i:], lda, 1, a[r0*lda+r1:], lda)
		}
	}
	return nil
}

// latrd is gonum's Dlatrd, upper case, with poll before each column (one
// symmetric product with the leading block: up to a gigabyte read).
func latrd(n, nb int, a []float64, lda int, e, tau, w []float64, ldw int, poll func() error) error {
	bi := blas64.Implementation()
	impl := gonum.Implementation{}
	for i := n - 1; i >= n-nb; i-- {
		if err := poll(); err != nil {
			return err
		}
		iw := i - n + nb
		if i < n-1 {
			// Update A(0:i, i).
			bi.Dgemv(blas.NoTrans, i+1, n-i-1, -1, a[i+1:], lda, w[i*ldw+iw+1:], 1, 1, a[i:], lda)
			bi.Dgemv(blas.NoTrans, i+1, n-i-1, -1, w[iw+1:], ldw, a[i*lda+i+1:], 1, 1, a[i:], lda)
		}
		if i == 0 {
			continue
		}
		// Generate the reflector H_i that annihilates A(0:i-2, i).
		e[i-1], tau[i-1] = impl.Dlarfg(i, a[(i-1)*lda+i], a[i:], lda)
		a[(i-1)*lda+i] = 1
		// Compute W(0:i-1, i).
		bi.Dsymv(blas.Upper, i, 1, a, lda, a[i:], lda, 0, w[iw:], ldw)
		if i < n-1 {
			bi.Dgemv(blas.Trans, i, n-i-1, 1, w[iw+1:], ldw, a[i:], lda, 0, w[(i+1)*ldw+iw:], ldw)
			bi.Dgemv(blas.NoTrans, i, n-i-1, -1, a[i+1:], lda, w[(i+1)*ldw+iw:], ldw, 1, w[iw:], ldw)
			bi.Dgemv(blas.Trans, i, n-i-1, 1, a[i+1:], lda, a[i:], lda, 0, w[(i+1)*ldw+iw:], ldw)
			bi.Dgemv(blas.NoTrans, i, n-i-1, -1, w[iw+1:], ldw, w[(i+1)*ldw+iw:], ldw, 1, w[iw:], ldw)
		}
		bi.Dscal(i, tau[i-1], w[iw:], ldw)
		alpha := -0.5 * tau[i-1] * bi.Ddot(i, w[iw:], ldw, a[i:], lda)
		bi.Daxpy(i, alpha, a[i:], lda, w[iw:], ldw)
	}
	return nil
}
