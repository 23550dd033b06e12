// Code copied from subseq.go before the row loops were rewritten around the
// occurrence lists; kept, renamed, as the reference the new loops must
// match bit for bit (TestSubseqSameBits).

package strkernel

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// refSubseqAll is the all-subsequences kernel by the dynamic programme of the
// lecture notes: DP(i, j) = K(s[1:i], t[1:j]), DP(0, j) = DP(i, 0) = 1 and
//
//	DP(i, j) = DP(i−1, j) + P(j),  P(j) = Σ_{k ≤ j, t_k = s_i} DP(i−1, k−1),
//
// with the running sums P(j) built along the row. One row of |t|+1 cells is
// kept and overwritten in place. Rows whose symbol is not in t change
// nothing and are skipped; the others are taken two at a time (refPairRows),
// so that each sweep of the row does the work of two rows with two
// independent chains of additions. len(t) ≥ 1.
func refSubseqAll(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error) {
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
	for _, x := range s {
		if in(x) == nil {
			continue // s_i is not in t: the row stays as it was
		}
		if !waiting {
			pending, waiting = x, true
			continue
		}
		refPairRows(pending, x, t, v1, e1)
		waiting = false
		if err := poll.add(2 * n); err != nil {
			return xfloat.F{}, err
		}
	}
	if waiting {
		refOneRow(pending, t, v1, e1)
	}
	return fromCell(v[n], e[n]), nil
}

// refMask returns all ones if a = b, else 0. Masks replace branches on s_i = t_j,
// which text makes unpredictable: a mispredicted branch costs more than the
// addition of a masked 0.
func refMask(a, b int32) uint64 {
	var m uint64
	if a == b {
		m = ^uint64(0)
	}
	return m
}

// refMasked returns x if m is all ones, else 0.
func refMasked(x float64, m uint64) float64 {
	return math.Float64frombits(math.Float64bits(x) & m)
}

// refOneRow adds row i, of symbol x, to the cells (v, e) of columns 1…n.
func refOneRow(x int32, t []int32, v []float64, e []int32) {
	n := len(t)
	v, e = v[:n], e[:n]
	var p float64 // P(j), at exponent kp
	var kp int32
	last, lastK := 1.0, int32(0) // DP(i−1, j−1) before it was overwritten
	for j := 0; j < n; j++ {
		if lastK == kp {
			j, p, last = refOneRun(j, x, t, v, e, p, last, kp)
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

// refOneRun is refOneRow's fast path from column j on, while the cell, the
// running sum and the carried value share the exponent k. It returns the
// first column it did not do.
func refOneRun(j int, x int32, t []int32, v []float64, e []int32, p, last float64, k int32) (int, float64, float64) {
	n := len(t)
	v, e = v[:n], e[:n]
	for ; j < n; j++ {
		ov := v[j]
		if e[j] != k {
			break
		}
		q := p + refMasked(last, refMask(t[j], x))
		nv := ov + q // q ≤ nv, so only nv can reach the bound
		if nv >= cellMax {
			break
		}
		v[j], p, last = nv, q, ov
	}
	return j, p, last
}

// refPairRows adds rows i and i+1, of symbols x1 and x2, to the cells (v, e):
// row i's values are computed and used at once by row i+1 without being
// stored.
func refPairRows(x1, x2 int32, t []int32, v []float64, e []int32) {
	n := len(t)
	v, e = v[:n], e[:n]
	var p1, p2 float64 // P(j) of rows i and i+1
	var kp1, kp2 int32 // their exponents
	l1, l2 := 1.0, 1.0 // DP(i−1, j−1) and DP(i, j−1)
	var lk1, lk2 int32 // their exponents
	for j := 0; j < n; j++ {
		if kp1 == lk1 && kp2 == lk1 && lk2 == lk1 {
			j, p1, p2, l1, l2 = refPairRun(j, x1, x2, t, v, e, p1, p2, l1, l2, lk1)
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

// refPairRun is refPairRows' fast path from column j on, while every quantity of
// both rows (the cells, the two running sums and the two carried values)
// shares the exponent k. It returns the first column it did not do.
func refPairRun(j int, x1, x2 int32, t []int32, v []float64, e []int32,
	p1, p2, l1, l2 float64, k int32) (int, float64, float64, float64, float64) {
	n := len(t)
	v, e = v[:n], e[:n]
	for ; j < n; j++ {
		ov := v[j]
		if e[j] != k {
			break
		}
		tj := t[j]
		q1 := p1 + refMasked(l1, refMask(tj, x1))
		n1 := ov + q1
		q2 := p2 + refMasked(l2, refMask(tj, x2))
		n2 := n1 + q2 // n1 ≤ n2 and q2 ≤ n2: only n2 can reach the bound
		if n2 >= cellMax {
			break
		}
		v[j] = n2
		p1, p2, l1, l2 = q1, q2, ov, n1
	}
	return j, p1, p2, l1, l2
}
