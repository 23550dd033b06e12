package svm

import (
	"math"
	"sync/atomic"

	"github.com/ksql/ksql/internal/par"
)

// The binary solver is libsvm's Solver (Fan, Chen & Lin 2005) for C-SVC:
//
//	min ½ αᵀQα − eᵀα   subject to yᵀα = 0, 0 ≤ α_i ≤ C_i,
//
// Q_ij = y_i·y_j·K(x_i, x_j), y_i = ±1. Each iteration picks the pair of
// maximal violation i and the j of greatest second-order decrease,
// solves the two-variable problem analytically and updates the gradient
// G = Qα − e with two columns of Q. Shrinking sets aside variables that
// sit at a bound and are unlikely to move; their gradient is rebuilt from
// Ḡ (the contribution of variables at their upper bound) before the final
// check. Positions are permuted by shrinking; gpos maps them to training
// rows.

const (
	atLower uint8 = iota
	atUpper
	free
)

// Membership flags of a position: I_up = {y = +1, α < C} ∪ {y = −1, α > 0}
// (α_i may grow along y_i), I_low = {y = +1, α > 0} ∪ {y = −1, α < C}.
const (
	inUp  uint8 = 1
	inLow uint8 = 2
)

// tau replaces a non-positive curvature Q_ii + Q_jj − 2y_iy_jQ_ij, as in
// libsvm, so that the step goes to the box's edge (non-PSD kernels).
const tau = 1e-12

// pollWork is the solver's own work between interrupt polls, in elements
// of its sweeps over the active set (about a millisecond). Kernel values
// are polled after every callback instead: their cost is the callback's,
// from nanoseconds (gauss) to milliseconds (string kernels of long texts).
const pollWork = 1 << 19

// solver is one worker's workspace, reused across the subproblems it
// solves: nothing is allocated per iteration.
type solver struct {
	kern Kernel
	poll *poller

	l, active int
	y         []int8
	ys        []float64 // y as ±1.0
	set       []uint8   // inUp | inLow
	alpha     []float64
	g, gbar   []float64
	c, qd     []float64
	p         []float64 // the linear term: −e for C-SVC
	status    []uint8
	activeSet []int32 // position → subproblem index
	gpos      []int   // position → training row
	kbuf      []float64
	cache     *cache

	eps       float64
	maxIter   int
	team      *par.Team // shares long kernel columns; nil: not shared
	piece     pieces    // the column the team computes
	shrinking bool
	unshrink  bool
	nu        bool        // Solver_NU: two equality constraints, one per sign of y
	svr       *svrColumns // regression's columns; nil: the position cache

	iter      int
	minActive int // the smallest active set shrinking reached
	negCurv   int
	minCurv   float64
}

func newSolver(kern Kernel, poll *poller, lmax int, cacheBytes int64) *solver {
	return &solver{
		kern:      kern,
		poll:      poll,
		y:         make([]int8, lmax),
		ys:        make([]float64, lmax),
		set:       make([]uint8, lmax),
		alpha:     make([]float64, lmax),
		g:         make([]float64, lmax),
		gbar:      make([]float64, lmax),
		c:         make([]float64, lmax),
		qd:        make([]float64, lmax),
		p:         make([]float64, lmax),
		status:    make([]uint8, lmax),
		activeSet: make([]int32, lmax),
		gpos:      make([]int, lmax),
		kbuf:      make([]float64, lmax),
		cache:     newCache(lmax, cacheBytes),
	}
}

// binaryResult is the solution of one subproblem, in subproblem order.
type binaryResult struct {
	coef      []float64 // y_i·α_i
	rho       float64
	obj       float64
	iter      int
	converged bool
	negCurv   int
	minCurv   float64
	r         float64 // Solver_NU's r (ν-SVC: 1/C; ν-SVR: −ε); 0 otherwise
	bound     float64 // |coef| at which a ν-SVC variable is bounded (1/r)
}

// solve runs SMO on the subproblem of training rows rows (with labels y,
// ±1, bounds cp for y = +1 and cn for y = −1) and K(x, x) in diag
// (indexed by training row). coef receives y_i·α_i in rows' order.
func (s *solver) solve(rows []int, y []int8, cp, cn float64, diag []float64, coef []float64) (binaryResult, error) {
	l := len(rows)
	s.l, s.active = l, l
	s.unshrink, s.nu = false, false
	s.iter, s.negCurv, s.minCurv, s.minActive = 0, 0, math.Inf(1), l
	s.cache.reset(l)
	for i, r := range rows {
		s.y[i] = y[i]
		s.ys[i] = float64(y[i])
		s.alpha[i] = 0
		s.g[i] = -1 // G = Qα + p with α = 0, p = −e
		s.p[i] = -1
		s.gbar[i] = 0
		if y[i] > 0 {
			s.c[i] = cp
		} else {
			s.c[i] = cn
		}
		s.qd[i] = diag[r]
		s.status[i] = atLower
		s.setFlags(i)
		s.activeSet[i] = int32(i)
		s.gpos[i] = r
	}
	converged, err := s.loop()
	if err != nil {
		return binaryResult{}, err
	}
	res := binaryResult{rho: s.rho(), iter: s.iter, converged: converged, negCurv: s.negCurv, minCurv: s.minCurv}
	var v float64
	for i := 0; i < l; i++ {
		v += s.alpha[i] * (s.g[i] + s.p[i])
	}
	res.obj = v / 2
	for i := 0; i < l; i++ {
		coef[s.activeSet[i]] = float64(s.y[i]) * s.alpha[i]
	}
	res.coef = coef
	return res, nil
}

// loop is libsvm's main loop; it reports whether the stopping condition
// was met before maxIter iterations.
func (s *solver) loop() (bool, error) {
	counter := min(s.l, 1000) + 1
	for s.iter < s.maxIter {
		if counter--; counter == 0 {
			counter = min(s.l, 1000)
			if s.shrinking {
				if err := s.shrinkAny(); err != nil {
					return false, err
				}
			}
		}
		i, j, done, err := s.selectPair()
		if err != nil {
			return false, err
		}
		if done {
			if err := s.reconstructGradient(); err != nil {
				return false, err
			}
			s.active = s.l
			if i, j, done, err = s.selectPair(); err != nil {
				return false, err
			}
			if done {
				return true, nil
			}
			counter = 1 // shrink at the next iteration
		}
		s.iter++
		if err := s.step(i, j); err != nil {
			return false, err
		}
		if err := s.poll.add(2 * s.active); err != nil {
			return false, err
		}
	}
	if s.active < s.l {
		// the full gradient is needed for rho and the objective
		if err := s.reconstructGradient(); err != nil {
			return false, err
		}
		s.active = s.l
	}
	return false, nil
}

// column returns Q_i over positions [0, n), computing the uncached part
// through the kernel callback. (Copying Q_ti from other cached columns
// would save some kernel values, but a kernel need not be symmetric to the
// last bit, and which columns are cached depends on the budget per worker:
// the bits of a fit would then depend on Workers.)
func (s *solver) column(i, n int) ([]float32, error) {
	if s.svr != nil {
		return s.svr.column(s, i, n)
	}
	col, start := s.cache.get(i, n)
	if start >= n {
		return col[:n], nil
	}
	if err := s.compute(i, col, start, s.gpos[start:n]); err != nil {
		s.cache.head[i] = -1 // the slot's content is not valid
		return nil, err
	}
	return col[:n], nil
}

// compute calls the kernel for the training rows idx (at positions
// start, start+1, …) and stores y_i·y_t·K as float32.
func (s *solver) compute(i int, col []float32, start int, idx []int) error {
	row := s.gpos[i]
	dst := s.kbuf[:len(idx)]
	if err := s.kernelColumn(row, idx, dst); err != nil {
		return err
	}
	yi := s.y[i]
	for k, v := range dst {
		if !(math.Abs(v) <= CacheLimit) {
			return s.poll.fail(&KernelValueError{Row: row, Col: idx[k], Value: v})
		}
		t := start + k
		if s.y[t] != yi {
			v = -v
		}
		col[t] = float32(v)
	}
	return s.poll.check()
}

// minSplit is the shortest column worth sharing between goroutines, and
// splitChunk the piece a goroutine takes at a time: handing out a piece
// costs an atomic add, a kernel value tens of nanoseconds or more.
const (
	minSplit   = 1024
	splitChunk = 256
)

// pieces is the job of a column's team: K(row, idx[t]) into dst[t], piece
// c being t in [c·splitChunk, (c+1)·splitChunk). run is s.runPiece, bound
// once so that a column allocates no closure.
type pieces struct {
	row    int
	idx    []int
	dst    []float64
	errs   []error // the callback's error of each piece
	failed atomic.Bool
	run    func(c int)
}

// shareColumns makes each long kernel column the job of a team of workers
// goroutines (the solver's and workers − 1 helpers): for a binary
// problem, where there are no pairs to run side by side, the workers share
// each column instead. The helpers stay awake between columns: a column
// takes tens of microseconds, and a goroutine started or woken for each
// would often join after the solver's goroutine had done its share (on
// the spam benchmark, 2 workers were then no faster than 1). name names
// the fit in a *par.PanicError.
func (s *solver) shareColumns(name string, workers int) {
	if workers <= 1 {
		return
	}
	s.team = par.NewTeam(name, workers)
	s.piece.errs = make([]error, (len(s.kbuf)+splitChunk-1)/splitChunk)
	s.piece.run = s.runPiece
}

// kernelColumn runs the kernel callback, on s.team when the column is
// long, and hands a failure to the poller: a helper's panic as it is, the
// callback's error as a *ColumnError. The pieces are handed out one at a
// time, so a helper that the OS does not schedule soon leaves its share to
// the others instead of holding them up.
func (s *solver) kernelColumn(row int, idx []int, dst []float64) error {
	n := len(idx)
	if s.team == nil || n < minSplit {
		if err := s.kern.Column(row, idx, dst); err != nil {
			return s.poll.fail(&ColumnError{Row: row, Err: err})
		}
		return nil
	}
	p := &s.piece
	p.row, p.idx, p.dst = row, idx, dst
	chunks := (n + splitChunk - 1) / splitChunk
	if err := s.team.Do(chunks, p.run); err != nil {
		p.clear(chunks)
		return s.poll.fail(err)
	}
	if err := p.clear(chunks); err != nil {
		return s.poll.fail(&ColumnError{Row: row, Err: err})
	}
	return nil
}

// runPiece computes piece c of s.piece, unless a piece has failed.
func (s *solver) runPiece(c int) {
	p := &s.piece
	if p.failed.Load() {
		return
	}
	lo, hi := c*splitChunk, min(len(p.idx), (c+1)*splitChunk)
	if err := s.kern.Column(p.row, p.idx[lo:hi], p.dst[lo:hi]); err != nil {
		p.errs[c] = err
		p.failed.Store(true)
	}
}

// clear readies p for the next column and returns the error of its first
// failed piece, if any.
func (p *pieces) clear(chunks int) error {
	p.idx, p.dst = nil, nil
	if !p.failed.Load() {
		return nil
	}
	p.failed.Store(false)
	var first error
	for c, err := range p.errs[:chunks] {
		if first == nil {
			first = err
		}
		p.errs[c] = nil
	}
	return first
}

// selectWorkingSet is libsvm's WSS 3 (second order): i maximises −y_i·G_i
// over I_up; j minimises the second-order objective decrease over I_low.
// done reports that the maximal violation is below eps. The loops run on
// v = −y·G and the I_up/I_low flags instead of libsvm's branches on y:
// the same operations on the same values (negation and ±1 factors are
// exact), so the same choices.
func (s *solver) selectWorkingSet() (int, int, bool, error) {
	n := s.active
	set, ys, g := s.set[:n], s.ys[:n], s.g[:n]
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gmaxIdx, gminIdx := -1, -1
	for t, f := range set {
		if f&inUp != 0 {
			if v := -ys[t] * g[t]; v >= gmax {
				gmax, gmaxIdx = v, t
			}
		}
	}
	i := gmaxIdx
	if i < 0 {
		return 0, 0, true, nil
	}
	qi32, err := s.column(i, n)
	if err != nil {
		return 0, 0, false, err
	}
	qi, qd := qi32[:n], s.qd[:n]
	qdi, twoYi := qd[i], 2*ys[i]
	objDiffMin := math.Inf(1)
	for j, f := range set {
		if f&inLow == 0 {
			continue
		}
		v := -ys[j] * g[j]
		if -v >= gmax2 {
			gmax2 = -v
		}
		gradDiff := gmax - v
		if !(gradDiff > 0) {
			continue
		}
		quad := qdi + qd[j] - twoYi*ys[j]*float64(qi[j])
		if !(quad > 0) {
			quad = tau
		}
		if od := -(gradDiff * gradDiff) / quad; od <= objDiffMin {
			gminIdx, objDiffMin = j, od
		}
	}
	if gmax+gmax2 < s.eps || gminIdx < 0 {
		return 0, 0, true, nil
	}
	return i, gminIdx, false, nil
}

// step solves the two-variable subproblem on (i, j) and updates G and Ḡ.
func (s *solver) step(i, j int) error {
	n := s.active
	qi, err := s.column(i, n)
	if err != nil {
		return err
	}
	qj, err := s.column(j, n)
	if err != nil {
		return err
	}
	oldI, oldJ := s.alpha[i], s.alpha[j]
	var ai, aj float64
	if s.y[i] != s.y[j] {
		ai, aj = s.stepOpposite(i, j, qi[j])
	} else {
		ai, aj = s.stepSame(i, j, qi[j])
	}
	s.alpha[i], s.alpha[j] = ai, aj
	updateGradient(s.g[:n], qi[:n], qj[:n], ai-oldI, aj-oldJ)

	ui, uj := s.status[i] == atUpper, s.status[j] == atUpper
	s.updateStatus(i)
	s.updateStatus(j)
	if ui != (s.status[i] == atUpper) {
		if err := s.addToGbar(i, ui); err != nil {
			return err
		}
	}
	if uj != (s.status[j] == atUpper) {
		if err := s.addToGbar(j, uj); err != nil {
			return err
		}
	}
	return nil
}

// stepOpposite is the update for y_i ≠ y_j, where α_i − α_j is kept: the
// unconstrained optimum along the line, then clipped to the box exactly
// as libsvm clips it (the order of the tests decides the corner).
func (s *solver) stepOpposite(i, j int, qij float32) (float64, float64) {
	ci, cj := s.c[i], s.c[j]
	ai, aj := s.alpha[i], s.alpha[j]
	quad := s.curvature(i, j, s.qd[i]+s.qd[j]+2*float64(qij))
	delta := (-s.g[i] - s.g[j]) / quad
	diff := ai - aj
	ai += delta
	aj += delta
	if diff > 0 {
		if aj < 0 {
			aj, ai = 0, diff
		}
	} else if ai < 0 {
		ai, aj = 0, -diff
	}
	if diff > ci-cj {
		if ai > ci {
			ai, aj = ci, ci-diff
		}
	} else if aj > cj {
		aj, ai = cj, cj+diff
	}
	return ai, aj
}

// stepSame is the update for y_i = y_j, where α_i + α_j is kept.
func (s *solver) stepSame(i, j int, qij float32) (float64, float64) {
	ci, cj := s.c[i], s.c[j]
	ai, aj := s.alpha[i], s.alpha[j]
	quad := s.curvature(i, j, s.qd[i]+s.qd[j]-2*float64(qij))
	delta := (s.g[i] - s.g[j]) / quad
	sum := ai + aj
	ai -= delta
	aj += delta
	if sum > ci {
		if ai > ci {
			ai, aj = ci, sum-ci
		}
	} else if aj < 0 {
		aj, ai = 0, sum
	}
	if sum > cj {
		if aj > cj {
			aj, ai = cj, sum-cj
		}
	} else if ai < 0 {
		ai, aj = 0, sum
	}
	return ai, aj
}

// curvature returns the step's quadratic coefficient, replaced by tau when
// not positive, and counts the negative ones: an exact PSD kernel never
// gives one, so beyond float32 rounding of Q_ij they mean a non-PSD kernel.
func (s *solver) curvature(i, j int, quad float64) float64 {
	if quad < s.minCurv {
		s.minCurv = quad
	}
	if quad < -1e-6*(math.Abs(s.qd[i])+math.Abs(s.qd[j])) {
		s.negCurv++
	}
	if quad <= 0 {
		return tau
	}
	return quad
}

// updateGradient adds qi·dai + qj·daj to g.
func updateGradient(g []float64, qi, qj []float32, dai, daj float64) {
	qi = qi[:len(g)]
	qj = qj[:len(g)]
	for k := range g {
		g[k] += float64(qi[k])*dai + float64(qj[k])*daj
	}
}

// addToGbar adds (or, when it left the upper bound, removes) C_i·Q_i to Ḡ
// over all positions.
func (s *solver) addToGbar(i int, wasUpper bool) error {
	q, err := s.column(i, s.l)
	if err != nil {
		return err
	}
	c := s.c[i]
	if wasUpper {
		c = -c
	}
	gb := s.gbar[:s.l]
	q = q[:len(gb)]
	for k := range gb {
		gb[k] += c * float64(q[k])
	}
	return s.poll.add(s.l)
}

func (s *solver) updateStatus(i int) {
	switch a := s.alpha[i]; {
	case a >= s.c[i]:
		s.status[i] = atUpper
	case a <= 0:
		s.status[i] = atLower
	default:
		s.status[i] = free
	}
	s.setFlags(i)
}

func (s *solver) setFlags(i int) {
	var f uint8
	up, low := s.status[i] != atUpper, s.status[i] != atLower
	if s.y[i] < 0 {
		up, low = low, up
	}
	if up {
		f |= inUp
	}
	if low {
		f |= inLow
	}
	s.set[i] = f
}

// swap exchanges positions i and j everywhere.
func (s *solver) swap(i, j int) {
	if s.svr == nil {
		s.cache.swap(i, j)
	}
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.ys[i], s.ys[j] = s.ys[j], s.ys[i]
	s.set[i], s.set[j] = s.set[j], s.set[i]
	s.g[i], s.g[j] = s.g[j], s.g[i]
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.activeSet[i], s.activeSet[j] = s.activeSet[j], s.activeSet[i]
	s.gbar[i], s.gbar[j] = s.gbar[j], s.gbar[i]
	s.c[i], s.c[j] = s.c[j], s.c[i]
	s.qd[i], s.qd[j] = s.qd[j], s.qd[i]
	s.p[i], s.p[j] = s.p[j], s.p[i]
	s.gpos[i], s.gpos[j] = s.gpos[j], s.gpos[i]
}

// reconstructGradient rebuilds G of the inactive positions from Ḡ and the
// free variables, choosing the cheaper of libsvm's two loop orders.
func (s *solver) reconstructGradient() error {
	l, n := s.l, s.active
	if n == l {
		return nil
	}
	for j := n; j < l; j++ {
		s.g[j] = s.gbar[j] + s.p[j]
	}
	nFree := 0
	for j := 0; j < n; j++ {
		if s.status[j] == free {
			nFree++
		}
	}
	if nFree*l > 2*n*(l-n) {
		for i := n; i < l; i++ {
			q, err := s.column(i, n)
			if err != nil {
				return err
			}
			sum := s.g[i]
			for j := 0; j < n; j++ {
				if s.status[j] == free {
					sum += s.alpha[j] * float64(q[j])
				}
			}
			s.g[i] = sum
			// Counted per column: cached columns make no callback, so
			// the whole loop could be seconds without a check.
			if err := s.poll.add(n); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if s.status[i] != free {
			continue
		}
		q, err := s.column(i, l)
		if err != nil {
			return err
		}
		a := s.alpha[i]
		g := s.g[n:l]
		q = q[n:l]
		for k := range g {
			g[k] += a * float64(q[k])
		}
		if err := s.poll.add(l - n); err != nil {
			return err
		}
	}
	return nil
}

// shrink is libsvm's do_shrinking: once the violation is within 10·eps the
// full gradient is rebuilt (once) and shrinking starts over from all
// positions; bound variables whose gradient points out of the box beyond
// the current maximal violations are moved past the active end.
func (s *solver) shrink() error {
	n := s.active
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for i := 0; i < n; i++ {
		g := s.g[i]
		if s.y[i] > 0 {
			if s.status[i] != atUpper && -g >= gmax1 {
				gmax1 = -g
			}
			if s.status[i] != atLower && g >= gmax2 {
				gmax2 = g
			}
		} else {
			if s.status[i] != atUpper && -g >= gmax2 {
				gmax2 = -g
			}
			if s.status[i] != atLower && g >= gmax1 {
				gmax1 = g
			}
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.eps*10 {
		s.unshrink = true
		if err := s.reconstructGradient(); err != nil {
			return err
		}
		s.active = s.l
	}
	for i := 0; i < s.active; i++ {
		if !s.beShrunk(i, gmax1, gmax2) {
			continue
		}
		s.active--
		for s.active > i {
			if !s.beShrunk(s.active, gmax1, gmax2) {
				s.swap(i, s.active)
				break
			}
			s.active--
		}
	}
	s.minActive = min(s.minActive, s.active)
	return s.poll.add(n)
}

func (s *solver) beShrunk(i int, gmax1, gmax2 float64) bool {
	switch s.status[i] {
	case atUpper:
		if s.y[i] > 0 {
			return -s.g[i] > gmax1
		}
		return -s.g[i] > gmax2
	case atLower:
		if s.y[i] > 0 {
			return s.g[i] > gmax2
		}
		return s.g[i] > gmax1
	}
	return false
}

// rho is libsvm's calculate_rho: the mean of y_i·G_i over free variables,
// or the middle of the feasible interval when none is free.
func (s *solver) rho() float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	nFree, sumFree := 0, 0.0
	for i := 0; i < s.active; i++ {
		yg := float64(s.y[i]) * s.g[i]
		switch {
		case s.status[i] == atUpper:
			if s.y[i] < 0 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		case s.status[i] == atLower:
			if s.y[i] > 0 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		default:
			nFree++
			sumFree += yg
		}
	}
	if nFree > 0 {
		return sumFree / float64(nFree)
	}
	return (ub + lb) / 2
}
