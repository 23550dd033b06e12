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
// kept and overwritten in place; the old value of cell j−1, needed by P, is
// carried in a variable. len(t) ≥ 1.
func subseqAll(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error) {
	n := len(t)
	v, e := ws.floats(n+1), ws.ints(n+1)
	for j := range v {
		v[j], e[j] = 1, 0
	}
	v, e = v[:n+1], e[:n+1]
	t = t[:n]
	v1, e1 := v[1:], e[1:]
	v1, e1 = v1[:len(t)], e1[:len(t)]
	occ := ws.occurrences(s, t)
	poll := poller{check: lim.Check}
	for i, x := range s {
		if occ.row[i] < 0 {
			continue // s_i is not in t: the row stays as it was
		}
		var p float64 // P(j), at exponent kp
		var kp int32
		lastV, lastK := 1.0, int32(0) // DP(i−1, j−1) before it was overwritten
		for j, tj := range t {
			ov, ok := v1[j], e1[j]
			if ok == kp && lastK == kp {
				// The common case: cell, running sum and term share an
				// exponent. p ≤ nv, so only nv can reach the bound.
				// A mask instead of a branch: whether s_i = t_j is not
				// predictable on text, and a mispredicted branch costs more
				// than the addition.
				var m uint64
				if tj == x {
					m = ^uint64(0)
				}
				p += math.Float64frombits(math.Float64bits(lastV) & m)
				nv := ov + p
				if nv >= cellMax {
					nv, p, kp = nv*cellDown, p*cellDown, kp+1
					e1[j] = kp
				}
				v1[j] = nv
			} else {
				if tj == x {
					p, kp = addCells(p, kp, lastV, lastK)
				}
				v1[j], e1[j], p, kp = alignSum(ov, ok, p, kp)
			}
			lastV, lastK = ov, ok
		}
		if err := poll.add(n); err != nil {
			return xfloat.F{}, err
		}
	}
	return fromCell(v[n], e[n]), nil
}
