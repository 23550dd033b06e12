package kpca

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ZeroTol is the relative tolerance below which an eigenvalue counts as zero:
// λ ≤ ZeroTol·max(|λ₁|, |λ_min|), the largest magnitude at either end of
// the spectrum. Components with such eigenvalues are
// numerical noise (their projections would be rounding errors divided by
// ~0), so a fit that would need one fails with a *ComponentsError instead.
const ZeroTol = 1e-10

// ErrNoObjects is returned when there is nothing to fit (n = 0).
var ErrNoObjects = errors.New("there are no objects to fit")

// ErrIdentical is returned when all objects are the same point in feature
// space: the centred Gram matrix is zero and there is no direction of variance.
var ErrIdentical = errors.New("all objects are identical under the kernel (the centred Gram matrix is zero), so there are no principal components")

// ErrExactOverflow is an exact fit whose kernel values are finite but whose
// centred Gram matrix has a trace (the sum of its eigenvalues) past
// float64's range: unchecked, the infinite eigenvalues read as "no positive
// eigenvalues", or every explained ratio as 0.
var ErrExactOverflow = errors.New("the kernel values are too large for the exact fit: the centred Gram matrix's trace, the sum of its eigenvalues, overflows float64")

// Options configure an exact or Nyström fit.
type Options struct {
	// Components is k, the number of principal components (≥ 1).
	Components int
	// Solver chooses the eigensolver of an exact fit (Auto by default).
	Solver Solver
	// Interrupt, if not nil, is polled every few milliseconds of work; the
	// fit stops and returns its error as soon as it is not nil (pass
	// host.Conn.Err). FitNystrom's workers may call it concurrently.
	Interrupt func() error
	// Workers bounds the goroutines used (0: GOMAXPROCS).
	Workers int
}

func (o *Options) poll() func() error {
	if o.Interrupt == nil {
		return noPoll
	}
	return o.Interrupt
}

// Model is a fitted kernel PCA: exact (Fit) or Nyström (FitNystrom). It is
// immutable and safe for concurrent use.
//
// A new object z is projected from its kernel values against the model's
// basis objects: all n training objects in training order for an exact
// model, the m landmarks (Landmarks, ascending) for a Nyström model.
type Model struct {
	// Eigenvalues are the k largest eigenvalues, descending, of the centred
	// Gram matrix (exact; scikit-learn's eigenvalues_) or of the centred
	// Nyström approximation of it.
	Eigenvalues []float64
	// ExplainedRatio[j] = Eigenvalues[j] / Trace.
	ExplainedRatio []float64
	// Trace is the trace of the centred (or centred approximate) Gram
	// matrix: the total variance in feature space, times n.
	Trace float64
	// MinEigenvalue is the smallest eigenvalue found: exact for the dense
	// solver; for Lanczos the smallest Ritz value seen, which is never below
	// the true smallest eigenvalue, so a negative value proves the kernel is
	// not positive semi-definite on the data but a value ≥ 0 does not prove
	// it is. For Nyström it is that of the landmark Gram matrix W.
	MinEigenvalue float64
	// Solver is "dense", "lanczos" or "nystrom"; Products counts the
	// matrix–vector products Lanczos used.
	Solver   string
	Products int

	n, k      int
	landmarks []int     // nil for an exact model
	proj      []float64 // n×k: projections of the training objects; nil when kept outside (FinishNystromTo)
	flipped   []bool    // k: the columns the sign rule negated, for projections kept outside
	coef      []float64 // basis×k: projection = coefᵀ·kz − meanCoef·mean(kz) − offset
	meanCoef  []float64 // k
	offset    []float64 // k
}

// N returns the number of training objects.
func (m *Model) N() int { return m.n }

// Components returns k.
func (m *Model) Components() int { return m.k }

// BasisSize returns how many kernel values Project needs: n for an exact
// model, m for a Nyström model.
func (m *Model) BasisSize() int { return len(m.coef) / m.k }

// Landmarks returns the training indices, ascending, of a Nyström model's
// landmarks (a copy), or nil for an exact model.
func (m *Model) Landmarks() []int { return append([]int(nil), m.landmarks...) }

// Projection writes the k coordinates of training object i into dst
// (length k; allocated if nil) and returns it: sqrt(λ_j)·v_ij, with v_j the
// unit eigenvectors under the sign rule (see Fit).
func (m *Model) Projection(i int, dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, m.k)
	}
	copy(dst, m.proj[i*m.k:(i+1)*m.k])
	return dst
}

// ProjectionAt returns coordinate j of training object i, as Projection
// does, without a slice.
func (m *Model) ProjectionAt(i, j int) float64 { return m.proj[i*m.k+j] }

// HoldsProjections says whether the model holds its training objects'
// projections; a model made by FinishNystromTo does not: they are where
// its project function kept them, and Flipped says how to read them.
func (m *Model) HoldsProjections() bool { return m.proj != nil }

// Flipped returns, for a model whose projections are kept outside, which
// columns the sign rule negated after they were kept: coordinate j of a
// kept projection is to be negated where Flipped()[j] (negation is exact,
// so the values are the bits an in-memory fit holds). Nil for a model
// that holds its projections.
func (m *Model) Flipped() []bool { return m.flipped }

// Project writes into dst (length k; allocated if nil) the coordinates of
// a new object z, given kz[b] = k(basis_b, z) for the model's basis objects
// (BasisSize values, in training order). For an exact model it is
// Σ_i α_ij·k̃(x_i, z), α_j = v_j/sqrt(λ_j) and k̃ centred with the training
// statistics; for a training object it reproduces Projection. It allocates
// nothing when dst is given, and fails on a wrong length or a non-finite
// kernel value rather than return NaN.
func (m *Model) Project(kz, dst []float64) ([]float64, error) {
	nb := m.BasisSize()
	if len(kz) != nb {
		return nil, fmt.Errorf("got %d kernel values for a new object but the model needs %d (one per %s)", len(kz), nb, m.basisName())
	}
	if dst == nil {
		dst = make([]float64, m.k)
	}
	if len(dst) != m.k {
		return nil, fmt.Errorf("the output has room for %d coordinates but the model has %d components", len(dst), m.k)
	}
	mean, err := rowMean(kz)
	if err != nil {
		return nil, err
	}
	coef := blas64.General{Rows: nb, Cols: m.k, Stride: m.k, Data: m.coef}
	blas64.Gemv(blas.Trans, 1, coef, vec(kz), 0, vec(dst))
	for j := range dst {
		dst[j] -= m.meanCoef[j]*mean + m.offset[j]
	}
	return dst, nil
}

func (m *Model) basisName() string {
	if m.landmarks != nil {
		return "landmark"
	}
	return "training object"
}

// Fit computes an exact kernel PCA (Schölkopf, Smola & Müller 1998) of the
// n×n Gram matrix K (only its upper triangle is read; nil or an empty
// matrix means n = 0).
//
// K is used as workspace: Fit centres it in place and may overwrite it with
// eigenvectors, so its contents are destroyed and the caller must neither
// read nor reuse K afterwards, even after an error (after an interrupt a
// dense factorisation may still be finishing in the background). Gram.Fit
// does the same on recycled storage. Peak memory is K plus O(n·k).
//
// Sign rule: each eigenvector v_j is oriented so that its entry of largest
// absolute value is positive, the lowest index winning ties (scikit-learn's
// svd_flip), so results are deterministic.
//
// Errors: ErrNoObjects (n = 0); *ComponentsError when k < 1, k > n − 1, or
// when fewer than k eigenvalues exceed ZeroTol·λ₁ (including a kernel that
// is not positive semi-definite on the data, whose negative eigenvalue the
// error reports); ErrIdentical; a non-finite entry of K; Interrupt's error.
func Fit(K *mat.SymDense, opt Options) (*Model, error) { return fitExact(K, opt, nil) }

// fitExact is Fit; done, if not nil, is called once K is no longer needed
// (see Gram.giveBack).
func fitExact(K *mat.SymDense, opt Options, done func(reuse bool)) (*Model, error) {
	// K's storage goes back to NewGram, unless a dense factorisation that
	// was interrupted may still be writing to it.
	recycle := true
	if done != nil {
		defer func() { done(recycle) }()
	}
	if K == nil || K.IsEmpty() {
		return nil, ErrNoObjects
	}
	raw := K.RawSymmetric()
	n, k := raw.N, opt.Components
	if n == 0 {
		return nil, ErrNoObjects
	}
	if k < 1 || k > n-1 {
		return nil, &ComponentsError{Requested: k, Objects: n, Rank: -1}
	}
	poll := opt.poll()
	op := newUpperOp(raw.Data, n, raw.Stride, opt.Workers)
	cent, st, err := centerUpper(raw.Data, n, raw.Stride, poll, op)
	if err != nil {
		return nil, err
	}
	// The plain centring's rounding is a few ε·max|K|; the compensated
	// one (chosen when that rounding would swamp the variance) leaves
	// either ≤ 8n·ε²·max|K| (identical objects) or a *PrecisionError.
	if math.IsInf(st.trace, 0) || math.IsNaN(st.trace) {
		return nil, ErrExactOverflow
	}
	if st.maxCentered <= float64(n)*eps*st.maxAbs {
		return nil, ErrIdentical
	}
	solver := opt.Solver.resolve(n, k)
	var res *eigResult
	if solver == Dense {
		res, err = denseEigen(raw.Data, n, raw.Stride, k, poll)
		recycle = err == nil
	} else {
		res, err = lanczos(op, n, k, poll)
	}
	if err != nil {
		return nil, err
	}
	if err := checkRank(res.vals, res.minEig, n); err != nil {
		return nil, err
	}
	if st.trace <= 0 {
		return nil, fmt.Errorf("the centred Gram matrix has trace %.6g ≤ 0: the kernel is not positive semi-definite on this data", st.trace)
	}
	fixSigns(res.vecs, n, k)
	m := newModel(res.vals, st.trace, res.minEig, n, k)
	m.proj = make([]float64, n*k)
	m.Solver, m.Products = solver.String(), res.matvecs
	m.coef = res.vecs // becomes α in place
	for j, lam := range res.vals {
		s := math.Sqrt(lam)
		var sum, off float64
		for i := 0; i < n; i++ {
			v := res.vecs[i*k+j]
			m.proj[i*k+j] = s * v
			a := v / s
			m.coef[i*k+j] = a
			sum += a
			off += a * cent.colMeans[i]
		}
		// Σ_i α_ij·(kz_i − μ_i − mean(kz) + g) = α_jᵀkz − (Σα_j)·mean(kz) − (α_jᵀμ − (Σα_j)·g)
		m.meanCoef[j] = sum
		m.offset[j] = off - sum*cent.grand
	}
	return m, nil
}

const eps = 0x1p-52

func newModel(vals []float64, trace, minEig float64, n, k int) *Model {
	m := &Model{
		Eigenvalues: vals, ExplainedRatio: make([]float64, k), Trace: trace, MinEigenvalue: minEig,
		n: n, k: k, meanCoef: make([]float64, k), offset: make([]float64, k),
	}
	for j, lam := range vals {
		m.ExplainedRatio[j] = lam / trace
	}
	return m
}

// checkRank refuses components whose eigenvalue is not clearly positive,
// relative to the largest |eigenvalue| at either end of the spectrum.
func checkRank(vals []float64, minEig float64, n int) error {
	scale := math.Max(math.Abs(vals[0]), math.Abs(minEig))
	rank := 0
	for _, v := range vals {
		if v > ZeroTol*scale {
			rank++
		}
	}
	if rank == len(vals) {
		return nil
	}
	e := &ComponentsError{Requested: len(vals), Objects: n, Rank: rank}
	if minEig < -ZeroTol*scale {
		e.Negative = minEig
	}
	return e
}
