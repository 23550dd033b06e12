package kernels

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// wineRef is testdata/wine_ref.json: scikit-learn Gram matrices on 12 rows
// of the wine data (see testdata/README.md for provenance).
type wineRef struct {
	Rows  [][]string `json:"rows"`
	Cases []struct {
		Spec string     `json:"spec"`
		Gram [][]string `json:"gram"`
	} `json:"cases"`
}

// LoadWineRef reads the reference file; path is relative to the test's
// directory.
func loadWineRef(t *testing.T, path string) (rows [][]float64, specs []string, grams [][][]float64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ref wineRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	parse := func(ss []string) []float64 {
		out := make([]float64, len(ss))
		for i, s := range ss {
			if out[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	for _, r := range ref.Rows {
		rows = append(rows, parse(r))
	}
	for _, c := range ref.Cases {
		specs = append(specs, c.Spec)
		var g [][]float64
		for _, r := range c.Gram {
			g = append(g, parse(r))
		}
		grams = append(grams, g)
	}
	return rows, specs, grams
}

func TestAgainstScikitLearn(t *testing.T) {
	rows, specs, grams := loadWineRef(t, "testdata/wine_ref.json")
	ws := &Workspace{}
	for c, text := range specs {
		spec, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range rows {
			for j, z := range rows {
				a, b := spec.PrepareVec(Vec{F64: x}), spec.PrepareVec(Vec{F64: z})
				got, err := spec.EvalFloat(&a, &b, ws)
				if err != nil {
					t.Fatal(err)
				}
				want := grams[c][i][j]
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Errorf("%s[%d][%d] = %.17g, scikit-learn %.17g (rel %.2g)", text, i, j, got, want, math.Abs(got-want)/math.Abs(want))
				}
			}
		}
	}
}
