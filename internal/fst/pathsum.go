package fst

import (
	"slices"

	"github.com/ksql/ksql/internal/xfloat"
)

// PathSum returns the sum over the accepting paths of f of their weights,
// by one pass over the states in topological order (the notes'
// computation of T(x, y) on A_x ∘ T ∘ A_y). f must be acyclic: a
// *CycleError names a cycle otherwise. Values are extended-range floats.
func PathSum(f *FST) (xfloat.F, error) {
	order, cyc := topoOrder(f, func(Arc) bool { return true })
	if cyc != nil {
		return xfloat.F{}, &CycleError{States: f.nameList(cyc)}
	}
	if f.NumStates() == 0 {
		return xfloat.F{}, nil
	}
	d := make([]xfloat.F, f.NumStates())
	d[0] = xfloat.New(1)
	var total xfloat.F
	for _, q := range order {
		if d[q].IsZero() {
			continue
		}
		for _, a := range f.Arcs(int(q)) {
			d[a.Dst] = xfloat.Add(d[a.Dst], xfloat.Mul(d[q], a.Weight()))
		}
		if w := f.FinalX(int(q)); !w.IsZero() {
			total = xfloat.Add(total, xfloat.Mul(d[q], w))
		}
	}
	return total, nil
}

// topoOrder returns the states of f in an order where every arc satisfying
// keep goes forward (Kahn's algorithm, smallest state first among the
// ready ones, so the order is deterministic). When those arcs have a
// cycle it returns nil and the states of one cycle.
func topoOrder(f *FST, keep func(Arc) bool) (order, cycle []int32) {
	n := f.NumStates()
	indeg := make([]int32, n)
	for _, a := range f.arcs {
		if keep(a) {
			indeg[a.Dst]++
		}
	}
	order = make([]int32, 0, n)
	for q := range n {
		if indeg[q] == 0 {
			order = append(order, int32(q))
		}
	}
	for h := 0; h < len(order); h++ {
		for _, a := range f.Arcs(int(order[h])) {
			if keep(a) {
				if indeg[a.Dst]--; indeg[a.Dst] == 0 {
					order = append(order, a.Dst)
				}
			}
		}
	}
	if len(order) == n {
		return order, nil
	}
	return nil, findCycle(f, keep, indeg)
}

// findCycle returns a cycle among the states left with a positive
// in-degree by Kahn's algorithm: each such state has a predecessor that is
// also left, so walking predecessors must come back to a state seen.
func findCycle(f *FST, keep func(Arc) bool, indeg []int32) []int32 {
	n := f.NumStates()
	pred := make([]int32, n)
	for i := range pred {
		pred[i] = -1
	}
	start := int32(-1)
	for q := range n {
		for _, a := range f.Arcs(q) {
			if keep(a) && indeg[q] > 0 && indeg[a.Dst] > 0 && pred[a.Dst] < 0 {
				pred[a.Dst] = int32(q)
			}
		}
		if indeg[q] > 0 && start < 0 {
			start = int32(q)
		}
	}
	// Walk back n steps to be inside the cycle, then collect it.
	q := start
	for range n {
		q = pred[q]
	}
	cyc := []int32{q}
	for p := pred[q]; p != q; p = pred[p] {
		cyc = append(cyc, p)
	}
	slices.Reverse(cyc)
	// Start the cycle at its smallest state, for stable messages.
	m := slices.Index(cyc, slices.Min(cyc))
	return append(cyc[m:], cyc[:m]...)
}

// epsCycle returns an *EpsilonCycleError for a cycle of arcs reading ε
// (and, unless inputOnly, writing ε), or nil.
func epsCycle(f *FST, inputOnly bool) error {
	keep := func(a Arc) bool { return a.In == Epsilon && (inputOnly || a.Out == Epsilon) }
	if _, cyc := topoOrder(f, keep); cyc != nil {
		return &EpsilonCycleError{States: f.nameList(cyc), InputOnly: inputOnly}
	}
	return nil
}
