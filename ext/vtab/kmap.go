package vtab

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
)

// mapKind is kernel_map(id, vector, input HIDDEN): the exact explicit
// feature map of Ghiasi-Shirazi & Qaraei over a source, as float32 BLOBs.
var mapKind = modelKind{
	name:      "kernel_map",
	keys:      []string{"tol"},
	configure: configureMap,
	decode:    decodeMap,
}

// mapModel is a kernel_map table's arguments.
type mapModel struct{ relTol float64 }

// mapFit is the fitted map and the objects a new object is compared with.
type mapFit struct {
	m     *kpca.Map
	basis []kernels.Object
}

func configureMap(opts options) (model, error) {
	tol, err := opts.real("tol", 0, func(f float64) bool { return f > 0 && f < 1 },
		"a number between 0 and 1 (exclusive), the factorisation tolerance relative to the largest k(x, x)")
	return &mapModel{relTol: tol}, err
}

func (m *mapModel) columns() []string { return []string{"vector BLOB"} }

func (m *mapModel) fit(f *fitting) (fitted, error) {
	K, err := f.gram(mapTooBig)
	if err != nil {
		return nil, err
	}
	fm, err := K.FitMap(kpca.MapOptions{RelTol: m.relTol, Interrupt: f.err})
	if err != nil {
		return nil, f.fitError(err)
	}
	var v []float64
	for o := range f.objs() {
		v = fm.Stored(o, v)
		if err := float32Range(v); err != nil {
			return nil, fitFailure{fmt.Errorf("the vector of row id=%s: %v", idText(f.snap.id(f.snap.rowOf(o))), err)}
		}
	}
	return &mapFit{m: fm, basis: f.objs()}, nil
}

// float32Range refuses a vector that a float32 BLOB cannot hold: its
// coordinates past ±3.4e38 would be returned as ±Inf.
func float32Range(v []float64) error {
	for i, x := range v {
		if math.IsInf(float64(float32(x)), 0) {
			return fmt.Errorf("coordinate %d is %g, past the float32 range (±3.4e38) of the vectors kernel_map returns; %s",
				i+1, x, finiteHint)
		}
	}
	return nil
}

func (f *mapFit) stored(o int, dst []any) {
	dst[0] = host.Float32Blob(f.m.Stored(o, nil))
}

func (f *mapFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(f.basis)
	if err != nil {
		return err
	}
	v, err := f.m.Apply(kz, nil)
	if err == nil {
		err = float32Range(v)
	}
	if err != nil {
		return fmt.Errorf("input: %v", err)
	}
	dst[0] = host.Float32Blob(v)
	return nil
}

// tooMany is the max_gram_bytes error of a map of n objects (boundedModel).
func (m *mapModel) tooMany(n int, max int64) error {
	if need := kpca.ExactBytes(n); need > max {
		return mapTooBig(n, need, max)
	}
	return nil
}

func mapTooBig(n int, need, max int64) error {
	return fmt.Errorf("the exact map of %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
		"%s", n, n, n, sizeText(need), max, gramFix(need, "approximate: kpca(..., method=nystrom) or rff_embed(...)"))
}
