package kpca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// MapOptions configure FitMap.
type MapOptions struct {
	// RelTol is the pseudo-inverse tolerance relative to the largest
	// eigenvalue: eigenvalues λ ≤ RelTol·λ_max are dropped. 0 means the
	// default ε = 2⁻⁵² ≈ 2.2e-16, the rounding level of λ_max.
	//
	// Why so small: dropping eigenvalue λ_j changes ⟨φ(x_i), φ(z)⟩ by
	// u_ij·(u_jᵀk(z)), and |u_jᵀk(z)| ≤ sqrt(λ_j·k(z, z)) for a PSD kernel, so
	// the error grows like sqrt(RelTol) (measured on iris with gauss(sigma=5):
	// 9e-10 at ε, 2e-8 at n·ε, 2e-6 at 1e-10). Keeping a tiny λ_j costs
	// nothing in ⟨Stored(i), Apply(z)⟩, whose j-th term u_ij·(u_jᵀk(z)) does
	// not involve λ_j. Apply's own coordinates (u_jᵀk(z))/sqrt(λ_j) do carry
	// rounding error ~ε·‖k(z)‖/sqrt(λ_j), so the inner product of two Apply
	// results is less accurate: store training objects with Stored, not Apply.
	// Eigenvalues below ε·λ_max are rounding noise and are always dropped.
	RelTol float64
	// Interrupt is polled as in Options.
	Interrupt func() error
}

// Map is the exact explicit feature map of Ghiasi-Shirazi & Qaraei for n
// training objects x_1..x_n: with K = U·Λ·Uᵀ the eigendecomposition of
// their Gram matrix,
//
//	φ(z) = K^(−1/2)·[k(x_1, z), …, k(x_n, z)]ᵀ,
//
// K^(−1/2) being the pseudo-inverse square root U_r·Λ_r^(−1/2)·U_rᵀ over the
// r eigenvalues above the tolerance. Map returns φ(z) in the orthonormal
// basis U_r of K's numerical range, that is the r coordinates
// Λ_r^(−1/2)·U_rᵀ·k(z): the n-vector of the formula is U_r times it, and
// is zero outside that range, so inner products and distances are the same
// in r dimensions and the vectors are shorter. Hence
//
//	⟨φ(x_i), φ(z)⟩ = k(x_iᵀ)·K⁺·k(z) = k(x_i, z)
//
// for every training object x_i and any z, up to the dropped eigenvalues
// (exactly so for a positive semi-definite kernel, whose k(z) lies in the
// range of K). The training objects map to φ(x_i) = Λ_r^(1/2)·U_rᵀ·e_i.
// The sign of each basis vector u_j follows the sign rule of Fit (largest
// |entry| positive, lowest index on ties), so the coordinates are
// deterministic. The dimension r depends on the data: it is n when K is
// non-singular, less when objects coincide or the kernel has low rank.
//
// A Map is immutable and safe for concurrent use.
type Map struct {
	// Eigenvalues are the r kept eigenvalues of K, descending.
	Eigenvalues []float64
	// Dropped counts the eigenvalues at or below Tolerance, negative ones
	// included; MinEigenvalue is the smallest of all n.
	Dropped       int
	Tolerance     float64
	MinEigenvalue float64

	n, r int
	coef []float64 // n×r: U_r·Λ_r^(−1/2), so φ(z) = coefᵀ·k(z)
}

// FitMap computes the feature map of the n×n Gram matrix K (upper triangle
// read; nil or empty means n = 0). Like Fit it uses K as workspace,
// destroying it (Gram.FitMap does the same on recycled storage), and
// costs one dense O(n³) eigendecomposition (about 16 s
// at n = 2,000 on a 2-core machine, 0.2 s at n = 500); peak memory is K
// plus n·r values. Errors: ErrNoObjects; a non-finite entry; a kernel that
// is not positive semi-definite on the data (an eigenvalue below
// −ZeroTol·λ_max: no real feature map reproduces it); a zero Gram matrix;
// Interrupt's error.
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
	for i := 0; i < n; i++ {
		if i%256 == 0 {
			if err := poll(); err != nil {
				return nil, err
			}
		}
		for j := i; j < n; j++ {
			if v := raw.Data[i*stride+j]; v-v != 0 { // NaN or ±Inf
				return nil, &NonFiniteError{Row: i, Col: j, Landmark: -1, Value: v}
			}
		}
	}
	w, err := syevPolled(raw.Data, n, stride, poll)
	if err != nil {
		recycle = false
		return nil, err
	}
	top := w[n-1]
	if top <= 0 {
		return nil, fmt.Errorf("the Gram matrix has no positive eigenvalue (largest %.6g): the kernel is zero or not positive semi-definite on this data", top)
	}
	if w[0] < -ZeroTol*top {
		return nil, fmt.Errorf("the kernel is not positive semi-definite on this data (Gram matrix eigenvalue %.6g, largest %.6g), so no feature map reproduces it", w[0], top)
	}
	rel := opt.RelTol
	if rel <= 0 {
		rel = eps
	}
	m := &Map{Tolerance: rel * top, MinEigenvalue: w[0], n: n}
	for m.r < n && w[n-1-m.r] > m.Tolerance {
		m.r++
	}
	m.Dropped = n - m.r
	m.Eigenvalues = make([]float64, m.r)
	m.coef = make([]float64, n*m.r)
	for j := 0; j < m.r; j++ {
		m.Eigenvalues[j] = w[n-1-j]
		for i := 0; i < n; i++ {
			m.coef[i*m.r+j] = raw.Data[i*stride+n-1-j]
		}
	}
	fixSigns(m.coef, n, m.r)
	for j, lam := range m.Eigenvalues {
		s := 1 / math.Sqrt(lam)
		for i := 0; i < n; i++ {
			m.coef[i*m.r+j] *= s
		}
	}
	return m, nil
}

// Dim returns r, the length of the vectors the map returns.
func (m *Map) Dim() int { return m.r }

// N returns the number of training objects.
func (m *Map) N() int { return m.n }

// Stored writes φ(x_i) of training object i into dst (length Dim();
// allocated if nil) and returns it: λ_j^(1/2)·u_ij, which equals Apply of
// x_i's kernel row up to rounding.
func (m *Map) Stored(i int, dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, m.r)
	}
	row := m.coef[i*m.r : (i+1)*m.r]
	for j, lam := range m.Eigenvalues {
		dst[j] = row[j] * lam // u_ij·λ_j^(−1/2)·λ_j
	}
	return dst
}

// Apply writes φ(z) into dst (length Dim(); allocated if nil) given
// kz[i] = k(x_i, z) for the n training objects in order. It costs O(n·r),
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
	blas64.Gemv(blas.Trans, 1, blas64.General{Rows: m.n, Cols: m.r, Stride: m.r, Data: m.coef}, vec(kz), 0, vec(dst))
	return dst, nil
}
