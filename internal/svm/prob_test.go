package svm

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"sort"
	"testing"
)

// plattRef is testdata/platt_ref.json, made by testdata/platt_ref.py (a
// Python transcription of Lin, Lin & Weng's sigmoid training and of
// libsvm's multiclass_probability, checked there against scikit-learn's
// libsvm) with Debian's /usr/bin/python3.
type plattRef struct {
	Sigmoid []struct {
		Name   string
		Dec    []float64
		Labels []int
		A, B   float64
	}
	Coupling []struct {
		K            int
		Dec          []float64 // libsvm's decision values
		ProbA, ProbB []float64
		P            []float64
	}
}

func loadPlattRef(t *testing.T) plattRef {
	b, err := os.ReadFile("testdata/platt_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref plattRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Sigmoid) == 0 || len(ref.Coupling) == 0 {
		t.Fatal("platt_ref.json holds no cases")
	}
	return ref
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// TestSigmoidTrainReference: A and B equal the transcription's to 1e-9 on
// overlapping, separable, large, one-class and reversed decision values.
func TestSigmoidTrainReference(t *testing.T) {
	for _, c := range loadPlattRef(t).Sigmoid {
		t.Run(c.Name, func(t *testing.T) {
			pos := make([]bool, len(c.Labels))
			for i, y := range c.Labels {
				pos[i] = y > 0
			}
			s := SigmoidTrain(c.Dec, pos)
			if !near(s.A, c.A, 1e-9) || !near(s.B, c.B, 1e-9) {
				t.Fatalf("A, B = %.17g, %.17g; the reference %.17g, %.17g", s.A, s.B, c.A, c.B)
			}
		})
	}
}

// TestProbabilitiesReference: the clipped pairwise sigmoids and their
// coupling equal libsvm's svm_predict_probability (as transcribed) to
// 1e-9, for 2 to 7 classes, clipped pairs included.
func TestProbabilitiesReference(t *testing.T) {
	for i, c := range loadPlattRef(t).Coupling {
		sig := make([]Sigmoid, len(c.ProbA))
		for q := range sig {
			sig[q] = Sigmoid{c.ProbA[q], c.ProbB[q]}
		}
		dec := append([]float64(nil), c.Dec...)
		if c.K == 2 {
			dec[0] = -dec[0] // a two-class Model's Decision is libsvm's negated
		}
		p := make([]float64, c.K)
		Probabilities(c.K, dec, sig, p, make([]float64, CoupleWork(c.K)))
		for j := range p {
			if !near(p[j], c.P[j], 1e-9) {
				t.Fatalf("case %d (k=%d): p = %v, the reference %v", i, c.K, p, c.P)
			}
		}
	}
}

// TestProbabilitiesAllocate: an object's probabilities allocate nothing.
func TestProbabilitiesAllocate(t *testing.T) {
	sig := []Sigmoid{{-1, 0.1}, {-2, 0}, {-1.5, -0.2}}
	dec, p, work := []float64{0.3, -1, 2}, make([]float64, 3), make([]float64, CoupleWork(3))
	if n := testing.AllocsPerRun(100, func() { Probabilities(3, dec, sig, p, work) }); n != 0 {
		t.Fatalf("%v allocations per call", n)
	}
}

// blobs are k classes of 2-d points around the vertices of a polygon,
// overlapping enough that probabilities are not all 0 or 1; the points
// come from fixed formulas.
func blobs(k, per int) ([][]float64, []int) {
	var x [][]float64
	var y []int
	for c := 0; c < k; c++ {
		cx, cy := 2*math.Cos(2*math.Pi*float64(c)/float64(k)), 2*math.Sin(2*math.Pi*float64(c)/float64(k))
		for i := 0; i < per; i++ {
			u := float64(i*7+c*3) * 0.61803398875
			r := 1.4 * math.Abs(math.Sin(u*3.1))
			x = append(x, []float64{cx + r*math.Cos(u*11), cy + r*math.Sin(u*11)})
			y = append(y, c)
		}
	}
	return x, y
}

// TestFitPlattProperties: on 2 to 4 classes (C-SVC, ν-SVC, balanced
// weights) every object's probabilities lie in [0, 1] and sum to 1, a
// seed gives the same bits, another seed other sigmoids, and with two
// classes the probability of class 1 is monotone in the decision value
// (increasing, as A < 0 on this data).
func TestFitPlattProperties(t *testing.T) {
	cases := []struct {
		name     string
		k        int
		opt      Options
		balanced bool
	}{
		{"csvc2", 2, Options{C: 1, Tol: 1e-3}, false},
		{"csvc3", 3, Options{C: 2, Tol: 1e-3}, false},
		{"nusvc3", 3, Options{Type: NuSVC, Nu: 0.3, Tol: 1e-3}, false},
		{"balanced4", 4, Options{C: 1, Tol: 1e-3}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y := blobs(c.k, 30+c.k)
			if c.balanced {
				x, y = x[:len(x)-20], y[:len(y)-20] // the last class smaller
				c.opt.ClassWeight = BalancedWeights(y, c.k)
			}
			kern := newGauss(x, 1)
			m, err := Fit(kern, y, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := FitPlatt(kern, y, c.k, c.opt, 7)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := FitPlatt(kern, y, c.k, c.opt, 7)
			other, _ := FitPlatt(kern, y, c.k, c.opt, 8)
			if len(sig) != m.NumPairs() || !equalSigmoids(sig, again) {
				t.Fatalf("seed 7 gave %v, then %v", sig, again)
			}
			if equalSigmoids(sig, other) {
				t.Fatalf("seeds 7 and 8 gave the same sigmoids %v", sig)
			}
			checkProbabilities(t, kern, m, sig, len(x))
		})
	}
}

func equalSigmoids(a, b []Sigmoid) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkProbabilities checks every row's probabilities: in [0, 1], summing
// to 1, and for two classes monotone in the decision value.
func checkProbabilities(t *testing.T, kern *gaussKernel, m *Model, sig []Sigmoid, n int) {
	k := m.Classes
	p, work := make([]float64, k), make([]float64, CoupleWork(k))
	kv, dec := make([]float64, len(m.Support)), make([]float64, m.NumPairs())
	type point struct{ dec, p1 float64 }
	var two []point
	for i := 0; i < n; i++ {
		if err := kern.Column(i, m.Support, kv); err != nil {
			t.Fatal(err)
		}
		if err := m.Decision(kv, dec); err != nil {
			t.Fatal(err)
		}
		Probabilities(k, dec, sig, p, work)
		sum := 0.0
		for _, v := range p {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("row %d: probabilities %v", i, p)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities %v sum to %.17g", i, p, sum)
		}
		if k == 2 {
			two = append(two, point{dec[0], p[1]})
		}
	}
	if k != 2 {
		return
	}
	if sig[0].A >= 0 {
		t.Fatalf("A = %g on separable-enough data; want < 0", sig[0].A)
	}
	sort.Slice(two, func(i, j int) bool { return two[i].dec < two[j].dec })
	for i := 1; i < len(two); i++ {
		if two[i].p1 < two[i-1].p1 {
			t.Fatalf("decision %g gives %g, decision %g gives %g", two[i-1].dec, two[i-1].p1, two[i].dec, two[i].p1)
		}
	}
}

// TestFitPlattErrors: a type without classes is refused; an infeasible ν
// in a fold names the whole problem's classes and the fold.
func TestFitPlattErrors(t *testing.T) {
	x, y := blobs(3, 12)
	kern := newGauss(x, 1)
	var nc *NotClassifierError
	if _, err := FitPlatt(kern, y, 3, Options{Type: EpsilonSVR, C: 1, Tol: 1e-3}, 0); !errors.As(err, &nc) {
		t.Fatalf("eps_svr: %v", err)
	}
	// ν = 1 is feasible on each whole pair (12 rows a class) but
	// infeasible or degenerate on the first pair's folds.
	_, err := FitPlatt(kern, y, 3, Options{Type: NuSVC, Nu: 1, Tol: 1e-3}, 0)
	var pe *PlattError
	var ne *NuInfeasibleError
	var me *NuMarginError
	if !errors.As(err, &pe) || pe.A != 0 || pe.B != 1 {
		t.Fatalf("nu=1: %v (%+v)", err, pe)
	}
	switch {
	case errors.As(err, &ne):
		if ne.A != 0 || ne.B != 1 {
			t.Fatalf("nu=1 names classes %d, %d", ne.A, ne.B)
		}
	case errors.As(err, &me):
		if me.A != 0 || me.B != 1 {
			t.Fatalf("nu=1 names classes %d, %d", me.A, me.B)
		}
	default:
		t.Fatalf("nu=1: %v is neither ν error", err)
	}
}

// BenchmarkFitPlattDigits: the sigmoids of SVC(probability=True) on the
// 1,797 digits (45 pairs, 5 fold fits each), beside BenchmarkFitDigits's
// one fit of the same data and options; /usr/bin/python3 with
// scikit-learn 1.2 fits SVC(C=1, gamma=1/1000, tol=1e-5) with and without
// probability=True for the comparison.
func BenchmarkFitPlattDigits(b *testing.B) {
	x, y := loadDigits(b)
	k := newGauss(x, math.Sqrt(500))
	opt := Options{C: 1, Tol: 1e-5, Workers: 1}
	for b.Loop() {
		if _, err := FitPlatt(k, y, 10, opt, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbabilities10: one object's coupled probabilities of 10
// classes from its 45 decision values.
func BenchmarkProbabilities10(b *testing.B) {
	sig := make([]Sigmoid, 45)
	dec := make([]float64, 45)
	for q := range sig {
		sig[q], dec[q] = Sigmoid{-1 - 0.1*float64(q%7), 0.05 * float64(q%3)}, math.Sin(float64(q))
	}
	p, work := make([]float64, 10), make([]float64, CoupleWork(10))
	for b.Loop() {
		Probabilities(10, dec, sig, p, work)
	}
}
