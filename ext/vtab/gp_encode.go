package vtab

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/gp"
)

// A gp fit's stored form: the part "gp" (the answers for the stored rows,
// the coefficients, the normalisation and the likelihood) and the
// Cholesky factor that new objects need, its upper triangle row by row
// as little-endian float64s, in parts "gp_factor_0000", ... of at most
// gpFactorPart bytes each (a BLOB has a limit, 1e9 bytes by default).

// gpFactorPart is the largest factor part, in bytes.
var gpFactorPart = 1 << 28

type gpWire struct {
	Alpha, Pred, Std, CV []float64
	YMean, YScale, LML   float64
	FactorParts          int
}

func (r *gpFit) encode() ([]fitPart, error) {
	m := r.model
	w := gpWire{Alpha: m.Alpha, Pred: r.pred, Std: r.std, CV: r.cv, YMean: m.YMean, YScale: m.YScale, LML: m.LML}
	packed := packUpper(m.U, m.N)
	var parts []fitPart
	for lo := 0; lo < len(packed); lo += gpFactorPart {
		parts = append(parts, fitPart{name: gpFactorName(len(parts)), data: packed[lo:min(len(packed), lo+gpFactorPart)]})
	}
	w.FactorParts = len(parts)
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(w)
	return append(parts, fitPart{name: "gp", data: buf.Bytes()}), err
}

func gpFactorName(i int) string { return fmt.Sprintf("gp_factor_%04d", i) }

// packUpper is the upper triangle of the n×n row-major U, row by row.
func packUpper(U []float64, n int) []byte {
	out := make([]byte, 0, 8*n*(n+1)/2)
	for i := 0; i < n; i++ {
		out = appendFloats(out, U[i*n+i:(i+1)*n])
	}
	return out
}

func decodeGP(mod model, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("gp")
	if err != nil {
		return nil, err
	}
	var w gpWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, err
	}
	y, err := numericLabels(f)
	n := len(f.objs())
	folds := mod.(*gpModel).folds > 0 // a fit with folds= answers cv_prediction: its CV must be there
	if err != nil || len(w.Alpha) != n || len(w.Pred) != n || len(w.Std) != n || (w.CV != nil) != folds || (folds && len(w.CV) != n) {
		return nil, errors.New("the stored gp fit does not match its source")
	}
	if err := checkFiniteWire(&w); err != nil {
		return nil, err
	}
	U, err := gpFactor(s, w.FactorParts, n)
	if err != nil {
		return nil, err
	}
	m := mod.(*gpModel)
	if err := checkFiniteFactor(U, n); err != nil {
		return nil, err
	}
	g := &gp.Model{N: n, Noise: m.noise, U: U, Alpha: w.Alpha, YMean: w.YMean, YScale: w.YScale, LML: w.LML}
	return &gpFit{model: g, labels: y, pred: w.Pred, std: w.Std, cv: w.CV, normalize: m.normalize, basis: f.objs()}, nil
}

// gpFactor reads the stored factor back into an n×n row-major matrix.
func gpFactor(s *storedFit, parts, n int) ([]float64, error) {
	var packed []byte
	for i := 0; i < parts; i++ {
		p, err := s.part(gpFactorName(i))
		if err != nil {
			return nil, err
		}
		packed = append(packed, p...)
	}
	if len(packed) != 8*n*(n+1)/2 {
		return nil, errors.New("the stored gp factor does not match its source")
	}
	U := make([]float64, n*n)
	for i := 0; i < n; i++ {
		row := U[i*n+i : (i+1)*n]
		readFloats(row[:0], packed[:8*len(row)])
		packed = packed[8*len(row):]
	}
	return U, nil
}

// checkFiniteFactor refuses a factor with an entry that is not finite or
// a diagonal that is not positive, which no fit writes: its answers for
// new objects would be NaN.
func checkFiniteFactor(U []float64, n int) error {
	for i := 0; i < n; i++ {
		if d := U[i*n+i]; !(d > 0) {
			return errors.New("the stored gp factor has a diagonal that is not a positive number")
		}
		if !allFinite(U[i*n+i : (i+1)*n]) {
			return errors.New("the stored gp factor has a value that is not finite")
		}
	}
	return nil
}

// checkFiniteWire refuses stored coefficients or answers that are not
// finite, which no fit writes (it refuses such fits).
func checkFiniteWire(w *gpWire) error {
	if !allFinite(w.Alpha, w.Pred, w.Std, w.CV, []float64{w.YMean, w.YScale}) || !(w.YScale > 0) {
		return errors.New("the stored gp fit has a value that is not finite")
	}
	return nil
}

func allFinite(vss ...[]float64) bool {
	for _, vs := range vss {
		for _, v := range vs {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return false
			}
		}
	}
	return true
}

var _ fitEncoder = (*gpFit)(nil)
