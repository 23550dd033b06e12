package kpca

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"math"
)

// modelWire and mapWire are the stored forms of Model and Map: every
// field, so that a decoded value answers bit for bit as the fitted one.
type modelWire struct {
	Eigenvalues, ExplainedRatio  []float64
	Trace, MinEigenvalue         float64
	Solver                       string
	Products, N, K               int
	Landmarks                    []int
	Proj, Coef, MeanCoef, Offset []float64
	// RawProj is Proj as little-endian float64 bits: gob writes a float
	// as a reversed varint, and decoding a million rows' projections that
	// way took a quarter of a second. A model stored by an earlier ksql
	// has Proj instead.
	RawProj []byte
	// Flipped marks a model whose projections are kept outside it
	// (FinishNystromTo): no Proj, and the columns to negate.
	Flipped []bool
}

// mapWire is the pivoted Cholesky map. A map stored by an earlier ksql
// (K's eigenbasis: Eigenvalues and Coef, no Piv) does not decode: its
// table refits.
type mapWire struct {
	Dropped                int
	Tolerance, MinResidual float64
	N, R                   int
	Piv                    []int
	U                      []float64
}

// errBadEncoding is returned for stored bytes that do not decode to a
// consistent model.
var errBadEncoding = errors.New("the stored model is inconsistent")

// MarshalBinary encodes the model for storage.
func (m *Model) MarshalBinary() ([]byte, error) {
	return encode(modelWire{m.Eigenvalues, m.ExplainedRatio, m.Trace, m.MinEigenvalue, m.Solver, m.Products,
		m.n, m.k, m.landmarks, nil, m.coef, m.meanCoef, m.offset, m.ProjectionsBinary(), m.flipped})
}

// MarshalParts encodes the model as two parts: everything but the
// projections, and the projections as ProjectionsBinary writes them, so
// that a store keeps the n·k values as one BLOB that reading back copies
// once (through gob, a million rows' took a quarter of a second).
func (m *Model) MarshalParts() (rest, proj []byte, err error) {
	rest, err = encode(modelWire{m.Eigenvalues, m.ExplainedRatio, m.Trace, m.MinEigenvalue, m.Solver, m.Products,
		m.n, m.k, m.landmarks, nil, m.coef, m.meanCoef, m.offset, nil, m.flipped})
	if m.proj == nil {
		return rest, nil, err
	}
	return rest, m.ProjectionsBinary(), err
}

// ProjectionsBinary is the projections as little-endian float64 bits (nil
// for a model that does not hold them).
func (m *Model) ProjectionsBinary() []byte {
	if m.proj == nil {
		return nil
	}
	raw := make([]byte, 8*len(m.proj))
	for i, v := range m.proj {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(v))
	}
	return raw
}

// UnmarshalBinary decodes what MarshalBinary encoded, checking that the
// sizes agree, so that a damaged encoding is an error, never a panic.
func (m *Model) UnmarshalBinary(b []byte) error { return m.UnmarshalParts(b, nil) }

// UnmarshalParts decodes what MarshalParts encoded (proj nil: the
// projections are inside rest, as MarshalBinary and earlier ksql wrote
// them), checking sizes as UnmarshalBinary does.
func (m *Model) UnmarshalParts(rest, proj []byte) error {
	var w modelWire
	if err := gob.NewDecoder(bytes.NewReader(rest)).Decode(&w); err != nil {
		return err
	}
	if proj != nil {
		if w.RawProj != nil || w.Proj != nil {
			return errBadEncoding
		}
		w.RawProj = proj
	}
	if w.RawProj != nil {
		if w.Proj != nil || len(w.RawProj)%8 != 0 {
			return errBadEncoding
		}
		w.Proj = make([]float64, len(w.RawProj)/8)
		for i := range w.Proj {
			w.Proj[i] = math.Float64frombits(binary.LittleEndian.Uint64(w.RawProj[8*i:]))
		}
	}
	basis := w.N
	if w.Landmarks != nil {
		basis = len(w.Landmarks)
	}
	outside := w.Flipped != nil // projections kept outside: none here
	if outside && (len(w.Flipped) != w.K || w.Proj != nil) {
		return errBadEncoding
	}
	if w.K < 1 || !outside && len(w.Proj) != w.N*w.K || len(w.Coef) != basis*w.K || len(w.MeanCoef) != w.K ||
		len(w.Offset) != w.K || len(w.Eigenvalues) != w.K || len(w.ExplainedRatio) != w.K {
		return errBadEncoding
	}
	*m = Model{Eigenvalues: w.Eigenvalues, ExplainedRatio: w.ExplainedRatio, Trace: w.Trace, MinEigenvalue: w.MinEigenvalue,
		Solver: w.Solver, Products: w.Products, n: w.N, k: w.K, landmarks: w.Landmarks, proj: w.Proj, coef: w.Coef,
		meanCoef: w.MeanCoef, offset: w.Offset, flipped: w.Flipped}
	return nil
}

// MarshalBinary encodes the map for storage.
func (m *Map) MarshalBinary() ([]byte, error) {
	return encode(mapWire{m.Dropped, m.Tolerance, m.MinResidual, m.n, m.r, m.piv, m.u})
}

// UnmarshalBinary decodes what MarshalBinary encoded, checking sizes.
func (m *Map) UnmarshalBinary(b []byte) error {
	var w mapWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return err
	}
	if w.N < 0 || w.R < 0 || w.R > w.N || len(w.Piv) != w.N || len(w.U) != w.N*w.R {
		return errBadEncoding
	}
	pos := make([]int, w.N)
	seen := make([]bool, w.N)
	for p, i := range w.Piv {
		if i < 0 || i >= w.N || seen[i] {
			return errBadEncoding
		}
		seen[i], pos[i] = true, p
	}
	*m = Map{Dropped: w.Dropped, Tolerance: w.Tolerance, MinResidual: w.MinResidual,
		n: w.N, r: w.R, piv: w.Piv, pos: pos, u: w.U}
	return nil
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}
