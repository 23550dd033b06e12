package strkernel

import (
	"math"
	"slices"

	"github.com/ksql/ksql/internal/xfloat"
)

// subseqAll is the all-subsequences kernel by the dynamic programme of the
// lecture notes: DP(i, j) = K(s[1:i], t[1:j]), DP(0, j) = DP(i, 0) = 1 and
//
//	DP(i, j) = DP(i−1, j) + P(j),  P(j) = Σ_{k ≤ j, t_k = s_i} DP(i−1, k−1),
//
// with the running sums P(j) built along the row. Rows whose symbol is not
// in t change nothing and are skipped; rowSched chooses the loops of the
// others. len(t) ≥ 1.
func subseqAll(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error) {
	n := len(t)
	t = t[:n]
	in := ws.occurrences(t).in
	poll := poller{check: lim.Check}
	r := newRowSched(t, ws)
	for _, x := range s {
		occ := in(x)
		if occ == nil {
			continue // s_i is not in t: the row stays as it was
		}
		if err := poll.add(n); err != nil {
			return xfloat.F{}, err
		}
		r.add(x, occ)
	}
	r.finish()
	return fromCell(r.v[n], r.e[n]), nil
}

// rowSched applies the rows of s, in order, to the row of cells (v, e) of
// columns 0…n. While every cell has exponent 0 and a row cannot reach
// cellMax (short texts: all of a pair of 500-character texts), a row goes
// by runRow, from v into the spare row w. Otherwise rows are added in place
// by the cell-by-cell loops, two at a time (pairRows), so that each sweep
// does the work of two rows with two independent chains of additions. All
// loops compute every cell by the same additions in the same order, and a
// cell's value depends only on its own recurrence, not on the order in
// which cells are visited, so which loop does a row changes no bit.
type rowSched struct {
	t       []int32
	v, w    []float64 // n+1 cells, then runBlock cells of slack for runRow
	e       []int32
	flat    bool  // every cell has exponent 0
	pending int32 // the symbol of a row for pairRows, not yet added
	waiting bool  // pending is set
}

func newRowSched(t []int32, ws *Workspace) rowSched {
	n := len(t)
	f := ws.floats(2 * (n + 1 + runBlock))
	r := rowSched{t: t, v: f[:n+1+runBlock], w: f[n+1+runBlock:], e: ws.ints(n + 1), flat: true}
	for j := range f {
		f[j] = 1
	}
	clear(r.e)
	return r
}

// add adds, or holds back to pair it with the next, the row of symbol x
// whose occurrences in t are occ.
func (r *rowSched) add(x int32, occ []int32) {
	n := len(r.t)
	switch {
	case r.waiting:
		pairRows(r.pending, x, r.t, r.v[1:n+1], r.e[1:])
		r.waiting = false
		r.flat = !slices.ContainsFunc(r.e, func(k int32) bool { return k != 0 })
	case r.flat && runSafe(r.v[n], len(occ)):
		runRow(occ, r.v, r.w, n)
		r.v, r.w = r.w, r.v
	default:
		r.pending, r.waiting = x, true
	}
}

// finish adds a row held back.
func (r *rowSched) finish() {
	if r.waiting {
		n := len(r.t)
		oneRow(r.pending, r.t, r.v[1:n+1], r.e[1:])
	}
}

// runSafe reports whether a row with m occurrences of its symbol keeps
// every cell below cellMax, given that all cells have exponent 0 and the
// largest is the last (DP(i, j) grows with j, and so do its rounded
// values). The row adds to the last cell at most m cells, so it grows at
// most (m+1)-fold; the factor 2 covers rounding.
func runSafe(last float64, m int) bool {
	return last*float64(m+1) < cellMax/2
}

// runBlock is how many cells runRowAVX2 writes at a time; the rows have
// that many cells of slack after column n.
const runBlock = 16

// runRowGo writes to w[1…n] the row of a symbol whose positions in t are
// occ, added to the cells old[1…n], all at exponent 0 and staying below
// cellMax. P changes only at occ: between two occurrences every cell gains
// the same P. Each cell's additions are those of the cell-by-cell loops, in
// the same order (P(j) = P(j−1) + DP(i−1, j−1) at an occurrence, DP(i, j)
// = DP(i−1, j) + P(j) everywhere; they add a masked 0 elsewhere, which
// changes nothing).
func runRowGo(occ []int32, old, w []float64, n int) {
	old, w = old[:n+1], w[:n+1]
	var p float64
	j := 1 // the first column not yet written
	for _, o := range occ {
		c := int(o) + 1 // t_o is column c
		addRun(old[j:c], w[j:c], p)
		p += old[c-1]
		w[c] = old[c] + p
		j = c + 1
	}
	addRun(old[j:], w[j:], p)
}

// addRun writes w[k] = old[k] + p.
func addRun(old, w []float64, p float64) {
	w = w[:len(old)]
	for k, x := range old {
		w[k] = x + p
	}
}

// mask returns all ones if a = b, else 0. Masks replace branches on s_i = t_j,
// which text makes unpredictable: a mispredicted branch costs more than the
// addition of a masked 0.
func mask(a, b int32) uint64 {
	var m uint64
	if a == b {
		m = ^uint64(0)
	}
	return m
}

// masked returns x if m is all ones, else 0.
func masked(x float64, m uint64) float64 {
	return math.Float64frombits(math.Float64bits(x) & m)
}

// oneRow adds row i, of symbol x, to the cells (v, e) of columns 1…n.
func oneRow(x int32, t []int32, v []float64, e []int32) {
	n := len(t)
	v, e = v[:n], e[:n]
	var p float64 // P(j), at exponent kp
	var kp int32
	last, lastK := 1.0, int32(0) // DP(i−1, j−1) before it was overwritten
	for j := 0; j < n; j++ {
		if lastK == kp {
			j, p, last = oneRun(j, x, t, v, e, p, last, kp)
			if j == n {
				break
			}
			lastK = kp
		}
		ov, ok := v[j], e[j]
		if t[j] == x {
			p, kp = addCells(p, kp, last, lastK)
		}
		v[j], e[j], p, kp = alignSum(ov, ok, p, kp)
		last, lastK = ov, ok
	}
}

// oneRun is oneRow's fast path from column j on, while the cell, the
// running sum and the carried value share the exponent k. It returns the
// first column it did not do.
func oneRun(j int, x int32, t []int32, v []float64, e []int32, p, last float64, k int32) (int, float64, float64) {
	n := len(t)
	v, e = v[:n], e[:n]
	for ; j < n; j++ {
		ov := v[j]
		if e[j] != k {
			break
		}
		q := p + masked(last, mask(t[j], x))
		nv := ov + q // q ≤ nv, so only nv can reach the bound
		if nv >= cellMax {
			break
		}
		v[j], p, last = nv, q, ov
	}
	return j, p, last
}

// pairRows adds rows i and i+1, of symbols x1 and x2, to the cells (v, e):
// row i's values are computed and used at once by row i+1 without being
// stored.
func pairRows(x1, x2 int32, t []int32, v []float64, e []int32) {
	n := len(t)
	v, e = v[:n], e[:n]
	var p1, p2 float64 // P(j) of rows i and i+1
	var kp1, kp2 int32 // their exponents
	l1, l2 := 1.0, 1.0 // DP(i−1, j−1) and DP(i, j−1)
	var lk1, lk2 int32 // their exponents
	for j := 0; j < n; j++ {
		if kp1 == lk1 && kp2 == lk1 && lk2 == lk1 {
			j, p1, p2, l1, l2 = pairRun(j, x1, x2, t, v, e, p1, p2, l1, l2, lk1)
			if j == n {
				break
			}
		}
		ov, ok := v[j], e[j]
		if t[j] == x1 {
			p1, kp1 = addCells(p1, kp1, l1, lk1)
		}
		n1, k1, np1, nkp1 := alignSum(ov, ok, p1, kp1)
		if t[j] == x2 {
			p2, kp2 = addCells(p2, kp2, l2, lk2)
		}
		n2, k2, np2, nkp2 := alignSum(n1, k1, p2, kp2)
		v[j], e[j] = n2, k2
		p1, kp1, p2, kp2 = np1, nkp1, np2, nkp2
		l1, lk1, l2, lk2 = ov, ok, n1, k1
	}
}

// pairRun is pairRows' fast path from column j on, while every quantity of
// both rows (the cells, the two running sums and the two carried values)
// shares the exponent k. It returns the first column it did not do.
func pairRun(j int, x1, x2 int32, t []int32, v []float64, e []int32,
	p1, p2, l1, l2 float64, k int32) (int, float64, float64, float64, float64) {
	n := len(t)
	v, e = v[:n], e[:n]
	for ; j < n; j++ {
		ov := v[j]
		if e[j] != k {
			break
		}
		tj := t[j]
		q1 := p1 + masked(l1, mask(tj, x1))
		n1 := ov + q1
		q2 := p2 + masked(l2, mask(tj, x2))
		n2 := n1 + q2 // n1 ≤ n2 and q2 ≤ n2: only n2 can reach the bound
		if n2 >= cellMax {
			break
		}
		v[j] = n2
		p1, p2, l1, l2 = q1, q2, ov, n1
	}
	return j, p1, p2, l1, l2
}
