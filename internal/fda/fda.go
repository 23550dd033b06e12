// Package fda is the multi-class Fisher discriminant in a kernel's
// feature space (Mika et al. 1999; Baudat & Anouar 2000; lecture notes
// 004): directions w = Σ_i α_i φ(x_i) that maximise between-class over
// within-class scatter, αᵀMα / αᵀ(N + reg·I)α, with
//
//	M = Σ_c n_c (m_c − m)(m_c − m)ᵀ,   N = Σ_c K_c (I − 1/n_c) K_cᵀ,
//
// m_c = K·1_c/n_c and m = K·1/n (K the n×n Gram matrix, K_c its columns of
// class c). The solutions are the top eigenvectors of the symmetric-definite
// problem Mα = λ(N + reg·I)α; at most classes − 1 have λ > 0.
//
// Convention: each α is scaled so that αᵀ(N + reg·I)α = 1 (so a
// projection's within-class variance, regularised, is 1 — scipy's eigh(M,
// B) normalisation) and signed so that its entry of largest magnitude is
// positive (the lowest index on ties). The projection of an object z is
// αᵀ·k(z), k(z)_i = k(x_i, z).
package fda

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ParamError is an argument out of range.
type ParamError struct {
	Name    string
	Value   float64
	Allowed string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: allowed %s", e.Name, e.Value, e.Allowed)
}

// SingularError says N + reg·I is not positive definite: reg is too small.
type SingularError struct{ Reg float64 }

func (e *SingularError) Error() string {
	return fmt.Sprintf("the within-class scatter plus %v·I is not positive definite", e.Reg)
}

// Model is a fitted discriminant.
type Model struct {
	N, Components int
	Alpha         []float64 // n×Components, row-major: α_j is column j
	Eigenvalues   []float64 // the ratios λ_j, descending
	Proj          []float64 // n×Components: the training objects' projections
}

// Fit computes components directions from the n×n Gram matrix K
// (row-major, both triangles) and class indices y (0..classes−1, every
// class present).
func Fit(K []float64, y []int, classes, components int, reg float64) (*Model, error) {
	n := len(y)
	switch {
	case classes < 2:
		return nil, &ParamError{"classes", float64(classes), "at least 2"}
	case components < 1 || components > classes-1:
		return nil, &ParamError{"components", float64(components), fmt.Sprintf("1 to classes − 1 = %d", classes-1)}
	case !(reg > 0) || math.IsInf(reg, 0):
		return nil, &ParamError{"reg", reg, "a finite number > 0"}
	case len(K) != n*n:
		return nil, &ParamError{"K", float64(len(K)), fmt.Sprintf("%d values", n*n)}
	}
	for i, v := range K {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, &ParamError{"K", v, fmt.Sprintf("finite values (entry %d, %d)", i/n, i%n)}
		}
	}
	Km := mat.NewDense(n, n, K)
	counts := make([]float64, classes)
	for _, c := range y {
		counts[c]++
	}
	// means: column c is m_c = K·1_c/n_c; m = K·1/n.
	means := mat.NewDense(n, classes, nil)
	all := make([]float64, n)
	for i := 0; i < n; i++ {
		for j, c := range y {
			v := K[i*n+j]
			means.Set(i, c, means.At(i, c)+v/counts[c])
			all[i] += v / float64(n)
		}
	}
	Mw := mat.NewSymDense(n, nil) // Σ_c n_c m_c m_cᵀ
	for c := 0; c < classes; c++ {
		Mw.SymRankOne(Mw, counts[c], means.ColView(c))
	}
	B := mat.NewSymDense(n, nil) // N + reg·I = KKᵀ − Σ_c n_c m_c m_cᵀ + reg·I
	B.SymOuterK(1, Km)
	B.AddSym(B, scaled(Mw, -1))
	M := mat.NewSymDense(n, nil)
	M.SymRankOne(Mw, -float64(n), mat.NewVecDense(n, all))
	for i := 0; i < n; i++ {
		B.SetSym(i, i, B.At(i, i)+reg)
	}
	var ch mat.Cholesky
	if !ch.Factorize(B) {
		return nil, &SingularError{Reg: reg}
	}
	var L mat.TriDense
	ch.LTo(&L)
	// C = L⁻¹ M L⁻ᵀ, symmetric; α = L⁻ᵀ v for its eigenvectors v.
	var T, C mat.Dense
	if err := T.Solve(&L, M); err != nil {
		return nil, &SingularError{Reg: reg}
	}
	if err := C.Solve(&L, T.T()); err != nil {
		return nil, &SingularError{Reg: reg}
	}
	Cs := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			Cs.SetSym(i, j, 0.5*(C.At(i, j)+C.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(Cs, true) {
		return nil, &SingularError{Reg: reg}
	}
	vals := eig.Values(nil)
	var V mat.Dense
	eig.VectorsTo(&V)
	m := &Model{N: n, Components: components, Alpha: make([]float64, n*components)}
	var a mat.VecDense
	for j := 0; j < components; j++ {
		col := n - 1 - j // ascending order: the largest last
		m.Eigenvalues = append(m.Eigenvalues, vals[col])
		if err := a.SolveVec(L.T(), V.ColView(col)); err != nil {
			return nil, &SingularError{Reg: reg}
		}
		sign := 1.0
		best := 0.0
		for i := 0; i < n; i++ {
			if v := math.Abs(a.AtVec(i)); v > best {
				best, sign = v, math.Copysign(1, a.AtVec(i))
			}
		}
		for i := 0; i < n; i++ {
			m.Alpha[i*components+j] = sign * a.AtVec(i)
		}
	}
	m.Proj = make([]float64, n*components)
	for i := 0; i < n; i++ {
		m.Project(K[i*n:(i+1)*n], m.Proj[i*components:(i+1)*components])
	}
	return m, nil
}

func scaled(s *mat.SymDense, f float64) *mat.SymDense {
	var out mat.SymDense
	out.ScaleSym(f, s)
	return &out
}

// Project sets dst[j] = α_jᵀ·kz for the kernel values kz of an object
// against the training objects.
func (m *Model) Project(kz, dst []float64) {
	c := m.Components
	for j := range dst {
		dst[j] = 0
	}
	for i, v := range kz {
		for j := 0; j < c; j++ {
			dst[j] += m.Alpha[i*c+j] * v
		}
	}
}
