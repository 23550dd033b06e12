package kpca

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func blockFunc(X [][]float64, landmarks []int, k kernelFunc) BlockFunc {
	row := rowFunc(X, landmarks, k)
	m := len(landmarks)
	return func(lo, hi int, dst []float64) error {
		for i := lo; i < hi; i++ {
			if err := row(0, i, dst[(i-lo)*m:(i-lo+1)*m]); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestNystromStreamEqualsInMemory: the streaming fit (several blocks, the
// shifted moments) gives FitNystrom's eigenvalues, projections and new-
// object projections up to rounding, on the digits with 300 landmarks.
func TestNystromStreamEqualsInMemory(t *testing.T) {
	X := digitsX(t)
	n := 5000
	for len(X) < n {
		X = append(X, X[:min(len(X), n-len(X))]...)
	}
	X = X[:n]
	k := gauss(2)
	L, err := SampleLandmarks(n, 300, 11)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Components: 5}
	mem, err := FitNystrom(n, L, rowFunc(X, L, k), opt)
	if err != nil {
		t.Fatal(err)
	}
	str, err := FitNystromStream(n, L, blockFunc(X, L, k), opt)
	if err != nil {
		t.Fatal(err)
	}
	scale := math.Sqrt(mem.Eigenvalues[0])
	for j := range mem.Eigenvalues {
		if e := relErr(str.Eigenvalues[j], mem.Eigenvalues[j]); e > 1e-9 {
			t.Errorf("eigenvalue %d: stream %.15g, in memory %.15g", j, str.Eigenvalues[j], mem.Eigenvalues[j])
		}
		if e := relErr(str.ExplainedRatio[j], mem.ExplainedRatio[j]); e > 1e-8 {
			t.Errorf("explained ratio %d: stream %.15g, in memory %.15g", j, str.ExplainedRatio[j], mem.ExplainedRatio[j])
		}
	}
	for i := 0; i < n; i += 97 {
		a, b := str.Projection(i, nil), mem.Projection(i, nil)
		for j := range a {
			if math.Abs(a[j]-b[j]) > 1e-9*scale {
				t.Fatalf("projection (%d, %d): stream %.15g, in memory %.15g", i, j, a[j], b[j])
			}
		}
	}
	kz := make([]float64, len(L))
	rowFunc(X, L, k)(0, 123, kz)
	pa, err1 := str.Project(kz, nil)
	pb, err2 := mem.Project(kz, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for j := range pa {
		if math.Abs(pa[j]-pb[j]) > 1e-9*scale {
			t.Errorf("new object, component %d: stream %.15g, in memory %.15g", j, pa[j], pb[j])
		}
	}
}

// TestNystromStreamErrors: a non-finite kernel value names the object and
// landmark; an interrupt stops the fit; too many components are refused.
func TestNystromStreamErrors(t *testing.T) {
	X := irisX(t)
	L := []int{0, 50, 100}
	bad := func(lo, hi int, dst []float64) error {
		if err := blockFunc(X, L, gauss(1))(lo, hi, dst); err != nil {
			return err
		}
		if lo <= 120 && 120 < hi {
			dst[(120-lo)*3+1] = math.NaN()
		}
		return nil
	}
	if _, err := FitNystromStream(len(X), L, bad, Options{Components: 2}); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN: %v", err)
	}
	stop := errors.New("stop")
	calls := 0
	opt := Options{Components: 2, Interrupt: func() error {
		if calls++; calls > 2 {
			return stop
		}
		return nil
	}}
	if _, err := FitNystromStream(len(X), L, blockFunc(X, L, gauss(1)), opt); !errors.Is(err, stop) {
		t.Errorf("interrupt: %v", err)
	}
	if _, err := FitNystromStream(len(X), L, blockFunc(X, L, gauss(1)), Options{Components: 4}); err == nil {
		t.Errorf("4 components from 3 landmarks: no error")
	}
}
