package fst

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

// TestAgainstOpenFst compares T(x, y) and (T∘T⁻¹)(x, y) on random weighted
// transducers with ε arcs against OpenFst's own composition (with its ε
// filter) and shortest distance in the log semiring: testdata/openfst.json,
// made by testdata/make_openfst.py. OpenFst prints 9 significant digits of
// −ln T, hence the tolerance.
func TestAgainstOpenFst(t *testing.T) {
	data, err := os.ReadFile("testdata/openfst.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			FST   string
			Pairs []struct {
				X, Y     []Label
				T, TTinv float64
			}
		}
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	const tol = 1e-7
	checked := 0
	for ci, c := range ref.Cases {
		f, err := ReadFST(strings.NewReader(c.FST))
		if err != nil {
			t.Fatalf("case %d: %v", ci, err)
		}
		m, err := Compile(f)
		if err != nil {
			t.Fatalf("case %d: %v", ci, err)
		}
		k, err := NewKernelFST(f, Bound{})
		if err != nil {
			t.Fatalf("case %d: %v", ci, err)
		}
		for _, p := range c.Pairs {
			w, err := m.Weight(p.X, p.Y, nil, strkernel.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			kv, err := k.EvalLabels(p.X, p.Y, nil, strkernel.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []struct {
				what      string
				got, want float64
			}{{"T", w.Float64(), p.T}, {"T∘T⁻¹", kv.Float64(), p.TTinv}} {
				if math.Abs(v.got-v.want) > tol*math.Abs(v.want) {
					t.Errorf("case %d: %s(%v, %v) = %v, OpenFst %v", ci, v.what, p.X, p.Y, v.got, v.want)
				}
				if v.want != 0 {
					checked++
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d non-zero reference values", checked)
	}
}
