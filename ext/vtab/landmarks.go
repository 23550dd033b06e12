package vtab

import (
	"slices"

	"github.com/ksql/ksql/internal/kernels"
)

// The landmarks of a Nyström fit: their objects, read from the snapshot
// or, in a lean one, by a pass of their own, and their kernel block.

// vecDim is the vector length of object obj, which every other must have.
type vecDim struct{ obj, len int }

// landmarkObjects returns the objects with the given ascending indices:
// from the snapshot, or, in a lean one, by a pass that decodes only them.
// The snapshot keeps the last landmarks asked for: a fit's predictions of
// new objects ask for them again, and a restored fit asks first there.
func (f *fitting) landmarkObjects(marks []int) ([]kernels.Object, error) {
	snap := f.snap
	snap.landMu.Lock()
	defer snap.landMu.Unlock()
	if snap.landBasis != nil && slices.Equal(snap.landMarks, marks) {
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
	return basis, nil
}

// detach returns an object that shares no memory with the block it was
// decoded in, which is reused: columns= vectors live in the block's feats.
func (f *fitting) detach(o kernels.Object) kernels.Object {
	if f.src.features == nil || o.Vec.F64 == nil {
		return o
	}
	return f.src.spec.PrepareVec(kernels.Vec{F64: slices.Clone(o.Vec.F64)})
}

// landmarkSet returns the landmarks' objects (landmarkObjects) and their
// kernel block W = K[L, L] (m×m).
func (f *fitting) landmarkSet(marks []int) ([]kernels.Object, []float64, error) {
	basis, err := f.landmarkObjects(marks)
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
