package fst

import "slices"

// Builder collects the arcs and final weights of a transducer, one row at a
// time, and checks them. State ids are the caller's (any integers ≥ 0, not
// necessarily dense); 0 is the start state.
//
// Semantics of the rows, those of the real semiring: parallel arcs add,
// several final weights of one state add, an arc or final weight of 0 is
// absent. Weights may be negative but must be finite.
//
// The zero value is ready to use.
type Builder struct {
	row   int
	ids   map[int64]int32 // caller's id → index in names
	names []int64
	src   []int32
	arcs  []Arc // Dst is an index in names
	final []float64
}

// state returns the index of the caller's state id q.
func (b *Builder) state(q int64) int32 {
	if b.ids == nil {
		b.ids = map[int64]int32{0: 0}
		b.names = []int64{0}
		b.final = []float64{0}
	}
	i, ok := b.ids[q]
	if !ok {
		i = int32(len(b.names))
		b.ids[q] = i
		b.names = append(b.names, q)
		b.final = append(b.final, 0)
	}
	return i
}

// AddArc adds the arc src → dst reading in, writing out, of weight w. It
// returns a *StateError, *LabelError or *WeightError for a negative state,
// a negative label or a weight that is not finite.
func (b *Builder) AddArc(src, dst int64, in, out Label, w float64) error {
	b.row++
	switch {
	case src < 0:
		return &StateError{Row: b.row, State: src}
	case dst < 0:
		return &StateError{Row: b.row, State: dst}
	case in < 0:
		return &LabelError{Row: b.row, Label: in}
	case out < 0:
		return &LabelError{Row: b.row, Label: out}
	case !finite(w):
		return &WeightError{Row: b.row, Weight: w}
	}
	s, d := b.state(src), b.state(dst)
	if w != 0 {
		b.src = append(b.src, s)
		b.arcs = append(b.arcs, Arc{In: in, Out: out, Dst: d, W: w})
	}
	return nil
}

// AddFinal makes state q final with weight w (added to any weight it has).
func (b *Builder) AddFinal(q int64, w float64) error {
	b.row++
	switch {
	case q < 0:
		return &StateError{Row: b.row, State: q}
	case !finite(w):
		return &WeightError{Row: b.row, Final: true, Weight: w}
	}
	i := b.state(q)
	b.final[i] += w
	if !finite(b.final[i]) {
		return &WeightError{Row: b.row, Final: true, Weight: b.final[i]}
	}
	return nil
}

// Build returns the transducer: its states are those on some accepting
// path, renumbered from 0 (the start) in breadth-first order; FST.Name
// gives back the caller's ids. It returns *NoFinalError when no state has
// a non-zero final weight and *UnreachableFinalError when a final state
// cannot be reached from state 0.
func (b *Builder) Build() (*FST, error) {
	b.state(0)
	r := raw{src: b.src, arcs: b.arcs, final: b.final, names: b.names}
	f, unreachable := r.connect()
	if unreachable != nil {
		names := make([]int64, len(unreachable))
		for i, q := range unreachable {
			names[i] = b.names[q]
		}
		slices.Sort(names)
		return nil, &UnreachableFinalError{States: names}
	}
	if f.NumStates() == 0 {
		return nil, &NoFinalError{}
	}
	return f, nil
}

// raw is a machine under construction: arcs in any order with their
// source states, start state 0.
type raw struct {
	src    []int32
	arcs   []Arc
	final  []float64
	finalE []int32 // nil: all 0 (see FST.finalE)
	names  []int64 // nil: states are their own names
}

// connect returns the machine restricted to the states that are reachable
// from 0 and reach a final state, renumbered in breadth-first order from 0,
// arcs in the order given within each state, and the final states that
// cannot be reached from 0 (nil if none). With no accepting path at all the
// machine has no states.
func (r *raw) connect() (*FST, []int32) {
	n := len(r.final)
	fwd := csr(n, r.src)
	bwd := csr(n, dsts(r.arcs))
	// Reachable from 0, in breadth-first order.
	order := make([]int32, 0, n)
	seen := make([]bool, n)
	if n > 0 {
		order, seen[0] = append(order, 0), true
	}
	for h := 0; h < len(order); h++ {
		for _, i := range fwd.out(order[h]) {
			if d := r.arcs[i].Dst; !seen[d] {
				seen[d] = true
				order = append(order, d)
			}
		}
	}
	// Reaching a final state.
	live := make([]bool, n)
	var queue, unreachable []int32
	for q, w := range r.final {
		if w != 0 {
			live[q] = true
			queue = append(queue, int32(q))
			if !seen[q] {
				unreachable = append(unreachable, int32(q))
			}
		}
	}
	for h := 0; h < len(queue); h++ {
		for _, i := range bwd.out(queue[h]) {
			if s := r.src[i]; !live[s] {
				live[s] = true
				queue = append(queue, s)
			}
		}
	}
	id := make([]int32, n)
	for i := range id {
		id[i] = -1
	}
	// Slices are made at their final size: Bytes bounds what a
	// composition allocates per state and arc.
	states, arcs := 0, 0
	for _, q := range order {
		if live[q] {
			id[q] = int32(states)
			states++
		}
	}
	for _, q := range order {
		for _, i := range fwd.out(q) {
			if id[q] >= 0 && id[r.arcs[i].Dst] >= 0 {
				arcs++
			}
		}
	}
	f := &FST{final: make([]float64, 0, states), arcs: make([]Arc, 0, arcs)}
	if r.finalE != nil {
		f.finalE = make([]int32, 0, states)
	}
	if r.names != nil {
		f.names = make([]int64, 0, states)
	}
	for _, q := range order {
		if live[q] {
			f.final = append(f.final, r.final[q])
			if r.finalE != nil {
				f.finalE = append(f.finalE, r.finalE[q])
			}
			if r.names != nil {
				f.names = append(f.names, r.names[q])
			}
		}
	}
	f.off = make([]int32, len(f.final)+1)
	for _, q := range order {
		if id[q] < 0 {
			continue
		}
		for _, i := range fwd.out(q) {
			a := r.arcs[i]
			if id[a.Dst] >= 0 {
				a.Dst = id[a.Dst]
				f.arcs = append(f.arcs, a)
			}
		}
		f.off[id[q]+1] = int32(len(f.arcs))
	}
	return f, unreachable
}

func dsts(arcs []Arc) []int32 {
	d := make([]int32, len(arcs))
	for i, a := range arcs {
		d[i] = a.Dst
	}
	return d
}

// adjacency lists arc indices by a key state, in index order.
type adjacency struct {
	off []int32
	idx []int32
}

func (a adjacency) out(q int32) []int32 { return a.idx[a.off[q]:a.off[q+1]] }

// csr groups arc indices 0…len(key)−1 by key[i] (a counting sort, stable).
func csr(n int, key []int32) adjacency {
	a := adjacency{off: make([]int32, n+1), idx: make([]int32, len(key))}
	for _, k := range key {
		a.off[k+1]++
	}
	for q := 0; q < n; q++ {
		a.off[q+1] += a.off[q]
	}
	pos := slices.Clone(a.off[:n])
	for i, k := range key {
		a.idx[pos[k]] = int32(i)
		pos[k]++
	}
	return a
}
