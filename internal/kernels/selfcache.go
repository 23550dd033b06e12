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
	leaves []*node // the spec's leaves: an object evaluated under another spec does not use the cache
	vals   []xfloat.F
	state  []atomic.Int32 // slotEmpty, slotClaimed, slotDone
}

const (
	slotEmpty int32 = iota
	slotClaimed
	slotDone // vals[l] is written and final
)

func newSelfCache(leaves []*node) *selfCache {
	return &selfCache{leaves: leaves, vals: make([]xfloat.F, len(leaves)), state: make([]atomic.Int32, len(leaves))}
}

// markSelf numbers the leaves and turns the cache on when the spec has
// normalize or over= above a string kernel (vector kernels' K(a, a) is a
// norm or a constant: caching them would cost more than it saves).
func (s *Spec) markSelf() {
	var leaves []*node
	want := false
	var walk func(n *node, under bool)
	walk = func(n *node, under bool) {
		if n.op == opLeaf {
			n.leaf = len(leaves)
			leaves = append(leaves, n)
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
	if c == nil || n.leaf >= len(c.leaves) || c.leaves[n.leaf] != n {
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
