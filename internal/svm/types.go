package svm

import (
	"math"
	"sync/atomic"
)

// Type is the problem a fit solves: libsvm's -s, scikit-learn's SVC,
// NuSVC, OneClassSVM, SVR and NuSVR.
type Type int

const (
	// CSVC is C-support vector classification (the zero value).
	CSVC Type = iota
	// NuSVC is ν-support vector classification: ν in (0, 1] bounds the
	// fraction of margin errors from above and of support vectors from
	// below.
	NuSVC
	// OneClass is Schölkopf's one-class SVM: no labels; decision > 0 for
	// inliers.
	OneClass
	// EpsilonSVR is ε-support vector regression.
	EpsilonSVR
	// NuSVR is ν-support vector regression (ε found by the solver).
	NuSVR
)

// String returns libsvm's name of the type.
func (t Type) String() string {
	switch t {
	case CSVC:
		return "c_svc"
	case NuSVC:
		return "nu_svc"
	case OneClass:
		return "one_class"
	case EpsilonSVR:
		return "eps_svr"
	case NuSVR:
		return "nu_svr"
	}
	return "Type(?)"
}

// Regression reports whether the type fits numeric targets.
func (t Type) Regression() bool { return t == EpsilonSVR || t == NuSVR }

// usesC, usesNu report the options a type reads.
func (t Type) usesC() bool  { return t == CSVC || t == EpsilonSVR || t == NuSVR }
func (t Type) usesNu() bool { return t == NuSVC || t == OneClass || t == NuSVR }

// checkTypeOptions checks Nu and Epsilon for the types that read them.
func checkTypeOptions(opt *Options) error {
	if opt.Type < CSVC || opt.Type > NuSVR {
		return &ParamError{Name: "Type", Value: float64(opt.Type), Allowed: "CSVC, NuSVC, OneClass, EpsilonSVR or NuSVR"}
	}
	if opt.Type.usesNu() && !(opt.Nu > 0 && opt.Nu <= 1) {
		return &ParamError{Name: "Nu", Value: opt.Nu, Allowed: "0 < ν ≤ 1"}
	}
	if opt.Type == EpsilonSVR && !(opt.Epsilon >= 0 && opt.Epsilon <= math.MaxFloat64) {
		return &ParamError{Name: "Epsilon", Value: opt.Epsilon, Allowed: "a finite number ≥ 0"}
	}
	if opt.Type != CSVC && opt.ClassWeight != nil {
		return &ParamError{Name: "ClassWeight", Index: -1, Value: float64(len(opt.ClassWeight)), Allowed: "nil: class weights scale C, which only CSVC has"}
	}
	return nil
}

// checkNuFeasible is libsvm's test that ν-SVC has a feasible point in
// every pair: ν·(n_a + n_b)/2 ≤ min(n_a, n_b).
func checkNuFeasible(g *grouping, nu float64) error {
	for a := 0; a < g.k; a++ {
		for b := a + 1; b < g.k; b++ {
			na, nb := float64(g.count[a]), float64(g.count[b])
			if nu*(na+nb)/2 > min(na, nb) {
				return &NuInfeasibleError{Nu: nu, A: a, B: b, CountA: g.count[a], CountB: g.count[b]}
			}
		}
	}
	return nil
}

// newGeneral returns a workspace for problems of up to l variables.
func newGeneral(l int) *general {
	return &general{rows: make([]int, l), y: make([]int8, l), c: make([]float64, l),
		p: make([]float64, l), alpha: make([]float64, l)}
}

// resize sets the problem's length to l (≤ the workspace's).
func (pr *general) resize(l int) {
	pr.rows, pr.y, pr.c = pr.rows[:l], pr.y[:l], pr.c[:l]
	pr.p, pr.alpha = pr.p[:l], pr.alpha[:l]
}

// solveNuSVC is libsvm's solve_nu_svc on one pair: α starts at ν·l/2 per
// sign, filled from the first rows, and the solution is scaled by 1/r.
// coef receives y_i·α_i/r in rows' order.
func (s *solver) solveNuSVC(rows []int, y []int8, nu float64, diag []float64, pr *general, coef []float64) (binaryResult, error) {
	l := len(rows)
	pr.resize(l)
	pr.nu = true
	copy(pr.rows, rows)
	copy(pr.y, y)
	nuL := 0.0
	for i := 0; i < l; i++ {
		nuL += nu // ν·C_i with C_i = 1, summed as libsvm sums it
	}
	sumPos, sumNeg := nuL/2, nuL/2
	for i := 0; i < l; i++ {
		pr.c[i], pr.p[i] = 1, 0
		if y[i] > 0 {
			pr.alpha[i] = min(1, sumPos)
			sumPos -= pr.alpha[i]
		} else {
			pr.alpha[i] = min(1, sumNeg)
			sumNeg -= pr.alpha[i]
		}
	}
	res, err := s.solveGeneral(pr, diag, coef)
	if err != nil {
		return res, err
	}
	r := res.r
	if !(r > 0 && r <= math.MaxFloat64) || math.IsNaN(res.rho) || math.IsInf(res.rho, 0) {
		return res, &NuMarginError{Nu: nu, R: r}
	}
	for i := range coef {
		coef[i] *= float64(y[i]) / r
	}
	res.rho /= r
	res.obj /= r * r
	res.bound = 1 / r
	return res, nil
}

// FitOneClass trains a one-class SVM (Options.Type OneClass, Nu) on n
// objects: decision values are positive for inliers. The model has
// Classes 2, class 0 the outliers (−1) and class 1 the inliers (+1), and
// one decision function (Support in row order, DualCoef[0], Intercept[0]).
func FitOneClass(kern Kernel, n int, opt Options) (*Model, error) {
	if opt.Type != OneClass {
		return nil, &ParamError{Name: "Type", Value: float64(opt.Type), Allowed: "OneClass for FitOneClass"}
	}
	if n < 1 {
		return nil, &LengthError{Name: "objects", Got: n, Want: 1}
	}
	if err := checkOptions(&opt, 0); err != nil {
		return nil, err
	}
	pr := newGeneral(n)
	nuL := 0.0
	for i := 0; i < n; i++ {
		pr.rows[i], pr.y[i], pr.c[i], pr.p[i] = i, 1, 1, 0
		nuL += opt.Nu
	}
	for i := 0; i < n && nuL > 0; i++ {
		pr.alpha[i] = min(1, nuL)
		nuL -= pr.alpha[i]
	}
	return fitSingle(kern, n, pr, &opt, func(alpha []float64) []float64 { return alpha })
}

// FitRegression trains ε-SVR or ν-SVR (Options.Type EpsilonSVR with C and
// Epsilon, or NuSVR with C and Nu) on targets y: the decision value is the
// prediction. The model has Classes 0 and one decision function.
func FitRegression(kern Kernel, y []float64, opt Options) (*Model, error) {
	if !opt.Type.Regression() {
		return nil, &ParamError{Name: "Type", Value: float64(opt.Type), Allowed: "EpsilonSVR or NuSVR for FitRegression"}
	}
	n := len(y)
	if n < 1 {
		return nil, &LengthError{Name: "y", Got: n, Want: 1}
	}
	for r, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, &TargetError{Row: r, Value: v}
		}
	}
	if err := checkOptions(&opt, 0); err != nil {
		return nil, err
	}
	pr := newGeneral(2 * n)
	sum := 0.0
	for i := 0; i < n; i++ {
		pr.rows[i], pr.rows[i+n] = i, i
		pr.y[i], pr.y[i+n] = 1, -1
		pr.c[i], pr.c[i+n] = opt.C, opt.C
		sum += opt.C * opt.Nu
	}
	sum /= 2
	for i := 0; i < n; i++ {
		if opt.Type == EpsilonSVR {
			pr.p[i], pr.p[i+n] = opt.Epsilon-y[i], opt.Epsilon+y[i]
			continue
		}
		pr.alpha[i] = min(sum, opt.C)
		pr.alpha[i+n] = pr.alpha[i]
		sum -= pr.alpha[i]
		pr.p[i], pr.p[i+n] = -y[i], y[i]
	}
	pr.nu = opt.Type == NuSVR
	return fitSingle(kern, n, pr, &opt, func(alpha []float64) []float64 {
		coef := make([]float64, n)
		for i := range coef {
			coef[i] = alpha[i] - alpha[i+n]
		}
		return coef
	})
}

// singleName names the function of a one-class or regression fit, for a
// *par.PanicError.
func singleName(t Type) string {
	if t == OneClass {
		return "svm.FitOneClass"
	}
	return "svm.FitRegression"
}

// fitSingle solves the one problem of a one-class or regression fit on n
// objects and builds its Model; coefOf turns the solution into each
// row's coefficient.
func fitSingle(kern Kernel, n int, pr *general, opt *Options, coefOf func([]float64) []float64) (*Model, error) {
	stop := new(atomic.Bool)
	poll := &poller{interrupt: opt.Interrupt, stop: stop}
	diag, err := diagonal(kern, n, poll)
	if err != nil {
		return nil, err
	}
	budget := opt.cacheBudget()
	l := len(pr.rows)
	var s *solver
	if opt.Type.Regression() {
		// The position cache goes unused: a tiny one.
		s = newSolver(kern, poll, l, 0)
		s.svr = newSVRColumns(n, budget)
	} else {
		s = newSolver(kern, poll, l, budget)
	}
	s.eps, s.shrinking = opt.Tol, !opt.NoShrinking
	s.shareColumns(singleName(opt.Type), max(opt.Workers, 1))
	s.maxIter = opt.iterBound(l)
	res, err := s.solveGeneral(pr, diag, make([]float64, l))
	if err != nil {
		return nil, err
	}
	if math.IsNaN(res.rho) || math.IsInf(res.rho, 0) {
		return nil, &RhoError{Type: opt.Type, Rho: res.rho}
	}
	coef := coefOf(res.coef)
	bound := 1.0 // one-class: C_i = 1
	if opt.Type.Regression() {
		bound = opt.C
	}
	m := &Model{Type: opt.Type, NSupport: make([]int, 1), DualCoef: make([][]float64, 1), Intercept: []float64{-res.rho}}
	if opt.Type == OneClass {
		m.Classes = 2
	}
	p := Pair{A: -1, B: -1, Iterations: res.iter, Objective: res.obj, Rho: res.rho, R: res.r, Converged: res.converged}
	for r, c := range coef {
		if c == 0 {
			continue
		}
		m.Support = append(m.Support, r)
		m.DualCoef[0] = append(m.DualCoef[0], c)
		p.NSV++
		if math.Abs(c) >= bound {
			p.NBSV++
		}
	}
	m.NSupport[0] = p.NSV
	m.Pairs = []Pair{p}
	if !res.converged {
		m.Warnings = append(m.Warnings, Warning{Kind: MaxIterReached, A: -1, B: -1, Count: res.iter})
	}
	if res.negCurv > 0 {
		m.Warnings = append(m.Warnings, Warning{Kind: NegativeCurvature, A: -1, B: -1, Count: res.negCurv, Value: res.minCurv})
	}
	m.diagonalWarning(diag)
	return m, nil
}

// single reports whether the model has one decision function of its own
// (one-class, regression) rather than one per pair of classes.
func (m *Model) single() bool { return m.Type == OneClass || m.Type.Regression() }

// validateSingle is Validate for one-class and regression models.
func (m *Model) validateSingle() error {
	want := 0
	if m.Type == OneClass {
		want = 2
	}
	if m.Classes != want {
		return &LengthError{Name: "Classes", Got: m.Classes, Want: want}
	}
	if len(m.NSupport) != 1 || m.NSupport[0] != len(m.Support) {
		return &LengthError{Name: "NSupport", Got: len(m.NSupport), Want: 1}
	}
	if len(m.DualCoef) != 1 || len(m.DualCoef[0]) != len(m.Support) {
		return &LengthError{Name: "DualCoef", Got: len(m.DualCoef), Want: 1}
	}
	if len(m.Intercept) != 1 {
		return &LengthError{Name: "Intercept", Got: len(m.Intercept), Want: 1}
	}
	return nil
}

// DecisionBatch sets dec (NumPairs per object) to the decision values of
// objects whose kernel values against the support vectors are kv, row
// after row. For a regression model they are the predictions.
func (m *Model) DecisionBatch(kv, dec []float64) error {
	ns, np := len(m.Support), m.NumPairs()
	n := len(dec) / np
	if len(dec) != n*np {
		return &LengthError{Name: "dec", Got: len(dec), Want: n * np}
	}
	if len(kv) != n*ns {
		return &LengthError{Name: "kv", Got: len(kv), Want: n * ns}
	}
	start := m.classStarts(nil)
	for r := 0; r < n; r++ {
		m.decision(kv[r*ns:(r+1)*ns], dec[r*np:(r+1)*np], start)
	}
	return nil
}
