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
// αᵀ·k(z), k(z)_i = k(x_i, z). An object's class is the class whose mean
// training projection is nearest its own (Euclidean; the smallest class on
// ties), and CrossPredict applies that rule with each fold's own fit.
package fda

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/dense"
	"github.com/ksql/ksql/internal/par"
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
// Scale is N's largest diagonal entry, the size reg is measured against:
// rounding in N is about n·2⁻⁵²·Scale, so a reg below that cannot help.
type SingularError struct{ Reg, Scale float64 }

func (e *SingularError) Error() string {
	return fmt.Sprintf("the within-class scatter plus %v·I is not positive definite (the scatter's largest diagonal entry is %.3g)", e.Reg, e.Scale)
}

// Model is a fitted discriminant.
type Model struct {
	N, Components int
	Alpha         []float64 // n×Components, row-major: α_j is column j
	Eigenvalues   []float64 // the ratios λ_j, descending
	Proj          []float64 // n×Components: the training objects' projections
	// Means is classes×Components: each class's mean of the training
	// projections, which Nearest compares an object's projection with.
	Means []float64
}

// Fit is FitPolled with no interrupt check.
func Fit(K []float64, y []int, classes, components int, reg float64) (*Model, error) {
	return FitPolled(K, y, classes, components, reg, nil)
}

// FitPolled computes components directions from the n×n Gram matrix K
// (row-major, both triangles; symmetric) and class indices y
// (0..classes−1, every class present). interrupt (nil: none) is called
// every few milliseconds of work and its error returned.
//
// M = Q·D·Qᵀ has rank at most classes − 1 (Q = [m_1 … m_c], D =
// diag(n_c) − n_c·n_cᵀ/n, positive semi-definite), so with N + reg·I = UᵀU
// the symmetric problem U⁻ᵀMU⁻¹v = λv is that of (ZR)(ZR)ᵀ, Z = U⁻ᵀQ and
// RRᵀ = D: its nonzero eigenpairs come from the classes×classes matrix
// RᵀZᵀZR·u = λu as v = ZRu/‖ZRu‖, and α = U⁻¹v. The time is KKᵀ and the
// Cholesky factorisation, n³ + n³/3 flops, both checking interrupt.
func FitPolled(K []float64, y []int, classes, components int, reg float64, interrupt func() error) (*Model, error) {
	n := len(y)
	// One team runs the fit's twenty-odd phases: at n = 1,000 each is a
	// millisecond or less, about what starting goroutines anew costs.
	t := par.NewTeam("fda", par.Workers(0, n))
	if err := checkArgs(t, K, n, classes, components, reg); err != nil {
		return nil, err
	}
	poll := interrupt
	if poll == nil {
		poll = func() error { return nil }
	}
	Q, counts, err := classMeans(t, K, y, classes, poll)
	if err != nil {
		return nil, err
	}
	B, scale, err := withinScatter(t, K, Q, counts, reg, poll)
	if err != nil {
		return nil, err
	}
	ok, err := (&dense.CholWork{Team: t}).Cholesky(B, n, n, poll)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &SingularError{Reg: reg, Scale: scale}
	}
	Z := Q // U⁻ᵀQ, in place
	if err := byColumns(t, Z, n, classes, func(z []float64) error { return dense.SolveUT(B, n, n, z, 1, poll) }); err != nil {
		return nil, err
	}
	vals, V := topDirections(Z, n, classes, components, counts)
	if err := byColumns(t, V, n, components, func(v []float64) error { return dense.SolveU(B, n, n, v, 1, poll) }); err != nil { // α = U⁻¹v
		return nil, err
	}
	m := &Model{N: n, Components: components, Alpha: V, Eigenvalues: vals}
	for j := 0; j < components; j++ {
		signRule(V, n, components, j)
	}
	m.Proj = make([]float64, n*components)
	err = byRows(t, n, poll, func(i int) {
		m.Project(K[i*n:(i+1)*n], m.Proj[i*components:(i+1)*components])
	})
	if err != nil {
		return nil, err
	}
	m.Means = ClassMeans(m.Proj, y, classes, components)
	return m, nil
}

func checkArgs(t *par.Team, K []float64, n, classes, components int, reg float64) error {
	switch {
	case classes < 2:
		return &ParamError{"classes", float64(classes), "at least 2"}
	case components < 1 || components > classes-1:
		return &ParamError{"components", float64(components), fmt.Sprintf("1 to classes − 1 = %d", classes-1)}
	case !(reg > 0) || math.IsInf(reg, 0):
		return &ParamError{"reg", reg, "a finite number > 0"}
	case len(K) != n*n:
		return &ParamError{"K", float64(len(K)), fmt.Sprintf("%d values", n*n)}
	}
	// Each row's first non-finite entry, on every core; the first row's
	// is the error, as a scan in order would find it.
	bad := make([]int, n)
	err := byRows(t, n, func() error { return nil }, func(i int) {
		bad[i] = -1
		for j, v := range K[i*n : (i+1)*n] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				bad[i] = j
				return
			}
		}
	})
	if err != nil {
		return err
	}
	for i, j := range bad {
		if j >= 0 {
			return &ParamError{"K", K[i*n+j], fmt.Sprintf("finite values (entry %d, %d)", i, j)}
		}
	}
	return nil
}

// classMeans returns Q (n×classes, row-major): column c is m_c = K·1_c/n_c;
// and the class sizes n_c.
func classMeans(t *par.Team, K []float64, y []int, classes int, poll func() error) ([]float64, []float64, error) {
	n := len(y)
	counts := make([]float64, classes)
	for _, c := range y {
		counts[c]++
	}
	Q := make([]float64, n*classes)
	err := byRows(t, n, poll, func(i int) {
		q := Q[i*classes : (i+1)*classes]
		for j, c := range y {
			q[c] += K[i*n+j]
		}
		for c := range q {
			q[c] /= counts[c]
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return Q, counts, nil
}

// rowBand is how many rows of n² work byRows hands a worker at a time,
// with a check between bands.
const rowBand = 64

// byColumns runs solve on each column of the n×c row-major X, copied out
// contiguous, on its own worker, and copies the results back: the
// triangular solves of n² work a column each, one core apiece. A column
// is solved alone whatever the number of workers.
func byColumns(t *par.Team, X []float64, n, c int, solve func(col []float64) error) error {
	cols := make([]float64, n*c)
	for i := range n {
		for j := range c {
			cols[j*n+i] = X[i*c+j]
		}
	}
	if err := t.For("fda", c, 0, func(j int) error { return solve(cols[j*n : (j+1)*n]) }); err != nil {
		return err
	}
	for i := range n {
		for j := range c {
			X[i*c+j] = cols[j*n+i]
		}
	}
	return nil
}

// byRows runs row(i) for i < n in bands shared among workers, poll before
// each: the O(n²) passes around the n³ products, which on one core would
// be a tenth of the fit at n = 4,000 and more on many cores. Each row's
// work is its own, so the bits do not depend on the workers.
func byRows(t *par.Team, n int, poll func() error, row func(i int)) error {
	return t.For("fda", (n+rowBand-1)/rowBand, 0, func(b int) error {
		if err := poll(); err != nil {
			return err
		}
		for i := b * rowBand; i < min(n, (b+1)*rowBand); i++ {
			row(i)
		}
		return nil
	})
}

// withinScatter returns the upper triangle of N + reg·I = KKᵀ −
// Σ_c n_c m_c m_cᵀ + reg·I (n×n, row-major).
func withinScatter(t *par.Team, K, Q, counts []float64, reg float64, poll func() error) (B []float64, scale float64, err error) {
	n, classes := len(Q)/len(counts), len(counts)
	B = make([]float64, n*n)
	if err := (&dense.CrossWork{Team: t}).Product(K, n, n, B, poll); err != nil { // KᵀK = KKᵀ
		return nil, 0, err
	}
	diag := make([]float64, n)
	err = byRows(t, n, poll, func(i int) {
		qi := Q[i*classes : (i+1)*classes]
		row := B[i*n : (i+1)*n]
		for j := i; j < n; j++ {
			qj := Q[j*classes : (j+1)*classes]
			s := 0.0
			for c, nc := range counts {
				s += nc * qi[c] * qj[c]
			}
			row[j] -= s
		}
		diag[i] = row[i]
		row[i] += reg
	})
	if err != nil {
		return nil, 0, err
	}
	for _, d := range diag {
		scale = max(scale, d)
	}
	return B, scale, nil
}

// topDirections returns the components largest eigenvalues, descending, of
// (ZR)(ZR)ᵀ and their unit eigenvectors v (n×components, row-major), from
// the classes×classes problem RᵀZᵀZR.
func topDirections(Z []float64, n, classes, components int, counts []float64) ([]float64, []float64) {
	R := sqrtD(counts, float64(n))
	ZR := mat.NewDense(n, classes, nil)
	ZR.Mul(mat.NewDense(n, classes, Z), R)
	var G mat.SymDense
	G.SymOuterK(1, ZR.T())
	var eig mat.EigenSym
	eig.Factorize(&G, true) // classes×classes: converges
	lam := eig.Values(nil)
	var Uv mat.Dense
	eig.VectorsTo(&Uv)
	vals := make([]float64, components)
	V := make([]float64, n*components)
	v := mat.NewVecDense(n, nil)
	for j := 0; j < components; j++ {
		col := classes - 1 - j // ascending order: the largest last
		vals[j] = lam[col]
		v.MulVec(ZR, Uv.ColView(col))
		norm := mat.Norm(v, 2)
		if norm == 0 {
			norm = 1 // M has no direction left: α = 0
		}
		for i := 0; i < n; i++ {
			V[i*components+j] = v.AtVec(i) / norm
		}
	}
	return vals, V
}

// sqrtD returns R with R·Rᵀ = D for D = diag(n_c) − n_c·n_cᵀ/n, which is
// positive semi-definite (Cauchy–Schwarz): R = V·Λ^(1/2) from D = VΛVᵀ,
// rounding below zero clamped.
func sqrtD(counts []float64, n float64) *mat.Dense {
	c := len(counts)
	D := mat.NewSymDense(c, nil)
	for a := 0; a < c; a++ {
		for b := a; b < c; b++ {
			v := -counts[a] * counts[b] / n
			if a == b {
				v += counts[a]
			}
			D.SetSym(a, b, v)
		}
	}
	var eig mat.EigenSym
	eig.Factorize(D, true)
	lam := eig.Values(nil)
	var R mat.Dense
	eig.VectorsTo(&R)
	for j, l := range lam {
		s := math.Sqrt(math.Max(l, 0))
		for i := 0; i < c; i++ {
			R.Set(i, j, R.At(i, j)*s)
		}
	}
	return &R
}

// signRule negates column j of the n×k matrix a if needed so that its
// entry of largest magnitude is positive (the lowest index on ties).
func signRule(a []float64, n, k, j int) {
	best, sign := 0.0, 1.0
	for i := 0; i < n; i++ {
		if v := math.Abs(a[i*k+j]); v > best {
			best, sign = v, math.Copysign(1, a[i*k+j])
		}
	}
	if sign < 0 {
		for i := 0; i < n; i++ {
			a[i*k+j] = -a[i*k+j]
		}
	}
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

// ClassMeans returns the classes×components means of the projections proj
// (n×components, row-major) of the objects of each class y[i]; a class
// without objects has NaN means, which Nearest never picks.
func ClassMeans(proj []float64, y []int, classes, components int) []float64 {
	means := make([]float64, classes*components)
	counts := make([]float64, classes)
	for i, c := range y {
		counts[c]++
		for j := 0; j < components; j++ {
			means[c*components+j] += proj[i*components+j]
		}
	}
	for c, nc := range counts {
		for j := 0; j < components; j++ {
			means[c*components+j] /= nc
		}
	}
	return means
}

// Nearest returns the class whose mean projection is nearest proj
// (Euclidean), the smallest class on ties: the nearest-class-mean rule in
// the discriminant space. It returns −1 when no distance is finite.
func (m *Model) Nearest(proj []float64) int {
	k := m.Components
	scale := nearestScale(proj, m.Means, k)
	best, bestD := -1, math.Inf(1)
	for c := 0; c < len(m.Means)/k; c++ {
		d := 0.0
		for j, v := range proj {
			e := (v - m.Means[c*k+j]) * scale
			d += e * e
		}
		if d < bestD { // strict: the first of equals stays
			best, bestD = c, d
		}
	}
	return best
}

// nearestScale is 1, or, when a difference of proj from a class mean is so
// large that its square would overflow (and every distance read +Inf, so
// no class would be nearest), the power of two that brings the largest
// below 1: exact, so the order of the distances is kept.
func nearestScale(proj, means []float64, k int) float64 {
	largest := 0.0
	for c := 0; c < len(means)/k; c++ {
		for j, v := range proj {
			if e := math.Abs(v - means[c*k+j]); e > largest && !math.IsInf(e, 0) {
				largest = e
			}
		}
	}
	if largest <= 1e150 {
		return 1
	}
	_, e := math.Frexp(largest)
	return math.Ldexp(1, -e)
}

// FoldError is a fit on the rows outside one fold that failed.
type FoldError struct {
	Fold int
	Err  error
}

func (e *FoldError) Error() string { return fmt.Sprintf("the fit without fold %d: %v", e.Fold, e.Err) }
func (e *FoldError) Unwrap() error { return e.Err }

// CrossPredict returns each object's class by the nearest-class-mean rule
// of the model fitted without its fold (fold[i] in 0..folds−1): the object
// projected by that model, compared with its training classes' means. Every
// class must keep an object outside every fold (stratified folds do).
func CrossPredict(K []float64, y []int, classes, components int, reg float64, fold []int, folds int, interrupt func() error) ([]int, error) {
	n := len(y)
	if err := checkArgs(nil, K, n, classes, components, reg); err != nil {
		return nil, err
	}
	if len(fold) != n {
		return nil, &ParamError{"fold", float64(len(fold)), fmt.Sprintf("%d values", n)}
	}
	pred := make([]int, n)
	for g := 0; g < folds; g++ {
		tr, test := cv.Split(fold, g)
		if err := coversClasses(y, tr, classes); err != nil {
			return nil, &FoldError{Fold: g, Err: err}
		}
		model, err := FitPolled(dense.SubMatrix(K, n, tr, tr), pick(y, tr), classes, components, reg, interrupt)
		if err != nil {
			return nil, &FoldError{Fold: g, Err: err}
		}
		kz, proj := make([]float64, len(tr)), make([]float64, components)
		for _, r := range test {
			for t, j := range tr {
				kz[t] = K[r*n+j]
			}
			model.Project(kz, proj)
			if pred[r] = model.Nearest(proj); pred[r] < 0 {
				return nil, &FoldError{Fold: g, Err: &ParamError{"held-out projection", proj[0], fmt.Sprintf("finite values (object %d)", r)}}
			}
		}
	}
	return pred, nil
}

func coversClasses(y, rows []int, classes int) error {
	seen := make([]bool, classes)
	for _, r := range rows {
		seen[y[r]] = true
	}
	for c, ok := range seen {
		if !ok {
			return &ParamError{"class", float64(c), "a class with rows outside every fold"}
		}
	}
	return nil
}

func pick(y, rows []int) []int {
	out := make([]int, len(rows))
	for t, r := range rows {
		out[t] = y[r]
	}
	return out
}
