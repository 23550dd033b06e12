// Package krr fits kernel ridge regression in the dual and kernel least
// mean squares (lecture notes 001, §1, and 003): both find coefficients c
// so that the prediction for an object z is Σ_i c_i·k(x_i, z). It works on
// kernel values only and knows nothing of where they come from.
package krr

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/dense"
)

// ParamError is an argument out of its range.
type ParamError struct {
	Name  string
	Value float64
}

func (e *ParamError) Error() string { return fmt.Sprintf("%s = %v is out of range", e.Name, e.Value) }

// SingularError says K + alpha·I (or its Nyström form) is not positive
// definite to working precision: the kernel is not PSD on the data or
// alpha is too small for its rounding.
type SingularError struct{ Alpha float64 }

func (e *SingularError) Error() string {
	return fmt.Sprintf("the regularised kernel matrix is not positive definite with alpha = %v", e.Alpha)
}

// ErrNystromOverflow is a Nyström fit whose kernel values (or labels) are
// finite but too large for the sums of products CᵀC and Cᵀy, which
// overflow float64; the solve would report them as a singular matrix.
var ErrNystromOverflow = errors.New("the kernel values or labels are too large for the Nyström fit: the sums of their products overflow float64")

// NonFiniteError is a label or kernel value that is NaN or ±Inf.
type NonFiniteError struct {
	What  string // "label" or "kernel"
	Row   int
	Value float64
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("%s value %v of row %d is not finite", e.What, e.Value, e.Row)
}

func checkFinite(what string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &NonFiniteError{What: what, Row: i, Value: x}
		}
	}
	return nil
}

// Fit is FitPolled with no interrupt check.
func Fit(K []float64, y []float64, alpha float64) ([]float64, error) {
	return FitPolled(K, y, alpha, nil)
}

// FitPolled solves (K + alpha·I)·c = y by Cholesky, as scikit-learn's
// KernelRidge does (no intercept). K is n×n row-major with its upper
// triangle read; it is overwritten. interrupt (nil: none) is called every
// few milliseconds of work and its error returned: the factorisation of
// n = 10,000 objects is seconds.
func FitPolled(K []float64, y []float64, alpha float64, interrupt func() error) ([]float64, error) {
	n := len(y)
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return nil, &ParamError{Name: "alpha", Value: alpha}
	}
	if len(K) != n*n {
		return nil, fmt.Errorf("krr: K has %d values for %d labels", len(K), n)
	}
	if err := checkFinite("label", y); err != nil {
		return nil, err
	}
	poll := pollOrNone(interrupt)
	for i := 0; i < n; i++ {
		if i%256 == 0 {
			if err := poll(); err != nil {
				return nil, err
			}
		}
		if err := checkFinite("kernel", K[i*n+i:(i+1)*n]); err != nil {
			return nil, err
		}
		K[i*n+i] += alpha
	}
	return solveSPD(K, n, y, alpha, poll)
}

func pollOrNone(interrupt func() error) func() error {
	if interrupt == nil {
		return func() error { return nil }
	}
	return interrupt
}

// solveSPD solves A·c = b for the symmetric positive definite n×n A
// (row-major, upper triangle read and overwritten by its Cholesky factor).
func solveSPD(A []float64, n int, b []float64, alpha float64, poll func() error) ([]float64, error) {
	ok, err := dense.Cholesky(A, n, n, poll)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &SingularError{Alpha: alpha}
	}
	c := append([]float64(nil), b...)
	if err := dense.SolveUT(A, n, n, c, 1, poll); err != nil {
		return nil, err
	}
	if err := dense.SolveU(A, n, n, c, 1, poll); err != nil {
		return nil, err
	}
	return c, nil
}

// FitNystrom solves the Nyström (subset of regressors) problem with m
// landmarks: C is the n×m matrix of k(x_i, landmark_l), row-major, and
// landmarks[l] the row of landmark l. With W = C[landmarks, :] = UΛUᵀ
// (eigenvalues below 1e-12·λ_max dropped, as a pseudo-inverse) and the
// features Φ = C·U·Λ^(−1/2) (n×r, Nyström's explicit map, as
// scikit-learn's Nystroem), it solves ridge regression in feature space,
// (ΦᵀΦ + alpha·I)w = Φᵀy, and returns β = U·Λ^(−1/2)·w (length m), so that
// the prediction for z is Σ_l β_l·k(landmark_l, z). It minimises
// ‖y − Cβ‖² + alpha·βᵀWβ over the span of the landmarks; with every row a
// landmark it is exact KRR. Time O(n·m²), memory O(m²) beyond C.
func FitNystrom(C []float64, landmarks []int, y []float64, alpha float64) ([]float64, error) {
	n, m := len(y), len(landmarks)
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return nil, &ParamError{Name: "alpha", Value: alpha}
	}
	if len(C) != n*m {
		return nil, fmt.Errorf("krr: C has %d values for %d×%d", len(C), n, m)
	}
	if err := checkFinite("label", y); err != nil {
		return nil, err
	}
	if err := checkFinite("kernel", C); err != nil {
		return nil, err
	}
	W := make([]float64, m*m)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			W[a*m+b] = 0.5 * (C[landmarks[a]*m+b] + C[landmarks[b]*m+a])
		}
	}
	return FitNystromWPolled(C, W, y, alpha, nil)
}

// FitNystromWPolled is FitNystrom with the landmarks' m×m kernel matrix W
// given (row-major, upper triangle read), for fits on a subset of C's rows
// that keep the landmarks (cross-validation folds). interrupt (nil: none)
// is called every few milliseconds of work and its error returned.
func FitNystromWPolled(C, Wv []float64, y []float64, alpha float64, interrupt func() error) ([]float64, error) {
	n := len(y)
	m := int(math.Sqrt(float64(len(Wv))))
	if m*m != len(Wv) || len(C) != n*m {
		return nil, fmt.Errorf("krr: C has %d values and W %d for %d rows", len(C), len(Wv), n)
	}
	poll := pollOrNone(interrupt)
	CtC := make([]float64, m*m)
	if err := dense.CrossProduct(C, n, m, CtC, poll); err != nil {
		return nil, err
	}
	cty := mat.NewVecDense(m, nil)
	cty.MulVec(mat.NewDense(n, m, C).T(), mat.NewVecDense(n, y))
	return fitMoments(CtC, cty.RawVector().Data, Wv, nil, alpha, poll)
}

// FitNystromMoments is FitNystromWPolled from CᵀC (m×m row-major, upper triangle
// read) and Cᵀy instead of C and y, which a streaming fit accumulates over
// blocks of rows without holding C.
func FitNystromMoments(CtCv, Cty, Wv []float64, alpha float64) ([]float64, error) {
	return fitMoments(CtCv, Cty, Wv, nil, alpha, pollOrNone(nil))
}

// fitMoments is FitNystromMoments with poll: with thousands of landmarks
// its eigendecomposition and products are seconds.
// fitMoments solves for β from CᵀC, Cᵀy and W, whose map (U_r Λ_r^(−1/2))
// pre may have begun already (nil: computed here).
func fitMoments(CtCv, Cty, Wv []float64, pre *WMap, alpha float64, poll func() error) ([]float64, error) {
	m := len(Cty)
	if len(Wv) != m*m || len(CtCv) != m*m {
		return nil, fmt.Errorf("krr: CᵀC has %d values and W %d for %d landmarks", len(CtCv), len(Wv), m)
	}
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return nil, &ParamError{Name: "alpha", Value: alpha}
	}
	for a := 0; a < m; a++ {
		if d, c := CtCv[a*m+a], Cty[a]; math.IsInf(d, 0) || math.IsNaN(d) || math.IsInf(c, 0) || math.IsNaN(c) {
			return nil, ErrNystromOverflow
		}
	}
	if pre == nil {
		pre = StartWMap(Wv, m, poll)
	}
	M, err := pre.Wait() // U_r Λ_r^(−1/2), m×r
	if errors.Is(err, dense.ErrNoConvergence) {
		return nil, &SingularError{Alpha: alpha}
	}
	if err != nil {
		return nil, err
	}
	r := len(M) / m
	if r == 0 {
		return nil, &SingularError{Alpha: alpha}
	}
	// ΦᵀΦ = Mᵀ(CᵀC)M and Φᵀy = Mᵀ(Cᵀy): Φ (n×r) is never formed, so the
	// memory beyond C is O(m²).
	S := make([]float64, m*m) // CᵀC, both triangles
	for a := 0; a < m; a++ {
		for b := a; b < m; b++ {
			S[a*m+b], S[b*m+a] = CtCv[a*m+b], CtCv[a*m+b]
		}
	}
	T := make([]float64, m*r)
	if err := dense.Mul(false, m, r, m, S, m, M, r, T, r, poll); err != nil {
		return nil, err
	}
	P := make([]float64, r*r)
	if err := dense.Mul(true, r, r, m, M, r, T, r, P, r, poll); err != nil {
		return nil, err
	}
	for a := 0; a < r; a++ {
		for b := a; b < r; b++ {
			P[a*r+b] = 0.5 * (P[a*r+b] + P[b*r+a])
		}
		P[a*r+a] += alpha
	}
	rhs := mat.NewVecDense(r, nil)
	rhs.MulVec(mat.NewDense(m, r, M).T(), mat.NewVecDense(m, Cty))
	w, err := solveSPD(P, r, rhs.RawVector().Data, alpha, poll)
	if err != nil {
		return nil, err
	}
	beta := mat.NewVecDense(m, nil)
	beta.MulVec(mat.NewDense(m, r, M), mat.NewVecDense(r, w))
	return beta.RawVector().Data, nil
}

// Predict returns Σ_i c_i·kz_i.
func Predict(c, kz []float64) float64 {
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(c); i += 2 {
		s0 += c[i] * kz[i]
		s1 += c[i+1] * kz[i+1]
	}
	if i < len(c) {
		s0 += c[i] * kz[i]
	}
	return s0 + s1
}
