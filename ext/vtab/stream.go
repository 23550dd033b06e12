package vtab

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
	"github.com/ksql/ksql/internal/nystrom"
	"github.com/ksql/ksql/internal/par"
)

// Streaming fits. A Nyström fit on a million rows needs the objects only
// block by block, a few times over (the landmarks, the sums, the
// projections), so a lean read (source.lean) keeps each row's id and extra
// columns and the fit reads the objects again in passes: SQLite steps the
// rows on the statement's goroutine, blocks of them are decoded and
// compared with the landmarks on every core (par.Ordered), and their
// results are merged in the order they were read, so the fit is the same
// bits whatever the number of cores. Each pass hashes what it reads as the
// first read did; a pass that read other content (another connection
// wrote the source in between) fails with errSourceChanged, and the table
// reads and fits once more.

// streamRows is how many objects a block of a pass holds.
const streamRows = 1024

// errSourceChanged is a pass that read other content than the snapshot.
var errSourceChanged = errors.New("the source changed while the fit was reading it: its rows differed between two of the passes a method=nystrom fit makes over it, twice (another connection writing it, or a query= that is not deterministic, such as random())")

// passBlock is one block of a pass: objects as read, then decoded.
type passBlock struct {
	idx   []int // the objects' indices in the snapshot
	vals  []any // their object values as read (featureRows with columns=)
	feats []float64
	objs  []kernels.Object
	C     []float64 // scratch for the fit: kernel values against its basis
	aux   any       // the fit's own per-block scratch
	flat  []any     // keepFeatures' scratch
	cross kernels.CrossWork
	// A block read from borrowed rows (passReader.rowFrom) keeps its TEXT
	// and BLOB objects' bytes in arena, object i's ending at ends[i]
	// (vals[i] nil until decode), and its columns= rows in frows; kinds
	// and frows are empty otherwise.
	kinds []host.Kind
	arena []byte
	ends  []int
	frows []featureRow
}

// pass hands the objects for which want(o) holds (nil: all) to work on
// workers, in blocks of streamRows, then to merge on this goroutine in
// the order they come; newAux makes a block's scratch (nil: none). A
// lean snapshot's objects are read from the source again and decoded on
// the workers, and the pass fails with errSourceChanged when the rows
// read are not the snapshot's; a snapshot that holds its objects hands
// them out from memory, the same blocks in the same order.
func (f *fitting) pass(want func(o int) bool, newAux func() any, work func(w int, b *passBlock) error, merge func(b *passBlock) error) error {
	alloc := func() *passBlock {
		b := &passBlock{}
		if newAux != nil {
			b.aux = newAux()
		}
		return b
	}
	if !f.snap.lean {
		return f.memoryPass(want, alloc, work, merge)
	}
	s, c, snap := f.src, f.hc, f.snap
	if err := s.resolve(c); err != nil {
		return err
	}
	decodeWork := func(w int, b *passBlock) error {
		if err := f.decode(b); err != nil {
			return err
		}
		return work(w, b)
	}
	o := par.NewOrdered("vtab.pass", 0, alloc, decodeWork, merge)
	defer o.Close() // a panic below must not leave the workers waiting (Close is idempotent)
	r := &passReader{f: f, o: o, h: s.newRowHash(), want: want, marks: snap.landmarkCheck()}
	checked := false
	defer func() {
		if !checked { // stopped early: landmarks read by id stay unproven
			snap.landmarksChecked(r.marks, false)
		}
	}()
	defer r.h.finish()
	// The lean snapshot's read borrowed its rows; so does every pass, for
	// the hash to see the values the read saw.
	err := c.QueryBorrowed(s.sql, r.rowFrom)
	if err == nil {
		r.submit()
	}
	// The pipeline's error (the fit's own work) comes first: the
	// statement stopped with it too.
	if perr := o.Close(); perr != nil {
		err = perr
	} else if err != nil && !errors.Is(err, host.ErrInterrupted) && c.Err() == nil {
		err = s.readError(c, err)
	}
	if err != nil && (errors.Is(err, host.ErrInterrupted) || c.Err() != nil) {
		return host.ErrInterrupted
	}
	if err != nil {
		return err
	}
	sum, err := r.h.sum(c, s.spec)
	if err == nil && (sum != snap.hash || r.obj != snap.nobj()) {
		err = errSourceChanged
	}
	checked = true
	if !snap.landmarksChecked(r.marks, err == nil) && err == nil {
		err = errSourceChanged
	}
	return err
}

// passReader gathers the rows a lean pass steps through into blocks of
// objects for its pipeline, hashing every row as the snapshot's read did.
type passReader struct {
	f         *fitting
	o         *par.Ordered[*passBlock]
	h         *rowHash
	want      func(o int) bool
	b         *passBlock    // the block being filled, nil between blocks
	obj, rows int           // objects and rows seen
	marks     *landmarkRead // landmarks read by id, to be found here (nil: none)
}

// rowFrom takes one row of a pass: hashed; its object, if wanted, added
// to the block being filled. An object column's TEXT or BLOB bytes are
// copied into the block's arena and decoded on a worker; columns= values
// are read as numbers here (featureRow), as the snapshot's read took them.
func (r *passReader) rowFrom(row host.Row) error {
	s := r.f.src
	if r.rows++; r.rows%1024 == 0 {
		if err := r.f.hc.Err(); err != nil {
			return err
		}
	}
	r.h.rowFrom(row, s.rowWidth())
	if !s.rowHasObject(row) {
		return nil
	}
	if r.obj++; r.marks != nil && r.marks.at(r.obj-1) {
		v := make([]any, 1+s.objectWidth())
		for i := 1; i < len(v); i++ {
			v[i] = row.Value(i)
		}
		r.marks.see(r.obj-1, v)
	}
	if r.want != nil && !r.want(r.obj-1) {
		return nil
	}
	b, err := r.block()
	if err != nil {
		return err
	}
	b.idx = append(b.idx, r.obj-1)
	switch k := row.Kind(1); {
	case s.features != nil:
		b.frows = append(b.frows, s.rowFeatures(row, &b.feats))
	case k == host.Text || k == host.Blob:
		b.kinds, b.vals = append(b.kinds, k), append(b.vals, nil)
		b.arena = append(b.arena, row.Bytes(1)...)
		b.ends = append(b.ends, len(b.arena))
	default:
		b.kinds, b.vals = append(b.kinds, k), append(b.vals, row.Value(1))
		b.ends = append(b.ends, len(b.arena))
	}
	if len(b.idx) == streamRows {
		r.submit()
	}
	return nil
}

// block is the block being filled, a new one when none is.
func (r *passReader) block() (*passBlock, error) {
	if r.b == nil {
		b, err := r.o.Next()
		if err != nil {
			return nil, err
		}
		b.idx, b.vals, b.feats, b.frows = b.idx[:0], b.vals[:0], b.feats[:0], b.frows[:0]
		b.kinds, b.arena, b.ends = b.kinds[:0], b.arena[:0], b.ends[:0]
		r.b = b
	}
	return r.b, nil
}

// submit hands the block being filled to the pipeline.
func (r *passReader) submit() {
	if r.b != nil && len(r.b.idx) > 0 {
		r.o.Submit(r.b)
	}
	r.b = nil
}

// memoryPass is pass over a snapshot's objects in memory.
func (f *fitting) memoryPass(want func(o int) bool, alloc func() *passBlock, work func(w int, b *passBlock) error, merge func(b *passBlock) error) error {
	o := par.NewOrdered("vtab.pass", 0, alloc, work, merge)
	defer o.Close()
	var b *passBlock
	for i, obj := range f.snap.objs {
		if want != nil && !want(i) {
			continue
		}
		if b == nil {
			var err error
			if b, err = o.Next(); err != nil {
				break
			}
			b.idx, b.objs = b.idx[:0], b.objs[:0]
		}
		b.idx, b.objs = append(b.idx, i), append(b.objs, obj)
		if len(b.idx) == streamRows {
			o.Submit(b)
			b = nil
		}
		if i%4096 == 4095 && f.err() != nil {
			break
		}
	}
	if b != nil && len(b.idx) > 0 {
		o.Submit(b)
	}
	err := o.Close()
	if ierr := f.err(); ierr != nil {
		return ierr
	}
	return err
}

// decode decodes a block's objects, checking that vectors have the
// landmarks' length (f.dim, once known).
func (f *fitting) decode(b *passBlock) error {
	s, snap := f.src, f.snap
	b.objs = slices.Grow(b.objs[:0], len(b.idx))[:len(b.idx)]
	for i := range b.idx {
		id := snap.id(snap.rowOf(b.idx[i]))
		o, err := b.decodeObject(s, i)
		if err != nil {
			return fmt.Errorf("row id %s: %v", idText(id), err)
		}
		if f.dim != nil && s.spec.Domain() == kernels.VectorDomain {
			if d := o.Vec.Len(); d != f.dim.len {
				return vecLengthError(id, d, snap.id(snap.rowOf(f.dim.obj)), f.dim.len)
			}
		}
		b.objs[i] = o
	}
	return nil
}

// decodeObject decodes object i of b, as read by a pass or by landmarksByID.
func (b *passBlock) decodeObject(s *source, i int) (kernels.Object, error) {
	switch {
	case len(b.frows) > 0:
		return s.featureObject(b.frows[i], b.feats)
	case len(b.kinds) > 0 && b.vals[i] == nil:
		return s.rowObject(b.object(i), b.feats)
	}
	return s.rowObject(b.vals[i], b.feats)
}

// object is object i of a block read from borrowed rows: a BLOB is a view
// of the arena, which the block keeps until it is merged (a float32 vector
// decodes to a view of it); TEXT is copied, since a string may be kept.
func (b *passBlock) object(i int) any {
	lo := 0
	if i > 0 {
		lo = b.ends[i-1]
	}
	x := b.arena[lo:b.ends[i]:b.ends[i]]
	if b.kinds[i] == host.Text {
		return string(x)
	}
	return x
}

// crossBlock sets b.C to the kernel values of b's objects against basis
// (len(b.objs)×len(basis)), on the calling worker; cols[l] is the object
// index of basis[l], to name rows in errors.
func (f *fitting) crossBlock(b *passBlock, basis *kernels.Basis, cols []int, opt kernels.GramOptions) error {
	m := len(cols)
	b.C = slices.Grow(b.C[:0], len(b.objs)*m)[:len(b.objs)*m]
	opt.Workers = 1
	err := f.src.spec.CrossBasis(b.objs, basis, b.C, opt, &b.cross)
	if pe, ok := asPair(err); ok {
		return f.objError(b.idx[pe.Row], cols[pe.Col], pe.Err)
	}
	return err
}

// leanModel is a model that may fit on a lean snapshot (source.lean),
// reading its objects in passes.
type leanModel interface {
	lean() bool
}

// streamKernel runs a pass over every object, handing each block's kernel
// values against basis to each(lo, rows, C) on a worker (lo: the block's
// first object) and then to merge (nil: none) in order. blockErr gives
// the fit's errors within a block their object's index.
func (f *fitting) streamKernel(basis []kernels.Object, marks []int, newAux func() any,
	each func(b *passBlock, lo, rows int) error, merge func(b *passBlock) error, blockErr func(error, int) error) error {
	opt, err := gramOptions(f.hc, f.src.spec)
	if err != nil {
		return err
	}
	if merge == nil {
		merge = func(*passBlock) error { return nil }
	}
	prepared := f.src.spec.NewBasis(basis)
	err = f.pass(nil, newAux, func(_ int, b *passBlock) error {
		if err := f.crossBlock(b, prepared, marks, opt); err != nil {
			return err
		}
		return blockErr(each(b, b.idx[0], len(b.idx)), b.idx[0])
	}, merge)
	var nf *kpca.NonFiniteError
	if errors.As(err, &nf) && nf.Col < 0 && nf.Landmark >= 0 {
		nf.Col = marks[nf.Landmark]
	}
	return err
}

// streamSums adds into total the nystrom sums of every object's kernel
// values against basis (with targets y by object index, nil: none),
// block by block in the order read; newSums makes a block's sums.
func (f *fitting) streamSums(basis []kernels.Object, marks []int, total *nystrom.Sums, newSums func() *nystrom.Sums,
	y []float64, blockErr func(error, int) error) error {
	return f.streamKernel(basis, marks, func() any { return newSums() }, func(b *passBlock, lo, rows int) error {
		var ys []float64
		if y != nil {
			ys = y[lo : lo+rows]
		}
		return b.aux.(*nystrom.Sums).Block(b.C, rows, ys, f.err)
	}, func(b *passBlock) error {
		total.Add(b.aux.(*nystrom.Sums))
		return nil
	}, blockErr)
}
