package svm

import (
	"fmt"
	"math"
)

// Model is a fitted classifier in scikit-learn SVC's layout, so that its
// fields compare one to one with SVC's attributes:
//
//   - Support is support_: the training rows with a non-zero dual
//     coefficient in some pair, grouped by class (0 first), increasing
//     within a class; NSupport is n_support_.
//   - DualCoef is dual_coef_, (k−1) rows × len(Support): for pair (a, b),
//     the coefficients y_i·α_i of a's support vectors are in row b−1 and
//     those of b's in row a (libsvm's sv_coef layout).
//   - Intercept is intercept_, one per pair.
//
// The decision value of pair p = (a, b) for an object z is
// Σ_{s of class a} DualCoef[b−1][s]·K(x_s, z) + Σ_{s of class b}
// DualCoef[a][s]·K(x_s, z) + Intercept[p]. As in scikit-learn, with two
// classes it is positive for class 1 (the larger label); with more it is
// the one-vs-one value (decision_function_shape='ovo'), positive for a,
// the smaller class of the pair. Prediction is libsvm's vote: each pair
// votes for a when its libsvm value is > 0, else for b; most votes wins,
// the lowest class on ties.
//
// A Model is read-only after Fit and safe for concurrent use. One rebuilt
// from stored fields should pass Validate.
type Model struct {
	Type      Type
	Classes   int
	Support   []int
	NSupport  []int
	DualCoef  [][]float64
	Intercept []float64
	Pairs     []Pair    // per pair, in the order of Intercept
	Warnings  []Warning // nil when the fit was clean
}

// Pair reports one binary subproblem.
type Pair struct {
	A, B       int     // its classes, A < B
	Iterations int     // SMO iterations
	Objective  float64 // libsvm's obj: min ½αᵀQα − eᵀα (the dual's optimum, negated)
	Rho        float64 // libsvm's rho (the pair's libsvm decision is Σ y_iα_iK − rho)
	NSV        int     // rows with α > 0
	NBSV       int     // of those, rows at their bound C
	Converged  bool    // false when MaxIter stopped it
	// R is the ν types' r (libsvm's si.r): NuSVC's pair was solved with
	// C = 1/R and its coefficients, Rho and Objective rescaled; NuSVR's
	// tube half-width ε is −R. Zero for the other types.
	R float64
}

// WarningKind names a condition a fit completed under.
type WarningKind int

const (
	// MaxIterReached: the pair stopped after Count iterations, before the
	// violation fell below Tol; its solution is feasible but not optimal.
	MaxIterReached WarningKind = iota + 1
	// NegativeCurvature: Count SMO steps of the pair met
	// K_ii + K_jj − 2K_ij < 0 (the most negative is Value): the kernel
	// is not positive semi-definite on the data. libsvm's tau rule made
	// those steps go to the box's edge, so the fit terminated, but the
	// dual problem is not convex and the solution is only a local one.
	NegativeCurvature
	// NegativeDiagonal: Count rows have K(x, x) < 0 (the least is Value),
	// which no positive semi-definite kernel gives. A and B are −1.
	NegativeDiagonal
)

func (k WarningKind) String() string {
	switch k {
	case MaxIterReached:
		return "max_iter_reached"
	case NegativeCurvature:
		return "negative_curvature"
	case NegativeDiagonal:
		return "negative_diagonal"
	}
	return fmt.Sprintf("WarningKind(%d)", int(k))
}

// Warning is a condition the fit completed under; ext/ words it.
type Warning struct {
	Kind  WarningKind
	A, B  int
	Count int
	Value float64
}

// NumPairs returns k(k−1)/2, the number of decision values per object;
// 1 for one-class and regression models.
func (m *Model) NumPairs() int {
	if m.single() {
		return 1
	}
	return m.Classes * (m.Classes - 1) / 2
}

// Iterations returns the iterations of all pairs.
func (m *Model) Iterations() int {
	n := 0
	for _, p := range m.Pairs {
		n += p.Iterations
	}
	return n
}

// Converged reports whether every pair met the tolerance.
func (m *Model) Converged() bool {
	for _, p := range m.Pairs {
		if !p.Converged {
			return false
		}
	}
	return true
}

// assemble builds the Model from the pairs' solutions as libsvm's
// svm_train does, then flips the binary signs as scikit-learn does.
func assemble(g *grouping, res []binaryResult, diag []float64, opt *Options) *Model {
	m := &Model{Type: opt.Type, Classes: g.k}
	nonzero := m.pairStats(g, res, opt)
	nzStart := m.supportLayout(g, nonzero)
	m.coefficients(g, res, nonzero, nzStart)
	m.diagonalWarning(diag)
	return m
}

// diagonalWarning adds NegativeDiagonal when some K(x, x) < 0.
func (m *Model) diagonalWarning(diag []float64) {
	negDiag, minDiag := 0, math.Inf(1)
	for _, d := range diag {
		if d < 0 {
			negDiag++
			minDiag = min(minDiag, d)
		}
	}
	if negDiag > 0 {
		m.Warnings = append(m.Warnings, Warning{Kind: NegativeDiagonal, A: -1, B: -1, Count: negDiag, Value: minDiag})
	}
}

// pairStats fills Pairs and the pairs' warnings and returns which grouped
// positions have a non-zero coefficient in some pair.
func (m *Model) pairStats(g *grouping, res []binaryResult, opt *Options) []bool {
	nonzero := make([]bool, len(g.perm))
	m.Pairs = make([]Pair, len(res))
	for q, r := range res {
		a, b := pairClasses(q, g.k)
		na := g.count[a]
		pr := Pair{A: a, B: b, Iterations: r.iter, Objective: r.obj, Rho: r.rho, R: r.r, Converged: r.converged}
		for t, c := range r.coef {
			if c == 0 {
				continue
			}
			pos, cls := g.start[a]+t, a
			if t >= na {
				pos, cls = g.start[b]+t-na, b
			}
			nonzero[pos] = true
			pr.NSV++
			bound := opt.C
			if opt.ClassWeight != nil {
				bound *= opt.ClassWeight[cls]
			}
			if opt.Type == NuSVC {
				bound = r.bound
			}
			if math.Abs(c) >= bound {
				pr.NBSV++
			}
		}
		m.Pairs[q] = pr
		if !r.converged {
			m.Warnings = append(m.Warnings, Warning{Kind: MaxIterReached, A: a, B: b, Count: r.iter})
		}
		if r.negCurv > 0 {
			m.Warnings = append(m.Warnings, Warning{Kind: NegativeCurvature, A: a, B: b, Count: r.negCurv, Value: r.minCurv})
		}
	}
	return nonzero
}

// supportLayout fills Support and NSupport (class by class, rows in
// order) and returns where each class's support vectors start.
func (m *Model) supportLayout(g *grouping, nonzero []bool) []int {
	m.NSupport = make([]int, g.k)
	nzStart := make([]int, g.k)
	for c := 0; c < g.k; c++ {
		for t := 0; t < g.count[c]; t++ {
			if pos := g.start[c] + t; nonzero[pos] {
				m.Support = append(m.Support, g.perm[pos])
				m.NSupport[c]++
			}
		}
		if c > 0 {
			nzStart[c] = nzStart[c-1] + m.NSupport[c-1]
		}
	}
	return nzStart
}

// coefficients fills DualCoef and Intercept in libsvm's sv_coef layout,
// with scikit-learn's sign for two classes (positive for class 1).
func (m *Model) coefficients(g *grouping, res []binaryResult, nonzero []bool, nzStart []int) {
	k, total := g.k, len(m.Support)
	m.DualCoef = make([][]float64, k-1)
	for i := range m.DualCoef {
		m.DualCoef[i] = make([]float64, total)
	}
	m.Intercept = make([]float64, len(res))
	sign := 1.0
	if k == 2 {
		sign = -1
	}
	// copyNonzero writes the non-zero positions' coefficients of class c
	// (coef[off:], in class order) to dst, in order.
	copyNonzero := func(dst, coef []float64, c, off int) {
		for t := 0; t < g.count[c]; t++ {
			if nonzero[g.start[c]+t] {
				dst[0] = sign * coef[off+t]
				dst = dst[1:]
			}
		}
	}
	for q, r := range res {
		a, b := pairClasses(q, k)
		copyNonzero(m.DualCoef[b-1][nzStart[a]:], r.coef, a, 0)
		copyNonzero(m.DualCoef[a][nzStart[b]:], r.coef, b, g.count[a])
		m.Intercept[q] = -sign * r.rho
	}
}

// Validate checks that the fields fit together (for a Model rebuilt from
// storage).
func (m *Model) Validate() error {
	if m.Type < CSVC || m.Type > NuSVR {
		return &ParamError{Name: "Type", Value: float64(m.Type), Allowed: "CSVC, NuSVC, OneClass, EpsilonSVR or NuSVR"}
	}
	if m.single() {
		return m.validateSingle()
	}
	k := m.Classes
	if k < 2 {
		return &ClassCountError{Classes: k}
	}
	if len(m.NSupport) != k {
		return &LengthError{Name: "NSupport", Got: len(m.NSupport), Want: k}
	}
	total := 0
	for _, c := range m.NSupport {
		if c < 0 {
			return &LengthError{Name: "NSupport", Got: c, Want: 0}
		}
		total += c
	}
	if len(m.Support) != total {
		return &LengthError{Name: "Support", Got: len(m.Support), Want: total}
	}
	if len(m.DualCoef) != k-1 {
		return &LengthError{Name: "DualCoef", Got: len(m.DualCoef), Want: k - 1}
	}
	for _, row := range m.DualCoef {
		if len(row) != total {
			return &LengthError{Name: "DualCoef row", Got: len(row), Want: total}
		}
	}
	if len(m.Intercept) != m.NumPairs() {
		return &LengthError{Name: "Intercept", Got: len(m.Intercept), Want: m.NumPairs()}
	}
	return nil
}

// Decision sets dec[p] to the decision value of pair p for an object z
// whose kernel values against the support vectors are kv[s] = K(x_Support[s], z).
func (m *Model) Decision(kv, dec []float64) error {
	if len(kv) != len(m.Support) {
		return &LengthError{Name: "kv", Got: len(kv), Want: len(m.Support)}
	}
	if len(dec) != m.NumPairs() {
		return &LengthError{Name: "dec", Got: len(dec), Want: m.NumPairs()}
	}
	var small [64]int
	m.decision(kv, dec, m.classStarts(small[:0]))
	return nil
}

// decision is Decision with start = classStarts.
func (m *Model) decision(kv, dec []float64, start []int) {
	k := m.Classes
	if k == 2 || m.single() {
		dec[0] = dot(m.DualCoef[0], kv) + m.Intercept[0]
		return
	}
	q := 0
	for a := 0; a < k; a++ {
		sa, ea := start[a], start[a]+m.NSupport[a]
		for b := a + 1; b < k; b++ {
			sb, eb := start[b], start[b]+m.NSupport[b]
			dec[q] = dot(m.DualCoef[b-1][sa:ea], kv[sa:ea]) + dot(m.DualCoef[a][sb:eb], kv[sb:eb]) + m.Intercept[q]
			q++
		}
	}
}

// classStarts returns where each class's support vectors start in
// Support, appended to buf[:0] (which needs no capacity).
func (m *Model) classStarts(buf []int) []int {
	start, s := buf[:0], 0
	for _, c := range m.NSupport {
		start = append(start, s)
		s += c
	}
	return start
}

// dot is Σ x_i·y_i, with four partial sums: the products are independent,
// so the loop runs at the processor's throughput, not the adder's latency.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Vote returns the class that the pairs' decision values dec vote for,
// as libsvm: the lowest class among those with the most votes; for a
// OneClass model 1 (inlier) when dec[0] > 0, else 0. A regression model
// has no classes (its decision value is its prediction).
func (m *Model) Vote(dec []float64) int {
	var small [64]int
	if m.Classes <= len(small) {
		return m.vote(dec, small[:m.Classes])
	}
	return m.vote(dec, make([]int, m.Classes))
}

// vote is Vote counting in votes (len Classes), which it clears first.
func (m *Model) vote(dec []float64, votes []int) int {
	k := m.Classes
	if m.Type == OneClass { // libsvm: an inlier when its value is > 0
		if dec[0] > 0 {
			return 1
		}
		return 0
	}
	if k == 2 {
		if dec[0] < 0 { // libsvm's value is −dec: > 0 votes for class 0
			return 0
		}
		return 1
	}
	clear(votes)
	q := 0
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			if dec[q] > 0 {
				votes[a]++
			} else {
				votes[b]++
			}
			q++
		}
	}
	best := 0
	for c := 1; c < k; c++ {
		if votes[c] > votes[best] {
			best = c
		}
	}
	return best
}

// Predict returns the predicted class of an object with kernel values kv
// against the support vectors, leaving the decision values in dec
// (len NumPairs).
func (m *Model) Predict(kv, dec []float64) (int, error) {
	if m.Type.Regression() {
		return 0, &NotClassifierError{Type: m.Type}
	}
	if err := m.Decision(kv, dec); err != nil {
		return 0, err
	}
	return m.Vote(dec), nil
}

// PredictBatch predicts len(classes) objects: kv holds their kernel values
// against the support vectors row after row (len(classes)·len(Support)),
// dec receives their decision values row after row
// (len(classes)·NumPairs).
func (m *Model) PredictBatch(kv, dec []float64, classes []int) error {
	if m.Type.Regression() {
		return &NotClassifierError{Type: m.Type}
	}
	ns, np := len(m.Support), m.NumPairs()
	n := len(classes)
	if len(kv) != n*ns {
		return &LengthError{Name: "kv", Got: len(kv), Want: n * ns}
	}
	if len(dec) != n*np {
		return &LengthError{Name: "dec", Got: len(dec), Want: n * np}
	}
	votes, start := make([]int, m.Classes), m.classStarts(nil)
	for r := range classes {
		d := dec[r*np : (r+1)*np]
		m.decision(kv[r*ns:(r+1)*ns], d, start)
		classes[r] = m.vote(d, votes)
	}
	return nil
}
