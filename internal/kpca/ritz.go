package kpca

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// ritzWork holds the buffers of check and the tridiagonal form of the
// arrowhead block that a restart leaves at the top of the projected matrix.
type ritzWork struct {
	a, d, e, tau, z []float64
	// arrow is the order of that block (keep+1 after a restart, 0 before
	// the first); d0, e0 hold its tridiagonal form once reduced.
	arrow     int
	arrowDone bool
	d0, e0    []float64
}

func newRitzWork(mmax int) *ritzWork {
	return &ritzWork{
		a: make([]float64, mmax*mmax), d: make([]float64, mmax), e: make([]float64, mmax),
		tau: make([]float64, mmax), z: make([]float64, mmax),
		d0: make([]float64, mmax), e0: make([]float64, mmax),
	}
}

// restarted records that rows 0..keep of the projected matrix now form an
// arrowhead (diagonal Ritz values coupled to row keep).
func (w *ritzWork) restarted(keep int) { w.arrow, w.arrowDone = keep+1, false }

// check returns the eigenvalues (ascending) of the leading j×j block of the
// projected matrix H and the last components of the matching unit
// eigenvectors: all a convergence test needs, in O(j²) where a full
// eigendecomposition costs O(j³).
//
// H is tridiagonal, up to the rounding-level entries that full
// reorthogonalisation records above the superdiagonal (ignored here: they
// move the Ritz values by ~ε·‖A‖; the final Ritz pairs come from all of
// H), except for the arrowhead block after a restart. That block does not
// change until the next restart, so it is reduced to tridiagonal form
// once, by Householder reflections from the bottom (LAPACK's Dsytd2 with
// the upper triangle), which leave its last coordinate, keep, alone: the
// whole matrix is then Q·T·Qᵀ with T tridiagonal and Q's last row e_jᵀ,
// so the last row of H's eigenvector matrix Q·Z is the last row of Z.
// It reports false if the QL iteration fails to converge (the caller then
// uses smallEigen).
func (w *ritzWork) check(H []float64, stride, j int) (theta, last []float64, ok bool) {
	d, e, z := w.d[:j], w.e[:j], w.z[:j]
	lo := 0
	if m := w.arrow; m > 0 && j >= m {
		if !w.arrowDone {
			a := w.a[:m*m]
			for r := 0; r < m; r++ {
				copy(a[r*m+r:(r+1)*m], H[r*stride+r:r*stride+m])
			}
			gonum.Implementation{}.Dsytd2(blas.Upper, m, a, m, w.d0[:m], w.e0[:m], w.tau)
			w.arrowDone = true
		}
		copy(d, w.d0[:m])
		copy(e, w.e0[:m-1])
		lo = m - 1
	}
	for i := lo; i < j; i++ {
		d[i] = H[i*stride+i]
		if i+1 < j {
			e[i] = H[i*stride+i+1]
		}
	}
	e[j-1] = 0
	clear(z)
	z[j-1] = 1
	if !tqlLast(d, e, z) {
		return nil, nil, false
	}
	// Insertion sort: j is small and the values come nearly sorted.
	for i := 1; i < j; i++ {
		for k := i; k > 0 && d[k] < d[k-1]; k-- {
			d[k], d[k-1] = d[k-1], d[k]
			z[k], z[k-1] = z[k-1], z[k]
		}
	}
	return d, z, true
}

// tqlLast diagonalises the symmetric tridiagonal matrix with diagonal d
// and off-diagonal e (e[i] couples i and i+1; e[len(d)-1] is workspace) by
// the implicit QL method with Wilkinson shifts (tql2 of EISPACK, as in
// Numerical Recipes' tqli), overwriting d with the eigenvalues, unsorted.
// Every plane rotation is applied to the row vector z only, so that a z
// that starts as a row of the identity ends as that row of the eigenvector
// matrix, for O(1) work per rotation instead of O(n). It reports false if
// an eigenvalue needs more than 30 iterations.
func tqlLast(d, e, z []float64) bool {
	n := len(d)
	e[n-1] = 0
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				dd := math.Abs(d[m]) + math.Abs(d[m+1])
				if math.Abs(e[m])+dd == dd {
					break
				}
			}
			if m == l {
				break
			}
			if iter == 30 {
				return false
			}
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := m - 1
			for ; i >= l; i-- {
				f, b := s*e[i], c*e[i]
				r = hypot(f, g)
				e[i+1] = r
				if r == 0 { // underflow: deflate and start over
					d[i+1] -= p
					e[m] = 0
					break
				}
				s, c = f/r, g/r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
				z[i], z[i+1] = c*z[i]-s*z[i+1], s*z[i]+c*z[i+1]
			}
			if r == 0 && i >= l {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return true
}

// hypot is math.Hypot without its scaling where the squares cannot
// overflow or underflow to a loss of accuracy.
func hypot(a, b float64) float64 {
	a, b = math.Abs(a), math.Abs(b)
	if a < b {
		a, b = b, a
	}
	if a < 0x1p500 && (b > 0x1p-500 || b == 0) {
		return math.Sqrt(a*a + b*b)
	}
	return math.Hypot(a, b)
}
