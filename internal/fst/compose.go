package fst

import (
	"cmp"
	"slices"
)

// Bound is what building a composition may use: MaxBytes of memory for
// the states and arcs it makes, until the result is compiled (0: no
// bound), past which it returns a *SizeError; Check is polled.
type Bound struct {
	MaxBytes int64
	Check    func() error
}

// What composing, trimming (connect) and compiling (Compile) T∘T⁻¹
// allocate in all, per state and per arc of the composition, garbage
// included: the arcs slice doubles (up to 4 times its length allocated),
// the rest is made at its final size. An upper bound, so that the bound
// holds even if no garbage is collected meanwhile; TestComposeBytes checks
// it against the allocations measured (about 190 bytes an arc on large
// compositions).
const (
	stateBytes = 256
	arcBytes   = 256
)

// Bytes returns the memory that a composition of states and arcs may hold
// while it is built, the unit of Bound.MaxBytes.
func Bytes(states, arcs int) int64 { return int64(states)*stateBytes + int64(arcs)*arcBytes }

// Compose returns a∘b, (a∘b)(x, y) = Σ_z a(x, z)·b(z, y), with the ε-filter
// of the notes (Mohri, Pereira & Riley).
//
// A state of a∘b is (q₁, q₂, f). Moves on a symbol z ≠ ε pair an arc of a
// writing z with an arc of b reading z. An ε in the middle can be matched
// three ways: a moves on an arc writing ε while b stays (ε2:ε2 in the
// notes), b moves on an arc reading ε while a stays (ε1:ε1), or both move
// (ε2:ε1). Without a filter a run of k such moves of a and m of b between
// two symbols is counted once per interleaving, so a∘b over-counts. The
// filter state f admits one canonical order: from f = 0 joint moves, then
// either moves of a alone (f = 1) or of b alone (f = 2), never both; a
// symbol move returns to f = 0. So min(k, m) joint moves come first and the
// rest follow on one side, one path per pair of paths of a and b.
//
// Weights multiply with their exponents (Arc.E), so a product beyond
// float64 is kept. The states and arcs made count against lim.MaxBytes
// (see Bytes); lim.Check is polled. The result has only states on
// accepting paths, numbered from (0, 0, 0) = 0 in breadth-first order.
func Compose(a, b *FST, lim Bound) (*FST, error) {
	if a.NumStates() == 0 || b.NumStates() == 0 {
		return &FST{off: []int32{0}}, nil
	}
	ao := sortedArcs(a, func(x Arc) Label { return x.Out })
	bi := sortedArcs(b, func(x Arc) Label { return x.In })
	c := composer{a: a, b: b, ao: ao, bi: bi, lim: lim, ids: map[uint64]int32{}}
	c.id(0, 0, 0)
	for h := 0; h < len(c.queue); h++ {
		if err := c.expand(int32(h)); err != nil {
			return nil, err
		}
	}
	r := raw{src: c.src, arcs: c.arcs, final: c.final, finalE: c.finalE}
	f, _ := r.connect()
	return f, nil
}

type composer struct {
	a, b   *FST
	ao, bi [][]Arc // arcs of a by output, of b by input, per state
	lim    Bound
	ids    map[uint64]int32
	queue  []pstate
	src    []int32
	arcs   []Arc
	final  []float64
	finalE []int32
	polled int
}

type pstate struct {
	q1, q2 int32
	f      uint8
}

// id returns the state (q1, q2, f), queued for expansion when new.
func (c *composer) id(q1, q2 int32, f uint8) int32 {
	k := (uint64(q1)*uint64(c.b.NumStates())+uint64(q2))*3 + uint64(f)
	if i, ok := c.ids[k]; ok {
		return i
	}
	i := int32(len(c.queue))
	c.ids[k] = i
	c.queue = append(c.queue, pstate{q1, q2, f})
	w1, e1 := c.a.finalW(q1)
	w2, e2 := c.b.finalW(q2)
	w, e := mulW(w1, e1, w2, e2)
	c.final, c.finalE = append(c.final, w), append(c.finalE, e)
	return i
}

func (c *composer) add(src int32, in, out Label, d1, d2 int32, f uint8, w float64, e int32) {
	if len(c.arcs) == cap(c.arcs) { // double: append grows large slices by 1.25, allocating more in all
		n := max(len(c.arcs), 256)
		c.arcs, c.src = slices.Grow(c.arcs, n), slices.Grow(c.src, n)
	}
	c.src = append(c.src, src)
	c.arcs = append(c.arcs, Arc{In: in, Out: out, Dst: c.id(d1, d2, f), W: w, E: e})
}

// pair adds the arc that moves a on x and b on y together.
func (c *composer) pair(src int32, x, y *Arc) {
	w, e := mulW(x.W, x.E, y.W, y.E)
	c.add(src, x.In, y.Out, x.Dst, y.Dst, 0, w, e)
}

// expand makes the arcs of state h.
func (c *composer) expand(h int32) error {
	s := c.queue[h]
	ea, ma := splitEps(c.ao[s.q1], func(x Arc) Label { return x.Out })
	eb, mb := splitEps(c.bi[s.q2], func(x Arc) Label { return x.In })
	// Symbol moves: a merge of a's arcs by output with b's by input.
	for i, j := 0, 0; i < len(ma) && j < len(mb); {
		switch z := ma[i].Out; {
		case z < mb[j].In:
			i++
		case z > mb[j].In:
			j++
		default:
			j0 := j
			for ; i < len(ma) && ma[i].Out == z; i++ {
				for j = j0; j < len(mb) && mb[j].In == z; j++ {
					c.pair(h, &ma[i], &mb[j])
				}
			}
		}
	}
	if s.f == 0 { // ε2:ε1, both move
		for i := range ea {
			for j := range eb {
				c.pair(h, &ea[i], &eb[j])
			}
		}
	}
	if s.f != 2 { // ε2:ε2, a alone
		for _, x := range ea {
			c.add(h, x.In, Epsilon, x.Dst, s.q2, 1, x.W, x.E)
		}
	}
	if s.f != 1 { // ε1:ε1, b alone
		for _, y := range eb {
			c.add(h, Epsilon, y.Out, s.q1, y.Dst, 2, y.W, y.E)
		}
	}
	if n := Bytes(len(c.queue), len(c.arcs)); c.lim.MaxBytes > 0 && n > c.lim.MaxBytes {
		return &SizeError{Bytes: n, Max: c.lim.MaxBytes}
	}
	if c.lim.Check != nil && len(c.arcs)-c.polled >= 1<<16 {
		c.polled = len(c.arcs)
		return c.lim.Check()
	}
	return nil
}

// sortedArcs returns each state's arcs sorted (stably) by key.
func sortedArcs(f *FST, key func(Arc) Label) [][]Arc {
	all := slices.Clone(f.arcs)
	out := make([][]Arc, f.NumStates())
	for q := range out {
		s := all[f.off[q]:f.off[q+1]]
		slices.SortStableFunc(s, func(x, y Arc) int { return cmp.Compare(key(x), key(y)) })
		out[q] = s
	}
	return out
}

// splitEps splits arcs sorted by key into those with key ε and the rest.
func splitEps(arcs []Arc, key func(Arc) Label) (eps, rest []Arc) {
	i := 0
	for i < len(arcs) && key(arcs[i]) == Epsilon {
		i++
	}
	return arcs[:i], arcs[i:]
}
