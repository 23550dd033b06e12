package tsne

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"
)

func digits(t testing.TB) [][]float64 {
	f, err := os.Open("testdata/digits.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	X := make([][]float64, len(rows)-1)
	for i, r := range rows[1:] {
		for _, s := range r[2:] {
			v, _ := strconv.ParseFloat(s, 64)
			X[i] = append(X[i], v)
		}
	}
	return X
}

// gaussRows are the gauss(σ) feature-space squared distances of X.
func gaussRows(X [][]float64, sigma float64) Rows {
	return func(i int, dst []float64) error {
		for j := range X {
			s := 0.0
			for c := range X[i] {
				d := X[i][c] - X[j][c]
				s += d * d
			}
			dst[j] = 2 - 2*math.Exp(-s/(2*sigma*sigma))
		}
		return nil
	}
}

func euclidRows(X [][]float64) Rows {
	return func(i int, dst []float64) error {
		for j := range X {
			s := 0.0
			for c := range X[i] {
				d := X[i][c] - X[j][c]
				s += d * d
			}
			dst[j] = s
		}
		return nil
	}
}

// TestDigitsAgainstScikitLearn: Barnes–Hut on all 1,797 digits is as
// trustworthy as scikit-learn's TSNE (within 0.005) and its KL divergence
// within 10%, against testdata/ref_digits.json (make_ref.py).
func TestDigitsAgainstScikitLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("a full t-SNE of 1,797 objects")
	}
	b, err := os.ReadFile("testdata/ref_digits.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Runs []struct{ KL, Trustworthiness float64 } `json:"runs"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	X := digits(t)
	rows := gaussRows(X, 30)
	e, err := Fit(len(X), rows, Options{Dims: 2, Perplexity: 30, Iterations: 1000, Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	if e.Method != BarnesHut {
		t.Fatalf("method %v, want Barnes–Hut above %d objects", e.Method, BarnesHutAbove)
	}
	tw, err := Trustworthiness(e, rows, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	skT, skKL := ref.Runs[0].Trustworthiness, ref.Runs[0].KL
	t.Logf("trustworthiness %.5f (scikit-learn %.5f), KL %.4f (scikit-learn %.4f)", tw, skT, e.KL, skKL)
	if math.Abs(tw-skT) > 0.005 {
		t.Fatalf("trustworthiness %v, scikit-learn %v", tw, skT)
	}
	if math.Abs(e.KL-skKL) > 0.1*skKL {
		t.Fatalf("KL %v, scikit-learn %v", e.KL, skKL)
	}
}

// TestGradientFiniteDifferences: the exact gradient (no exaggeration) is
// that of KL(P‖Q) by central differences; Barnes–Hut with θ → 0 gives
// the same gradient.
func TestGradientFiniteDifferences(t *testing.T) {
	X := digits(t)[:30]
	P, err := jointDense(len(X), euclidRows(X), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	Y := initial(len(X), 2, 3)
	for i := range Y {
		Y[i] *= 1e4 // spread out: gradients of a realistic size
	}
	g := newGradient(P, 2, 0, nil)
	grad := make([]float64, len(Y))
	if err := g.compute(Y, 1, grad); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 7, 31, 58} {
		h := 1e-6
		old := Y[i]
		Y[i] = old + h
		up, _ := g.kl(Y)
		Y[i] = old - h
		down, _ := g.kl(Y)
		Y[i] = old
		if fd := (up - down) / (2 * h); math.Abs(fd-grad[i]) > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Fatalf("coordinate %d: gradient %v, finite differences %v", i, grad[i], fd)
		}
	}
	// Barnes–Hut, every pair kept in the sparse P and θ tiny: exact.
	S := &affinities{n: P.n, start: make([]int, P.n+1)}
	for i := 0; i < P.n; i++ {
		for j := 0; j < P.n; j++ {
			if i != j {
				S.cols, S.vals = append(S.cols, int32(j)), append(S.vals, P.dense[i*P.n+j])
			}
		}
		S.start[i+1] = len(S.cols)
	}
	bh := newGradient(S, 2, 1e-9, nil)
	got := make([]float64, len(Y))
	if err := bh.compute(Y, 1, got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(got[i]-grad[i]) > 1e-9*math.Max(1, math.Abs(grad[i])) {
			t.Fatalf("Barnes–Hut θ→0 coordinate %d: %v, exact %v", i, got[i], grad[i])
		}
	}
}

// TestCalibration: each row's entropy is log(perplexity).
func TestCalibration(t *testing.T) {
	X := digits(t)[:200]
	d := make([]float64, len(X))
	p := make([]float64, len(X))
	for _, perp := range []float64{5, 30, 60} {
		for i := 0; i < len(X); i += 37 {
			euclidRows(X)(i, d)
			calibrate(d, i, perp, p)
			h := 0.0
			for j, v := range p {
				if j != i && v > 0 {
					h -= v * math.Log(v)
				}
			}
			if math.Abs(h-math.Log(perp)) > 1e-4 {
				t.Fatalf("perplexity %v row %d: entropy %v, want %v", perp, i, h, math.Log(perp))
			}
		}
	}
}

// TestDeterministicAndDegenerate: the same seed gives the same bits;
// identical objects give finite positions; a new object placed among the
// training objects lands beside its twin.
func TestDeterministicAndDegenerate(t *testing.T) {
	X := digits(t)[:120]
	opt := Options{Dims: 2, Perplexity: 10, Iterations: 300, Seed: 9}
	a, err := Fit(len(X), euclidRows(X), opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Fit(len(X), euclidRows(X), opt)
	for i := range a.Y {
		if a.Y[i] != b.Y[i] {
			t.Fatalf("coordinate %d differs between two fits with one seed", i)
		}
	}
	same := make([][]float64, 10)
	for i := range same {
		same[i] = []float64{1, 2, 3}
	}
	e, err := Fit(len(same), euclidRows(same), Options{Dims: 2, Perplexity: 3, Iterations: 250})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range e.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("identical objects: position %v", v)
		}
	}
	d2 := make([]float64, len(X))
	euclidRows(X)(17, d2)
	pos := make([]float64, 2)
	if err := a.Place(d2, pos); err != nil {
		t.Fatal(err)
	}
	nearest, best := -1, math.Inf(1)
	for j := range X {
		if d := math.Hypot(pos[0]-a.Y[2*j], pos[1]-a.Y[2*j+1]); d < best {
			nearest, best = j, d
		}
	}
	if nearest != 17 && d2[nearest] > 0 {
		t.Fatalf("object 17 placed beside %d", nearest)
	}
}

func TestErrors(t *testing.T) {
	X := digits(t)[:10]
	var pe *ParamError
	for _, o := range []Options{
		{Dims: 2, Perplexity: 9, Iterations: 300},
		{Dims: 2, Perplexity: 0, Iterations: 300},
		{Dims: 2, Perplexity: math.NaN(), Iterations: 300},
		{Dims: 4, Perplexity: 3, Iterations: 300},
		{Dims: 0, Perplexity: 3, Iterations: 300},
		{Dims: 2, Perplexity: 3, Iterations: 0},
		{Dims: 3, Perplexity: 3, Iterations: 300, Method: BarnesHut},
	} {
		if _, err := Fit(len(X), euclidRows(X), o); !errors.As(err, &pe) {
			t.Fatalf("%+v: %v", o, err)
		}
	}
	if _, err := Fit(3, euclidRows(X[:3]), Options{Dims: 2, Perplexity: 1, Iterations: 300}); !errors.As(err, &pe) || pe.Name != "objects" {
		t.Fatalf("n = 3: %v", err)
	}
	var de *DistanceError
	bad := func(i int, dst []float64) error { euclidRows(X)(i, dst); dst[(i+1)%10] = math.NaN(); return nil }
	if _, err := Fit(len(X), bad, Options{Dims: 2, Perplexity: 3, Iterations: 300}); !errors.As(err, &de) {
		t.Fatalf("NaN distance: %v", err)
	}
}

// BenchmarkDigitsBarnesHut: 1,797 digits, 1,000 iterations, gauss σ = 30
// distances; testdata/make_ref.py times scikit-learn's TSNE on the same.
func BenchmarkDigitsBarnesHut(b *testing.B) {
	X := digits(b)
	rows := gaussRows(X, 30)
	for b.Loop() {
		if _, err := Fit(len(X), rows, Options{Dims: 2, Perplexity: 30, Iterations: 1000}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTiled10000BarnesHut: 10,000 points (digits tiled with noise),
// distances computed row by row (memory O(n) beyond the neighbour lists).
func BenchmarkTiled10000BarnesHut(b *testing.B) {
	X := digits(b)
	T := make([][]float64, 10000)
	for i := range T {
		src, c := X[i%len(X)], float64(i/len(X))
		T[i] = make([]float64, len(src))
		for j, v := range src {
			T[i][j] = v + 0.37*c*float64((j*7+i)%5-2)
		}
	}
	rows := gaussRows(T, 30)
	for b.Loop() {
		if _, err := Fit(len(T), rows, Options{Dims: 2, Perplexity: 30, Iterations: 1000}); err != nil {
			b.Fatal(err)
		}
	}
}
