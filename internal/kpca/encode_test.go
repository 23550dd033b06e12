package kpca

import (
	"math"
	"reflect"
	"testing"
)

// TestModelRoundTrip: a fitted model decodes to the same bits, its
// projections written raw, inside the model or as a part beside it; a model stored by an earlier ksql (projections
// in gob's own float form) still decodes; a raw part of a length that is
// not whole floats is refused.
func TestModelRoundTrip(t *testing.T) {
	X := [][]float64{{0, 1}, {1, 3}, {2, 2}, {4, 0}, {5, 5}, {3, 1}}
	m, err := Fit(gram(X, gauss(1)), Options{Components: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, m) {
		t.Fatalf("decoded model differs:\n%+v\n%+v", got, *m)
	}
	rest, proj, err := m.MarshalParts()
	if err != nil {
		t.Fatal(err)
	}
	var parts Model
	if err := parts.UnmarshalParts(rest, proj); err != nil || !reflect.DeepEqual(&parts, m) {
		t.Fatalf("parts: %v, or the decoded model differs", err)
	}
	if err := new(Model).UnmarshalParts(b, proj); err == nil {
		t.Fatal("projections both inside the model and beside it decoded")
	}
	old, err := encode(modelWire{m.Eigenvalues, m.ExplainedRatio, m.Trace, m.MinEigenvalue, m.Solver, m.Products,
		m.n, m.k, m.landmarks, m.proj, m.coef, m.meanCoef, m.offset, nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	var older Model
	if err := older.UnmarshalBinary(old); err != nil || math.Float64bits(older.ProjectionAt(3, 1)) != math.Float64bits(m.ProjectionAt(3, 1)) {
		t.Fatalf("earlier encoding: %v, projection %v want %v", err, older.ProjectionAt(3, 1), m.ProjectionAt(3, 1))
	}
	bad, _ := encode(modelWire{m.Eigenvalues, m.ExplainedRatio, m.Trace, m.MinEigenvalue, m.Solver, m.Products,
		m.n, m.k, m.landmarks, nil, m.coef, m.meanCoef, m.offset, make([]byte, 8*len(m.proj)-3), nil})
	if err := new(Model).UnmarshalBinary(bad); err == nil {
		t.Fatal("a raw projection part of a ragged length decoded")
	}
}
