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
// texts of 1,000 characters), and the entries of one cell can be far apart
// (a state that skips symbols at λ each beside one that has just matched),
// so every entry carries its own exponent: it is v·2^(256·k), v kept in
// [2^-128, 2^128) between steps (entries below: entry). Terms added to an
// entry with the same k, the common case, are added directly; otherwise the
// smaller is scaled by 2^-256 or, two steps or more below, dropped: it is
// then below 2^-256 of the entry. No term is ever lost to the float64 range,
// so the result has the rounding error of float64 sums (relative, when all
// weights are non-negative).
type Machine struct {
	nq      int
	start   int32
	final   []xfloat.F
	in      labelMap // input label → 1…nA; 0 for labels no arc reads
	out     labelMap // output label → 1…nB
	nA, nB  int
	eeOff   []int32 // ε:ε arcs of the i-th source of eeSrc: ee[eeOff[i]:eeOff[i+1]]
	eeSrc   []int32 // states with ε:ε arcs, in topological order
	ee      []marc
	aeOff   []int32 // x:ε arcs of input a are ae[aeOff[a]:aeOff[a+1]]
	ae      []marc
	ebOff   []int32 // ε:y arcs of output b
	eb      []marc
	abOff   []int32 // x:y arcs of input a, by output, in ab[abOff[a]:abOff[a+1]]
	ab      []marc
	abOut   []int32      // dense output of each ab arc
	byState []stateSweep // the sweep state by state, when possible (nil otherwise)
	names   []int64
	arcs    int
}

// stateSweep is what the state-by-state sweep does for one state: add the
// ε:y terms from other states (their rows complete, as they come earlier),
// the ε:ε terms, then run the recurrence of its ε:y self-loops along the
// row: entry j gains loop[y_j]·entry j−1.
type stateSweep struct {
	q        int32
	ebIn     []marc  // ε:y arcs from other states
	ebInLab  []int32 // their dense outputs
	eeIn     []marc
	loop     []float64 // by dense output: the self-loop's weight (0: none)
	loopK    []int64
	hasLoops bool
}

// marc is an arc of a Machine: weight w·2^(256·wk) from state src to
// state dst, w in [2^-128, 2^128) (wk is 0 but for extreme weights).
type marc struct {
	src, dst int32
	w        float64
	wk       int64
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

// arcKind is 0 for an ε:ε arc, 1 for x:ε, 2 for ε:y, 3 for x:y.
func arcKind(a Arc) int {
	k := 0
	if a.In != Epsilon {
		k |= 1
	}
	if a.Out != Epsilon {
		k |= 2
	}
	return k
}

// newLabelMap numbers the distinct non-ε labels in ascending order. It
// sorts labels in place.
func newLabelMap(labels []Label) (labelMap, int) {
	ls := labels
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

// Compile returns f compiled for Weight. It returns an *EpsilonCycleError
// when f has a cycle of ε:ε arcs (with non-zero weights, as all of f's
// are): the sum over paths going round it would be infinite.
func Compile(f *FST) (*Machine, error) {
	order, cyc := topoOrder(f, func(a Arc) bool { return a.In == Epsilon && a.Out == Epsilon })
	if cyc != nil {
		return nil, &EpsilonCycleError{States: f.nameList(cyc)}
	}
	m := &Machine{nq: f.NumStates(), final: make([]xfloat.F, f.NumStates()), arcs: f.NumArcs()}
	if m.nq == 0 {
		return m, nil
	}
	id := make([]int32, m.nq)
	m.names = make([]int64, m.nq)
	for k, q := range order {
		id[q] = int32(k)
		m.final[k] = f.FinalX(int(q))
		m.names[k] = f.Name(int(q))
	}
	m.start = id[0]
	// Slices are made at their final size: Bytes bounds what compiling
	// allocates per arc.
	ins, outs := make([]Label, len(f.arcs)), make([]Label, len(f.arcs))
	var n [4]int // ε:ε, x:ε, ε:y, x:y
	for i, a := range f.arcs {
		ins[i], outs[i] = a.In, a.Out
		n[arcKind(a)]++
	}
	m.in, m.nA = newLabelMap(ins)
	m.out, m.nB = newLabelMap(outs)
	type keyed = keyedArc
	ee, ae := make([]keyed, 0, n[0]), make([]keyed, 0, n[1])
	eb, ab := make([]keyed, 0, n[2]), make([]keyed, 0, n[3])
	for q := range m.nq {
		for _, x := range f.Arcs(q) {
			w, wk := split(x.W, x.E)
			k := keyed{m.in.get(x.In), m.out.get(x.Out), marc{id[q], id[x.Dst], w, wk}}
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
	for i, a := range m.ee {
		if i == 0 || a.src != m.ee[i-1].src {
			m.eeSrc = append(m.eeSrc, a.src)
			m.eeOff = append(m.eeOff, int32(i))
		}
	}
	m.eeOff = append(m.eeOff, int32(len(m.ee)))
	m.byState = m.planSweep(eb)
	return m, nil
}

// planSweep returns the state-by-state sweep when the ε:y arcs between
// different states and the ε:ε arcs have no cycle (true of T∘T⁻¹ for
// counting transducers), in a topological order of those arcs; nil
// otherwise. (Arcs into a state are then from states done before it, and
// its own ε:y self-loops are a first-order recurrence along the row.)
func (m *Machine) planSweep(eb []keyedArc) []stateSweep {
	if len(m.eb) == 0 && len(m.ee) == 0 {
		return nil
	}
	raw := &FST{final: make([]float64, m.nq), off: make([]int32, m.nq+1)}
	bySrc := make([][]Arc, m.nq)
	for _, a := range eb {
		if a.src != a.dst {
			bySrc[a.src] = append(bySrc[a.src], Arc{Dst: a.dst})
		}
	}
	for _, a := range m.ee {
		bySrc[a.src] = append(bySrc[a.src], Arc{Dst: a.dst})
	}
	for q, arcs := range bySrc {
		raw.arcs = append(raw.arcs, arcs...)
		raw.off[q+1] = int32(len(raw.arcs))
	}
	order, cyc := topoOrder(raw, func(Arc) bool { return true })
	if cyc != nil {
		return nil
	}
	plan := make([]stateSweep, m.nq)
	pos := make([]int, m.nq)
	for k, q := range order {
		plan[k].q, pos[q] = q, k
	}
	for _, a := range eb {
		st := &plan[pos[a.dst]]
		if a.src == a.dst {
			if st.loop == nil {
				st.loop, st.loopK = make([]float64, m.nB+1), make([]int64, m.nB+1)
			}
			st.hasLoops = true
			// Parallel self-loops add; should their weights not share one
			// exponent, the machine takes the general sweep.
			if st.loop[a.b] != 0 && st.loopK[a.b] != a.wk {
				return nil
			}
			st.loop[a.b] += a.w
			st.loopK[a.b] = a.wk
			continue
		}
		st.ebIn, st.ebInLab = append(st.ebIn, a.marc), append(st.ebInLab, a.b)
	}
	for _, a := range m.ee {
		st := &plan[pos[a.dst]]
		st.eeIn = append(st.eeIn, a)
	}
	return plan
}

// keyedArc is an arc of a Machine with its dense input and output.
type keyedArc struct {
	a, b int32
	marc
}

// split returns w·2^x as v·2^(256·k) with v in [2^-128, 2^128).
func split(w float64, x int32) (float64, int64) {
	e := entry{v: w}
	if x != 0 && w != 0 {
		f := xfloat.Make(w, int64(x)) // f.M in [0.5, 1)
		e.k = f.E >> 8                // floor(f.E / 256)
		e.v = math.Ldexp(f.M, int(f.E-e.k<<8))
	}
	e.norm()
	return e.v, e.k
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
	return m.pair(ax, by, ws, lim)
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

// occurrences groups the positions j (1-based) of y by output id: those
// of b are pos[off[b]:off[b+1]].
func (ws *Workspace) occurrences(by []int32, nB int) (off, pos []int32) {
	off = grow(&ws.occOff, nB+2)
	clear(off)
	for _, b := range by {
		off[b+1]++
	}
	for b := 1; b < len(off); b++ {
		off[b] += off[b-1]
	}
	pos = grow(&ws.occPos, len(by))
	next := grow(&ws.occNext, nB+1)
	copy(next, off)
	for j, b := range by {
		pos[next[b]] = int32(j + 1)
		next[b]++
	}
	return off, pos
}

// entry is a value v·2^(256·k) of the programme.
type entry struct {
	v float64
	k int64
}

const (
	entryLo   = 0x1p-128
	entryHi   = 0x1p128
	entryUp   = 0x1p256
	entryDown = 0x1p-256
)

// norm brings v into [2^-128, 2^128) (unless v is 0, ±Inf or NaN).
func (e *entry) norm() {
	if ex := int64(math.Float64bits(e.v)>>52) & 0x7ff; uint64(ex-(1023-128)) < 256 || ex == 0x7ff || e.v == 0 {
		return
	}
	for math.Abs(e.v) >= entryHi {
		e.v *= entryDown
		e.k++
	}
	for math.Abs(e.v) < entryLo {
		e.v *= entryUp
		e.k--
	}
}

// addSlow returns d + t·2^(256·kt) when the exponents differ.
func addSlow(d entry, t float64, kt int64) entry {
	if t == 0 {
		return d
	}
	x := entry{t, kt}
	x.norm()
	if d.v == 0 {
		return x
	}
	d.norm()
	if d.k < x.k {
		d, x = x, d
	}
	switch d.k - x.k {
	case 0:
		d.v += x.v
	case 1:
		d.v += x.v * entryDown
	}
	return d
}

// addOther adds t·2^(256·kt) to d when their exponents differ.
func addOther(d *entry, t float64, kt int64) {
	switch {
	case d.v == 0:
		d.v, d.k = t, kt
	case t != 0:
		*d = addSlow(*d, t, kt)
	}
}

// addRow adds the term of arc a from every entry of s to d: x:ε arcs
// move down a column.
func addRow(d, s []entry, a *marc) {
	s = s[:len(d)]
	w, wk := a.w, a.wk
	for j := range d {
		x := &s[j]
		kt, t := x.k+wk, w*x.v
		if d[j].k == kt {
			d[j].v += t
		} else {
			addOther(&d[j], t, kt)
		}
	}
}

// inRange reports whether e is 0 or normalised (see entry.norm): the
// test of norm, inlined where it runs once per entry.
func inRange(v float64) bool {
	return uint64((int64(math.Float64bits(v)>>52)&0x7ff)-(1023-128)) < 256 || v == 0
}

// pair is the dynamic programme (see Machine). Rows are stored state by
// state, row[q·(|y|+1) + j], so that the terms from the row above are
// whole-row loops: x:ε arcs along every column, x:y arcs at the positions
// of y holding that output. Then one sweep along the row adds the ε:y
// terms (from the cell on the left), closes each cell under ε:ε and
// normalises the entries that later terms of the sweep read; a last pass
// normalises the rest.
func (m *Machine) pair(ax, by []int32, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	nq, w := m.nq, len(by)+1
	buf := grow(&ws.ent, 2*nq*w)
	prev, cur := buf[:nq*w], buf[nq*w:]
	occOff, occPos := ws.occurrences(by, m.nB)
	poll := poller{check: lim.Check}
	for i := 0; i <= len(ax); i++ {
		clear(cur)
		if i == 0 {
			cur[int(m.start)*w].v = 1
		} else {
			a := ax[i-1]
			for k := m.aeOff[a]; k < m.aeOff[a+1]; k++ {
				arc := &m.ae[k]
				d, s := int(arc.dst)*w, int(arc.src)*w
				addRow(cur[d:d+w], prev[s:s+w], arc)
			}
			for k := m.abOff[a]; k < m.abOff[a+1]; k++ {
				arc, b := &m.ab[k], m.abOut[k]
				d, s := cur[int(arc.dst)*w:][:w], prev[int(arc.src)*w:][:w]
				w, wk := arc.w, arc.wk
				for _, j := range occPos[occOff[b]:occOff[b+1]] {
					x := &s[j-1]
					kt, t := x.k+wk, w*x.v
					if d[j].k == kt { // add, written out
						d[j].v += t
					} else {
						addOther(&d[j], t, kt)
					}
				}
			}
		}
		if m.byState != nil {
			m.sweepStates(cur, by, w, occOff, occPos) // normalises every entry
		} else {
			m.sweep(cur, by, w)
			for k := range cur {
				if !inRange(cur[k].v) {
					cur[k].norm()
				}
			}
		}
		if err := poll.add(nq * w); err != nil {
			return xfloat.F{}, err
		}
		prev, cur = cur, prev
	}
	var sum xfloat.F
	for q, f := range m.final {
		if e := prev[q*w+w-1]; !f.IsZero() && e.v != 0 {
			sum = xfloat.Add(sum, xfloat.Mul(f, xfloat.Make(e.v, 256*e.k)))
		}
	}
	return sum, nil
}

// sweepStates adds the ε:y and ε:ε terms along a row state by state (see
// stateSweep). A state's row is normalised before later states read it.
func (m *Machine) sweepStates(row []entry, by []int32, w int, occOff, occPos []int32) {
	for p := range m.byState {
		st := &m.byState[p]
		d := row[int(st.q)*w:][:w]
		for k := range st.ebIn {
			arc, b := &st.ebIn[k], st.ebInLab[k]
			s := row[int(arc.src)*w:][:w]
			wt, wk := arc.w, arc.wk
			for _, j := range occPos[occOff[b]:occOff[b+1]] {
				x := &s[j-1]
				kt, t := x.k+wk, wt*x.v
				if d[j].k == kt {
					d[j].v += t
				} else {
					addOther(&d[j], t, kt)
				}
			}
		}
		for k := range st.eeIn {
			arc := &st.eeIn[k]
			addRow(d, row[int(arc.src)*w:][:w], arc)
		}
		if !inRange(d[0].v) {
			d[0].norm()
		}
		if !st.hasLoops {
			for j := 1; j < w; j++ {
				if !inRange(d[j].v) {
					d[j].norm()
				}
			}
			continue
		}
		// The recurrence carries entry j−1 in registers.
		loop, loopK := st.loop, st.loopK
		x := d[0]
		for j := 1; j < w; j++ {
			b, e := by[j-1], d[j]
			if wl := loop[b]; wl != 0 {
				kt, t := x.k+loopK[b], wl*x.v
				if e.k == kt {
					e.v += t
				} else {
					addOther(&e, t, kt)
				}
			}
			if !inRange(e.v) {
				e.norm()
			}
			d[j], x = e, e
		}
	}
}

// sweep adds the ε:y and ε:ε terms along a row. An entry is normalised
// when a term reads it (it is complete by then); the check is cheap, and
// reading fields one by one lets the processor forward them from the
// stores of the previous column (a 16-byte copy of an entry stored field
// by field would not be).
func (m *Machine) sweep(row []entry, by []int32, w int) {
	if len(m.eb) == 0 && len(m.ee) == 0 {
		return
	}
	for j := 0; j < w; j++ {
		if j > 0 {
			b := by[j-1]
			for k := m.ebOff[b]; k < m.ebOff[b+1]; k++ {
				arc := &m.eb[k]
				d, x := &row[int(arc.dst)*w+j], &row[int(arc.src)*w+j-1]
				if !inRange(x.v) {
					x.norm()
				}
				kt, t := x.k+arc.wk, arc.w*x.v
				if d.k == kt {
					d.v += t
				} else {
					addOther(d, t, kt)
				}
			}
		}
		for g, q := range m.eeSrc {
			x := &row[int(q)*w+j]
			if !inRange(x.v) {
				x.norm()
			}
			for k := m.eeOff[g]; k < m.eeOff[g+1]; k++ {
				arc := &m.ee[k]
				d := &row[int(arc.dst)*w+j]
				kt, t := x.k+arc.wk, arc.w*x.v
				if d.k == kt {
					d.v += t
				} else {
					addOther(d, t, kt)
				}
			}
		}
	}
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
	ent     []entry
	ax, by  []int32
	la, lb  []Label
	occOff  []int32
	occPos  []int32
	occNext []int32
	gappy   gappyBufs
}
