package svm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/offheap"
	"github.com/ksql/ksql/internal/par"
	"github.com/ksql/ksql/internal/rng"
)

// LinearOptions are FitLinear's parameters, LinearSVC's names.
type LinearOptions struct {
	C         float64      // > 0; LinearSVC's C (default 1)
	Tol       float64      // > 0; the stopping tolerance on the projected gradient's spread (LinearSVC's tol, 1e-4)
	MaxIter   int          // ≥ 1; outer iterations per problem (LinearSVC's max_iter, 1000)
	Seed      uint64       // the permutations' generator
	Workers   int          // problems solved at once (one-vs-rest); ≤ 0: one
	Interrupt func() error // polled once per outer iteration; its error stops the fit
}

// LinearModel is a linear SVM fitted by FitLinear. With two classes there
// is one problem, class 1 against class 0 (its decision value positive
// for class 1); with k > 2 there are k, class c against the rest.
type LinearModel struct {
	Classes    int
	Dim        int       // features per row (the bias is not among them)
	W          []float64 // problem p's weights at W[p·(Dim+1):], the last the bias (the appended feature's, B = 1)
	Iterations []int     // outer iterations per problem
	Dual       []float64 // per problem Σα − ½‖w‖² (LIBLINEAR's objective, negated)
	Primal     []float64 // per problem ½‖w‖² + C·Σ max(0, 1 − y·(w·x + b))
	NSV        []int     // rows with α > 0, per problem
	Converged  []bool    // false where MaxIter stopped the problem
}

// Problems is how many binary problems the model holds.
func (m *LinearModel) Problems() int {
	if m.Classes == 2 {
		return 1
	}
	return m.Classes
}

// Decision sets dec[p] = w_p·x + b_p for the Dim features x.
func (m *LinearModel) Decision(x, dec []float64) error {
	if len(x) != m.Dim {
		return &LengthError{Name: "x", Got: len(x), Want: m.Dim}
	}
	if len(dec) != m.Problems() {
		return &LengthError{Name: "dec", Got: len(dec), Want: m.Problems()}
	}
	for p := range dec {
		w := m.W[p*(m.Dim+1) : (p+1)*(m.Dim+1)]
		s := w[m.Dim]
		for j, v := range x {
			s += w[j] * v
		}
		dec[p] = s
	}
	return nil
}

// Vote is the class of decision values dec: with two classes class 1 when
// dec[0] > 0; with more the first largest (LinearSVC's argmax).
func (m *LinearModel) Vote(dec []float64) int {
	if m.Classes == 2 {
		if dec[0] > 0 {
			return 1
		}
		return 0
	}
	best := 0
	for c, v := range dec {
		if v > dec[best] {
			best = c
		}
	}
	return best
}

// Validate checks a model's shapes (a stored model's, before use).
func (m *LinearModel) Validate() error {
	np := 0
	if m.Classes >= 2 && m.Dim >= 1 {
		np = m.Problems()
	}
	if np == 0 || len(m.W) != np*(m.Dim+1) || len(m.Iterations) != np || len(m.Dual) != np ||
		len(m.Primal) != np || len(m.NSV) != np || len(m.Converged) != np {
		return fmt.Errorf("svm: a linear model with %d classes and %d features has inconsistent shapes", m.Classes, m.Dim)
	}
	for _, v := range m.W {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("svm: a linear model's weight is %v", v)
		}
	}
	return nil
}

// FitLinear fits a linear SVM with the L1 (hinge) loss on the rows given
// of X (row i's Dim features at X[i·dim:]; rows nil: every row), classes
// y[i] in 0..k−1, one problem against the rest per class when k > 2. Each
// problem is LIBLINEAR's solve_l2r_l1l2_svc for L2R_L1LOSS_SVC_DUAL (the
// solver of scikit-learn's LinearSVC(loss='hinge', dual=True)): dual
// coordinate descent on
//
//	min ½ αᵀQα − eᵀα,  0 ≤ α_i ≤ C,  Q_ij = y_i y_j (x_i·x_j + 1),
//
// the 1 being the bias feature B = 1 appended to every row (LinearSVC's
// intercept_scaling=1: the bias is regularised as a weight), with
// LIBLINEAR's shrinking and stopping rule (the projected gradient's
// spread over a full pass ≤ Tol). Each outer iteration visits the active
// rows in a random order; the permutation is LIBLINEAR's (swap i with
// i + draw mod (active − i)) but the draws come from internal/rng's
// SplitMix64 (Below, unbiased), not the C library's rand(), so the path,
// not the optimum, differs from LIBLINEAR's. Problem p draws from a
// generator seeded by the p-th value of SplitMix64(Seed), so the problems
// are independent of how many run at once and the fit is deterministic.
func FitLinear[F float32 | float64](X []F, dim int, rows, y []int, classes int, opt LinearOptions) (*LinearModel, error) {
	if err := checkLinear(len(X), dim, rows, y, classes, opt); err != nil {
		return nil, err
	}
	// A million rows' orders, signs and duals, for every problem running,
	// live outside Go's heap (offheap), which would let them cost twice
	// their size; they go back when the fit ends. rows nil stays nil: the
	// identity, not n more values.
	l := len(rows)
	if rows == nil {
		l = len(y)
	}
	m := &LinearModel{Classes: classes, Dim: dim}
	np := m.Problems()
	m.W = make([]float64, np*(dim+1))
	m.Iterations, m.Dual, m.Primal = make([]int, np), make([]float64, np), make([]float64, np)
	m.NSV, m.Converged = make([]int, np), make([]bool, np)
	seeds := make([]uint64, np)
	g := rng.New(opt.Seed)
	for p := range seeds {
		seeds[p] = g.Next()
	}
	poll := opt.Interrupt
	if poll == nil {
		poll = func() error { return nil }
	}
	workers := par.Workers(opt.Workers, np)
	offheap.Reserve(l * (8 + workers*13)) // qd, and each running problem's alpha, index and sign
	qdBuf := offheap.Alloc[float64](l)
	defer qdBuf.Free()
	qd := linearDiagonal(X, dim, rows, qdBuf.Values) // the same for every problem
	err := par.For("svm.FitLinear", np, workers, 1, func(_, p int) error {
		positive := p
		if classes == 2 {
			positive = 1
		}
		alpha, index, sign := offheap.Alloc[float64](l), offheap.Alloc[int32](l), offheap.Alloc[int8](l)
		defer func() { alpha.Free(); index.Free(); sign.Free() }()
		s := linearSolver[F]{X: X, dim: dim, n: l, rows: rows, y: y, positive: positive, qd: qd,
			alpha: alpha.Values, index: index.Values, sign: sign.Values,
			c: opt.C, tol: opt.Tol, maxIter: opt.MaxIter, rng: rng.New(seeds[p]), poll: poll,
			w: m.W[p*(dim+1) : (p+1)*(dim+1)]}
		if err := s.solve(); err != nil {
			return err
		}
		m.Iterations[p], m.Dual[p], m.Primal[p], m.NSV[p], m.Converged[p] = s.iter, s.dual, s.primal(), s.nsv, s.converged
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// checkLinear checks FitLinear's arguments.
func checkLinear(nx, dim int, rows, y []int, classes int, opt LinearOptions) error {
	if classes < 2 {
		return &ClassCountError{Classes: classes}
	}
	if dim < 1 || nx != len(y)*dim {
		return &LengthError{Name: "X", Got: nx, Want: len(y) * max(dim, 1)}
	}
	for i, c := range y {
		if c < 0 {
			return &LabelError{Problem: NegativeLabel, Row: i, Label: c}
		}
		if c >= classes {
			return &ParamError{Name: "y", Index: i, Value: float64(c), Allowed: fmt.Sprintf("a class index below classes = %d", classes)}
		}
	}
	for _, r := range rows {
		if r < 0 || r >= len(y) {
			return &LengthError{Name: "rows", Got: r, Want: len(y)}
		}
	}
	switch {
	case !(opt.C > 0) || math.IsInf(opt.C, 0):
		return &ParamError{Name: "C", Value: opt.C, Allowed: "finite and > 0"}
	case !(opt.Tol > 0) || math.IsInf(opt.Tol, 0):
		return &ParamError{Name: "Tol", Value: opt.Tol, Allowed: "finite and > 0"}
	case opt.MaxIter < 1:
		return &ParamError{Name: "MaxIter", Value: float64(opt.MaxIter), Allowed: "≥ 1"}
	}
	return nil
}

// linearSolver is one binary problem of FitLinear: rows of class positive
// against the others.
type linearSolver[F float32 | float64] struct {
	X        []F
	dim, n   int   // n: the problem's rows
	rows, y  []int // rows nil: rows 0..n−1
	positive int
	c, tol   float64
	maxIter  int
	rng      *rng.SplitMix64
	poll     func() error
	w        []float64 // dim weights, then the bias
	qd       []float64 // xᵀx + 1 of each row, shared by the problems
	// alpha, sign (±1, the row's side) and index (the rows' order) are
	// made by solve unless given (zeroed).
	alpha     []float64
	sign      []int8
	index     []int32
	iter, nsv int
	dual      float64
	converged bool
}

// row is the features of the t-th row of the problem.
func (s *linearSolver[F]) row(t int) []F {
	i := s.rowOf(t)
	return s.X[i*s.dim : (i+1)*s.dim]
}

// rowOf is the index in X and y of the t-th row of the problem.
func (s *linearSolver[F]) rowOf(t int) int {
	if s.rows == nil {
		return t
	}
	return s.rows[t]
}

// dot is w·x + b·1: float64 features by gonum's assembly kernel, float32
// ones by dotF32 (either way the sum's order is fixed, so a fit is
// deterministic).
func (s *linearSolver[F]) dot(x []F) float64 {
	if x64, ok := any(x).([]float64); ok {
		return s.w[s.dim] + floats.Dot(s.w[:len(x64)], x64)
	}
	x32 := any(x).([]float32)
	return s.w[s.dim] + dotF32(s.w[:len(x32)], x32)
}

func (s *linearSolver[F]) axpy(d float64, x []F) {
	s.w[s.dim] += d
	if x64, ok := any(x).([]float64); ok {
		floats.AddScaled(s.w[:len(x64)], d, x64)
		return
	}
	axpyF32(d, any(x).([]float32), s.w)
}

// linearDiagonal sets qd to Q's diagonal for the given rows of X (nil:
// the first len(qd)): xᵀx plus the bias feature's 1.
func linearDiagonal[F float32 | float64](X []F, dim int, rows []int, qd []float64) []float64 {
	for t := range qd {
		i := t
		if rows != nil {
			i = rows[t]
		}
		q := 1.0
		for _, f := range X[i*dim : (i+1)*dim] {
			q += float64(f) * float64(f)
		}
		qd[t] = q
	}
	return qd
}

// solve is solve_l2r_l1l2_svc for the L1 loss, step for step (diag = 0,
// upper bound C for both signs).
func (s *linearSolver[F]) solve() error {
	l := s.n
	qd := s.qd
	if s.alpha == nil {
		s.alpha, s.sign, s.index = make([]float64, l), make([]int8, l), make([]int32, l)
	}
	index := s.index
	for t := range index {
		index[t] = int32(t)
		s.sign[t] = -1
		if s.y[s.rowOf(t)] == s.positive {
			s.sign[t] = 1
		}
	}
	active := l
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	for s.iter < s.maxIter {
		if err := s.poll(); err != nil {
			return err
		}
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		for t := 0; t < active; t++ {
			j := t + int(s.rng.Below(uint64(active-t)))
			index[t], index[j] = index[j], index[t]
		}
		for k := 0; k < active; k++ {
			t := int(index[k])
			x := s.row(t)
			yi := float64(s.sign[t])
			g := yi*s.dot(x) - 1
			a := s.alpha[t]
			pg := 0.0
			switch {
			case a == 0:
				if g > pgMaxOld {
					active--
					index[k], index[active] = index[active], index[k]
					k--
					continue
				} else if g < 0 {
					pg = g
				}
			case a == s.c:
				if g < pgMinOld {
					active--
					index[k], index[active] = index[active], index[k]
					k--
					continue
				} else if g > 0 {
					pg = g
				}
			default:
				pg = g
			}
			pgMax, pgMin = math.Max(pgMax, pg), math.Min(pgMin, pg)
			if math.Abs(pg) > 1e-12 {
				s.alpha[t] = math.Min(math.Max(a-g/qd[t], 0), s.c)
				s.axpy((s.alpha[t]-a)*yi, x)
			}
		}
		s.iter++
		if pgMax-pgMin <= s.tol {
			if active == l {
				s.converged = true
				break
			}
			active = l
			pgMaxOld, pgMinOld = math.Inf(1), math.Inf(-1)
			continue
		}
		pgMaxOld, pgMinOld = pgMax, pgMin
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
		if pgMinOld >= 0 {
			pgMinOld = math.Inf(-1)
		}
	}
	var ww, sa float64
	for _, v := range s.w {
		ww += v * v
	}
	for _, a := range s.alpha {
		sa += a
		if a > 0 {
			s.nsv++
		}
	}
	s.dual = sa - ww/2
	return nil
}

// primal is ½‖w‖² + C·Σ hinge at the solution (the bias in ‖w‖, as
// LIBLINEAR regularises it).
func (s *linearSolver[F]) primal() float64 {
	var ww, loss float64
	for _, v := range s.w {
		ww += v * v
	}
	for t := range s.n {
		loss += math.Max(0, 1-float64(s.sign[t])*s.dot(s.row(t)))
	}
	return ww/2 + s.c*loss
}
