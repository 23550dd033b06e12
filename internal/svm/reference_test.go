package svm

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// skRef is one case of testdata/make_ref.py: scikit-learn SVC's fit.
type skRef struct {
	C         float64     `json:"C"`
	Sigma     float64     `json:"sigma"`
	Tol       float64     `json:"tol"`
	Classes   []string    `json:"classes"`
	Support   []int       `json:"support"`
	NSupport  []int       `json:"n_support"`
	DualCoef  [][]float64 `json:"dual_coef"`
	Intercept []float64   `json:"intercept"`
	NIter     []int       `json:"n_iter"`
	Predict   []int       `json:"predict"`
	dec       [][]float64
}

func loadRef(t testing.TB, name string) *skRef {
	t.Helper()
	b, err := os.ReadFile("testdata/ref_" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var r skRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	for _, row := range readCSV(t, "dec_"+name+".csv.gz") {
		r.dec = append(r.dec, parseRow(t, row))
	}
	return &r
}

// TestAgainstScikitLearn fits the cases of make_ref.py and checks the
// brief's agreement: decision values on every row within 1e-3 of each
// pair's range of scikit-learn's values, the same support set up to
// coefficients below 1e-4·C, and predictions on every row (multi-class:
// at least 99.9% of the rows).
func TestAgainstScikitLearn(t *testing.T) {
	digitsX, digitsY := loadDigits(t)
	cases := []struct {
		name      string
		load      func() ([][]float64, []int)
		balanced  bool
		minAgree  float64
		coefAgree float64 // max |Δ dual coef| on common support vectors, ×C
	}{
		{"digits", func() ([][]float64, []int) { return digitsX, digitsY }, false, 0.999, 1e-3},
		{"digits38", func() ([][]float64, []int) { return subset(digitsX, digitsY, []int{3, 8}, nil) }, false, 1, 1e-3},
		{"digits_balanced", func() ([][]float64, []int) {
			return subset(digitsX, digitsY, []int{1, 7, 9}, map[int]int{7: 40})
		}, true, 0.999, 1e-3},
		{"spam", func() ([][]float64, []int) { return loadSpam(t) }, false, 1, 1e-3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name == "spam" {
				t.Skip("spam takes a second")
			}
			ref := loadRef(t, tc.name)
			x, y := tc.load()
			if len(x) != len(ref.Predict) {
				t.Fatalf("%d rows, reference has %d", len(x), len(ref.Predict))
			}
			k := newGauss(x, ref.Sigma)
			opt := Options{C: ref.C, Tol: ref.Tol}
			if tc.balanced {
				opt.ClassWeight = BalancedWeights(y, len(ref.Classes))
			}
			m, err := Fit(k, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			if m.Classes != len(ref.Classes) || len(m.Warnings) != 0 {
				t.Fatalf("classes %d (want %d), warnings %v", m.Classes, len(ref.Classes), m.Warnings)
			}
			t.Logf("iterations %d (scikit-learn %d), support vectors %d (%d)",
				m.Iterations(), sum(ref.NIter), len(m.Support), len(ref.Support))
			checkSupport(t, m, ref, tc.coefAgree)
			checkDecisions(t, k, m, x, ref, tc.minAgree)
		})
	}
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// checkSupport compares the support sets and the dual coefficients.
func checkSupport(t *testing.T, m *Model, ref *skRef, coefAgree float64) {
	t.Helper()
	coefOf := func(support []int, coef [][]float64) map[int][]float64 {
		out := map[int][]float64{}
		for s, r := range support {
			c := make([]float64, len(coef))
			for i := range coef {
				c[i] = coef[i][s]
			}
			out[r] = c
		}
		return out
	}
	ours, theirs := coefOf(m.Support, m.DualCoef), coefOf(ref.Support, ref.DualCoef)
	small := 1e-4 * ref.C
	maxAbs := func(c []float64) float64 {
		a := 0.0
		for _, v := range c {
			a = max(a, math.Abs(v))
		}
		return a
	}
	worst, onlyOne := 0.0, 0
	for r, c := range ours {
		tc, ok := theirs[r]
		if !ok {
			onlyOne++
			if maxAbs(c) >= small {
				t.Errorf("row %d: support vector here (coef %v), not in scikit-learn", r, c)
			}
			continue
		}
		for i := range c {
			worst = max(worst, math.Abs(c[i]-tc[i]))
		}
	}
	for r, c := range theirs {
		if _, ok := ours[r]; !ok {
			onlyOne++
			if maxAbs(c) >= small {
				t.Errorf("row %d: support vector in scikit-learn (coef %v), not here", r, c)
			}
		}
	}
	t.Logf("support vectors in one fit only: %d; max |Δ dual coef| on common ones: %.3g (C = %g)", onlyOne, worst, ref.C)
	if worst > coefAgree*ref.C {
		t.Errorf("dual coefficients differ by %g > %g·C", worst, coefAgree)
	}
}

// checkDecisions compares decision values and predictions on every row.
func checkDecisions(t *testing.T, k *gaussKernel, m *Model, x [][]float64, ref *skRef, minAgree float64) {
	t.Helper()
	np := m.NumPairs()
	lo, hi := make([]float64, np), make([]float64, np)
	for p := range lo {
		lo[p], hi[p] = math.Inf(1), math.Inf(-1)
	}
	for _, row := range ref.dec {
		if len(row) != np {
			t.Fatalf("reference rows have %d values, want %d", len(row), np)
		}
		for p, v := range row {
			lo[p], hi[p] = min(lo[p], v), max(hi[p], v)
		}
	}
	kv := make([]float64, len(m.Support))
	dec := make([]float64, np)
	worst, agree := 0.0, 0
	for i, z := range x {
		supportKV(k, m, z, kv)
		c, err := m.Predict(kv, dec)
		if err != nil {
			t.Fatal(err)
		}
		if c == ref.Predict[i] {
			agree++
		}
		for p, v := range dec {
			worst = max(worst, math.Abs(v-ref.dec[i][p])/(hi[p]-lo[p]))
		}
	}
	var wi float64
	for p := range m.Intercept {
		wi = max(wi, math.Abs(m.Intercept[p]-ref.Intercept[p])/(hi[p]-lo[p]))
	}
	rate := float64(agree) / float64(len(x))
	t.Logf("max |Δ decision| / range: %.3g; max |Δ intercept| / range: %.3g; predictions agree on %d of %d rows",
		worst, wi, agree, len(x))
	if worst > 1e-3 || wi > 1e-3 {
		t.Errorf("decision values differ by %g of their range (intercepts %g), allowed 1e-3", worst, wi)
	}
	if rate < minAgree {
		t.Errorf("predictions agree on %.4f of the rows, want ≥ %g", rate, minAgree)
	}
}
