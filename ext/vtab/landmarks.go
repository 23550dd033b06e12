package vtab

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// The landmarks of a Nyström fit: their objects, read from the snapshot
// or, in a lean one, by their ids or a pass of their own, and their kernel
// block.

// vecDim is the vector length of object obj, which every other must have.
type vecDim struct{ obj, len int }

// landmarkObjects returns the objects with the given ascending indices:
// from the snapshot or, in a lean one, by a pass that decodes only them.
// The snapshot keeps the last landmarks asked for: a fit's predictions of
// new objects ask for them again, and a restored fit asks first there.
func (f *fitting) landmarkObjects(marks []int) ([]kernels.Object, error) {
	return f.landmarks(marks, false)
}

// landmarks is landmarkObjects; byID lets a lean snapshot's landmarks be
// looked up by id (landmarksByID), for a fit whose passes follow at once
// and prove them. Until one has, they serve no one else.
func (f *fitting) landmarks(marks []int, byID bool) ([]kernels.Object, error) {
	snap := f.snap
	snap.landMu.Lock()
	defer snap.landMu.Unlock()
	if snap.landBasis != nil && slices.Equal(snap.landMarks, marks) && (byID || snap.landRead.Load() == nil) {
		f.dim = snap.landDim
		return snap.landBasis, nil
	}
	if !snap.lean {
		basis := make([]kernels.Object, len(marks))
		for l, i := range marks {
			basis[l] = snap.objs[i]
		}
		snap.landMarks, snap.landBasis, snap.landDim = slices.Clone(marks), basis, nil
		return basis, nil
	}
	snap.landRead.Store(nil) // a check of landmarks no longer kept
	var basis []kernels.Object
	var read *landmarkRead
	var err error
	if byID {
		if basis, read, err = f.landmarksByID(marks); err != nil {
			return nil, err
		}
	}
	if basis == nil {
		if basis, err = f.landmarkPass(marks); err != nil {
			return nil, err
		}
	}
	if f.src.spec.Domain() == kernels.VectorDomain && len(basis) > 0 {
		d := vecDim{obj: marks[0], len: basis[0].Vec.Len()}
		for l, o := range basis {
			if o.Vec.Len() != d.len {
				return nil, vecLengthError(snap.id(snap.rowOf(marks[l])), o.Vec.Len(), snap.id(snap.rowOf(d.obj)), d.len)
			}
		}
		f.dim = &d
	}
	snap.landMarks, snap.landBasis, snap.landDim = slices.Clone(marks), basis, f.dim
	snap.landRead.Store(read)
	return basis, nil
}

// landmarkPass reads the landmarks' objects by a pass over the source.
func (f *fitting) landmarkPass(marks []int) ([]kernels.Object, error) {
	basis := make([]kernels.Object, 0, len(marks))
	next := 0
	want := func(o int) bool {
		for next < len(marks) && marks[next] < o {
			next++
		}
		return next < len(marks) && marks[next] == o
	}
	err := f.pass(want, nil, func(int, *passBlock) error { return nil }, func(b *passBlock) error {
		for _, o := range b.objs {
			basis = append(basis, f.detach(o))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(basis) != len(marks) {
		return nil, errSourceChanged
	}
	return basis, nil
}

// landmarksByID reads the landmarks' rows by their ids in one statement
// (WHERE id IN (...): point lookups where the id is indexed, one scan
// without the copying of a pass where it is not) instead of a pass over
// every row. It answers nil where the ids are not all INTEGERs or the
// rows it finds are not the landmarks' (the caller reads them in a pass
// then). What it read is the snapshot's only if the next pass finds the
// same values at those rows (landmarkCheck), which that pass proves.
func (f *fitting) landmarksByID(marks []int) ([]kernels.Object, *landmarkRead, error) {
	s, snap := f.src, f.snap
	if snap.intIDs == nil || len(marks) == 0 || !strings.HasSuffix(s.sql, orderByFirst) {
		return nil, nil, nil
	}
	if err := s.resolve(f.hc); err != nil {
		return nil, nil, err
	}
	first := "id" // the CTE's first column
	if s.query == "" {
		first = s.id.sql()
	}
	var q strings.Builder
	q.WriteString(strings.TrimSuffix(s.sql, orderByFirst))
	q.WriteString(" WHERE " + first + " IN (")
	for l, o := range marks {
		if l > 0 {
			q.WriteByte(',')
		}
		q.WriteString(strconv.FormatInt(snap.intIDs[snap.rowOf(o)], 10))
	}
	q.WriteString(")" + orderByFirst)
	read := &landmarkRead{marks: marks}
	b := &passBlock{}
	width := s.objectWidth()
	mismatch := false
	err := f.hc.Query(q.String(), nil, func(v []any) error {
		l := len(b.idx)
		if mismatch || l == len(marks) || v[0] != any(snap.intIDs[snap.rowOf(marks[l])]) || !s.hasObject(v) {
			mismatch = true
			return nil
		}
		b.idx = append(b.idx, marks[l])
		if s.features != nil {
			b.flat = s.keepFeatures(b.flat[:0], v, &b.feats)
			b.vals = append(b.vals, b.flat[1])
		} else {
			b.vals = append(b.vals, v[1])
		}
		read.vals = append(read.vals, slices.Clone(v[1:1+width]))
		return nil
	})
	if err != nil {
		if errors.Is(err, host.ErrInterrupted) || f.hc.Err() != nil {
			return nil, nil, host.ErrInterrupted
		}
		return nil, nil, s.readError(f.hc, err)
	}
	if mismatch || len(b.idx) != len(marks) {
		return nil, nil, nil
	}
	if err := f.decode(b); err != nil {
		return nil, nil, err
	}
	basis := make([]kernels.Object, len(marks))
	for l, o := range b.objs {
		basis[l] = f.detach(o)
	}
	return basis, read, nil
}

// orderByFirst ends every source statement (source.sql).
const orderByFirst = " ORDER BY 1"

// landmarkRead is what landmarksByID read: the object columns of each
// landmark, in the order of marks, until a pass has checked them.
type landmarkRead struct {
	marks []int
	vals  [][]any
	next  int  // the next landmark a pass should meet
	bad   bool // a landmark's row differed
}

// at is whether object o is the next landmark to meet.
func (r *landmarkRead) at(o int) bool { return r.next < len(r.marks) && r.marks[r.next] == o }

// see checks object o's columns (v, a row as read) against the landmark
// read, if o is one.
func (r *landmarkRead) see(o int, v []any) {
	if !r.at(o) {
		return
	}
	for i, x := range r.vals[r.next] {
		if !sameValue(x, v[1+i]) {
			r.bad = true
		}
	}
	r.next++
}

// ok is whether a whole pass met every landmark with the values read.
func (r *landmarkRead) ok() bool { return !r.bad && r.next == len(r.marks) }

// sameValue is whether two values as read are the same value of the same
// type, bit for bit.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return false
}

// landmarkCheck takes the landmarks read by id that no pass has checked
// yet (nil: none) off the snapshot, for the pass about to run (which may
// be landmarkPass's, under landMu).
func (snap *snapshot) landmarkCheck() *landmarkRead { return snap.landRead.Swap(nil) }

// landmarksChecked ends a pass's check: a pass that failed, or met other
// values, leaves no landmarks on the snapshot to be used again.
func (snap *snapshot) landmarksChecked(r *landmarkRead, passed bool) bool {
	if r == nil {
		return true
	}
	if passed && r.ok() {
		return true
	}
	snap.landMu.Lock()
	defer snap.landMu.Unlock()
	if snap.landRead.Load() == nil {
		snap.landMarks, snap.landBasis, snap.landDim = nil, nil, nil
	}
	return false
}

// detach returns an object that shares no memory with the block it was
// decoded in, which is reused: columns= vectors live in the block's feats,
// and a float32 BLOB vector of a borrowed row is a view of its arena.
func (f *fitting) detach(o kernels.Object) kernels.Object {
	switch {
	case o.Vec.F32 != nil:
		return f.src.spec.PrepareVec(kernels.Vec{F32: slices.Clone(o.Vec.F32)})
	case f.src.features != nil && o.Vec.F64 != nil:
		return f.src.spec.PrepareVec(kernels.Vec{F64: slices.Clone(o.Vec.F64)})
	}
	return o
}

// landmarkSet returns the landmarks' objects (landmarkObjects) and their
// kernel block W = K[L, L] (m×m).
func (f *fitting) landmarkSet(marks []int) ([]kernels.Object, []float64, error) {
	basis, err := f.landmarks(marks, true)
	if err != nil {
		return nil, nil, err
	}
	opt, err := gramOptions(f.hc, f.src.spec)
	if err != nil {
		return nil, nil, err
	}
	W := make([]float64, len(basis)*len(basis))
	if err := f.src.spec.Cross(basis, basis, W, opt); err != nil {
		if pe, ok := asPair(err); ok {
			return nil, nil, f.objError(marks[pe.Row], marks[pe.Col], pe.Err)
		}
		return nil, nil, err
	}
	return basis, W, nil
}
