package fst

import (
	"cmp"
	"math"
	"slices"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// Machine is an FST compiled to evaluate M(x, y), the sum over its accepting
// paths reading x and writing y. It is what PathSum(A_x ∘ M ∘ A_y) computes,
// without building the composition: A_x and A_y have no ε arcs, so the
// ε-filter admits exactly one path of A_x ∘ M ∘ A_y per path of M, and a
// state of the composition is a triple (i, q, j) — i symbols of x read, q a
// state of M, j symbols of y written. The triples are visited in the
// topological order of the composition: cells (i, j) row by row, and inside
// a cell the states in a topological order of M's ε:ε arcs (M may have none
// in a cycle). Each cell (i, j) is a vector over the states, computed from
// cells (i, j−1) by arcs ε:y_j, (i−1, j) by arcs x_i:ε, (i−1, j−1) by arcs
// x_i:y_j, then closed under the ε:ε arcs. Work: O(|M|·|x|·|y|); memory:
// two rows of cells.
//
// # Range
//
// A path's weight can be far outside float64 (a weight of 2 per symbol on
// texts of 1,000 characters), so every cell carries its own binary
// exponent, and a cell is rescaled (exactly, by a power of two) when its
// largest entry leaves [2^-64, 2^64]. The entries of one cell share that
// exponent; the fast path checks that this loses nothing: arc weights
// within [2^-48, 2^48] and products along ε:ε paths within [2^-150, 2^150]
// (checked once, in Compile), cells whose exponents differ by at most 2^400
// and, in each cell, no entry below 2^-300 of the largest. Under these
// bounds no term can fall below the normal float64 range nor reach +Inf, so
// the result has the rounding error of float64 sums only (relative, when
// all weights are non-negative). When a pair breaks a bound the pair is
// computed again with an xfloat per entry (slowPair), ~20 times slower.
type Machine struct {
	nq     int
	start  int32
	final  []float64
	in     labelMap // input label → 1…nA; 0 for labels no arc reads
	out    labelMap // output label → 1…nB
	nA, nB int
	ee     []marc  // ε:ε, by source in topological order
	aeOff  []int32 // x:ε arcs of input a are ae[aeOff[a]:aeOff[a+1]]
	ae     []marc
	ebOff  []int32 // ε:y arcs of output b
	eb     []marc
	abOff  []int32 // x:y arcs of input a, by output, in ab[abOff[a]:abOff[a+1]]
	ab     []marc
	abOut  []int32 // dense output of each ab arc
	fast   bool    // weights within the fast path's bounds
	names  []int64
	arcs   int
}

// marc is an arc of a Machine: weight w from state src to state dst.
type marc struct {
	src, dst int32
	w        float64
}

// labelMap maps labels to dense ids 1…n (0: absent).
type labelMap struct {
	dense  []int32
	sparse map[Label]int32
}

func (m *labelMap) get(l Label) int32 {
	if l < 0 {
		return 0
	}
	if int(l) < len(m.dense) {
		return m.dense[l]
	}
	return m.sparse[l]
}

// denseLimit: labels below it are mapped by a slice.
const denseLimit = 1 << 21

// newLabelMap numbers the distinct non-ε labels in ascending order.
func newLabelMap(labels []Label) (labelMap, int) {
	ls := slices.Clone(labels)
	slices.Sort(ls)
	ls = slices.Compact(ls)
	if len(ls) > 0 && ls[0] == Epsilon {
		ls = ls[1:]
	}
	var m labelMap
	if len(ls) > 0 && ls[len(ls)-1] < denseLimit {
		m.dense = make([]int32, ls[len(ls)-1]+1)
		for i, l := range ls {
			m.dense[l] = int32(i + 1)
		}
	} else {
		m.sparse = make(map[Label]int32, len(ls))
		for i, l := range ls {
			m.sparse[l] = int32(i + 1)
		}
	}
	return m, len(ls)
}

// Fast-path bounds, as binary exponents (see Machine).
const (
	fastWeight = 48  // arc weights within [2^-48, 2^48]
	fastEps    = 150 // ε:ε path products within [2^-150, 2^150]
	fastRange  = 64  // a cell's largest entry is kept within [2^-64, 2^64]
	fastSpread = 300 // entries of a cell at least 2^-300 of the largest
	fastShift  = 400 // exponents of cells added together differ by ≤ 400
)

// Compile returns f compiled for Weight. It returns an *EpsilonCycleError
// when f has a cycle of ε:ε arcs (with non-zero weights, as all of f's
// are): the sum over paths going round it would be infinite.
func Compile(f *FST) (*Machine, error) {
	order, cyc := topoOrder(f, func(a Arc) bool { return a.In == Epsilon && a.Out == Epsilon })
	if cyc != nil {
		return nil, &EpsilonCycleError{States: f.nameList(cyc)}
	}
	m := &Machine{nq: f.NumStates(), final: make([]float64, f.NumStates()), arcs: f.NumArcs(), fast: true}
	if m.nq == 0 {
		return m, nil
	}
	id := make([]int32, m.nq)
	m.names = make([]int64, m.nq)
	for k, q := range order {
		id[q] = int32(k)
		m.final[k] = f.final[q]
		m.names[k] = f.Name(int(q))
	}
	m.start = id[0]
	var ins, outs []Label
	for _, a := range f.arcs {
		ins, outs = append(ins, a.In), append(outs, a.Out)
		if e := math.Ilogb(a.W); e < -fastWeight || e > fastWeight {
			m.fast = false
		}
	}
	m.in, m.nA = newLabelMap(ins)
	m.out, m.nB = newLabelMap(outs)
	type keyed struct {
		a, b int32
		marc
	}
	var ee, ae, eb, ab []keyed
	for q := range m.nq {
		for _, x := range f.Arcs(q) {
			k := keyed{m.in.get(x.In), m.out.get(x.Out), marc{id[q], id[x.Dst], x.W}}
			switch {
			case k.a == 0 && k.b == 0:
				ee = append(ee, k)
			case k.b == 0:
				ae = append(ae, k)
			case k.a == 0:
				eb = append(eb, k)
			default:
				ab = append(ab, k)
			}
		}
	}
	bySrc := func(x, y keyed) int { return cmp.Compare(x.src, y.src) }
	slices.SortStableFunc(ee, bySrc)
	slices.SortStableFunc(ae, func(x, y keyed) int { return cmp.Or(cmp.Compare(x.a, y.a), bySrc(x, y)) })
	slices.SortStableFunc(eb, func(x, y keyed) int { return cmp.Or(cmp.Compare(x.b, y.b), bySrc(x, y)) })
	slices.SortStableFunc(ab, func(x, y keyed) int {
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b), bySrc(x, y))
	})
	plain := func(ks []keyed) []marc {
		out := make([]marc, len(ks))
		for i, k := range ks {
			out[i] = k.marc
		}
		return out
	}
	offsets := func(ks []keyed, n int, key func(keyed) int32) []int32 {
		off := make([]int32, n+2)
		for _, k := range ks {
			off[key(k)+1]++
		}
		for i := 1; i < len(off); i++ {
			off[i] += off[i-1]
		}
		return off
	}
	m.ee, m.ae, m.eb, m.ab = plain(ee), plain(ae), plain(eb), plain(ab)
	m.aeOff = offsets(ae, m.nA, func(k keyed) int32 { return k.a })
	m.ebOff = offsets(eb, m.nB, func(k keyed) int32 { return k.b })
	m.abOff = offsets(ab, m.nA, func(k keyed) int32 { return k.a })
	m.abOut = make([]int32, len(ab))
	for i, k := range ab {
		m.abOut[i] = k.b
	}
	if m.fast {
		m.fast = m.epsProductsBounded()
	}
	return m, nil
}

// epsProductsBounded reports whether every product of weights along a path
// of ε:ε arcs is within [2^-fastEps, 2^fastEps].
func (m *Machine) epsProductsBounded() bool {
	hi := make([]float64, m.nq) // largest log2 product of a path ending at q
	lo := make([]float64, m.nq)
	for _, a := range m.ee { // by source in topological order
		l := math.Log2(math.Abs(a.w))
		hi[a.dst] = max(hi[a.dst], hi[a.src]+l)
		lo[a.dst] = min(lo[a.dst], lo[a.src]+l)
		if hi[a.dst] > fastEps || lo[a.dst] < -fastEps {
			return false
		}
	}
	return true
}

// NumStates returns the number of states.
func (m *Machine) NumStates() int { return m.nq }

// NumArcs returns the number of arcs.
func (m *Machine) NumArcs() int { return m.arcs }

// Cells returns the state triples a Weight call on sequences of lengths
// nx and ny visits: (nx+1)·(ny+1)·states, the unit of Limits.MaxCells.
func (m *Machine) Cells(nx, ny int) int64 {
	return mulSat(mulSat(int64(nx)+1, int64(ny)+1), int64(m.nq))
}

func mulSat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// Weight returns M(x, y). Past lim.MaxCells state triples (see Cells) it
// returns a *strkernel.LimitError, the string kernels' bound; lim.Check is
// polled about every 2^20 triples. Labels are those of M's arcs; any
// other label (NoLabel, say) can be neither read nor written, so M is 0
// there. ws may be nil; a Workspace reused across calls makes a call
// allocate nothing once it has grown.
func (m *Machine) Weight(x, y []Label, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if cells := m.Cells(len(x), len(y)); lim.MaxCells > 0 && cells > lim.MaxCells {
		return xfloat.F{}, &strkernel.LimitError{Cells: cells, Max: lim.MaxCells}
	}
	if m.nq == 0 {
		return xfloat.F{}, nil
	}
	if ws == nil {
		ws = new(Workspace)
	}
	ax, ok := denseLabels(ws.ax[:0], x, &m.in)
	ws.ax = ax
	if !ok {
		return xfloat.F{}, nil
	}
	by, ok := denseLabels(ws.by[:0], y, &m.out)
	ws.by = by
	if !ok {
		return xfloat.F{}, nil
	}
	if m.fast {
		v, ok, err := m.fastPair(ax, by, ws, lim)
		if ok || err != nil {
			return v, err
		}
	}
	ws.slowPairs++
	return m.slowPair(ax, by, ws, lim)
}

// denseLabels maps labels to dense ids; false when one has no arc.
func denseLabels(dst []int32, x []Label, lm *labelMap) ([]int32, bool) {
	for _, l := range x {
		d := lm.get(l)
		if d == 0 {
			return dst, false
		}
		dst = append(dst, d)
	}
	return dst, true
}

// zeroExp marks a cell whose entries are all 0.
const zeroExp = math.MinInt64 / 4

// pow2 returns 2^e for −1022 ≤ e ≤ 1023.
func pow2(e int64) float64 { return math.Float64frombits(uint64(1023+e) << 52) }

// abSpans records, for the current row's input a, the ab arcs of each
// output b: valid where stamp[b] == gen.
func (ws *Workspace) abSpans(m *Machine, a int32) {
	if len(ws.stamp) < m.nB+1 {
		ws.stamp = make([]uint32, m.nB+1)
		ws.lo = make([]int32, m.nB+1)
		ws.hi = make([]int32, m.nB+1)
	}
	ws.gen++
	if ws.gen == 0 { // wrapped: old stamps could match again
		clear(ws.stamp)
		ws.gen = 1
	}
	for k := m.abOff[a]; k < m.abOff[a+1]; {
		b, e := m.abOut[k], k+1
		for e < m.abOff[a+1] && m.abOut[e] == b {
			e++
		}
		ws.stamp[b], ws.lo[b], ws.hi[b] = ws.gen, k, e
		k = e
	}
}

func (ws *Workspace) abArcs(m *Machine, b int32) []marc {
	if ws.stamp[b] != ws.gen {
		return nil
	}
	return m.ab[ws.lo[b]:ws.hi[b]]
}

// fastPair is the dynamic programme with one exponent per cell; ok is
// false when a bound of the fast path (see Machine) was broken.
func (m *Machine) fastPair(ax, by []int32, ws *Workspace, lim strkernel.Limits) (v xfloat.F, ok bool, err error) {
	nq, n := m.nq, len(by)
	rowLen := (n + 1) * nq
	buf := grow(&ws.f64, 2*rowLen)
	prev, cur := buf[:rowLen], buf[rowLen:]
	ebuf := grow(&ws.exp, 2*(n+1))
	pe, ce := ebuf[:n+1], ebuf[n+1:]
	poll := poller{check: lim.Check}
	for i := 0; i <= len(ax); i++ {
		var ae []marc
		if i > 0 {
			a := ax[i-1]
			ae = m.ae[m.aeOff[a]:m.aeOff[a+1]]
			ws.abSpans(m, a)
		}
		for j := 0; j <= n; j++ {
			c := cur[j*nq : (j+1)*nq]
			clear(c)
			var eb, ab []marc
			e := int64(zeroExp)
			if j > 0 {
				b := by[j-1]
				if eb = m.eb[m.ebOff[b]:m.ebOff[b+1]]; len(eb) > 0 {
					e = max(e, ce[j-1])
				}
				if i > 0 {
					if ab = ws.abArcs(m, b); len(ab) > 0 {
						e = max(e, pe[j-1])
					}
				}
			}
			if len(ae) > 0 {
				e = max(e, pe[j])
			}
			if i == 0 && j == 0 {
				c[m.start], e = 1, 0
			} else if e == zeroExp {
				ce[j] = zeroExp
				continue
			}
			if j > 0 && !addArcs(c, cur[(j-1)*nq:j*nq], eb, ce[j-1]-e) ||
				!addArcs(c, prev[j*nq:(j+1)*nq], ae, pe[j]-e) ||
				j > 0 && !addArcs(c, prev[(j-1)*nq:j*nq], ab, pe[j-1]-e) {
				return xfloat.F{}, false, nil
			}
			for _, a := range m.ee {
				c[a.dst] += a.w * c[a.src]
			}
			if ce[j], ok = normalize(c, e); !ok {
				return xfloat.F{}, false, nil
			}
		}
		if err := poll.add(rowLen); err != nil {
			return xfloat.F{}, true, err
		}
		prev, cur, pe, ce = cur, prev, ce, pe
	}
	last := prev[n*nq : (n+1)*nq]
	if pe[n] == zeroExp {
		return xfloat.F{}, true, nil
	}
	var sum xfloat.F
	for q, w := range m.final {
		if w != 0 && last[q] != 0 {
			sum = xfloat.Add(sum, xfloat.Mul(xfloat.New(w), xfloat.New(last[q])))
		}
	}
	return xfloat.Make(sum.M, sum.E+pe[n]), true, nil
}

// addArcs adds the arcs' terms from cell src, whose exponent is d above
// the current cell's (d ≤ 0). It returns false when d is below the fast
// path's bound.
func addArcs(c, src []float64, arcs []marc, d int64) bool {
	switch {
	case len(arcs) == 0 || d <= zeroExp/2:
		return true
	case d == 0:
		for _, a := range arcs {
			c[a.dst] += a.w * src[a.src]
		}
	case d >= -fastShift:
		s := pow2(d)
		for _, a := range arcs {
			c[a.dst] += a.w * s * src[a.src]
		}
	default:
		return false
	}
	return true
}

// normalize checks cell c (exponent e) against the fast path's bounds,
// rescales it when its largest entry left [2^-fastRange, 2^fastRange] and
// returns its exponent (zeroExp if all entries are 0).
func normalize(c []float64, e int64) (int64, bool) {
	const abs = 1<<63 - 1
	var hi, lo uint64 = 0, math.MaxUint64
	for _, v := range c {
		b := math.Float64bits(v) & abs
		hi = max(hi, b)
		lo = min(lo, b-1) // 0 wraps round to the largest value
	}
	if hi == 0 {
		return zeroExp, true
	}
	ehi, elo := int64(hi>>52), int64((lo+1)>>52)
	if ehi == 0x7ff || elo == 0 || ehi-elo > fastSpread {
		return 0, false // Inf, NaN, a subnormal entry, or too wide a spread
	}
	if ehi -= 1023; ehi > fastRange || ehi < -fastRange {
		s := pow2(-ehi)
		for k := range c {
			c[k] *= s
		}
		e += ehi
	}
	return e, true
}

// slowPair is the same dynamic programme with an xfloat per entry.
func (m *Machine) slowPair(ax, by []int32, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	nq, n := m.nq, len(by)
	rowLen := (n + 1) * nq
	buf := grow(&ws.xf, 2*rowLen)
	prev, cur := buf[:rowLen], buf[rowLen:]
	poll := poller{check: lim.Check}
	add := func(c, src []xfloat.F, arcs []marc) {
		for _, a := range arcs {
			if !src[a.src].IsZero() {
				c[a.dst] = xfloat.Add(c[a.dst], xfloat.Mul(xfloat.New(a.w), src[a.src]))
			}
		}
	}
	for i := 0; i <= len(ax); i++ {
		var ae []marc
		if i > 0 {
			a := ax[i-1]
			ae = m.ae[m.aeOff[a]:m.aeOff[a+1]]
			ws.abSpans(m, a)
		}
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
					add(c, prev[(j-1)*nq:j*nq], ws.abArcs(m, b))
				}
			}
			add(c, prev[j*nq:(j+1)*nq], ae)
			add(c, c, m.ee)
		}
		if err := poll.add(rowLen); err != nil {
			return xfloat.F{}, err
		}
		prev, cur = cur, prev
	}
	var sum xfloat.F
	for q, w := range m.final {
		if w != 0 {
			sum = xfloat.Add(sum, xfloat.Mul(xfloat.New(w), prev[n*nq+q]))
		}
	}
	return sum, nil
}

// grow returns (*buf)[:n], reallocating when too small.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// poller calls check about every 2^20 cells of work.
type poller struct {
	check func() error
	work  int
}

func (p *poller) add(cells int) error {
	if p.check == nil {
		return nil
	}
	if p.work += cells; p.work < 1<<20 {
		return nil
	}
	p.work = 0
	return p.check()
}

// Workspace holds the buffers of Weight, Kernel.Eval and Gappy.Eval so that
// repeated calls allocate nothing once they have grown. The zero value is
// ready; a Workspace must not be used by two goroutines at once.
type Workspace struct {
	f64    []float64
	exp    []int64
	xf     []xfloat.F
	ax, by []int32
	la, lb []Label
	stamp  []uint32
	lo, hi []int32
	gen    uint32
	gappy  gappyBufs

	slowPairs int // pairs computed by slowPair, for tests and benchmarks
}
