package kernels

import (
	"sync/atomic"

	"github.com/ksql/ksql/internal/xfloat"
)

// normalize(K) and gauss(over=K) need K(a, a) and K(b, b) beside K(a, b).
// For a string kernel each is a dynamic programme as long as the pair's,
// so a Gram matrix of n texts would run 3·n²/2 of them where n²/2 + n do.
// A string object of such a spec therefore keeps K(a, a) for each leaf,
// computed the first time a pair needs it (by the worker that claims the
// slot; another that needs it meanwhile computes it for itself) and reused
// for the object's life: a source snapshot's objects keep theirs across
// the rows of a scan.

// selfCache holds K(a, a) for each leaf of one object's spec.
type selfCache struct {
	vals  []xfloat.F
	state []atomic.Int32 // slotEmpty, slotClaimed, slotDone
}

const (
	slotEmpty int32 = iota
	slotClaimed
	slotDone // vals[l] is written and final
)

func newSelfCache(leaves int) *selfCache {
	return &selfCache{vals: make([]xfloat.F, leaves), state: make([]atomic.Int32, leaves)}
}

// markSelf numbers the leaves and turns the cache on when the spec has
// normalize or over= above a string kernel (vector kernels' K(a, a) is a
// norm or a constant: caching them would cost more than it saves).
func (s *Spec) markSelf() {
	leaves, want := 0, false
	var walk func(n *node, under bool)
	walk = func(n *node, under bool) {
		if n.op == opLeaf {
			n.leaf = leaves
			leaves++
			want = want || under && n.domain == StringDomain
			return
		}
		under = under || n.op == opNormalize || n.op == opOver
		for _, k := range n.kids {
			walk(k, under)
		}
	}
	walk(s.root, false)
	if want {
		s.selfLeaves = leaves
	}
}

// selfValue returns K(a, a) for leaf n, from a's cache when it has one.
func (n *node) selfValue(a *Object, ws *Workspace) (xfloat.F, error) {
	c := a.self
	if c == nil || n.leaf >= len(c.vals) {
		return n.ev.Eval(a, a, ws)
	}
	st := &c.state[n.leaf]
	if st.Load() == slotDone {
		return c.vals[n.leaf], nil
	}
	claimed := st.CompareAndSwap(slotEmpty, slotClaimed)
	v, err := n.ev.Eval(a, a, ws)
	switch {
	case claimed && err == nil:
		c.vals[n.leaf] = v
		st.Store(slotDone)
	case claimed:
		st.Store(slotEmpty) // an error (a bound, an interrupt) is not kept
	}
	return v, err
}
