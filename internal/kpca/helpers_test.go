package kpca

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// loadCSV reads columns [first, last) of every data row of a testdata CSV,
// multiplied by scale.
func loadCSV(t testing.TB, name string, first, last int, scale float64) [][]float64 {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float64, 0, len(rows)-1)
	for _, r := range rows[1:] {
		x := make([]float64, last-first)
		for j := range x {
			v, err := strconv.ParseFloat(r[first+j], 64)
			if err != nil {
				t.Fatal(err)
			}
			x[j] = v * scale
		}
		out = append(out, x)
	}
	return out
}

// kernelFunc is a test's own kernel, independent of internal/kernels.
type kernelFunc func(a, b []float64) float64

func gauss(sigma float64) kernelFunc {
	return func(a, b []float64) float64 {
		var d float64
		for i := range a {
			d += (a[i] - b[i]) * (a[i] - b[i])
		}
		return math.Exp(-d / (2 * sigma * sigma))
	}
}

func poly(degree int, r float64) kernelFunc {
	return func(a, b []float64) float64 {
		return math.Pow(dot(a, b)+r, float64(degree))
	}
}

func linear(a, b []float64) float64 { return dot(a, b) }

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func gram(X [][]float64, k kernelFunc) *mat.SymDense {
	g := mat.NewSymDense(len(X), nil)
	for i := range X {
		for j := i; j < len(X); j++ {
			g.SetSym(i, j, k(X[i], X[j]))
		}
	}
	return g
}

func kernelRow(X [][]float64, z []float64, k kernelFunc) []float64 {
	row := make([]float64, len(X))
	for i, x := range X {
		row[i] = k(x, z)
	}
	return row
}

func copySym(a *mat.SymDense) *mat.SymDense {
	if a == nil || a.SymmetricDim() == 0 {
		return a
	}
	c := mat.NewSymDense(a.SymmetricDim(), nil)
	c.CopySym(a)
	return c
}

// reference is one file written by testdata/make_ref.py.
type reference struct {
	Kernel         string      `json:"kernel"`
	Components     int         `json:"components"`
	Eigenvalues    []float64   `json:"eigenvalues"`
	ExplainedRatio []float64   `json:"explained_ratio"`
	Trace          float64     `json:"trace"`
	Train          [][]float64 `json:"train"`
	NewX           [][]float64 `json:"new_x"`
	New            [][]float64 `json:"new"`
}

func loadRef(t testing.TB, name string) *reference {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func relErr(got, want float64) float64 {
	return math.Abs(got-want) / math.Abs(want)
}

// columnSign returns +1 or −1, whichever makes column j of got closest to
// want (rows × k matrices given as a row accessor).
func columnSign(got func(i int) []float64, want [][]float64, j int) float64 {
	var s float64
	for i, w := range want {
		s += got(i)[j] * w[j]
	}
	if s < 0 {
		return -1
	}
	return 1
}

// compareColumns checks got against want up to one sign per column, entry
// by entry relative to the column's largest |value|, and returns the worst
// such error and the signs it used.
func compareColumns(t *testing.T, what string, got func(i int) []float64, want [][]float64, k int, tol float64) (float64, []float64) {
	t.Helper()
	signs := make([]float64, k)
	var worst float64
	for j := 0; j < k; j++ {
		signs[j] = columnSign(got, want, j)
		var scale float64
		for _, w := range want {
			scale = math.Max(scale, math.Abs(w[j]))
		}
		for i, w := range want {
			e := math.Abs(signs[j]*got(i)[j]-w[j]) / scale
			worst = math.Max(worst, e)
			if e > tol {
				t.Errorf("%s: row %d component %d: got %.12g, want %.12g (relative to column scale %.3g: %.2g > %.0g)",
					what, i, j+1, signs[j]*got(i)[j], w[j], scale, e, tol)
				return worst, signs
			}
		}
	}
	return worst, signs
}
