package kpca

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// BlockFunc sets dst[(i−lo)·m + l] = k(x_i, x_{landmarks[l]}) for the
// objects lo ≤ i < hi.
type BlockFunc func(lo, hi int, dst []float64) error

// FitNystromStream drives a streamed fit as ksql's passes do, on one
// goroutine: W from one block per landmark, the sums block by block
// (NystromSums, Block, Add), then FinishNystrom with projections by
// ProjectRows, block by block.
func FitNystromStream(n int, landmarks []int, block BlockFunc, opt Options) (*Model, error) {
	mod, _, err := fitNystromStream(n, landmarks, block, opt, false)
	return mod, err
}

// fitNystromStream is FitNystromStream, with outside: through
// FinishNystromTo, keeping the projections in the slice it returns.
func fitNystromStream(n int, landmarks []int, block BlockFunc, opt Options, outside bool) (*Model, []float64, error) {
	m, k := len(landmarks), opt.Components
	if err := checkNystrom(n, landmarks, k); err != nil {
		return nil, nil, err
	}
	poll := opt.poll()
	W := make([]float64, m*m)
	for a, la := range landmarks {
		if err := block(la, la+1, W[a*m:(a+1)*m]); err != nil {
			return nil, nil, err
		}
	}
	buf := make([]float64, min(n, StreamRows)*m)
	sums, part := NystromSums(W, m), NystromSums(W, m)
	err := forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
		if err := part.Block(C, hi-lo, nil, poll); err != nil {
			return err
		}
		sums.Add(part)
		return nil
	})
	if err != nil {
		return nil, nil, landmarkCol(err, landmarks)
	}
	project := func(mean, coef, proj []float64) error {
		coefT := Transpose(coef, m)
		return landmarkCol(forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
			return ProjectRows(C, hi-lo, mean, coefT, proj[lo*k:hi*k])
		}), landmarks)
	}
	if !outside {
		mod, err := FinishNystrom(StartLandmarkMap(W, landmarks, nil), sums, landmarks, project, opt)
		return mod, nil, err
	}
	kept := make([]float64, n*k)
	mod, err := FinishNystromTo(StartLandmarkMap(W, landmarks, nil), sums, landmarks, func(mean, coef []float64, signs *SignRule) error {
		if err := project(mean, coef, kept); err != nil {
			return err
		}
		for lo := 0; lo < n; lo += 1000 { // in blocks, as a pass hands them
			signs.Add(kept[lo*k : min(n, lo+1000)*k])
		}
		return nil
	}, opt)
	return mod, kept, err
}

// TestNystromKeptOutside: a fit whose projections are kept outside the
// model (FinishNystromTo) has, once its Flipped columns are negated, the
// projections of the fit that holds them bit for bit, and the same
// model (coefficients, offsets, new objects' projections), on data whose
// sign rule flips some columns and not others.
func TestNystromKeptOutside(t *testing.T) {
	X := digitsX(t)[:1500]
	n, k := len(X), 6
	L, err := SampleLandmarks(n, 120, 3)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Components: k}
	held, _, err := fitNystromStream(n, L, blockFunc(X, L, gauss(2)), opt, false)
	if err != nil {
		t.Fatal(err)
	}
	out, kept, err := fitNystromStream(n, L, blockFunc(X, L, gauss(2)), opt, true)
	if err != nil {
		t.Fatal(err)
	}
	if out.HoldsProjections() || !held.HoldsProjections() || len(out.Flipped()) != k {
		t.Fatalf("holds: %v %v, flipped %v", out.HoldsProjections(), held.HoldsProjections(), out.Flipped())
	}
	nflip := 0
	for j, f := range out.Flipped() {
		if f {
			nflip++
		}
		for i := range n {
			v := kept[i*k+j]
			if f {
				v = -v
			}
			if math.Float64bits(v) != math.Float64bits(held.ProjectionAt(i, j)) {
				t.Fatalf("projection (%d, %d): kept %v (flipped %v), held %v", i, j, kept[i*k+j], f, held.ProjectionAt(i, j))
			}
		}
	}
	if nflip == 0 || nflip == k {
		t.Errorf("the sign rule flipped %d of %d columns: the test needs both kinds", nflip, k)
	}
	kz := make([]float64, len(L))
	rowFunc(X, L, gauss(2))(0, 77, kz)
	a, err1 := out.Project(kz, nil)
	b, err2 := held.Project(kz, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for j := range a {
		if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
			t.Errorf("new object, component %d: %v, held %v", j, a[j], b[j])
		}
	}
	rest, proj, err := out.MarshalParts()
	var back Model
	if err != nil || proj != nil || back.UnmarshalParts(rest, nil) != nil || back.HoldsProjections() ||
		!slices.Equal(back.Flipped(), out.Flipped()) {
		t.Fatalf("encoding: %v, proj %d bytes, decoded flipped %v", err, len(proj), back.Flipped())
	}
}

func forBlocks(n, m int, buf []float64, block BlockFunc, poll func() error, f func(lo, hi int, C []float64) error) error {
	for lo := 0; lo < n; lo += StreamRows {
		if err := poll(); err != nil {
			return err
		}
		hi := min(n, lo+StreamRows)
		C := buf[:(hi-lo)*m]
		if err := block(lo, hi, C); err != nil {
			return err
		}
		if err := f(lo, hi, C); err != nil {
			return BlockError(err, lo)
		}
	}
	return nil
}

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

// TestNystromStreamEqualsInMemory: the streamed fit (several blocks, the
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
