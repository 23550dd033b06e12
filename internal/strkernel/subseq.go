package strkernel

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// subseqAll is the all-subsequences kernel by the dynamic programme of the
// lecture notes: DP(i, j) = K(s[1:i], t[1:j]), DP(0, j) = DP(i, 0) = 1 and
//
//	DP(i, j) = DP(i−1, j) + P(j),  P(j) = Σ_{k ≤ j, t_k = s_i} DP(i−1, k−1),
//
// with the running sums P(j) built along the row. One row of |t|+1 cells is
// kept and overwritten in place. Rows whose symbol is not in t change
// nothing and are skipped; the others are taken two at a time (pairRows),
// so that each sweep of the row does the work of two rows with two
// independent chains of additions. len(t) ≥ 1.
func subseqAll(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error) {
	n := len(t)
	v, e := ws.floats(n+1), ws.ints(n+1)
	for j := range v {
		v[j], e[j] = 1, 0
	}
	v1, e1 := v[1:], e[1:]
	v1, e1 = v1[:n], e1[:n]
	t = t[:n]
	occ := ws.occurrences(s, t)
	rows := ws.rows[:0] // the symbols of the rows that do something
	for i, x := range s {
		if occ.row[i] >= 0 {
			rows = append(rows, x)
		}
	}
	ws.rows = rows
	poll := poller{check: lim.Check}
	for r := 0; r < len(rows); r += 2 {
		if r+1 < len(rows) {
			pairRows(rows[r], rows[r+1], t, v1, e1)
		} else {
			oneRow(rows[r], t, v1, e1)
		}
		if err := poll.add(2 * n); err != nil {
			return xfloat.F{}, err
		}
	}
	return fromCell(v[n], e[n]), nil
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
	v, e = v[:len(t)], e[:len(t)]
	var p float64 // P(j), at exponent kp
	var kp int32
	last, lastK := 1.0, int32(0) // DP(i−1, j−1) before it was overwritten
	for j, tj := range t {
		ov, ok := v[j], e[j]
		if ok == kp && lastK == kp {
			// The common case: cell, running sum and term share an
			// exponent. p ≤ nv, so only nv can reach the bound.
			p += masked(last, mask(tj, x))
			nv := ov + p
			if nv >= cellMax {
				nv, p, kp = nv*cellDown, p*cellDown, kp+1
				e[j] = kp
			}
			v[j] = nv
		} else {
			if tj == x {
				p, kp = addCells(p, kp, last, lastK)
			}
			v[j], e[j], p, kp = alignSum(ov, ok, p, kp)
		}
		last, lastK = ov, ok
	}
}

// pairRows adds rows i and i+1, of symbols x1 and x2, to the cells (v, e):
// row i's values are computed and used at once by row i+1 without being
// stored. In the fast path every quantity of both rows (the two running
// sums, the two carried values and the cells) shares one exponent kc.
func pairRows(x1, x2 int32, t []int32, v []float64, e []int32) {
	const unset = math.MinInt32
	v, e = v[:len(t)], e[:len(t)]
	var p1, p2 float64 // P(j) of rows i and i+1
	var kp1, kp2 int32 // their exponents
	l1, l2 := 1.0, 1.0 // DP(i−1, j−1) and DP(i, j−1)
	var lk1, lk2 int32 // their exponents
	kc := int32(0)     // the shared exponent, or unset
	for j, tj := range t {
		ov, ok := v[j], e[j]
		if ok == kc {
			p1 += masked(l1, mask(tj, x1))
			n1 := ov + p1
			p2 += masked(l2, mask(tj, x2))
			n2 := n1 + p2
			l1, l2 = ov, n1
			if n2 >= cellMax { // n1 ≤ n2, p1 ≤ n1, p2 ≤ n2
				n2 *= cellDown
				e[j] = kc + 1
				p1, p2, l2 = p1*cellDown, p2*cellDown, l2*cellDown
				kp1, kp2, lk1, lk2 = kc+1, kc+1, kc, kc+1
				kc = unset
			}
			v[j] = n2
			continue
		}
		if kc != unset {
			kp1, kp2, lk1, lk2 = kc, kc, kc, kc
		}
		if tj == x1 {
			p1, kp1 = addCells(p1, kp1, l1, lk1)
		}
		n1, k1, np1, nkp1 := alignSum(ov, ok, p1, kp1)
		if tj == x2 {
			p2, kp2 = addCells(p2, kp2, l2, lk2)
		}
		n2, k2, np2, nkp2 := alignSum(n1, k1, p2, kp2)
		v[j], e[j] = n2, k2
		p1, kp1, p2, kp2 = np1, nkp1, np2, nkp2
		l1, lk1, l2, lk2 = ov, ok, n1, k1
		kc = unset
		if kp1 == k2 && kp2 == k2 && lk1 == k2 && lk2 == k2 {
			kc = k2
		}
	}
}
