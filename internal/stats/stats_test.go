package stats

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/ksql/ksql/internal/rng"
)

// ref holds numpy's values, made by testdata/ref.py (see its header).
type ref struct {
	A, B         [][]float64
	Gram         []float64
	MMD2Unbiased float64 `json:"mmd2_unbiased"`
	MMD2Biased   float64 `json:"mmd2_biased"`
	Classes      []string
	Numbers      []float64
	AlignClasses float64 `json:"align_classes"`
	AlignNumbers float64 `json:"align_numbers"`
	Quantiles    []float64
	L2Quantiles  []float64 `json:"l2_quantiles"`
	L1Quantiles  []float64 `json:"l1_quantiles"`
}

func loadRef(t *testing.T) ref {
	t.Helper()
	b, err := os.ReadFile("testdata/ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var r ref
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func close(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.17g, numpy %.17g", name, got, want)
	}
}

func TestMMDMatchesNumpy(t *testing.T) {
	r := loadRef(t)
	N := len(r.A) + len(r.B)
	m, err := MMDTest(r.Gram, N, len(r.A), 200, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	close(t, "unbiased", m.Unbiased, r.MMD2Unbiased, 1e-10)
	close(t, "biased", m.Biased, r.MMD2Biased, 1e-10)
	if m.NA != 5 || m.NB != 4 || m.Permutations != 200 {
		t.Errorf("sizes %+v", m)
	}
	// Against the exact permutation distribution: all C(9,5) = 126
	// relabellings, of which a fraction q reach the observed statistic;
	// 200 random ones estimate q within 4 standard deviations.
	inA, reach, total := make([]bool, N), 0, 0
	for mask := range 1 << N {
		if bitsSet(mask) != len(r.A) {
			continue
		}
		for i := range N {
			inA[i] = mask&(1<<i) != 0
		}
		if u, _ := mmd2(r.Gram, N, len(r.A), inA); u >= m.Unbiased {
			reach++
		}
		total++
	}
	q := float64(reach) / float64(total)
	if sd := math.Sqrt(q*(1-q)/200) + 1.0/200; math.Abs(m.PValue-q) > 4*sd {
		t.Errorf("p = %v, exact permutation p = %v (%d of %d)", m.PValue, q, reach, total)
	}
	again, _ := MMDTest(r.Gram, N, len(r.A), 200, 7, nil)
	if again.PValue != m.PValue {
		t.Errorf("seed 7 gave p = %v then %v", m.PValue, again.PValue)
	}
}

func TestMMDErrors(t *testing.T) {
	K := make([]float64, 9)
	for _, na := range []int{0, 1, 2, 3} {
		if _, err := MMDTest(K, 3, na, 10, 0, nil); !errors.Is(err, ErrSmallSample) {
			t.Errorf("na=%d of 3: err %v", na, err)
		}
	}
	stop := errors.New("stop")
	if _, err := MMDTest(make([]float64, 16), 4, 2, 10, 0, func() error { return stop }); err != stop {
		t.Errorf("interrupt: err %v", err)
	}
}

// gaussGram is the joint Gram matrix of gauss(sigma=1) on scalars.
func gaussGram(x []float64) []float64 {
	N := len(x)
	K := make([]float64, N*N)
	for i := range N {
		for j := range N {
			d := x[i] - x[j]
			K[i*N+j] = math.Exp(-d * d / 2)
		}
	}
	return K
}

// normal draws a standard normal by Box–Muller from the project's generator.
func normal(g *rng.SplitMix64) float64 {
	u1 := (float64(g.Next()>>11) + 0.5) / (1 << 53)
	u2 := float64(g.Next()>>11) / (1 << 53)
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

func samples(seed uint64, n int, shift float64) []float64 {
	g := rng.New(seed)
	x := make([]float64, n)
	for i := range x {
		x[i] = normal(g)
		if i >= n/2 {
			x[i] += shift
		}
	}
	return x
}

// TestMMDPValuesUniform: under the null the permutation p-values over 200
// data seeds are uniform (Kolmogorov–Smirnov does not reject at 1%).
func TestMMDPValuesUniform(t *testing.T) {
	const runs = 200
	ps := make([]float64, runs)
	for s := range runs {
		x := samples(uint64(1000+s), 40, 0)
		m, err := MMDTest(gaussGram(x), 40, 20, 199, uint64(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		ps[s] = m.PValue
	}
	slices.Sort(ps)
	var d float64 // the KS statistic against U(0, 1)
	for i, p := range ps {
		d = math.Max(d, math.Max(float64(i+1)/runs-p, p-float64(i)/runs))
	}
	// The asymptotic 1% critical value is 1.628/√n. The p-values are
	// discrete in steps of 1/200, which makes D a little larger: allow it.
	if crit := 1.628/math.Sqrt(runs) + 1.0/200; d > crit {
		t.Errorf("KS D = %.4f > %.4f: p-values not uniform under the null", d, crit)
	}
}

func TestMMDDetectsShift(t *testing.T) {
	for s := range 5 {
		x := samples(uint64(50+s), 60, 1.5)
		m, err := MMDTest(gaussGram(x), 60, 30, 999, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.PValue >= 0.01 {
			t.Errorf("seed %d: shifted samples p = %v", s, m.PValue)
		}
	}
}

func TestQuantilesMatchNumpy(t *testing.T) {
	r := loadRef(t)
	xs := append(slices.Clone(r.A), r.B...)
	d, err := PairDistances(xs, 1000, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Sampled || len(d.L2) != 36 {
		t.Fatalf("all 36 pairs expected, got %d sampled=%v", len(d.L2), d.Sampled)
	}
	for i, q := range r.Quantiles {
		close(t, "L2 quantile", Quantile(d.L2, q), r.L2Quantiles[i], 1e-12)
		close(t, "L1 quantile", Quantile(d.L1, q), r.L1Quantiles[i], 1e-12)
	}
}

func TestPairDistancesSampled(t *testing.T) {
	g := rng.New(3)
	xs := make([][]float64, 300)
	for i := range xs {
		xs[i] = []float64{normal(g), normal(g)}
	}
	all, _ := PairDistances(xs, 1<<20, 0, nil)
	a, _ := PairDistances(xs, 20000, 5, nil)
	b, _ := PairDistances(xs, 20000, 5, nil)
	if !a.Sampled || len(a.L2) != 20000 || !slices.Equal(a.L2, b.L2) {
		t.Fatalf("sampling is not seeded: %d pairs, sampled=%v", len(a.L2), a.Sampled)
	}
	for _, q := range []float64{0.1, 0.5, 0.9} {
		close(t, "sampled quantile", Quantile(a.L2, q), Quantile(all.L2, q), 0.05)
	}
	for _, v := range a.L2 {
		if v == 0 {
			t.Fatal("a pair of a vector with itself was drawn")
		}
	}
	if _, err := PairDistances(xs[:1], 10, 0, nil); !errors.Is(err, ErrFewVectors) {
		t.Errorf("one vector: err %v", err)
	}
}

func TestAlignmentMatchesNumpy(t *testing.T) {
	r := loadRef(t)
	n := len(r.Classes)
	onehot := make([]float64, n*3)
	for i, c := range r.Classes {
		onehot[i*3+int(c[0]-'a')] = 1
	}
	cases := []struct {
		name string
		Y    []float64
		c    int
		want float64
	}{
		{"classes", onehot, 3, r.AlignClasses},
		{"numbers", r.Numbers, 1, r.AlignNumbers},
	}
	for _, tc := range cases {
		got, err := Alignment(slices.Clone(r.Gram), n, tc.Y, tc.c, nil)
		if err != nil {
			t.Fatal(err)
		}
		close(t, tc.name, got, tc.want, 1e-12)
	}
	if _, err := Alignment(slices.Clone(r.Gram), n, make([]float64, n), 1, nil); !errors.Is(err, ErrConstantTarget) {
		t.Errorf("constant labels: err %v", err)
	}
	ones := make([]float64, n*n)
	for i := range ones {
		ones[i] = 1
	}
	if _, err := Alignment(ones, n, r.Numbers, 1, nil); !errors.Is(err, ErrConstantKernel) {
		t.Errorf("constant kernel: err %v", err)
	}
}

func bitsSet(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}
