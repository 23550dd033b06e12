package fda

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"sort"
	"strconv"
	"testing"
)

type refCase struct {
	File        string      `json:"file"`
	Gamma       float64     `json:"gamma"`
	Eigenvalues []float64   `json:"eigenvalues"`
	Train       [][]float64 `json:"train"`
	Test        [][]float64 `json:"test"`
}

func load(t *testing.T, file string, feat []int, label int, z bool) ([][]float64, []string) {
	f, err := os.Open("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = rows[1:]
	X := make([][]float64, len(rows))
	y := make([]string, len(rows))
	for i, r := range rows {
		for _, c := range feat {
			v, _ := strconv.ParseFloat(r[c], 64)
			X[i] = append(X[i], v)
		}
		y[i] = r[label]
	}
	if z {
		for j := range X[0] {
			var mean, sq float64
			for i := range X {
				mean += X[i][j]
			}
			mean /= float64(len(X))
			for i := range X {
				sq += (X[i][j] - mean) * (X[i][j] - mean)
			}
			for i := range X {
				X[i][j] = (X[i][j] - mean) / math.Sqrt(sq/float64(len(X)))
			}
		}
	}
	return X, y
}

func rbf(a, b []float64, gamma float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Exp(-gamma * s)
}

func seq(a, b int) []int {
	var out []int
	for i := a; i < b; i++ {
		out = append(out, i)
	}
	return out
}

// TestAgainstScipy: iris and wine projections of training rows and new
// points equal an independent numpy/scipy solution of the generalised
// eigenproblem (testdata/make_ref.py) to 1e-6.
func TestAgainstScipy(t *testing.T) {
	b, err := os.ReadFile("testdata/ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct{ Cases []refCase }
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for ci, c := range ref.Cases {
		var X [][]float64
		var y []string
		if ci == 0 {
			X, y = load(t, "iris.csv", seq(1, 5), 5, false)
		} else {
			X, y = load(t, "wine.csv", seq(2, 15), 1, true)
		}
		var tr, te []int
		for i := range X {
			if i%5 != 0 {
				tr = append(tr, i)
			} else {
				te = append(te, i)
			}
		}
		names := map[string]int{}
		for _, i := range tr {
			names[y[i]] = 0
		}
		var sorted []string
		for k := range names {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for k, s := range sorted {
			names[s] = k
		}
		n := len(tr)
		K := make([]float64, n*n)
		yc := make([]int, n)
		for a, i := range tr {
			yc[a] = names[y[i]]
			for b2, j := range tr {
				K[a*n+b2] = rbf(X[i], X[j], c.Gamma)
			}
		}
		m, err := Fit(K, yc, len(sorted), len(sorted)-1, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, got, want float64) {
			if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Fatalf("%s %s: %v, scipy %v", c.File, what, got, want)
			}
		}
		for j, w := range c.Eigenvalues {
			check("eigenvalue", m.Eigenvalues[j], w)
		}
		for a := range tr {
			for j := 0; j < m.Components; j++ {
				check("train projection", m.Proj[a*m.Components+j], c.Train[a][j])
			}
		}
		kz, dst := make([]float64, n), make([]float64, m.Components)
		for t2, i := range te {
			for a, j := range tr {
				kz[a] = rbf(X[i], X[j], c.Gamma)
			}
			m.Project(kz, dst)
			for j := range dst {
				check("new point", dst[j], c.Test[t2][j])
			}
		}
	}
}

func TestErrors(t *testing.T) {
	K := []float64{1, 0, 0, 1}
	var pe *ParamError
	if _, err := Fit(K, []int{0, 0}, 1, 1, 0.1); !errors.As(err, &pe) || pe.Name != "classes" {
		t.Fatalf("one class: %v", err)
	}
	if _, err := Fit(K, []int{0, 1}, 2, 2, 0.1); !errors.As(err, &pe) || pe.Name != "components" {
		t.Fatalf("components = classes: %v", err)
	}
	if _, err := Fit(K, []int{0, 1}, 2, 1, 0); !errors.As(err, &pe) || pe.Name != "reg" {
		t.Fatalf("reg 0: %v", err)
	}
}
