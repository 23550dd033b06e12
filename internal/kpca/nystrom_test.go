package kpca

import (
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/par"
)

// TestSplitMix64 pins the generator to the published reference outputs
// (Rosetta Code "Pseudo-random numbers/Splitmix64", seed 1234567; seed 0).
func TestSplitMix64(t *testing.T) {
	r := splitMix64{1234567}
	for i, want := range []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821} {
		if got := r.next(); got != want {
			t.Errorf("output %d: %d, want %d", i, got, want)
		}
	}
	if got := (&splitMix64{0}).next(); got != 0xe220a8397b1dcdaf {
		t.Errorf("seed 0: %#x", got)
	}
}

// TestSampleLandmarks pins the landmark choice (golden values: a change
// here changes every user's Nyström results) and checks its properties.
func TestSampleLandmarks(t *testing.T) {
	golden := []struct {
		n, m int
		seed uint64
		want []int
	}{
		{10, 3, 0, []int{2, 4, 8}},
		{1000, 8, 42, []int{41, 160, 223, 280, 346, 741, 802, 868}},
		{5, 9, 1, []int{0, 1, 2, 3, 4}},
	}
	for _, g := range golden {
		got, err := SampleLandmarks(g.n, g.m, g.seed)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, g.want) {
			t.Errorf("SampleLandmarks(%d, %d, %d) = %v, want %v", g.n, g.m, g.seed, got, g.want)
		}
	}
	// Every index is equally likely: over 4000 seeds each of 20 indices is
	// chosen 4000·5/20 = 1000 times on average (sd ≈ 27); allow 5 sd.
	counts := make([]int, 20)
	for seed := uint64(0); seed < 4000; seed++ {
		l, _ := SampleLandmarks(20, 5, seed)
		if len(l) != 5 || !slices.IsSorted(l) || len(slices.Compact(slices.Clone(l))) != 5 {
			t.Fatalf("seed %d: %v is not 5 distinct ascending indices", seed, l)
		}
		for _, i := range l {
			counts[i]++
		}
	}
	for i, c := range counts {
		if c < 865 || c > 1135 {
			t.Errorf("index %d chosen %d times, want about 1000", i, c)
		}
	}
	// The sparse shuffle is the whole-array one, as the comment above
	// writes it, for sizes where m is most and few of n.
	for _, c := range []struct{ n, m int }{{2, 1}, {7, 6}, {100, 99}, {1000, 37}, {100000, 500}} {
		for seed := uint64(0); seed < 5; seed++ {
			p := make([]int, c.n)
			for i := range p {
				p[i] = i
			}
			rng := splitMix64{seed}
			for i := 0; i < c.m; i++ {
				j := i + int(rng.below(uint64(c.n-i)))
				p[i], p[j] = p[j], p[i]
			}
			want := slices.Sorted(slices.Values(p[:c.m]))
			if got, _ := SampleLandmarks(c.n, c.m, seed); !slices.Equal(got, want) {
				t.Fatalf("SampleLandmarks(%d, %d, %d) = %v, the whole-array shuffle %v", c.n, c.m, seed, got, want)
			}
		}
	}
	for _, bad := range []struct{ n, m int }{{0, 3}, {10, 0}, {10, -1}} {
		if _, err := SampleLandmarks(bad.n, bad.m, 0); err == nil {
			t.Errorf("SampleLandmarks(%d, %d) accepted", bad.n, bad.m)
		}
	}
}

func rowFunc(X [][]float64, landmarks []int, k kernelFunc) RowFunc {
	return func(_, i int, dst []float64) error {
		for l, j := range landmarks {
			dst[l] = k(X[i], X[j])
		}
		return nil
	}
}

func allIndices(n int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = i
	}
	return l
}

// TestNystromAllLandmarksIsExact: with m = n the Nyström fit is exact
// kernel PCA: same eigenvalues, explained ratios, signs and projections.
func TestNystromAllLandmarksIsExact(t *testing.T) {
	for _, c := range refCases {
		t.Run(c.name, func(t *testing.T) {
			ref := loadRef(t, c.file)
			X := c.x(t)
			k := ref.Components
			exact, err := Fit(gram(X, c.kernel), Options{Components: k, Solver: Dense})
			if err != nil {
				t.Fatal(err)
			}
			L, _ := SampleLandmarks(len(X), len(X)+5, 3)
			ny, err := FitNystrom(len(X), L, rowFunc(X, L, c.kernel), Options{Components: k})
			if err != nil {
				t.Fatal(err)
			}
			if ny.Solver != "nystrom" || ny.BasisSize() != len(X) {
				t.Errorf("solver %s, basis %d", ny.Solver, ny.BasisSize())
			}
			for j := 0; j < k; j++ {
				if e := relErr(ny.Eigenvalues[j], exact.Eigenvalues[j]); e > 1e-9 {
					t.Errorf("eigenvalue %d: nyström %.15g, exact %.15g", j+1, ny.Eigenvalues[j], exact.Eigenvalues[j])
				}
				// The ratio's denominator, the trace of the features'
				// covariance, sums directions down to W's smallest kept
				// eigenvalue (m·ε·λ_max), where rounding in CᵀC is scaled
				// by 1/λ: a few 1e-9 on iris's singular Gram matrix.
				if e := relErr(ny.ExplainedRatio[j], exact.ExplainedRatio[j]); e > 1e-8 {
					t.Errorf("explained ratio %d: nyström %.15g, exact %.15g", j+1, ny.ExplainedRatio[j], exact.ExplainedRatio[j])
				}
			}
			want := make([][]float64, len(X))
			for i := range X {
				want[i] = exact.Projection(i, nil)
			}
			worst, signs := compareColumns(t, "training rows", func(i int) []float64 { return ny.Projection(i, nil) }, want, k, 1e-8)
			for j, s := range signs {
				if s < 0 {
					t.Errorf("component %d: sign differs from the exact fit's", j+1)
				}
			}
			newWant := make([][]float64, len(ref.NewX))
			newGot := make([][]float64, len(ref.NewX))
			for i, z := range ref.NewX {
				row := kernelRow(X, z, c.kernel)
				newWant[i], _ = exact.Project(row, nil)
				if newGot[i], err = ny.Project(row, nil); err != nil {
					t.Fatal(err)
				}
			}
			worstNew, _ := compareColumns(t, "new points", func(i int) []float64 { return newGot[i] }, newWant, k, 1e-8)
			t.Logf("worst relative difference from exact: training %.1e, new points %.1e", worst, worstNew)
		})
	}
}

// TestNystromMatchesBruteForce: with m < n landmarks the fit equals exact
// kernel PCA of the explicitly formed approximation K̂ = C·W⁺·Cᵀ, with W⁺
// from an SVD (another algorithm than FitNystrom's eigendecomposition), and
// new points projected through k̂(x_i, z) = c_iᵀ·W⁺·k_L(z).
func TestNystromMatchesBruteForce(t *testing.T) {
	X := digitsX(t)[:400]
	kern := gauss(2)
	L, err := SampleLandmarks(len(X), 60, 11)
	if err != nil {
		t.Fatal(err)
	}
	n, m, k := len(X), len(L), 4
	C := mat.NewDense(n, m, nil)
	for i := range X {
		for l, j := range L {
			C.Set(i, l, kern(X[i], X[j]))
		}
	}
	var svd mat.SVD
	W := mat.NewDense(m, m, nil)
	for a, la := range L {
		for b := range L {
			W.Set(a, b, C.At(la, b))
		}
	}
	if !svd.Factorize(W, mat.SVDFull) {
		t.Fatal("svd failed")
	}
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	s := svd.Values(nil)
	pinv := mat.NewDense(m, m, nil)
	for j := range s {
		if s[j] <= float64(m)*eps*s[0] {
			continue
		}
		for a := 0; a < m; a++ {
			for b := 0; b < m; b++ {
				pinv.Set(a, b, pinv.At(a, b)+v.At(a, j)*u.At(b, j)/s[j])
			}
		}
	}
	var CW mat.Dense
	CW.Mul(C, pinv)
	var Khat mat.Dense
	Khat.Mul(&CW, C.T())
	Ks := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			Ks.SetSym(i, j, (Khat.At(i, j)+Khat.At(j, i))/2)
		}
	}
	exact, err := Fit(Ks, Options{Components: k, Solver: Dense})
	if err != nil {
		t.Fatal(err)
	}
	ny, err := FitNystrom(n, L, rowFunc(X, L, kern), Options{Components: k, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ny.Landmarks(), L) {
		t.Errorf("landmarks %v", ny.Landmarks())
	}
	for j := 0; j < k; j++ {
		if e := relErr(ny.Eigenvalues[j], exact.Eigenvalues[j]); e > 1e-8 {
			t.Errorf("eigenvalue %d: nyström %.15g, brute force %.15g", j+1, ny.Eigenvalues[j], exact.Eigenvalues[j])
		}
	}
	want := make([][]float64, n)
	for i := range want {
		want[i] = exact.Projection(i, nil)
	}
	worst, _ := compareColumns(t, "training rows", func(i int) []float64 { return ny.Projection(i, nil) }, want, k, 1e-7)
	zs := [][]float64{digitsX(t)[1000], digitsX(t)[1500], make([]float64, 64)}
	for _, z := range zs {
		kL := make([]float64, m)
		for l, j := range L {
			kL[l] = kern(X[j], z)
		}
		var khat mat.VecDense
		khat.MulVec(&CW, mat.NewVecDense(m, kL))
		wantZ, _ := exact.Project(khat.RawVector().Data, nil)
		gotZ, err := ny.Project(kL, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j := range wantZ {
			if d := math.Abs(gotZ[j] - wantZ[j]); d > 1e-7*math.Sqrt(exact.Eigenvalues[j]) {
				t.Errorf("new point component %d: nyström %.12g, brute force %.12g", j+1, gotZ[j], wantZ[j])
			}
		}
	}
	t.Logf("worst training-row difference %.1e", worst)
}

func TestNystromErrors(t *testing.T) {
	X := loadCSV(t, "iris.csv", 1, 5, 1)
	L, _ := SampleLandmarks(150, 10, 1)
	ok := rowFunc(X, L, gauss(1))
	boom := errors.New("kernel exploded")
	var calls atomic.Int64
	cases := []struct {
		name string
		n    int
		L    []int
		row  RowFunc
		opt  Options
		want string
	}{
		{"no objects", 0, L, ok, Options{Components: 1}, "no objects"},
		{"no landmarks", 150, nil, ok, Options{Components: 1}, "no landmarks"},
		{"unsorted", 150, []int{5, 3, 9}, ok, Options{Components: 1}, "distinct and ascending"},
		{"duplicate", 150, []int{3, 3, 9}, ok, Options{Components: 1}, "distinct and ascending"},
		{"out of range", 150, []int{3, 150}, ok, Options{Components: 1}, "outside 0..149"},
		{"components > landmarks", 150, L, ok, Options{Components: 11}, "11 components requested but there are only 10 landmarks (at most 10 components)"},
		{"zero components", 150, L, ok, Options{Components: 0}, "0 components requested"},
		{"callback error", 150, L, func(_, i int, dst []float64) error {
			if i == 77 {
				return boom
			}
			return ok(0, i, dst)
		}, Options{Components: 2}, "kernel exploded"},
		{"NaN kernel value", 150, L, func(_, i int, dst []float64) error {
			err := ok(0, i, dst)
			if i == 140 {
				dst[4] = math.NaN()
			}
			return err
		}, Options{Components: 2}, "object 140 and landmark 4 is NaN"},
		{"rank 4 (linear)", 150, L, rowFunc(X, L, linear), Options{Components: 5}, "only 4 positive eigenvalues"},
		{"interrupt", 150, L, ok, Options{Components: 2, Interrupt: func() error {
			if calls.Add(1) > 1 {
				return boom
			}
			return nil
		}}, "kernel exploded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FitNystrom(c.n, c.L, c.row, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			} else {
				t.Log(err)
			}
		})
	}
}

// TestNystromWorkers: the row callback sees only worker numbers in
// [0, Workers) and every row exactly once.
func TestNystromWorkers(t *testing.T) {
	X := digitsX(t)[:700]
	L, _ := SampleLandmarks(len(X), 50, 5)
	seen := make([]atomic.Int32, len(X))
	inner := rowFunc(X, L, gauss(2))
	var badWorker atomic.Bool
	_, err := FitNystrom(len(X), L, func(w, i int, dst []float64) error {
		if w < 0 || w >= 3 {
			badWorker.Store(true)
		}
		seen[i].Add(1)
		return inner(w, i, dst)
	}, Options{Components: 3, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if badWorker.Load() {
		t.Error("a worker number outside [0, 3)")
	}
	for i := range seen {
		if seen[i].Load() != 1 {
			t.Fatalf("row %d computed %d times", i, seen[i].Load())
		}
	}
}

// TestNystromMatrix: kernel values computed beforehand give the fit that
// the row callback gives, bit for bit, and a non-finite value is reported
// with the object, the landmark and the landmark's object.
func TestNystromMatrix(t *testing.T) {
	X := loadCSV(t, "iris.csv", 1, 5, 1)
	L, _ := SampleLandmarks(len(X), 20, 3)
	row := rowFunc(X, L, gauss(1))
	C := make([]float64, len(X)*len(L))
	for i := range X {
		if err := row(0, i, C[i*len(L):(i+1)*len(L)]); err != nil {
			t.Fatal(err)
		}
	}
	bad := append([]float64(nil), C...)
	want, err := FitNystrom(len(X), L, row, Options{Components: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := FitNystromMatrix(C, L, Options{Components: 3})
	if err != nil {
		t.Fatal(err)
	}
	for j := range want.Eigenvalues {
		if got.Eigenvalues[j] != want.Eigenvalues[j] {
			t.Fatalf("eigenvalue %d: %v, want %v", j, got.Eigenvalues[j], want.Eigenvalues[j])
		}
	}
	for i := range X {
		for j := 0; j < 3; j++ {
			if g, w := got.ProjectionAt(i, j), want.Projection(i, nil)[j]; g != w {
				t.Fatalf("projection (%d, %d): %v, want %v", i, j, g, w)
			}
		}
	}
	bad[77*len(L)+5] = math.Inf(-1)
	_, err = FitNystromMatrix(bad, L, Options{Components: 3})
	var nf *NonFiniteError
	if !errors.As(err, &nf) || nf.Row != 77 || nf.Landmark != 5 || nf.Col != L[5] || !math.IsInf(nf.Value, -1) {
		t.Fatalf("non-finite value: %v (%+v)", err, nf)
	}
	var ce *ComponentsError
	if _, err := FitNystromMatrix(C, L, Options{Components: 21}); !errors.As(err, &ce) || !ce.TooFewLandmarks() || ce.Landmarks != 20 {
		t.Fatalf("21 components on 20 landmarks: %v", err)
	}
}

// TestNystromWorkerPanic: a row callback that panics in one worker makes
// FitNystrom return an error naming it, for every worker count, and the
// process (this test) goes on.
func TestNystromWorkerPanic(t *testing.T) {
	X := digitsX(t)[:300]
	L, _ := SampleLandmarks(len(X), 20, 5)
	inner := rowFunc(X, L, gauss(2))
	for _, workers := range []int{1, 2, 3} {
		_, err := FitNystrom(len(X), L, func(w, i int, dst []float64) error {
			if i == 200 {
				panic("injected failure in row 200")
			}
			return inner(w, i, dst)
		}, Options{Components: 3, Workers: workers})
		var pe *par.PanicError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "kpca.FitNystrom: ") ||
			!strings.Contains(err.Error(), "injected failure in row 200") {
			t.Errorf("workers=%d: got %v, want a panic error naming kpca.FitNystrom", workers, err)
		}
	}
}
