package cluster

import (
	"errors"
	"math"
	"testing"

	"github.com/ksql/ksql/internal/rng"
)

// ari is the adjusted Rand index of Hubert & Arabie (1985), from the
// contingency table: (Σ C(n_ij,2) − E) / (½(Σ C(a_i,2) + Σ C(b_j,2)) − E)
// with E = Σ C(a_i,2)·Σ C(b_j,2) / C(n,2).
func ari(a, b []int) float64 {
	type pair struct{ x, y int }
	nij, ai, bj := map[pair]int{}, map[int]int{}, map[int]int{}
	for i := range a {
		nij[pair{a[i], b[i]}]++
		ai[a[i]]++
		bj[b[i]]++
	}
	c2 := func(m int) float64 { return float64(m) * float64(m-1) / 2 }
	var sij, sa, sb float64
	for _, m := range nij {
		sij += c2(m)
	}
	for _, m := range ai {
		sa += c2(m)
	}
	for _, m := range bj {
		sb += c2(m)
	}
	exp := sa * sb / c2(len(a))
	if mx := (sa + sb) / 2; mx != exp {
		return (sij - exp) / (mx - exp)
	}
	return 1
}

func TestARIKnownValues(t *testing.T) {
	for _, c := range []struct {
		a, b []int
		want float64
	}{
		{[]int{0, 0, 1, 1}, []int{1, 1, 0, 0}, 1},
		{[]int{0, 0, 1, 1}, []int{0, 1, 0, 1}, -0.5},                            // sklearn adjusted_rand_score
		{[]int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 1, 2, 2}, 0.24242424242424243}, // sklearn adjusted_rand_score
	} {
		if got := ari(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ari(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// blobs returns n points around each of the given centres (dimension 2),
// with Gaussian-ish noise of scale s, and the true labels.
func blobs(centres [][2]float64, n int, s float64, seed uint64) ([]float64, []int) {
	r := rng.New(seed)
	var X []float64
	var y []int
	for c, m := range centres {
		for i := 0; i < n; i++ {
			// the sum of four uniforms, centred: noise without math/rand
			var e [2]float64
			for a := range e {
				for t := 0; t < 4; t++ {
					e[a] += uniform(r) - 0.5
				}
			}
			X = append(X, m[0]+s*e[0], m[1]+s*e[1])
			y = append(y, c)
		}
	}
	return X, y
}

func linearGram(X []float64, n, dim int) []float64 {
	K := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for a := 0; a < dim; a++ {
				K[i*n+j] += X[i*dim+a] * X[j*dim+a]
			}
		}
	}
	return K
}

func gaussGram(X []float64, n, dim int, sigma float64) []float64 {
	K := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d := dist2(X[i*dim:(i+1)*dim], X[j*dim:(j+1)*dim])
			K[i*n+j] = math.Exp(-d / (2 * sigma * sigma))
		}
	}
	return K
}

// inertia is Σ ‖x_i − mean of i's cluster‖², computed from the labels alone.
func inertia(X []float64, n, dim int, labels []int) float64 {
	sums, counts := map[int][]float64{}, map[int]float64{}
	for i, l := range labels {
		if sums[l] == nil {
			sums[l] = make([]float64, dim)
		}
		for a := 0; a < dim; a++ {
			sums[l][a] += X[i*dim+a]
		}
		counts[l]++
	}
	total := 0.0
	for i, l := range labels {
		for a := 0; a < dim; a++ {
			e := X[i*dim+a] - sums[l][a]/counts[l]
			total += e * e
		}
	}
	return total
}

// bruteBest is the least inertia over every partition of n points into k
// non-empty clusters (restricted growth strings).
func bruteBest(X []float64, n, dim, k int) float64 {
	best := math.Inf(1)
	labels := make([]int, n)
	var rec func(i, used int)
	rec = func(i, used int) {
		if i == n {
			if used == k {
				best = math.Min(best, inertia(X, n, dim, labels))
			}
			return
		}
		for c := 0; c < min(used+1, k); c++ {
			labels[i] = c
			rec(i+1, max(used, c+1))
		}
	}
	rec(0, 0)
	return best
}

func opts(k int) Options { return Options{K: k, Seed: 0, Restarts: 10, MaxIter: 300} }

// TestObjectiveAgainstBruteForce: on tiny random data the best of ten
// restarts reaches the least inertia over all partitions, for points and
// for the linear kernel, and the reported objective and distances are the
// labels' own (recomputed from the points).
func TestObjectiveAgainstBruteForce(t *testing.T) {
	for _, c := range []struct {
		n, dim, k int
		seed      uint64
	}{{7, 2, 2, 1}, {8, 2, 3, 2}, {9, 3, 3, 3}, {8, 1, 4, 4}, {6, 2, 6, 5}, {7, 2, 1, 6}} {
		r := rng.New(c.seed)
		X := make([]float64, c.n*c.dim)
		for i := range X {
			X[i] = uniform(r) * 10
		}
		want := bruteBest(X, c.n, c.dim, c.k)
		res, _, err := KMeans(X, c.n, c.dim, opts(c.k))
		if err != nil {
			t.Fatal(err)
		}
		kres, err := KernelKMeans(linearGram(X, c.n, c.dim), c.n, opts(c.k))
		if err != nil {
			t.Fatal(err)
		}
		for name, r := range map[string]*Result{"points": res, "linear kernel": &kres.Result} {
			own := inertia(X, c.n, c.dim, r.Labels)
			sum := 0.0
			for _, d := range r.Dist2 {
				sum += d
			}
			if math.Abs(r.Objective-want) > 1e-9*want || math.Abs(own-r.Objective) > 1e-9*(1+own) || math.Abs(sum-own) > 1e-9*(1+own) {
				t.Errorf("%+v %s: objective %v (labels' own %v, Σ dist2 %v), brute force %v", c, name, r.Objective, own, sum, want)
			}
		}
	}
}

// TestLabelsNumberedByFirstObject: cluster 0 holds object 0, and each new
// cluster number first appears in order; sizes count the labels.
func TestLabelsNumberedByFirstObject(t *testing.T) {
	X, truth := blobs([][2]float64{{0, 0}, {10, 0}, {0, 10}, {10, 10}}, 25, 1, 9)
	n := len(truth)
	// interleave the blobs so that first appearances are not in blob order
	perm := make([]int, n)
	for i := range perm {
		perm[i] = (i*37 + 11) % n
	}
	P, y := make([]float64, 2*n), make([]int, n)
	for i, p := range perm {
		P[2*i], P[2*i+1], y[i] = X[2*p], X[2*p+1], truth[p]
	}
	for seed := uint64(0); seed < 5; seed++ {
		o := opts(4)
		o.Seed = seed
		res, _, err := KMeans(P, n, 2, o)
		if err != nil {
			t.Fatal(err)
		}
		next, sizes := 0, make([]int, 4)
		for _, l := range res.Labels {
			if l > next {
				t.Fatalf("seed %d: label %d appears before %d", seed, l, next)
			}
			if l == next {
				next++
			}
			sizes[l]++
		}
		for c := range sizes {
			if sizes[c] != res.Sizes[c] {
				t.Fatalf("seed %d: sizes %v, labels count %v", seed, res.Sizes, sizes)
			}
		}
		if a := ari(res.Labels, y); a != 1 {
			t.Fatalf("seed %d: ARI %v against the blobs", seed, a)
		}
	}
}

// TestDeterministic: a seed gives the same partition bit for bit; another
// seed may differ only where the objective says so.
func TestDeterministic(t *testing.T) {
	X, _ := blobs([][2]float64{{0, 0}, {3, 0}, {0, 3}}, 40, 3, 4)
	n := len(X) / 2
	K := gaussGram(X, n, 2, 1.5)
	a, err := KernelKMeans(K, n, opts(3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := KernelKMeans(K, n, opts(3))
	if err != nil {
		t.Fatal(err)
	}
	if a.Objective != b.Objective || a.Iterations != b.Iterations {
		t.Fatalf("two runs: %v / %v", a.Objective, b.Objective)
	}
	for i := range a.Labels {
		if a.Labels[i] != b.Labels[i] || a.Dist2[i] != b.Dist2[i] {
			t.Fatalf("object %d differs", i)
		}
	}
}

// TestKernelSeparatesRings: two concentric rings, which no partition by a
// line separates, are found by kernel k-means with a narrow Gaussian
// kernel, while the linear kernel (k-means) cannot find them.
func TestKernelSeparatesRings(t *testing.T) {
	n := 200
	X, y := make([]float64, 2*n), make([]int, n)
	r := rng.New(3)
	for i := 0; i < n; i++ {
		rad := 0.3
		if i%2 == 1 {
			rad, y[i] = 1, 1
		}
		th := 2 * math.Pi * uniform(r)
		rad += 0.05 * (uniform(r) - 0.5)
		X[2*i], X[2*i+1] = rad*math.Cos(th), rad*math.Sin(th)
	}
	g, err := KernelKMeans(gaussGram(X, n, 2, 0.3), n, opts(2))
	if err != nil {
		t.Fatal(err)
	}
	if a := ari(g.Labels, y); a < 0.99 {
		t.Fatalf("gauss: ARI %v", a)
	}
	l, err := KernelKMeans(linearGram(X, n, 2), n, opts(2))
	if err != nil {
		t.Fatal(err)
	}
	if a := ari(l.Labels, y); a > 0.5 {
		t.Fatalf("linear: ARI %v, want a split that ignores the rings", a)
	}
}

// TestNearestOfStoredObject: a stored object placed as a new one lands in
// its own cluster at its own distance.
func TestNearestOfStoredObject(t *testing.T) {
	X, _ := blobs([][2]float64{{0, 0}, {4, 1}, {1, 5}}, 30, 2, 5)
	n := len(X) / 2
	K := gaussGram(X, n, 2, 2)
	res, err := KernelKMeans(K, n, opts(3))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		c, d := Nearest(K[i*n:(i+1)*n], K[i*n+i], res)
		if c != res.Labels[i] || math.Abs(d-res.Dist2[i]) > 1e-12 {
			t.Fatalf("object %d: nearest %d at %v, stored %d at %v", i, c, d, res.Labels[i], res.Dist2[i])
		}
	}
}

// TestEmptyClustersReseeded: with fewer distinct points than clusters,
// every cluster still gets an object and the objective is 0.
func TestEmptyClustersReseeded(t *testing.T) {
	for _, X := range [][]float64{
		{1, 1, 1, 1, 1, 1},
		{0, 0, 0, 5, 5, 5, 5},
	} {
		n := len(X)
		for _, k := range []int{2, 3, n} {
			res, err := KernelKMeans(linearGram(X, n, 1), n, opts(k))
			if err != nil {
				t.Fatal(err)
			}
			for c, s := range res.Sizes {
				if s == 0 {
					t.Fatalf("%v k=%d: cluster %d empty", X, k, c)
				}
			}
			distinct := 1
			if X[0] != X[n-1] {
				distinct = 2
			}
			if k >= distinct && res.Objective != 0 {
				t.Fatalf("%v k=%d: objective %v", X, k, res.Objective)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	var pe *ParamError
	var nf *NonFiniteError
	var ne *NegativeError
	var ie *IsolatedError
	K := []float64{1, 0.5, 0.5, 1}
	for _, c := range []struct {
		name string
		err  func() error
		as   any
	}{
		{"k=0", func() error { _, err := KernelKMeans(K, 2, opts(0)); return err }, &pe},
		{"k>n", func() error { _, err := KernelKMeans(K, 2, opts(3)); return err }, &pe},
		{"k>n points", func() error { _, _, err := KMeans([]float64{1, 2}, 2, 1, opts(3)); return err }, &pe},
		{"restarts", func() error { o := opts(1); o.Restarts = 0; _, err := KernelKMeans(K, 2, o); return err }, &pe},
		{"NaN", func() error { _, err := KernelKMeans([]float64{1, math.NaN(), math.NaN(), 1}, 2, opts(1)); return err }, &nf},
		{"negative", func() error {
			_, err := Spectral([]float64{1, 1, -0.5, 1, 1, 1, -0.5, 1, 1}, 3, opts(2))
			return err
		}, &ne},
		{"isolated", func() error { _, err := Spectral([]float64{1, 1, 0, 1, 1, 0, 0, 0, 1}, 3, opts(2)); return err }, &ie},
		{"spectral k>n", func() error { _, err := Spectral([]float64{1, 1, 1, 1}, 2, opts(3)); return err }, &pe},
	} {
		err := c.err()
		if err == nil || !errors.As(err, c.as) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := Spectral([]float64{1, 1, -0.5, 1, 1, 1, -0.5, 1, 1}, 3, opts(2)); errors.As(err, &ne) && (ne.Row != 0 || ne.Col != 2) {
		t.Errorf("negative pair named (%d, %d), want (0, 2)", ne.Row, ne.Col)
	}
	if _, err := Spectral([]float64{1, 1, 0, 1, 1, 0, 0, 0, 1}, 3, opts(2)); errors.As(err, &ie) && ie.Row != 2 {
		t.Errorf("isolated object %d, want 2", ie.Row)
	}
}

// TestInterrupt: the fit stops with the interrupt's error, whichever poll
// it arrives at.
func TestInterrupt(t *testing.T) {
	X, _ := blobs([][2]float64{{0, 0}, {3, 0}, {0, 3}}, 100, 3, 4)
	n := len(X) / 2
	stop := errors.New("stop")
	for _, after := range []int{0, 1, 5, 40} {
		calls := 0
		o := opts(3)
		o.Interrupt = func() error {
			calls++
			if calls > after {
				return stop
			}
			return nil
		}
		if _, err := KernelKMeans(gaussGram(X, n, 2, 1), n, o); !errors.Is(err, stop) {
			t.Fatalf("kernel k-means, stop after %d polls: %v", after, err)
		}
		calls = 0
		if _, err := Spectral(gaussGram(X, n, 2, 1), n, o); !errors.Is(err, stop) {
			t.Fatalf("spectral, stop after %d polls: %v", after, err)
		}
	}
}

// TestSpectralSeparatesGroups: two chains of points, each tight along
// itself but longer than the gap between them, are split by spectral
// clustering on a narrow Gaussian affinity; the eigenvalues start at 1 and
// the second is near 1 (two nearly disconnected groups).
func TestSpectralSeparatesGroups(t *testing.T) {
	n := 120
	X, y := make([]float64, 2*n), make([]int, n)
	for i := 0; i < n; i++ {
		j := i / 2
		X[2*i], X[2*i+1] = float64(j)*0.1, 0
		if i%2 == 1 {
			X[2*i+1], y[i] = 1, 1
		}
	}
	res, err := Spectral(gaussGram(X, n, 2, 0.15), n, opts(2))
	if err != nil {
		t.Fatal(err)
	}
	if a := ari(res.Labels, y); a != 1 {
		t.Fatalf("ARI %v", a)
	}
	if math.Abs(res.Eigenvalues[0]-1) > 1e-9 || res.Eigenvalues[1] < 0.99 {
		t.Fatalf("eigenvalues %v", res.Eigenvalues)
	}
}

// TestLloydFixedPoint: on overlapping blobs, where Lloyd's passes late in
// a restart move few objects (the kernel sums are then updated, not
// recomputed), the result is a fixed point checked from the points alone:
// every point is nearest its own cluster's mean, and the objective is the
// labels' inertia; k-means on the points reaches the same objective.
func TestLloydFixedPoint(t *testing.T) {
	X, _ := blobs([][2]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}, {1, 1}}, 120, 3, 11)
	n := len(X) / 2
	res, err := KernelKMeans(linearGram(X, n, 2), n, opts(5))
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations < 5 {
		t.Fatalf("only %d passes: the data should need more", res.Iterations)
	}
	means := make([]float64, 10)
	for i, l := range res.Labels {
		means[2*l] += X[2*i] / float64(res.Sizes[l])
		means[2*l+1] += X[2*i+1] / float64(res.Sizes[l])
	}
	for i, l := range res.Labels {
		own := dist2(X[2*i:2*i+2], means[2*l:2*l+2])
		for c := 0; c < 5; c++ {
			if d := dist2(X[2*i:2*i+2], means[2*c:2*c+2]); d < own-1e-9 {
				t.Fatalf("point %d in cluster %d at %v, but cluster %d is at %v", i, l, own, c, d)
			}
		}
	}
	if own := inertia(X, n, 2, res.Labels); math.Abs(own-res.Objective) > 1e-9*own {
		t.Fatalf("objective %v, labels' inertia %v", res.Objective, own)
	}
	pts, _, err := KMeans(X, n, 2, opts(5))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pts.Objective-res.Objective) > 1e-6*res.Objective {
		t.Fatalf("k-means on the points %v, linear kernel k-means %v", pts.Objective, res.Objective)
	}
}
