package svm

import (
	"compress/gzip"
	"encoding/csv"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
	"gonum.org/v1/gonum/floats"
)

// gaussKernel is the tests' own kernel, independent of internal/kernels:
// exp(−‖x_i − x_j‖² / (2σ²)) over rows of a flat n×d matrix.
type gaussKernel struct {
	x     []float64
	d     int
	sigma float64
	gamma float64   // 1/(2σ²)
	norms []float64 // ‖x_i‖²
}

func newGauss(rows [][]float64, sigma float64) *gaussKernel {
	d := 0
	if len(rows) > 0 {
		d = len(rows[0])
	}
	k := &gaussKernel{x: make([]float64, 0, len(rows)*d), d: d, sigma: sigma, gamma: 1 / (2 * sigma * sigma)}
	for _, r := range rows {
		k.x = append(k.x, r...)
		k.norms = append(k.norms, floats.Dot(r, r))
	}
	return k
}

func (k *gaussKernel) row(i int) []float64 { return k.x[i*k.d : (i+1)*k.d] }

// Column is the fast path, libsvm's own form of the distance
// (‖x_i‖² + ‖x_j‖² − 2⟨x_i, x_j⟩, the dot product by gonum's assembly),
// the distances of the whole column first, then the exponentials.
func (k *gaussKernel) Column(i int, idx []int, dst []float64) error {
	xi, ni := k.row(i), k.norms[i]
	dst = dst[:len(idx)]
	for t, j := range idx {
		dst[t] = ni + k.norms[j] - 2*floats.Dot(xi, k.row(j))
	}
	for t, d2 := range dst {
		dst[t] = kernels.GaussOf(d2, k.sigma)
	}
	return nil
}

// against sets dst[j] = K(z, x_j) for every row j, by Column's method.
func (k *gaussKernel) against(z []float64, dst []float64) {
	nz := floats.Dot(z, z)
	for j := range dst {
		dst[j] = nz + k.norms[j] - 2*floats.Dot(z, k.row(j))
	}
	for j, d2 := range dst {
		dst[j] = kernels.GaussOf(d2, k.sigma)
	}
}

// eval is K(z, x_j) for an object outside the training set.
func (k *gaussKernel) eval(z []float64, j int) float64 {
	return math.Exp(-k.gamma * sqDist(z, k.row(j)))
}

func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// supportKV fills kv (len(m.Support)) with K(z, x_s) for the training row z.
func supportKV(k *gaussKernel, m *Model, z []float64, kv []float64) {
	for s, r := range m.Support {
		kv[s] = k.eval(z, r)
	}
}

// readCSV reads a testdata CSV, gzipped when its name ends in .gz.
func readCSV(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = gz
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func parseRow(t testing.TB, fields []string) []float64 {
	t.Helper()
	out := make([]float64, len(fields))
	for j, s := range fields {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[j] = v
	}
	return out
}

// loadDigits returns the 64 pixels and the digit of every row.
func loadDigits(t testing.TB) ([][]float64, []int) {
	rows := readCSV(t, "digits.csv")[1:]
	x := make([][]float64, len(rows))
	y := make([]int, len(rows))
	for i, r := range rows {
		x[i] = parseRow(t, r[2:])
		y[i] = int(parseRow(t, r[1:2])[0])
	}
	return x, y
}

// loadSpam returns the 57 features standardised by z-score with the
// population standard deviation (make_ref.py's rule) and the label
// (0 nonspam, 1 spam: the sorted classes).
func loadSpam(t testing.TB) ([][]float64, []int) {
	rows := readCSV(t, "spam.csv.gz")[1:]
	x := make([][]float64, len(rows))
	y := make([]int, len(rows))
	for i, r := range rows {
		x[i] = parseRow(t, r[1:len(r)-1])
		switch r[len(r)-1] {
		case "nonspam":
		case "spam":
			y[i] = 1
		default:
			t.Fatalf("spam row %d: label %q", i, r[len(r)-1])
		}
	}
	standardise(x)
	return x, y
}

func standardise(x [][]float64) {
	n := float64(len(x))
	for j := range x[0] {
		var mean float64
		for _, r := range x {
			mean += r[j]
		}
		mean /= n
		var ss float64
		for _, r := range x {
			ss += (r[j] - mean) * (r[j] - mean)
		}
		sd := math.Sqrt(ss / n)
		for _, r := range x {
			r[j] = (r[j] - mean) / sd
		}
	}
}

// subset keeps the rows whose digit is in keep (mapped to its position in
// keep, which is sorted), the first limit[d] rows of digit d when set.
func subset(x [][]float64, y []int, keep []int, limit map[int]int) ([][]float64, []int) {
	sort.Ints(keep)
	seen := map[int]int{}
	var sx [][]float64
	var sy []int
	for i, d := range y {
		c := sort.SearchInts(keep, d)
		if c == len(keep) || keep[c] != d {
			continue
		}
		seen[d]++
		if l, ok := limit[d]; ok && seen[d] > l {
			continue
		}
		sx = append(sx, x[i])
		sy = append(sy, c)
	}
	return sx, sy
}
