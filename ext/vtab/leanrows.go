package vtab

import (
	"fmt"

	"github.com/ksql/ksql/ext/host"
)

// leanRows is a lean read's rows kept column by column as they come (a
// row of a million kept whole, then copied, was most of the read's time):
// the ids, as INTEGERs while every one is one and they ascend, whether
// each row has an object, and the extra columns.
type leanRows struct {
	ints  pile[int64] // the ids, while intIDs can hold them
	ids   []any       // the ids, from the first that ints cannot hold
	n     int         // rows kept
	nobj  int         // objects among them
	obj   *pile[int]  // nil until the first NULL object (snapshot.objOf)
	rows  pile[int]
	extra []leanColumn
	err   error // the first NULL id
}

// leanColumn is an extra column as a lean read keeps it: float64s while
// every value so far is a REAL (a million labels boxed one by one were a
// third of the read's time), else every value as read.
type leanColumn struct {
	reals pile[float64]
	vals  []any
	boxed bool // vals holds the column
}

func (c *leanColumn) add(v any) {
	if x, ok := v.(float64); ok && !c.boxed {
		c.reals.add(x)
		return
	}
	if !c.boxed {
		reals := c.reals.slice()
		c.vals, c.boxed = make([]any, len(reals), max(2*len(reals), 16)), true
		for i, x := range reals {
			c.vals[i] = x
		}
	}
	c.vals = append(c.vals, v)
}

// addFrom adds value i of a borrowed row, unboxed where it can.
func (c *leanColumn) addFrom(row host.Row, i int) {
	if !c.boxed && row.Kind(i) == host.Float {
		c.reals.add(row.Float(i))
		return
	}
	c.add(row.Value(i))
}

// add keeps one row as read (id, object columns, extra...).
func (l *leanRows) add(s *source, v []any) error {
	id := v[0]
	if _, ok := keyOf(id); !ok {
		if l.err == nil { // reported after the read, as any read's
			l.err = fmt.Errorf("the source has a row whose id is NULL%s; ids must be unique and not NULL", s.objExcerpt(v[1]))
		}
		return nil
	}
	if x, ok := id.(int64); ok && l.ids == nil && (l.n == 0 || x > l.ints.last()) {
		l.ints.add(x)
	} else {
		if l.ids == nil {
			ints := l.ints.slice()
			l.ids = make([]any, l.n, max(2*l.n, 16))
			for i, x := range ints {
				l.ids[i] = x
			}
		}
		l.ids = append(l.ids, id)
	}
	l.place(s.hasObject(v))
	l.extras(len(s.extra))
	for i, x := range v[1+s.objectWidth():] {
		l.extra[i].add(x)
	}
	return nil
}

// addRow is add for a borrowed row (s.rowWidth() values), which costs no
// allocation while the ids are ascending INTEGERs.
func (l *leanRows) addRow(s *source, row host.Row) error {
	width := s.rowWidth()
	if l.ids != nil || row.Kind(0) != host.Integer || (l.n > 0 && row.Int(0) <= l.ints.last()) {
		v := make([]any, width)
		for i := range v {
			v[i] = row.Value(i)
		}
		return l.add(s, v)
	}
	l.ints.add(row.Int(0))
	l.place(s.rowHasObject(row))
	first := 1 + s.objectWidth()
	l.extras(width - first)
	for i := first; i < width; i++ {
		l.extra[i-first].addFrom(row, i)
	}
	return nil
}

// place counts a row whose id is kept, with an object or not.
func (l *leanRows) place(hasObject bool) {
	r := l.n
	l.n++
	o := -1
	if hasObject {
		o = l.nobj
		l.nobj++
	}
	if o != r && l.obj == nil { // the first NULL object: the maps are no longer the identity
		l.obj = &pile[int]{}
		for i := range r {
			l.obj.add(i)
			l.rows.add(i)
		}
	}
	if l.obj != nil {
		l.obj.add(o)
		if o >= 0 {
			l.rows.add(r)
		}
	}
}

// extras makes the extra columns' slices on the first row.
func (l *leanRows) extras(n int) {
	if l.extra == nil {
		l.extra = make([]leanColumn, n)
	}
}

// snapshot is the lean snapshot of the rows kept, its ids checked;
// extras is the number of extra columns.
func (l *leanRows) snapshot(extras int) (*snapshot, error) {
	if l.err != nil {
		return nil, l.err
	}
	snap := &snapshot{ids: l.ids, extra: make([][]any, extras), reals: make([][]float64, extras), lean: true}
	if l.obj != nil {
		snap.obj, snap.rows = l.obj.slice(), l.rows.slice()
		if snap.rows == nil { // every object NULL: no objects, not the identity (rowOf)
			snap.rows = []int{}
		}
	}
	if l.ids == nil {
		snap.intIDs = l.ints.slice()
		if snap.intIDs == nil {
			snap.intIDs = []int64{}
		}
	}
	for i := range l.extra {
		if c := &l.extra[i]; c.boxed {
			snap.extra[i] = c.vals
		} else {
			snap.reals[i] = c.reals.slice()
		}
	}
	if err := snap.checkUnique(); err != nil {
		return nil, err
	}
	return snap, nil
}

// pile is a slice built by appending, in blocks joined once at the end: a
// million ids appended to one slice were copied about five times over as
// it grew, an eighth of a lean read's time.
type pile[T any] struct {
	full [][]T // the filled blocks, in order
	cur  []T   // the block being filled
	n    int
}

// pileBlock is the most values a block holds; the first holds 256 and
// each next one twice its predecessor, so a small read stays small.
const pileBlock = 1 << 16

func (p *pile[T]) add(x T) {
	if len(p.cur) == cap(p.cur) {
		if p.cur != nil {
			p.full = append(p.full, p.cur)
		}
		p.cur = make([]T, 0, min(max(2*cap(p.cur), 256), pileBlock))
	}
	p.cur = append(p.cur, x)
	p.n++
}

// last is the value added last; the pile must not be empty.
func (p *pile[T]) last() T { return p.cur[len(p.cur)-1] }

// slice is the values in the order added (nil when there are none); the
// pile is empty after it.
func (p *pile[T]) slice() []T {
	out := p.cur
	if len(p.full) > 0 {
		out = make([]T, 0, p.n)
		for _, b := range p.full {
			out = append(out, b...)
		}
		out = append(out, p.cur...)
	}
	*p = pile[T]{}
	return out
}
