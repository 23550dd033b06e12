package strkernel

import "github.com/ksql/ksql/internal/xfloat"

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
	poll := poller{check: lim.Check}
	for _, x := range s {
		var p float64 // P(j), at exponent kp
		var kp int32
		lastV, lastK := v[0], e[0] // DP(i−1, j−1) before it was overwritten
		for j := 1; j <= n; j++ {
			ov, ok := v[j], e[j]
			if t[j-1] == x {
				if lastK == kp {
					p += lastV
					if p >= cellMax {
						p *= cellDown
						kp++
					}
				} else {
					p, kp = addCells(p, kp, lastV, lastK)
				}
			}
			if ok == kp {
				nv := ov + p
				if nv >= cellMax {
					nv *= cellDown
					e[j] = ok + 1
				}
				v[j] = nv
			} else {
				v[j], e[j], p, kp = alignSum(ov, ok, p, kp)
			}
			lastV, lastK = ov, ok
		}
		if err := poll.add(n); err != nil {
			return xfloat.F{}, err
		}
	}
	return fromCell(v[n], e[n]), nil
}
