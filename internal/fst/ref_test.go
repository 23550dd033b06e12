package fst

import (
	"github.com/ksql/ksql/internal/xfloat"
)

// refPair is the programme of Machine with an xfloat per entry and no
// shortcut: a reference for the entries with their own exponents.
func (m *Machine) refPair(ax, by []int32) xfloat.F {
	nq, n := m.nq, len(by)
	prev, cur := make([]xfloat.F, (n+1)*nq), make([]xfloat.F, (n+1)*nq)
	weight := func(a marc) xfloat.F { return xfloat.Make(a.w, 256*a.wk) }
	add := func(c, src []xfloat.F, arcs []marc) {
		for _, a := range arcs {
			c[a.dst] = xfloat.Add(c[a.dst], xfloat.Mul(weight(a), src[a.src]))
		}
	}
	abOf := func(a, b int32) []marc {
		var out []marc
		for k := m.abOff[a]; k < m.abOff[a+1]; k++ {
			if m.abOut[k] == b {
				out = append(out, m.ab[k])
			}
		}
		return out
	}
	for i := 0; i <= len(ax); i++ {
		for j := 0; j <= n; j++ {
			c := cur[j*nq : (j+1)*nq]
			clear(c)
			if i == 0 && j == 0 {
				c[m.start] = xfloat.New(1)
			}
			if j > 0 {
				b := by[j-1]
				add(c, cur[(j-1)*nq:j*nq], m.eb[m.ebOff[b]:m.ebOff[b+1]])
				if i > 0 {
					add(c, prev[(j-1)*nq:j*nq], abOf(ax[i-1], b))
				}
			}
			if i > 0 {
				a := ax[i-1]
				add(c, prev[j*nq:(j+1)*nq], m.ae[m.aeOff[a]:m.aeOff[a+1]])
			}
			add(c, c, m.ee)
		}
		prev, cur = cur, prev
	}
	var sum xfloat.F
	for q, w := range m.final {
		sum = xfloat.Add(sum, xfloat.Mul(w, prev[n*nq+q]))
	}
	return sum
}
