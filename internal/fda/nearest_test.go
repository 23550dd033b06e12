package fda

import (
	"errors"
	"math"
	"testing"

	"github.com/ksql/ksql/internal/cv"
)

// blobs returns n points in d dimensions around one centre per class, the
// classes dealt in turn, from a fixed linear congruential stream.
func blobs(n, d, classes int, spread float64) ([][]float64, []int) {
	state := uint64(12345)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11)/float64(1<<53) - 0.5
	}
	X, y := make([][]float64, n), make([]int, n)
	for i := range X {
		y[i] = i % classes
		for j := 0; j < d; j++ {
			centre := float64((y[i]*7+j*3)%5) - 2
			X[i] = append(X[i], centre+spread*next())
		}
	}
	return X, y
}

func gram(X, Z [][]float64, gamma float64) []float64 {
	K := make([]float64, 0, len(X)*len(Z))
	for _, a := range X {
		for _, b := range Z {
			K = append(K, rbf(a, b, gamma))
		}
	}
	return K
}

// bruteNearest is the nearest-class-mean rule written out: the mean of
// each class's training projections taken afresh, the squared distance to
// each, the first class of the smallest.
func bruteNearest(m *Model, y []int, classes int, p []float64) int {
	k := m.Components
	best, bestD := -1, math.Inf(1)
	for c := 0; c < classes; c++ {
		d := 0.0
		for j := 0; j < k; j++ {
			sum, cnt := 0.0, 0
			for i, yc := range y {
				if yc == c {
					sum += m.Proj[i*k+j]
					cnt++
				}
			}
			d += (p[j] - sum/float64(cnt)) * (p[j] - sum/float64(cnt))
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// TestNearestAgainstBruteForce: the fit's class means and Nearest agree
// with the rule computed from the training projections, for training
// rows and new points, over class counts, components and spreads (wide
// spreads make neighbouring classes overlap, so not every answer is the
// true class).
func TestNearestAgainstBruteForce(t *testing.T) {
	for _, c := range []struct {
		n, d, classes, components int
		spread                    float64
	}{
		{40, 2, 2, 1, 1}, {60, 3, 3, 2, 3}, {60, 3, 3, 1, 4}, {90, 4, 4, 3, 5}, {80, 2, 5, 2, 6},
	} {
		X, y := blobs(c.n, c.d, c.classes, c.spread)
		Z, _ := blobs(25, c.d, c.classes, 2*c.spread)
		m, err := Fit(gram(X, X, 0.5), y, c.classes, c.components, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Means) != c.classes*c.components {
			t.Fatalf("%+v: %d means", c, len(m.Means))
		}
		wrong := 0
		for i := range X {
			p := m.Proj[i*c.components : (i+1)*c.components]
			got, want := m.Nearest(p), bruteNearest(m, y, c.classes, p)
			if got != want {
				t.Fatalf("%+v training row %d: class %d, brute force %d", c, i, got, want)
			}
			if got != y[i] {
				wrong++
			}
		}
		kz, p := gram(Z, X, 0.5), make([]float64, c.components)
		for i := range Z {
			m.Project(kz[i*len(X):(i+1)*len(X)], p)
			if got, want := m.Nearest(p), bruteNearest(m, y, c.classes, p); got != want {
				t.Fatalf("%+v new point %d: class %d, brute force %d", c, i, got, want)
			}
		}
		t.Logf("%+v: %d of %d training rows misclassified", c, wrong, c.n)
	}
}

// TestNearestTies: a point equally far from several means goes to the
// smallest class; NaN goes nowhere.
func TestNearestTies(t *testing.T) {
	m := &Model{Components: 2, Means: []float64{1, 0, -1, 0, 0, 1}}
	for _, c := range []struct {
		p    []float64
		want int
	}{
		{[]float64{0, 0}, 0}, {[]float64{0, -1}, 0}, {[]float64{-1, 1}, 1}, {[]float64{0, 5}, 2},
		{[]float64{math.NaN(), 0}, -1},
	} {
		if got := m.Nearest(c.p); got != c.want {
			t.Fatalf("%v: class %d, want %d", c.p, got, c.want)
		}
	}
}

// TestCrossPredictAgainstRefits: each object's cross-validated class is
// the brute-force nearest mean of a model fitted from scratch on the other
// folds' points (their own Gram matrix, not a copy of the full one), the
// held-out point's kernel values computed afresh.
func TestCrossPredictAgainstRefits(t *testing.T) {
	for _, c := range []struct{ n, classes, components, folds int }{
		{40, 2, 1, 2}, {60, 3, 2, 5}, {63, 3, 1, 3}, {80, 4, 3, 4},
	} {
		X, y := blobs(c.n, 3, c.classes, 4)
		fold, err := cv.Stratified(y, c.classes, c.folds, 7)
		if err != nil {
			t.Fatal(err)
		}
		got, err := CrossPredict(gram(X, X, 0.3), y, c.classes, c.components, 0.05, fold, c.folds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < c.folds; g++ {
			var Xt [][]float64
			var yt []int
			for i, f := range fold {
				if f != g {
					Xt, yt = append(Xt, X[i]), append(yt, y[i])
				}
			}
			m, err := Fit(gram(Xt, Xt, 0.3), yt, c.classes, c.components, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			p := make([]float64, c.components)
			for i, f := range fold {
				if f != g {
					continue
				}
				m.Project(gram([][]float64{X[i]}, Xt, 0.3), p)
				if want := bruteNearest(m, yt, c.classes, p); got[i] != want {
					t.Fatalf("%+v row %d (fold %d): class %d, refit %d", c, i, g, got[i], want)
				}
			}
		}
	}
}

// TestCrossPredictErrors: a fold holding all of a class, and a failing
// fold fit, are FoldErrors naming the fold; an interrupt passes through.
func TestCrossPredictErrors(t *testing.T) {
	X, y := blobs(12, 2, 2, 1)
	K := gram(X, X, 0.5)
	fold := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1} // class 0 (even rows) all in fold 0
	var fe *FoldError
	var pe *ParamError
	if _, err := CrossPredict(K, y, 2, 1, 0.1, fold, 2, nil); !errors.As(err, &fe) || fe.Fold != 0 || !errors.As(err, &pe) || pe.Name != "class" {
		t.Fatalf("a class within one fold: %v", err)
	}
	stop := errors.New("stop")
	fold = []int{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}
	if _, err := CrossPredict(K, y, 2, 1, 0.1, fold, 2, func() error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("interrupt: %v", err)
	}
	if _, err := CrossPredict(K, y, 2, 1, 0.1, fold[:5], 2, nil); !errors.As(err, &pe) || pe.Name != "fold" {
		t.Fatalf("short fold: %v", err)
	}
}
