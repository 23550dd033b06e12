package svm

import (
	"math"
	"sync/atomic"

	"github.com/ksql/ksql/internal/par"
)

// Kernel gives the solver kernel values between training objects, by
// their row index 0..n−1. It is all the solver knows of the data.
type Kernel interface {
	// Column sets dst[t] = K(x_i, x_idx[t]) for every t (len(dst) ==
	// len(idx)). idx is the solver's current order of the rows it needs,
	// not sorted; neither slice may be kept after the call. A long
	// column should poll for interrupts itself: the solver polls between
	// calls. With Options.Workers > 1, Column is called from several
	// goroutines at once, also for pieces of one column: a value must not
	// depend on which other values are asked for in the same call.
	Column(i int, idx []int, dst []float64) error
}

// KernelFunc adapts a function to Kernel.
type KernelFunc func(i int, idx []int, dst []float64) error

// Column calls f.
func (f KernelFunc) Column(i int, idx []int, dst []float64) error { return f(i, idx, dst) }

var _ Kernel = KernelFunc(nil)

// DefaultCacheBytes is scikit-learn's SVC cache_size (200 MB).
const DefaultCacheBytes = 200 << 20

// Options control Fit. C and Tol have no defaults: zero is an error.
type Options struct {
	// Type is the problem (libsvm's -s); the zero value is CSVC. Fit
	// takes CSVC and NuSVC, FitOneClass OneClass, FitRegression
	// EpsilonSVR and NuSVR.
	Type Type
	// C is the penalty on slack (libsvm's -c, SVC's C): finite, > 0, for
	// CSVC, EpsilonSVR and NuSVR; the ν types other than NuSVR ignore it.
	C float64
	// Nu is ν of NuSVC, OneClass and NuSVR (libsvm's -n): 0 < ν ≤ 1.
	Nu float64
	// Epsilon is ε of EpsilonSVR (libsvm's -p), the half-width of the
	// tube without loss: finite, ≥ 0.
	Epsilon float64
	// Tol is the stopping tolerance on the maximal KKT violation (libsvm's
	// -e eps, SVC's tol; they default to 1e-3): finite, > 0.
	Tol float64
	// ClassWeight, when not nil, multiplies C for each class (len = k):
	// libsvm's -wi, SVC's class_weight. See BalancedWeights.
	ClassWeight []float64
	// CacheBytes bounds the kernel-column cache (float32 values), shared
	// equally by the workers; 0 means DefaultCacheBytes. Each worker keeps
	// at least two columns of its largest subproblem whatever the bound
	// (libsvm's rule), i.e. 8·l bytes. The rest of a fit's memory is O(k·n).
	CacheBytes int64
	// MaxIter bounds the iterations of each binary subproblem; 0 means
	// libsvm's max(10⁷, 100·l). A subproblem that reaches it stops with
	// Pair.Converged false and a MaxIterReached warning.
	MaxIter int
	// NoShrinking turns libsvm's shrinking heuristic off (-h 0).
	NoShrinking bool
	// Workers is how many goroutines work at once (0 or 1: one, the
	// caller's): one-vs-one subproblems side by side, and when there are
	// fewer subproblems than workers (two classes), the pieces of each
	// long kernel column. Results are the same bits for any value.
	Workers int
	// Interrupt, when not nil, is called after every kernel callback and
	// every millisecond or so of the solver's own work, by every worker
	// (so it must be safe for concurrent use, as context.Context.Err is);
	// a non-nil error stops Fit, which returns it as is.
	Interrupt func() error
}

// poller counts work and polls the interrupt; the first error of any
// worker stops the others.
type poller struct {
	interrupt func() error
	stop      *atomic.Bool
	work      int
}

// add counts w units of the solver's own work and polls every pollWork.
func (p *poller) add(w int) error {
	p.work += w
	if p.work < pollWork {
		return nil
	}
	return p.check()
}

// check polls now.
func (p *poller) check() error {
	p.work = 0
	if p.stop.Load() {
		return errStopped
	}
	if p.interrupt != nil {
		if err := p.interrupt(); err != nil {
			return p.fail(err)
		}
	}
	return nil
}

func (p *poller) fail(err error) error {
	p.stop.Store(true)
	return err
}

// errStopped ends a worker because another one failed; Fit returns that
// worker's error instead.
var errStopped = &stoppedError{}

type stoppedError struct{}

func (*stoppedError) Error() string { return "svm: stopped because another worker failed" }

// BalancedWeights returns scikit-learn's class_weight='balanced' for
// labels y of k classes: n / (k · count_c).
func BalancedWeights(y []int, k int) []float64 {
	w := make([]float64, k)
	for _, c := range y {
		if c >= 0 && c < k {
			w[c]++
		}
	}
	for c, cnt := range w {
		if cnt > 0 {
			w[c] = float64(len(y)) / (float64(k) * cnt)
		}
	}
	return w
}

// grouping is libsvm's svm_group_classes with sorted labels (as
// scikit-learn's fork): rows of class c are perm[start[c] : start[c]+count[c]],
// in increasing row order.
type grouping struct {
	k            int
	count, start []int
	perm         []int
}

func group(y []int) (*grouping, error) {
	k := 0
	for r, c := range y {
		if c < 0 {
			return nil, &LabelError{Problem: NegativeLabel, Row: r, Label: c}
		}
		if c >= len(y) {
			return nil, &LabelError{Problem: LabelTooLarge, Row: r, Label: c, Classes: len(y)}
		}
		k = max(k, c+1)
	}
	g := &grouping{k: k, count: make([]int, k), start: make([]int, k), perm: make([]int, len(y))}
	for _, c := range y {
		g.count[c]++
	}
	present := 0
	for _, n := range g.count {
		if n > 0 {
			present++
		}
	}
	if present < 2 {
		return nil, &ClassCountError{Classes: present}
	}
	for c, n := range g.count {
		if n == 0 {
			return nil, &LabelError{Problem: EmptyClass, Row: -1, Label: c, Classes: k}
		}
		if c > 0 {
			g.start[c] = g.start[c-1] + g.count[c-1]
		}
	}
	next := append([]int(nil), g.start...)
	for r, c := range y {
		g.perm[next[c]] = r
		next[c]++
	}
	return g, nil
}

// cacheBudget is opt.CacheBytes, DefaultCacheBytes for 0.
func (opt *Options) cacheBudget() int64 {
	if opt.CacheBytes == 0 {
		return DefaultCacheBytes
	}
	return opt.CacheBytes
}

// iterBound is opt.MaxIter for a subproblem of l variables, libsvm's
// max(10⁷, 100·l) for 0.
func (opt *Options) iterBound(l int) int {
	if opt.MaxIter == 0 {
		return max(10000000, 100*l)
	}
	return opt.MaxIter
}

func checkOptions(opt *Options, k int) error {
	if err := checkTypeOptions(opt); err != nil {
		return err
	}
	if opt.Type.usesC() && !(opt.C > 0 && opt.C <= math.MaxFloat64) {
		return &ParamError{Name: "C", Value: opt.C, Allowed: "a finite number > 0"}
	}
	if !(opt.Tol > 0 && opt.Tol <= math.MaxFloat64) {
		return &ParamError{Name: "Tol", Value: opt.Tol, Allowed: "a finite number > 0"}
	}
	if opt.ClassWeight != nil {
		if len(opt.ClassWeight) != k {
			return &ParamError{Name: "ClassWeight", Index: -1, Value: float64(len(opt.ClassWeight)), Allowed: "one weight per class"}
		}
		for c, w := range opt.ClassWeight {
			if !(w > 0 && opt.C*w <= math.MaxFloat64) {
				return &ParamError{Name: "ClassWeight", Index: c, Value: w, Allowed: "a finite number > 0"}
			}
		}
	}
	if opt.CacheBytes < 0 {
		return &ParamError{Name: "CacheBytes", Value: float64(opt.CacheBytes), Allowed: "≥ 0 (0: the default)"}
	}
	if opt.MaxIter < 0 {
		return &ParamError{Name: "MaxIter", Value: float64(opt.MaxIter), Allowed: "≥ 0 (0: the default)"}
	}
	return nil
}

// Fit trains a C- or ν-support vector classifier (Options.Type CSVC or
// NuSVC) on n = len(y) objects whose
// labels y are class indices 0..k−1 (k = max(y)+1, every class present,
// k ≥ 2; the caller sorts its classes and numbers them). Two classes give
// one binary problem; more give the k(k−1)/2 one-vs-one problems of
// libsvm, pair (a, b) for a < b in the order (0,1), (0,2), …, (k−2,k−1).
func Fit(kern Kernel, y []int, opt Options) (*Model, error) {
	g, err := group(y)
	if err != nil {
		return nil, err
	}
	if opt.Type != CSVC && opt.Type != NuSVC {
		return nil, &ParamError{Name: "Type", Value: float64(opt.Type), Allowed: "CSVC or NuSVC for Fit (FitOneClass, FitRegression for the others)"}
	}
	if err := checkOptions(&opt, g.k); err != nil {
		return nil, err
	}
	if opt.Type == NuSVC {
		if err := checkNuFeasible(g, opt.Nu); err != nil {
			return nil, err
		}
	}
	stop := new(atomic.Bool)
	diag, err := diagonal(kern, len(y), &poller{interrupt: opt.Interrupt, stop: stop})
	if err != nil {
		return nil, err
	}
	res, err := solvePairs(kern, g, diag, &opt, stop)
	if err != nil {
		return nil, err
	}
	return assemble(g, res, diag, &opt), nil
}

// solvePairs solves the one-vs-one subproblems on the workers, each with
// its own solver workspace and an equal share of the cache budget. A
// worker that fails sets stop, which ends the others' subproblems at
// their next poll (they return errStopped, which the loop ignores: the
// failing worker's error is the one Fit returns).
func solvePairs(kern Kernel, g *grouping, diag []float64, opt *Options, stop *atomic.Bool) ([]binaryResult, error) {
	pairs := g.k * (g.k - 1) / 2
	res := make([]binaryResult, pairs)
	workers := min(max(opt.Workers, 1), pairs)
	ws := make([]*pairWorker, workers)
	err := par.For("svm.Fit", pairs, workers, 1, func(w, q int) (err error) {
		finished := false
		defer func() {
			if !finished || err != nil { // a panic or an error
				stop.Store(true)
			}
		}()
		if stop.Load() {
			finished = true
			return nil
		}
		if ws[w] == nil {
			ws[w] = newPairWorker(kern, g, opt, stop, workers)
		}
		res[q], err = ws[w].solve(q, diag)
		finished = true
		if err == errStopped {
			return nil
		}
		return err
	})
	return res, err
}

// pairWorker is one worker's solver workspace for one-vs-one subproblems.
type pairWorker struct {
	s    *solver
	g    *grouping
	opt  *Options
	rows []int
	ys   []int8
	pr   *general // ν-SVC's workspace; nil for C-SVC
}

// newPairWorker sizes a workspace for the largest subproblem, with 1/workers
// of the cache budget; the workers that run no subproblem side by side
// (fewer pairs than Options.Workers) share its kernel columns.
func newPairWorker(kern Kernel, g *grouping, opt *Options, stop *atomic.Bool, workers int) *pairWorker {
	lmax := 0
	for a := 0; a < g.k; a++ {
		for b := a + 1; b < g.k; b++ {
			lmax = max(lmax, g.count[a]+g.count[b])
		}
	}
	s := newSolver(kern, &poller{interrupt: opt.Interrupt, stop: stop}, lmax, opt.cacheBudget()/int64(workers))
	s.eps, s.shrinking = opt.Tol, !opt.NoShrinking
	s.shareColumns("svm.Fit", max(opt.Workers, 1)/workers)
	p := &pairWorker{s: s, g: g, opt: opt, rows: make([]int, lmax), ys: make([]int8, lmax)}
	if opt.Type == NuSVC {
		p.pr = newGeneral(lmax)
	}
	return p
}

// solve solves the subproblem of pair q.
func (p *pairWorker) solve(q int, diag []float64) (binaryResult, error) {
	a, b := pairClasses(q, p.g.k)
	l := p.g.fill(a, b, p.rows, p.ys)
	p.s.maxIter = p.opt.iterBound(l)
	if p.pr != nil {
		r, err := p.s.solveNuSVC(p.rows[:l], p.ys[:l], p.opt.Nu, diag, p.pr, make([]float64, l))
		if me, ok := err.(*NuMarginError); ok {
			me.A, me.B = a, b
		}
		return r, err
	}
	cp, cn := p.opt.C, p.opt.C
	if p.opt.ClassWeight != nil {
		cp, cn = p.opt.C*p.opt.ClassWeight[a], p.opt.C*p.opt.ClassWeight[b]
	}
	return p.s.solve(p.rows[:l], p.ys[:l], cp, cn, diag, make([]float64, l))
}

// fill writes the rows of the subproblem (a, b), class a first, and their
// labels (+1 for a, −1 for b), returning its size.
func (g *grouping) fill(a, b int, rows []int, ys []int8) int {
	na, nb := g.count[a], g.count[b]
	copy(rows, g.perm[g.start[a]:g.start[a]+na])
	copy(rows[na:], g.perm[g.start[b]:g.start[b]+nb])
	for i := 0; i < na; i++ {
		ys[i] = 1
	}
	for i := na; i < na+nb; i++ {
		ys[i] = -1
	}
	return na + nb
}

// pairClasses returns the classes (a, b) of pair q.
func pairClasses(q, k int) (int, int) {
	a := 0
	for q >= k-1-a {
		q -= k - 1 - a
		a++
	}
	return a, a + 1 + q
}

// diagonal returns K(x_r, x_r) for every row.
func diagonal(kern Kernel, n int, p *poller) ([]float64, error) {
	d := make([]float64, n)
	idx := make([]int, 1)
	for r := range d {
		idx[0] = r
		if err := kern.Column(r, idx, d[r:r+1]); err != nil {
			return nil, &ColumnError{Row: r, Err: err}
		}
		if v := d[r]; !(math.Abs(v) <= CacheLimit) {
			return nil, &KernelValueError{Row: r, Col: r, Value: v}
		}
		if err := p.check(); err != nil {
			return nil, err
		}
	}
	return d, nil
}
