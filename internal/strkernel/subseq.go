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
// with the running sums P(j) built along the row. One row of |t|+1 cells is
// kept and overwritten in place. Rows whose symbol is not in t change
// nothing and are skipped.
//
// While every cell has exponent 0 and a row cannot reach 2^511 (short
// texts: all of a 500-character pair), a row is done by runRow, which
// visits the occurrences of its symbol in t and adds the constant P to the
// runs of cells between them. Otherwise rows go through the cell-by-cell
// loops, two at a time (pairRows), so that each sweep of the row does the
// work of two rows with two independent chains of additions. Both compute
// every cell by the same additions in the same order, so which loop does a
// row changes no bit of any cell. len(t) ≥ 1.
func subseqAll(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error) {
	n := len(t)
	v, e := ws.floats(n+1), ws.ints(n+1)
	for j := range v {
		v[j], e[j] = 1, 0
	}
	v1, e1 := v[1:], e[1:]
	v1, e1 = v1[:n], e1[:n]
	t = t[:n]
	in := ws.occurrences(t).in
	poll := poller{check: lim.Check}
	var pending int32 // a row waiting for a second one
	waiting := false
	flat := true // every cell has exponent 0
	for _, x := range s {
		occ := in(x)
		if occ == nil {
			continue // s_i is not in t: the row stays as it was
		}
		if err := poll.add(n); err != nil {
			return xfloat.F{}, err
		}
		if !waiting && flat && runSafe(v1[n-1], len(occ)) {
			runRow(occ, v1)
			continue
		}
		if !waiting {
			pending, waiting = x, true
			continue
		}
		pairRows(pending, x, t, v1, e1)
		waiting = false
		flat = !slices.ContainsFunc(e1, func(k int32) bool { return k != 0 })
	}
	if waiting {
		oneRow(pending, t, v1, e1)
	}
	return fromCell(v[n], e[n]), nil
}

// runSafe reports whether a row with m occurrences of its symbol keeps
// every cell below cellMax, given that all cells have exponent 0 and the
// largest is last (DP(i, j) grows with j, and so do its rounded values).
// The new last cell is the old one plus at most m old cells, so below
// (m+1)·last; the factor 2 covers rounding.
func runSafe(last float64, m int) bool {
	return last*float64(m+1) < cellMax/2
}

// runRow adds the row of a symbol whose positions in t are occ to the cells
// v of columns 1…n, all at exponent 0 and staying below cellMax. P changes
// only at occ: between two occurrences every cell gains the same P. Each
// cell's additions are those of the cell-by-cell loops, in the same order
// (P(j) = P(j−1) + DP(i−1, j−1) at an occurrence, DP(i, j) = DP(i−1, j) +
// P(j) everywhere; they add a masked 0 elsewhere, which changes nothing).
func runRow(occ []int32, v []float64) {
	var p float64
	last := 1.0 // DP(i−1, o−1) for the next occurrence o
	j := 0      // the first cell not yet done
	for _, o32 := range occ {
		o := int(o32)
		if o > j {
			last = v[o-1]
			addRun(v[j:o], p)
		}
		p += last
		last = v[o]
		v[o] = last + p
		j = o + 1
	}
	addRun(v[j:], p)
}

// addRun adds p to every cell of v.
func addRun(v []float64, p float64) {
	for i := range v {
		v[i] += p
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
