package svm

import "math"

// The general problem of libsvm's Solver, behind every Type:
//
//	min ½ αᵀQα + pᵀα   subject to yᵀα = Δ, 0 ≤ α_i ≤ C_i,
//
// started from a feasible α. Solver_NU (ν-SVC, ν-SVR) adds eᵀα = const:
// the pair of each step then shares a sign of y, and the working set,
// shrinking and ρ are taken per sign (libsvm's Gmaxp/Gmaxn, Gmax1…4, r1/r2).
// ε-SVR and ν-SVR have 2n variables, α⁺ (y = +1) and α⁻ (y = −1) of each
// row: a variable's training row is gpos, so Q_ij = y_i·y_j·K(gpos_i,
// gpos_j) is SVR_Q's sign/index form with the column code of C-SVC.

// general is one problem in the general form; its slices have one entry
// per variable.
type general struct {
	rows  []int // training row of each variable
	y     []int8
	c     []float64
	p     []float64
	alpha []float64 // the feasible start
	nu    bool
}

// solveGeneral runs SMO on pr and leaves α (in pr's order) in alpha.
func (s *solver) solveGeneral(pr *general, diag []float64, alpha []float64) (binaryResult, error) {
	l := len(pr.rows)
	s.l, s.active = l, l
	s.unshrink, s.nu = false, pr.nu
	s.iter, s.negCurv, s.minCurv, s.minActive = 0, 0, math.Inf(1), l
	s.cache.reset(l)
	if s.svr != nil {
		s.svr.rows.reset(s.svr.n)
	}
	for i, r := range pr.rows {
		s.y[i] = pr.y[i]
		s.ys[i] = float64(pr.y[i])
		s.alpha[i] = pr.alpha[i]
		s.g[i] = pr.p[i]
		s.p[i] = pr.p[i]
		s.gbar[i] = 0
		s.c[i] = pr.c[i]
		s.qd[i] = diag[r]
		s.activeSet[i] = int32(i)
		s.gpos[i] = r
		s.updateStatus(i)
	}
	if err := s.initGradient(); err != nil {
		return binaryResult{}, err
	}
	converged, err := s.loop()
	if err != nil {
		return binaryResult{}, err
	}
	res := binaryResult{iter: s.iter, converged: converged, negCurv: s.negCurv, minCurv: s.minCurv}
	if s.nu {
		res.rho, res.r = s.rhoNU()
	} else {
		res.rho = s.rho()
	}
	var v float64
	for i := 0; i < l; i++ {
		v += s.alpha[i] * (s.g[i] + s.p[i])
	}
	res.obj = v / 2
	for i := 0; i < l; i++ {
		alpha[s.activeSet[i]] = s.alpha[i]
	}
	res.coef = alpha
	return res, nil
}

// initGradient is libsvm's start: G = p + Σ_{α_i > 0} α_i·Q_i and
// Ḡ = Σ_{α_i = C_i} C_i·Q_i.
func (s *solver) initGradient() error {
	l := s.l
	g, gb := s.g[:l], s.gbar[:l]
	for i := 0; i < l; i++ {
		if s.status[i] == atLower {
			continue
		}
		q, err := s.column(i, l)
		if err != nil {
			return err
		}
		q = q[:l]
		a := s.alpha[i]
		for j := range g {
			g[j] += a * float64(q[j])
		}
		if s.status[i] == atUpper {
			c := s.c[i]
			for j := range gb {
				gb[j] += c * float64(q[j])
			}
		}
		if err := s.poll.add(2 * l); err != nil {
			return err
		}
	}
	return nil
}

func (s *solver) selectPair() (int, int, bool, error) {
	if s.nu {
		return s.selectWorkingSetNU()
	}
	return s.selectWorkingSet()
}

func (s *solver) shrinkAny() error {
	if s.nu {
		return s.shrinkNU()
	}
	return s.shrink()
}

// selectWorkingSetNU is Solver_NU's WSS: i of maximal violation among the
// variables of j's sign, j of greatest second-order decrease.
func (s *solver) selectWorkingSetNU() (int, int, bool, error) {
	n := s.active
	set, y, g, qd := s.set[:n], s.y[:n], s.g[:n], s.qd[:n]
	gmaxp, gmaxp2, gmaxn, gmaxn2 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	ip, in := -1, -1
	for t, f := range set {
		if f&inUp == 0 {
			continue
		}
		if y[t] > 0 {
			if -g[t] >= gmaxp {
				gmaxp, ip = -g[t], t
			}
		} else if g[t] >= gmaxn {
			gmaxn, in = g[t], t
		}
	}
	var qp, qn []float32
	var err error
	if ip >= 0 {
		if qp, err = s.column(ip, n); err != nil {
			return 0, 0, false, err
		}
	}
	if in >= 0 {
		if qn, err = s.column(in, n); err != nil {
			return 0, 0, false, err
		}
	}
	gmin, objDiffMin := -1, math.Inf(1)
	for j, f := range set {
		if f&inLow == 0 {
			continue
		}
		var gradDiff, quad float64
		if y[j] > 0 {
			gradDiff = gmaxp + g[j]
			gmaxp2 = max(gmaxp2, g[j])
			if !(gradDiff > 0) {
				continue
			}
			quad = qd[ip] + qd[j] - 2*float64(qp[j])
		} else {
			gradDiff = gmaxn - g[j]
			gmaxn2 = max(gmaxn2, -g[j])
			if !(gradDiff > 0) {
				continue
			}
			quad = qd[in] + qd[j] - 2*float64(qn[j])
		}
		if !(quad > 0) {
			quad = tau
		}
		if od := -(gradDiff * gradDiff) / quad; od <= objDiffMin {
			gmin, objDiffMin = j, od
		}
	}
	if max(gmaxp+gmaxp2, gmaxn+gmaxn2) < s.eps || gmin < 0 {
		return 0, 0, true, nil
	}
	if y[gmin] > 0 {
		return ip, gmin, false, nil
	}
	return in, gmin, false, nil
}

// shrinkNU is Solver_NU's do_shrinking, the violations taken per sign.
func (s *solver) shrinkNU() error {
	n := s.active
	var gm [4]float64 // Gmax1…Gmax4 of libsvm
	for k := range gm {
		gm[k] = math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		g := s.g[i]
		if s.status[i] != atUpper {
			if s.y[i] > 0 {
				gm[0] = max(gm[0], -g)
			} else {
				gm[3] = max(gm[3], -g)
			}
		}
		if s.status[i] != atLower {
			if s.y[i] > 0 {
				gm[1] = max(gm[1], g)
			} else {
				gm[2] = max(gm[2], g)
			}
		}
	}
	if !s.unshrink && max(gm[0]+gm[1], gm[2]+gm[3]) <= s.eps*10 {
		s.unshrink = true
		if err := s.reconstructGradient(); err != nil {
			return err
		}
		s.active = s.l
	}
	for i := 0; i < s.active; i++ {
		if !s.beShrunkNU(i, &gm) {
			continue
		}
		s.active--
		for s.active > i {
			if !s.beShrunkNU(s.active, &gm) {
				s.swap(i, s.active)
				break
			}
			s.active--
		}
	}
	s.minActive = min(s.minActive, s.active)
	return s.poll.add(n)
}

func (s *solver) beShrunkNU(i int, gm *[4]float64) bool {
	switch s.status[i] {
	case atUpper:
		if s.y[i] > 0 {
			return -s.g[i] > gm[0]
		}
		return -s.g[i] > gm[3]
	case atLower:
		if s.y[i] > 0 {
			return s.g[i] > gm[1]
		}
		return s.g[i] > gm[2]
	}
	return false
}

// rhoNU is Solver_NU's calculate_rho: r1 and r2 for each sign of y as
// calculate_rho takes them; ρ = (r1 − r2)/2 and r = (r1 + r2)/2.
func (s *solver) rhoNU() (rho, r float64) {
	var nFree [2]int
	var sumFree [2]float64
	ub := [2]float64{math.Inf(1), math.Inf(1)}
	lb := [2]float64{math.Inf(-1), math.Inf(-1)}
	for i := 0; i < s.active; i++ {
		k := 0
		if s.y[i] < 0 {
			k = 1
		}
		switch g := s.g[i]; s.status[i] {
		case atUpper:
			lb[k] = max(lb[k], g)
		case atLower:
			ub[k] = min(ub[k], g)
		default:
			nFree[k]++
			sumFree[k] += g
		}
	}
	var rr [2]float64
	for k := range rr {
		if nFree[k] > 0 {
			rr[k] = sumFree[k] / float64(nFree[k])
		} else {
			rr[k] = (ub[k] + lb[k]) / 2
		}
	}
	return (rr[0] - rr[1]) / 2, (rr[0] + rr[1]) / 2
}

// svrColumns is SVR_Q: the kernel columns of the n training rows, cached
// by row (each row's column serves both of its variables, α⁺ and α⁻, and
// does not follow the solver's swaps), and Q_i over positions assembled
// from it into one of two buffers, alternately, as libsvm does: a caller
// holds at most two columns at a time.
type svrColumns struct {
	n     int
	rows  *cache
	ident []int // 0..n−1: a whole column's rows
	buf   [2][]float32
	next  int
}

func newSVRColumns(n int, budget int64) *svrColumns {
	c := &svrColumns{n: n, rows: newCache(n, budget), ident: make([]int, n)}
	for r := range c.ident {
		c.ident[r] = r
	}
	c.buf[0], c.buf[1] = make([]float32, 2*n), make([]float32, 2*n)
	return c
}

// column returns Q_i over positions [0, m): y_i·y_t·K(gpos_i, gpos_t).
func (c *svrColumns) column(s *solver, i, m int) ([]float32, error) {
	row := s.gpos[i]
	data, start := c.rows.get(row, c.n)
	if start < c.n {
		if err := c.compute(s, row, data, start); err != nil {
			c.rows.head[row] = -1 // the slot's content is not valid
			return nil, err
		}
	}
	buf := c.buf[c.next][:m]
	c.next ^= 1
	yi := s.y[i]
	gpos, y := s.gpos[:m], s.y[:m]
	for t, r := range gpos {
		v := data[r]
		if y[t] != yi {
			v = -v
		}
		buf[t] = v
	}
	return buf, s.poll.add(m)
}

// compute fills data[start:n] with K(row, start…n−1) as float32.
func (c *svrColumns) compute(s *solver, row int, data []float32, start int) error {
	dst := s.kbuf[:c.n-start]
	if err := s.kernelColumn(row, c.ident[start:], dst); err != nil {
		return err
	}
	for k, v := range dst {
		if !(math.Abs(v) <= CacheLimit) {
			return s.poll.fail(&KernelValueError{Row: row, Col: start + k, Value: v})
		}
		data[start+k] = float32(v)
	}
	return s.poll.check()
}
