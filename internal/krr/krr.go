// Package krr fits kernel ridge regression in the dual and kernel least
// mean squares (lecture notes 001, §1, and 003): both find coefficients c
// so that the prediction for an object z is Σ_i c_i·k(x_i, z). It works on
// kernel values only and knows nothing of where they come from.
package krr

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
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

// Fit solves (K + alpha·I)·c = y by Cholesky, as scikit-learn's
// KernelRidge does (no intercept). K is n×n row-major with its upper
// triangle read; it is overwritten.
func Fit(K []float64, y []float64, alpha float64) ([]float64, error) {
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
	for i := 0; i < n; i++ {
		if err := checkFinite("kernel", K[i*n+i:(i+1)*n]); err != nil {
			return nil, err
		}
		K[i*n+i] += alpha
	}
	return solveSPD(mat.NewSymDense(n, K), y, alpha)
}

// solveSPD solves A·c = b for a symmetric positive definite A.
func solveSPD(A *mat.SymDense, b []float64, alpha float64) ([]float64, error) {
	var ch mat.Cholesky
	if ok := ch.Factorize(A); !ok {
		return nil, &SingularError{Alpha: alpha}
	}
	c := mat.NewVecDense(len(b), nil)
	if err := ch.SolveVecTo(c, mat.NewVecDense(len(b), append([]float64(nil), b...))); err != nil {
		return nil, &SingularError{Alpha: alpha}
	}
	return c.RawVector().Data, nil
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
	return FitNystromW(C, W, y, alpha)
}

// FitNystromW is FitNystrom with the landmarks' m×m kernel matrix W given
// (row-major, upper triangle read), for fits on a subset of C's rows that
// keep the landmarks (cross-validation folds).
func FitNystromW(C, Wv []float64, y []float64, alpha float64) ([]float64, error) {
	n := len(y)
	m := int(math.Sqrt(float64(len(Wv))))
	if m*m != len(Wv) || len(C) != n*m {
		return nil, fmt.Errorf("krr: C has %d values and W %d for %d rows", len(C), len(Wv), n)
	}
	Cm := mat.NewDense(n, m, C)
	CtC := mat.NewSymDense(m, nil)
	CtC.SymOuterK(1, Cm.T())
	cty := mat.NewVecDense(m, nil)
	cty.MulVec(Cm.T(), mat.NewVecDense(n, y))
	return FitNystromMoments(CtC.RawSymmetric().Data, cty.RawVector().Data, Wv, alpha)
}

// FitNystromMoments is FitNystromW from CᵀC (m×m row-major, upper triangle
// read) and Cᵀy instead of C and y, which a streaming fit accumulates over
// blocks of rows without holding C.
func FitNystromMoments(CtCv, Cty, Wv []float64, alpha float64) ([]float64, error) {
	m := len(Cty)
	if len(Wv) != m*m || len(CtCv) != m*m {
		return nil, fmt.Errorf("krr: CᵀC has %d values and W %d for %d landmarks", len(CtCv), len(Wv), m)
	}
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return nil, &ParamError{Name: "alpha", Value: alpha}
	}
	W := mat.NewSymDense(m, append([]float64(nil), Wv...))
	var eig mat.EigenSym
	if !eig.Factorize(W, true) {
		return nil, &SingularError{Alpha: alpha}
	}
	vals := eig.Values(nil)
	var U mat.Dense
	eig.VectorsTo(&U)
	top := vals[len(vals)-1]
	var keep []int
	for j, v := range vals {
		if v > 1e-12*top && v > 0 {
			keep = append(keep, j)
		}
	}
	r := len(keep)
	if r == 0 {
		return nil, &SingularError{Alpha: alpha}
	}
	M := mat.NewDense(m, r, nil) // U_r Λ_r^(−1/2)
	for c, j := range keep {
		s := 1 / math.Sqrt(vals[j])
		for a := 0; a < m; a++ {
			M.Set(a, c, U.At(a, j)*s)
		}
	}
	// ΦᵀΦ = Mᵀ(CᵀC)M and Φᵀy = Mᵀ(Cᵀy): Φ (n×r) is never formed, so the
	// memory beyond C is O(m²).
	CtC := mat.NewSymDense(m, CtCv)
	var T, P mat.Dense
	T.Mul(CtC, M)
	P.Mul(M.T(), &T)
	A := mat.NewSymDense(r, nil)
	for a := 0; a < r; a++ {
		for b := a; b < r; b++ {
			v := 0.5 * (P.At(a, b) + P.At(b, a))
			if a == b {
				v += alpha
			}
			A.SetSym(a, b, v)
		}
	}
	rhs := mat.NewVecDense(r, nil)
	rhs.MulVec(M.T(), mat.NewVecDense(m, Cty))
	w, err := solveSPD(A, rhs.RawVector().Data, alpha)
	if err != nil {
		return nil, err
	}
	beta := mat.NewVecDense(m, nil)
	beta.MulVec(M, mat.NewVecDense(r, w))
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
