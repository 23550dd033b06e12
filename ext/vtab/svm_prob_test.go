package vtab

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"github.com/ksql/ksql/internal/svm"
)

// TestSVMWireCompatible: a fit stored before probability= existed (gob of
// svmWire without Platt) decodes into today's svmWire with every field
// intact and Platt nil, which plattMatches accepts for a table without
// probability=true and refuses for one with it; a stored Platt round-trips.
func TestSVMWireCompatible(t *testing.T) {
	type oldWire struct { // svmWire as it was
		Model   *svm.Model
		Pred    []int
		Dec     []float64
		CVPred  []int
		CVValue []float64
	}
	m := &svm.Model{Type: svm.CSVC, Classes: 2, Support: []int{0, 1}, NSupport: []int{1, 1},
		DualCoef: [][]float64{{-1, 1}}, Intercept: []float64{0.25}, Pairs: []svm.Pair{{A: 0, B: 1}}}
	old := oldWire{Model: m, Pred: []int{0, 1}, Dec: []float64{-1.5, 2}, CVPred: []int{0, 0}}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(old); err != nil {
		t.Fatal(err)
	}
	var w svmWire
	if err := gob.NewDecoder(&buf).Decode(&w); err != nil {
		t.Fatal(err)
	}
	if w.Platt != nil || !reflect.DeepEqual(w.Model, m) || !reflect.DeepEqual(w.Pred, old.Pred) || !reflect.DeepEqual(w.Dec, old.Dec) || !reflect.DeepEqual(w.CVPred, old.CVPred) {
		t.Fatalf("decoded %+v from %+v", w, old)
	}
	if !plattMatches(w.Platt, false, 1) || plattMatches(w.Platt, true, 1) {
		t.Fatal("plattMatches: an old fit must suit a table without probability= only")
	}

	w.Platt = []svm.Sigmoid{{A: -1.25, B: 0.125}}
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(w); err != nil {
		t.Fatal(err)
	}
	var back svmWire
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Platt, w.Platt) || !plattMatches(back.Platt, true, 1) || plattMatches(back.Platt, false, 1) || plattMatches(back.Platt, true, 3) {
		t.Fatalf("Platt round-trip: %v", back.Platt)
	}
}
