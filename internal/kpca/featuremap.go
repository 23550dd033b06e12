package kpca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/par"
)

// MapOptions configure FitMap.
type MapOptions struct {
	// RelTol is the tolerance of the pivoted Cholesky factorisation,
	// relative to the largest diagonal entry of K: the factorisation stops
	// once every remaining diagonal entry of the Schur complement is at or
	// below RelTol·max_i K_ii, and the objects left are represented through
	// the r pivots. 0 means the default n·ε (LAPACK's, ε = 2⁻⁵²).
	//
	// Why the error stays small: for a positive semi-definite kernel the
	// Schur complement S left over is PSD, so |S_iz| ≤ sqrt(S_ii·S_zz), and
	// ⟨φ(x_i), φ(z)⟩ differs from k(x_i, z) by exactly S_iz: at most
	// RelTol·max K_ii for training pairs, sqrt(RelTol)-like for new objects
	// relative to sqrt(k(x_i,x_i)·k(z,z)) (measured: below 1e-9 on iris and
	// the digits at the default).
	RelTol float64
	// Interrupt is polled as in Options: before the factorisation, before
	// each of its columns and each band of rows of its updates (see
	// pstrf), and after it.
	Interrupt func() error
}

// Map is the exact explicit feature map of Ghiasi-Shirazi & Qaraei for n
// training objects x_1..x_n: any Φ with ΦΦᵀ = K gives a map
//
//	φ(z) = Φ⁺·[k(x_1, z), …, k(x_n, z)]ᵀ  with  ⟨φ(x_i), φ(z)⟩ = k(x_i, z),
//
// the paper's K^(−1/2) being one choice. Map takes the pivoted Cholesky
// factor, PᵀKP = UᵀU with U upper triangular (LAPACK's Dpstrf, blocked, polled every few milliseconds,
// n³/3 flops: about 0.4 s at n = 1,797 here, where the eigendecomposition
// of K took 20 s): training object x_i maps to its column of U's first r
// rows, and a new object to y = U₁⁻ᵀ·[k(x_p, z)] over the r pivots p, U₁
// being U's leading r×r block (O(r²) per object, and only the pivots'
// kernel values matter). For a positive semi-definite kernel
// ⟨φ(x_i), φ(z)⟩ = k(x_i, z) exactly for the pivots and up to the
// tolerance for the other objects (see MapOptions.RelTol). The dimension r
// is the numerical rank: n when K is well conditioned, less when objects
// coincide or the kernel has low rank. Coordinates are those of the
// Cholesky basis, not of K's eigenbasis: inner products and distances are
// what the map preserves. Pivots are chosen by largest remaining
// diagonal (LAPACK's rule), so the vectors are deterministic.
//
// A Map is immutable and safe for concurrent use.
type Map struct {
	// Dropped counts the objects that are not pivots (n − r); Tolerance
	// is the absolute stopping tolerance; MinResidual is the smallest
	// diagonal entry of the Schur complement left over (0 when r = n),
	// slightly negative from rounding for a PSD kernel.
	Dropped     int
	Tolerance   float64
	MinResidual float64

	n, r int
	piv  []int     // piv[p]: the object at pivot position p (all n)
	pos  []int     // pos[i]: the pivot position of object i
	u    []float64 // r×n row-major: U's first r rows, columns in pivot order
}

// FitMap computes the feature map of the n×n Gram matrix K (upper triangle
// read; nil or empty means n = 0). Like Fit it uses K as workspace,
// destroying it (Gram.FitMap does the same on recycled storage), and where
// the rank r is at least n/2 the map keeps K's storage as its factor (K
// must not be used again); otherwise peak memory is K plus r·n values. Errors: ErrNoObjects; a non-finite entry;
// a kernel that is not positive semi-definite on the data (a diagonal
// entry, or one of the Schur complement, below −ZeroTol·max K_ii: no real
// feature map reproduces it); a zero Gram matrix; Interrupt's error.
func FitMap(K *mat.SymDense, opt MapOptions) (*Map, error) { return fitMap(K, opt, nil) }

// fitMap is FitMap; done is as in fitExact.
func fitMap(K *mat.SymDense, opt MapOptions, done func(reuse bool)) (*Map, error) {
	recycle := true // as in fitExact
	if done != nil {
		defer func() { done(recycle) }()
	}
	if K == nil || K.IsEmpty() {
		return nil, ErrNoObjects
	}
	raw := K.RawSymmetric()
	n, stride := raw.N, raw.Stride
	poll := noPoll
	if opt.Interrupt != nil {
		poll = opt.Interrupt
	}
	diag, top, err := checkMapGram(raw.Data, n, stride, poll)
	if err != nil {
		return nil, err
	}
	rel := opt.RelTol
	if rel <= 0 {
		rel = float64(n) * eps
	}
	m := &Map{Tolerance: rel * top, n: n, piv: make([]int, n), pos: make([]int, n)}
	r, err := pstrf(raw.Data, n, stride, m.piv, m.Tolerance, poll)
	if err == nil {
		err = poll()
	}
	if err != nil {
		return nil, err
	}
	m.r, m.Dropped = r, n-r
	for p, i := range m.piv {
		m.pos[i] = p
	}
	kept, err := m.keepU(raw.Data, stride, poll)
	if err != nil {
		return nil, err
	}
	recycle = !kept
	if err := m.checkResidual(diag, top); err != nil {
		return nil, err
	}
	return m, nil
}

// keepU sets m.u to U's first r rows, the lower triangle (K's stale
// entries) zeroed, on every core: a full-rank map of 5,391 objects is a
// quarter of a gigabyte, which one core took a tenth of a second to clear
// and copy. Where U fills at least half of K's rows (stride n), K's own
// storage becomes u (kept reports it) instead of a copy.
func (m *Map) keepU(a []float64, stride int, poll func() error) (kept bool, err error) {
	n, r := m.n, m.r
	kept = stride == n && 2*r >= n
	if kept {
		m.u = a[: r*n : r*n]
	} else {
		m.u = make([]float64, r*n)
	}
	const rows = 64
	err = par.For("kpca: feature map", (r+rows-1)/rows, 0, 1, func(_, c int) error {
		if err := poll(); err != nil {
			return err
		}
		for k := c * rows; k < min(r, (c+1)*rows); k++ {
			if kept {
				clear(m.u[k*n : k*n+k])
			} else {
				copy(m.u[k*n+k:(k+1)*n], a[k*stride+k:k*stride+n])
			}
		}
		return nil
	})
	return kept, err
}

// NegativeDiagonalError is a kernel whose k(x, x) is negative for object
// Object (an index, for the caller to name): the kernel is not positive
// semi-definite on the data, so no feature map reproduces it.
type NegativeDiagonalError struct {
	Object int
	Value  float64
}

func (e *NegativeDiagonalError) Error() string {
	return fmt.Sprintf("the kernel is not positive semi-definite on this data (k(x, x) = %.6g for object %d), so no feature map reproduces it", e.Value, e.Object)
}

// checkMapGram checks K's upper triangle for non-finite entries and its
// diagonal for negative ones, and returns the diagonal and its maximum.
func checkMapGram(a []float64, n, stride int, poll func() error) ([]float64, float64, error) {
	diag := make([]float64, n)
	top := 0.0
	for i := 0; i < n; i++ {
		if i%256 == 0 {
			if err := poll(); err != nil {
				return nil, 0, err
			}
		}
		for j := i; j < n; j++ {
			if v := a[i*stride+j]; v-v != 0 { // NaN or ±Inf
				return nil, 0, &NonFiniteError{Row: i, Col: j, Landmark: -1, Value: v}
			}
		}
		diag[i] = a[i*stride+i]
		top = math.Max(top, diag[i])
	}
	if top <= 0 {
		return nil, 0, fmt.Errorf("the Gram matrix has no positive diagonal entry (largest %.6g): the kernel is zero or not positive semi-definite on this data", top)
	}
	for i, d := range diag {
		if d < -ZeroTol*top {
			return nil, 0, &NegativeDiagonalError{Object: i, Value: d}
		}
	}
	return diag, top, nil
}

// checkResidual computes the diagonal of the Schur complement left over,
// K_ii − ‖φ(x_i)‖², for the objects that are not pivots: a PSD kernel
// leaves it between −rounding and the tolerance, an indefinite one
// (whose factorisation stopped on a negative pivot) well below zero.
func (m *Map) checkResidual(diag []float64, top float64) error {
	for p := m.r; p < m.n; p++ {
		s := diag[m.piv[p]]
		for k := 0; k < m.r; k++ {
			x := m.u[k*m.n+p]
			s -= x * x
		}
		m.MinResidual = math.Min(m.MinResidual, s)
	}
	if m.MinResidual < -ZeroTol*top {
		return fmt.Errorf("the kernel is not positive semi-definite on this data (a Schur complement entry %.6g, largest k(x, x) %.6g), so no feature map reproduces it", m.MinResidual, top)
	}
	return nil
}

// Dim returns r, the length of the vectors the map returns.
func (m *Map) Dim() int { return m.r }

// N returns the number of training objects.
func (m *Map) N() int { return m.n }

// Stored writes φ(x_i) of training object i into dst (length Dim();
// allocated if nil) and returns it: its column of U, which equals Apply of
// x_i's kernel row up to rounding.
func (m *Map) Stored(i int, dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, m.r)
	}
	p := m.pos[i]
	for k := range dst {
		dst[k] = m.u[k*m.n+p]
	}
	return dst
}

// Apply writes φ(z) into dst (length Dim(); allocated if nil) given
// kz[i] = k(x_i, z) for the n training objects in order. It costs O(r²),
// allocates nothing when dst is given, and fails on a wrong length or a
// non-finite kernel value.
func (m *Map) Apply(kz, dst []float64) ([]float64, error) {
	if len(kz) != m.n {
		return nil, fmt.Errorf("got %d kernel values for a new object but the map needs %d (one per training object)", len(kz), m.n)
	}
	if dst == nil {
		dst = make([]float64, m.r)
	}
	if len(dst) != m.r {
		return nil, fmt.Errorf("the output has room for %d values but the map has dimension %d", len(dst), m.r)
	}
	if _, err := rowMean(kz); err != nil {
		return nil, err
	}
	for p := range dst {
		dst[p] = kz[m.piv[p]]
	}
	if m.r > 0 {
		// U₁ᵀ·y = k_piv: U₁ is the leading r×r block of u (stride n).
		blas64.Trsv(blas.Trans, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: m.r, Stride: m.n, Data: m.u}, vec(dst))
	}
	return dst, nil
}
