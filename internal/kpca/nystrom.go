package kpca

import (
	"errors"
	"fmt"
	"github.com/ksql/ksql/internal/dense"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/nystrom"
	"github.com/ksql/ksql/internal/par"
)

// SampleLandmarks chooses m distinct indices out of 0..n−1, uniformly at
// random as determined by seed, and returns them in ascending order. When
// m ≥ n it returns all n indices (Nyström with every object as a landmark
// is exact kernel PCA).
//
// The choice is reproducible on every machine and Go release: the generator
// is SplitMix64 seeded with seed (state += 0x9e3779b97f4a7c15, then the
// finaliser z = (z ^ z>>30)·0xbf58476d1ce4e5b9, z = (z ^ z>>27)·0x94d049bb133111eb,
// z ^ z>>31), and a partial Fisher–Yates shuffle of the identity
// permutation p: for i = 0..m−1, j = i + below(n − i), swap p[i] and p[j],
// where below(b) draws x and returns the high 64 bits of x·b, redrawing
// while the low 64 bits are < 2⁶⁴ mod b (Lemire's unbiased method). The
// landmarks are p[0..m−1], sorted.
func SampleLandmarks(n, m int, seed uint64) ([]int, error) {
	if n <= 0 {
		return nil, ErrNoObjects
	}
	if m <= 0 {
		return nil, fmt.Errorf("%d landmarks requested: at least 1 is needed", m)
	}
	if m >= n {
		p := make([]int, n)
		for i := range p {
			p[i] = i
		}
		return p, nil
	}
	rng := splitMix64{seed}
	p := make([]int, m)
	if 8*m >= n { // many of n: the whole permutation is the smaller
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		for i := 0; i < m; i++ {
			j := i + int(rng.below(uint64(n-i)))
			all[i], all[j] = all[j], all[i]
		}
		copy(p, all)
	} else {
		// only the entries that left their place: 500 landmarks of a
		// million rows need a thousand, not 8 MB
		moved := make(map[int]int, 2*m)
		at := func(i int) int {
			if v, ok := moved[i]; ok {
				return v
			}
			return i
		}
		for i := 0; i < m; i++ {
			j := i + int(rng.below(uint64(n-i)))
			moved[i], moved[j] = at(j), at(i)
		}
		for i := range p {
			p[i] = at(i)
		}
	}
	slices.Sort(p)
	return p, nil
}

// NystromBytes estimates the peak memory of FitNystrom in bytes: the n×m
// kernel block, the landmark matrices and the projections.
func NystromBytes(n, m, k int) int64 {
	n64, m64, k64 := int64(n), int64(m), int64(k)
	return 8 * (n64*m64 + 4*m64*m64 + 256*m64 + n64*k64 + m64*k64)
}

// ExactBytes returns the memory of the n×n float64 Gram matrix that Fit and
// FitMap work in. Fit's peak is about ExactBytes(n) (plus O(n·k)); FitMap's
// up to twice that, as its result holds n·r more values (r ≤ n).
func ExactBytes(n int) int64 { return 8 * int64(n) * int64(n) }

// RowFunc fills dst[l] = k(x_i, x_{landmarks[l]}) for every landmark l
// (len(dst) = m). Calls with different worker numbers, in [0, Workers), run
// concurrently, so the callee can keep one workspace per worker; calls with
// the same worker number never overlap. An error stops the fit and is
// returned by it.
type RowFunc func(worker, i int, dst []float64) error

// FitNystrom computes kernel PCA on the Nyström approximation of the
// n×n Gram matrix built from the given landmarks (ascending training
// indices, as from SampleLandmarks), in O(n·m²) time and O(n·m) memory:
//
//   - C = K[:, L] (n×m, from row), W = K[L, L] = C[L, :] (m×m);
//   - W = U·Σ·Uᵀ; eigenvalues σ ≤ m·ε·σ_max (ε = 2⁻⁵²), and negative ones,
//     are dropped, leaving r; the features Φ = C·U_r·Σ_r^(−1/2) (n×r)
//     satisfy ΦΦᵀ = C·W⁺·Cᵀ, the Nyström approximation of K;
//   - Φ's columns are centred by their means μ, and PCA is done on the
//     r×r matrix S = Φ_cᵀΦ_c: its top eigenvalues are those of the centred
//     approximate Gram matrix, and the projections of training object i are
//     (Φ_i − μ)·q_j;
//   - a new object z is projected as (Σ_r^(−1/2)·U_rᵀ·k_L(z) − μ)·q_j, from
//     its m kernel values against the landmarks (Project with BasisSize() = m).
//
// The sign rule is the exact fit's, applied to the projections. With every
// object a landmark (m = n) the result is exact kernel PCA up to rounding.
// MinEigenvalue is W's smallest eigenvalue. Errors are Fit's, plus invalid
// landmarks and a components count above what m landmarks support.
func FitNystrom(n int, landmarks []int, row RowFunc, opt Options) (*Model, error) {
	m, k := len(landmarks), opt.Components
	if err := checkNystrom(n, landmarks, k); err != nil {
		return nil, err
	}
	poll := opt.poll()
	C := make([]float64, n*m)
	if err := fillRows(C, n, m, row, workerCount(opt.Workers), poll); err != nil {
		return nil, landmarkCol(err, landmarks)
	}
	return fitNystrom(C, n, landmarks, k, poll)
}

// FitNystromMatrix is FitNystrom on the kernel values computed beforehand:
// C[i·m+l] = k(x_i, x_{landmarks[l]}) for the n = len(C)/m objects, as
// from kernels.Spec.Cross of the objects against the landmarks. C is used
// as workspace and destroyed. A non-finite value is a *NonFiniteError.
func FitNystromMatrix(C []float64, landmarks []int, opt Options) (*Model, error) {
	m, k := len(landmarks), opt.Components
	if m == 0 {
		return nil, checkLandmarks(0, landmarks)
	}
	n := len(C) / m
	if err := checkNystrom(n, landmarks, k); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if err := finiteRow(C[i*m:(i+1)*m], i); err != nil {
			return nil, landmarkCol(err, landmarks)
		}
	}
	return fitNystrom(C[:n*m], n, landmarks, k, opt.poll())
}

// fitNystrom is the part of FitNystrom that follows the kernel values.
func fitNystrom(C []float64, n int, landmarks []int, k int, poll func() error) (*Model, error) {
	m := len(landmarks)
	M, minW, err := inverseSqrtLandmarks(C, landmarks, m, poll)
	if err != nil {
		return nil, err
	}
	mean := centre(C, n, m)
	G := make([]float64, m*m)
	if err := dense.CrossProduct(C, n, m, G, poll); err != nil {
		return nil, err
	}
	mirrorUpper(G, m, m)
	// Projections Φ_c·V = C_c·(M·V): C is centred.
	return nystromModel(G, mean, M, minW, n, landmarks, k, func(coef []float64, mod *Model) ([]bool, error) {
		mod.proj = make([]float64, n*k)
		if err := dense.Mul(false, n, k, m, C, m, coef, k, mod.proj, k, poll); err != nil {
			return nil, err
		}
		return fixSigns(mod.proj, n, k), nil
	}, poll)
}

// centre subtracts the column means from C (n×m) in place and returns them.
func centre(C []float64, n, m int) []float64 {
	mean := make([]float64, m)
	for i := 0; i < n; i++ {
		floats.Add(mean, C[i*m:(i+1)*m])
	}
	floats.Scale(1/float64(n), mean)
	for i := 0; i < n; i++ {
		floats.Sub(C[i*m:(i+1)*m], mean)
	}
	return mean
}

// nystromModel finishes a Nyström fit from G = C_cᵀC_c (m×m, full), C's
// column means and M = U_r·Σ_r^(−1/2): the features' covariance
// S = Mᵀ·G·M (Φ = C·M is never formed: it would cost 2·n·m·r), its top k
// eigenpairs, and the projections, which project computes as
// C_c·coef (n×k) for the given coef = M·V, returning the columns the sign
// rule flips.
func nystromModel(G, mean, M []float64, minW float64, n int, landmarks []int, k int,
	project func(coef []float64, mod *Model) ([]bool, error), poll func() error) (*Model, error) {
	m := len(landmarks)
	for j := 0; j < m; j++ {
		if g := G[j*m+j]; math.IsInf(g, 0) || math.IsNaN(g) {
			return nil, ErrNystromOverflow
		}
	}
	if sameToLandmarks(G, mean, n, m) {
		return nil, ErrIdenticalToLandmarks
	}
	r := len(M) / m
	S, mu, err := sandwich(G, M, mean, m, r, poll)
	if err != nil {
		return nil, err
	}
	var trace float64
	for i := 0; i < r; i++ {
		trace += S[i*r+i]
	}
	if k > r {
		return nil, &ComponentsError{Requested: k, Objects: n, Landmarks: m, Rank: r}
	}
	// Only k of S's r eigenpairs are wanted: Lanczos on S (as exact kPCA
	// on K) where the dense solver would rotate all r of them.
	var res *eigResult
	if Auto.resolve(r, k) == Lanczos {
		res, err = lanczos(newUpperOp(S, r, r, workerCount(0)), r, k, poll)
	} else {
		res, err = denseEigen(S, r, r, k, poll)
	}
	if err != nil {
		return nil, err
	}
	if err := checkRank(res.vals, res.minEig, n); err != nil {
		if ce, ok := err.(*ComponentsError); ok {
			ce.Landmarks = m
		}
		return nil, err
	}
	mod := newModel(res.vals, trace, minW, n, k)
	mod.Solver, mod.landmarks = "nystrom", slices.Clone(landmarks)
	mod.coef = make([]float64, m*k)
	coef := func() error { return dense.Mul(false, m, k, r, M, r, res.vecs, k, mod.coef, k, poll) }
	if err := coef(); err != nil {
		return nil, err
	}
	flips, err := project(mod.coef, mod)
	if err != nil {
		return nil, err
	}
	for j, flipped := range flips {
		if flipped {
			for i := 0; i < r; i++ {
				res.vecs[i*k+j] = -res.vecs[i*k+j]
			}
		}
	}
	if err := coef(); err != nil { // with the flipped signs
		return nil, err
	}
	for j := 0; j < k; j++ {
		for i := 0; i < r; i++ {
			mod.offset[j] += mu[i] * res.vecs[i*k+j]
		}
	}
	return mod, nil
}

func checkLandmarks(n int, landmarks []int) error {
	if len(landmarks) == 0 {
		return fmt.Errorf("no landmarks: at least 1 is needed")
	}
	for i, l := range landmarks {
		if l < 0 || l >= n {
			return fmt.Errorf("landmark %d is object %d, outside 0..%d", i, l, n-1)
		}
		if i > 0 && l <= landmarks[i-1] {
			return fmt.Errorf("landmarks must be distinct and ascending (landmark %d is %d after %d)", i, l, landmarks[i-1])
		}
	}
	return nil
}

// fillRows computes C = K[:, L] row by row on w workers (par.For, which
// returns a worker's panic as an error), rejecting non-finite kernel values.
// poll is checked before each chunk of rows.
func fillRows(C []float64, n, m int, row RowFunc, w int, poll func() error) error {
	const chunk = 64
	return par.For("kpca.FitNystrom", n, w, chunk, func(t, i int) error {
		if i%chunk == 0 {
			if err := poll(); err != nil {
				return err
			}
		}
		dst := C[i*m : (i+1)*m]
		if err := row(t, i, dst); err != nil {
			return err
		}
		return finiteRow(dst, i)
	})
}

// finiteRow finds a non-finite value in row i of C; the error's Col is
// for the caller to fill in (landmarkCol).
func finiteRow(dst []float64, i int) error {
	for l, v := range dst {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NonFiniteError{Row: i, Col: -1, Landmark: l, Value: v}
		}
	}
	return nil
}

// landmarkCol names the object of a NonFiniteError's landmark.
func landmarkCol(err error, landmarks []int) error {
	if e, ok := err.(*NonFiniteError); ok && e.Landmark >= 0 {
		e.Col = landmarks[e.Landmark]
	}
	return err
}

// inverseSqrtLandmarks returns M = U_r·Σ_r^(−1/2) (m×r row-major) for the
// ErrIdenticalToLandmarks is a Nyström fit's ErrIdentical: every object has
// the same kernel values against every landmark (to their rounding), so
// the approximation maps them all to one point. Its components would be
// rounding noise, or there would be none, which a *ComponentsError would
// report as a rank without saying why.
var ErrIdenticalToLandmarks = errors.New("all objects are identical under the kernel as the landmarks see them " +
	"(each has the same kernel values against every landmark), so there are no principal components")

// ErrNystromOverflow is a Nyström fit whose kernel values are finite but
// too large for the sums of their products (C_cᵀC_c), which overflow
// float64 (kernel values near 1e154 and above); left unchecked, the
// infinities read as "identical" or as components of NaN.
var ErrNystromOverflow = errors.New("the kernel values are too large for the Nyström fit: the sums of their products overflow float64")

// sameToLandmarks reports whether the centred kernel values C_c are zero to
// their rounding: the root mean square of each column, sqrt(G_jj/n), is at
// most 4n·ε times the largest column mean, the rounding of n identical
// rows' mean with room to spare (the test ErrIdentical makes on an exact
// fit's centred Gram matrix).
func sameToLandmarks(G, mean []float64, n, m int) bool {
	scale := 0.0
	for _, v := range mean {
		scale = math.Max(scale, math.Abs(v))
	}
	tol := 4 * float64(n) * eps * scale
	for j := 0; j < m; j++ {
		if G[j*m+j] > float64(n)*tol*tol {
			return false
		}
	}
	return true
}

// landmark block W = C[L, :], and W's smallest eigenvalue.
func inverseSqrtLandmarks(C []float64, landmarks []int, m int, poll func() error) ([]float64, float64, error) {
	W := make([]float64, m*m)
	for a, la := range landmarks {
		for b := a; b < m; b++ {
			W[a*m+b] = (C[la*m+b] + C[landmarks[b]*m+a]) / 2
		}
	}
	return inverseSqrt(W, m, poll)
}

// inverseSqrt is inverseSqrtLandmarks on W itself (upper triangle read,
// destroyed): nystrom.Map with eigenvalues below m·ε of the largest
// dropped.
func inverseSqrt(W []float64, m int, poll func() error) ([]float64, float64, error) {
	M, vals, err := nystrom.Map(W, m, float64(m)*eps, poll)
	if errors.Is(err, nystrom.ErrOverflow) {
		return nil, 0, ErrNystromOverflow
	}
	if err != nil {
		return nil, 0, err
	}
	if len(M) == 0 {
		return nil, 0, fmt.Errorf("the Gram matrix of the %d landmarks has no positive eigenvalue (largest %.6g); the kernel is not positive semi-definite or is zero on them", m, vals[m-1])
	}
	return M, vals[0], nil
}

// sandwich returns S = Mᵀ·G·M (r×r, exactly symmetric) and μ = Mᵀ·c̄,
// the features' covariance and mean from C_cᵀC_c (m×m) and C's means.
// With thousands of landmarks the products are seconds: poll is checked
// between bands of rows.
func sandwich(G, M, mean []float64, m, r int, poll func() error) (S, mu []float64, err error) {
	GM := make([]float64, m*r)
	if err := dense.Mul(false, m, r, m, G, m, M, r, GM, r, poll); err != nil {
		return nil, nil, err
	}
	S = make([]float64, r*r)
	if err := dense.Mul(true, r, r, m, M, r, GM, r, S, r, poll); err != nil {
		return nil, nil, err
	}
	for i := 0; i < r; i++ { // exactly symmetric, as the eigensolver reads one triangle
		for j := i + 1; j < r; j++ {
			v := (S[i*r+j] + S[j*r+i]) / 2
			S[i*r+j], S[j*r+i] = v, v
		}
	}
	mu = make([]float64, r)
	mM := blas64.General{Rows: m, Cols: r, Stride: r, Data: M}
	blas64.Gemv(blas.Trans, 1, mM, blas64.Vector{N: m, Inc: 1, Data: mean}, 0, blas64.Vector{N: r, Inc: 1, Data: mu})
	return S, mu, nil
}

// checkNystrom checks a Nyström fit's n objects, landmarks and k
// components, in the order its errors are reported.
func checkNystrom(n int, landmarks []int, k int) error {
	if n <= 0 {
		return ErrNoObjects
	}
	if err := checkLandmarks(n, landmarks); err != nil {
		return err
	}
	if m := len(landmarks); k < 1 || k > n-1 || k > m {
		return &ComponentsError{Requested: k, Objects: n, Landmarks: m, Rank: -1}
	}
	return nil
}
