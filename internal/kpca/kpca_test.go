package kpca

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type refCase struct {
	name   string
	file   string
	x      func(t testing.TB) [][]float64
	kernel kernelFunc
}

func irisX(t testing.TB) [][]float64 { return loadCSV(t, "iris.csv", 1, 5, 1) }

func digitsX(t testing.TB) [][]float64 { return loadCSV(t, "digits.csv", 2, 66, 1.0/16) }

var refCases = []refCase{
	{"iris gauss(sigma=1) k=3", "ref_iris.json", irisX, gauss(1)},
	{"digits[:500]/16 poly(degree=3, r=1) k=5", "ref_digits.json", func(t testing.TB) [][]float64 { return digitsX(t)[:500] }, poly(3, 1)},
}

// TestSklearnReference compares eigenvalues, explained ratios and the
// projections of training rows and new points with scikit-learn's
// KernelPCA(eigen_solver='dense') (testdata/make_ref.py), with both solvers.
// Projections must agree to 1e-6 of each component's largest |value|, and
// the sign rule must pick scikit-learn's signs.
func TestSklearnReference(t *testing.T) {
	for _, c := range refCases {
		ref := loadRef(t, c.file)
		X := c.x(t)
		K := gram(X, c.kernel)
		for _, solver := range []Solver{Dense, Lanczos} {
			t.Run(c.name+"/"+solver.String(), func(t *testing.T) {
				m, err := Fit(copySym(K), Options{Components: ref.Components, Solver: solver})
				if err != nil {
					t.Fatal(err)
				}
				if m.Solver != solver.String() {
					t.Errorf("solver %q, want %q", m.Solver, solver)
				}
				var worstEig float64
				for j, want := range ref.Eigenvalues {
					e := relErr(m.Eigenvalues[j], want)
					worstEig = math.Max(worstEig, e)
					if e > 1e-6 {
						t.Errorf("eigenvalue %d: got %.15g, want %.15g", j+1, m.Eigenvalues[j], want)
					}
					if e := relErr(m.ExplainedRatio[j], ref.ExplainedRatio[j]); e > 1e-6 {
						t.Errorf("explained ratio %d: got %.15g, want %.15g", j+1, m.ExplainedRatio[j], ref.ExplainedRatio[j])
					}
				}
				if e := relErr(m.Trace, ref.Trace); e > 1e-9 {
					t.Errorf("trace %.15g, want %.15g", m.Trace, ref.Trace)
				}
				train := func(i int) []float64 { return m.Projection(i, nil) }
				worstTrain, signs := compareColumns(t, "training rows", train, ref.Train, ref.Components, 1e-6)
				for j, s := range signs {
					if s < 0 {
						t.Errorf("component %d: the sign rule disagrees with scikit-learn's svd_flip", j+1)
					}
				}
				newProj := make([][]float64, len(ref.NewX))
				for i, z := range ref.NewX {
					if newProj[i], err = m.Project(kernelRow(X, z, c.kernel), nil); err != nil {
						t.Fatal(err)
					}
				}
				worstNew, _ := compareColumns(t, "new points", func(i int) []float64 { return newProj[i] }, ref.New, ref.Components, 1e-6)
				t.Logf("%s, %d products: worst relative error: eigenvalues %.1e, training rows %.1e, new points %.1e",
					m.Solver, m.Products, worstEig, worstTrain, worstNew)
			})
		}
	}
}

// TestProjectTrainingRow: projecting a training object as if it were new
// gives its stored projection sqrt(λ_j)·v_ij (K̃α_j = λ_j α_j).
func TestProjectTrainingRow(t *testing.T) {
	X := digitsX(t)[:300]
	K := gram(X, gauss(1))
	m, err := Fit(copySym(K), Options{Components: 6})
	if err != nil {
		t.Fatal(err)
	}
	if m.Solver != "lanczos" {
		t.Errorf("auto chose %s at n=300, k=6", m.Solver)
	}
	dst := make([]float64, 6)
	for _, i := range []int{0, 17, 299} {
		got, err := m.Project(kernelRow(X, X[i], gauss(1)), dst)
		if err != nil {
			t.Fatal(err)
		}
		want := m.Projection(i, nil)
		for j := range want {
			if math.Abs(got[j]-want[j]) > 1e-9*math.Sqrt(m.Eigenvalues[j]) {
				t.Errorf("row %d component %d: Project %.15g, Projection %.15g", i, j, got[j], want[j])
			}
		}
	}
}

// TestCentering checks CenterGram and CenterRow against explicit centring
// in feature space for the linear kernel, whose features are the vectors
// themselves: k̃(a, b) = ⟨a − μ, b − μ⟩.
func TestCentering(t *testing.T) {
	X := loadCSV(t, "iris.csv", 1, 5, 1)
	mu := make([]float64, 4)
	for _, x := range X {
		for d, v := range x {
			mu[d] += v / float64(len(X))
		}
	}
	sub := func(a []float64) []float64 {
		out := make([]float64, len(a))
		for d := range a {
			out[d] = a[d] - mu[d]
		}
		return out
	}
	K := gram(X, linear)
	c, err := CenterGram(K)
	if err != nil {
		t.Fatal(err)
	}
	for i := range X {
		for j := range X {
			want := dot(sub(X[i]), sub(X[j]))
			if math.Abs(K.At(i, j)-want) > 1e-12*50 {
				t.Fatalf("K̃(%d,%d) = %.15g, want %.15g", i, j, K.At(i, j), want)
			}
		}
	}
	z := []float64{6.1, 2.2, 4.4, 1.9}
	kz := kernelRow(X, z, linear)
	if err := c.CenterRow(kz, kz); err != nil {
		t.Fatal(err)
	}
	for i := range X {
		if want := dot(sub(X[i]), sub(z)); math.Abs(kz[i]-want) > 1e-12*50 {
			t.Fatalf("k̃(x_%d, z) = %.15g, want %.15g", i, kz[i], want)
		}
	}
	if c.N() != 150 || len(c.ColumnMeans()) != 150 {
		t.Errorf("N = %d", c.N())
	}
	if err := c.CenterRow(make([]float64, 3), make([]float64, 3)); err == nil || !strings.Contains(err.Error(), "150") {
		t.Errorf("short row: %v", err)
	}
	bad := make([]float64, 150)
	bad[7] = math.NaN()
	if err := c.CenterRow(bad, bad); err == nil || !strings.Contains(err.Error(), "kernel value 7") {
		t.Errorf("NaN row: %v", err)
	}
}

// compErr checks a *ComponentsError's fields, which callers word.
func compErr(requested, objects, rank int) func(error) bool {
	return func(err error) bool {
		var e *ComponentsError
		return errors.As(err, &e) && e.Requested == requested && e.Objects == objects && e.Rank == rank
	}
}

// nonFiniteAt checks a *NonFiniteError's entry.
func nonFiniteAt(row, col int) func(error) bool {
	return func(err error) bool {
		var e *NonFiniteError
		return errors.As(err, &e) && e.Row == row && e.Col == col && e.Landmark == -1
	}
}

func constMatrix(n int, v float64) *mat.SymDense {
	K := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			K.SetSym(i, j, v)
		}
	}
	return K
}

func TestFitErrors(t *testing.T) {
	iris := loadCSV(t, "iris.csv", 1, 5, 1)
	negLinear := gram(iris, func(a, b []float64) float64 { return -dot(a, b) })
	withNaN := gram(iris[:10], gauss(1))
	withNaN.SetSym(2, 5, math.NaN())
	withInf := gram(iris[:10], gauss(1))
	withInf.SetSym(3, 3, math.Inf(1))
	twoBad := gram(digitsX(t)[:600], gauss(1)) // n ≥ 512: the parallel centring
	twoBad.SetSym(400, 590, math.Inf(-1))
	twoBad.SetSym(7, 599, math.NaN())
	huge := constMatrix(20, 1e308)
	huge.SetSym(0, 1, 0)
	stop := errors.New("stop now")
	cases := []struct {
		name  string
		K     *mat.SymDense
		opt   Options
		want  string
		check func(error) bool
	}{
		{"no objects", nil, Options{Components: 1}, "no objects", func(e error) bool { return errors.Is(e, ErrNoObjects) }},
		{"no objects (empty matrix)", &mat.SymDense{}, Options{Components: 1}, "no objects", nil},
		{"zero components", gram(iris, gauss(1)), Options{Components: 0}, "0 components requested: at least 1", compErr(0, 150, -1)},
		{"negative components", gram(iris, gauss(1)), Options{Components: -2}, "-2 components requested", compErr(-2, 150, -1)},
		{"more components than objects", gram(iris[:3], gauss(1)), Options{Components: 5}, "5 components requested but there are only 3 objects (at most 2", compErr(5, 3, -1)},
		{"components = n", gram(iris[:3], gauss(1)), Options{Components: 3}, "at most 2 components", nil},
		{"one object", gram(iris[:1], gauss(1)), Options{Components: 1}, "only 1 object", nil},
		{"identical objects", constMatrix(20, 0.1), Options{Components: 1}, "identical", func(e error) bool { return errors.Is(e, ErrIdentical) }},
		{"identical objects, large n", constMatrix(300, 7.3), Options{Components: 2}, "identical", nil},
		{"rank 4 (linear on 4 features), dense", gram(iris, linear), Options{Components: 5, Solver: Dense}, "only 4 positive eigenvalues", nil},
		{"rank 4 (linear on 4 features), lanczos", gram(iris, linear), Options{Components: 5, Solver: Lanczos}, "only 4 positive eigenvalues", nil},
		{"negative definite", negLinear, Options{Components: 1, Solver: Dense}, "has only 0 positive eigenvalues (at most 0 components); the kernel is not positive semi-definite on this data (eigenvalue -", nil},
		{"negative definite, lanczos", negLinear, Options{Components: 1, Solver: Lanczos}, "not positive semi-definite", nil},
		{"NaN entry", withNaN, Options{Components: 1}, "entry (2, 5) is NaN", nonFiniteAt(2, 5)},
		{"Inf entry", withInf, Options{Components: 1}, "entry (3, 3) is +Inf", nil},
		{"two bad entries: the first in row order", twoBad, Options{Components: 1}, "entry (7, 599) is NaN", nonFiniteAt(7, 599)},
		{"row sums overflow", huge, Options{Components: 1}, "row sums of the Gram matrix overflow", nil},
		{"interrupt, dense", gram(iris, gauss(1)), Options{Components: 2, Solver: Dense, Interrupt: func() error { return stop }}, "stop now", func(e error) bool { return errors.Is(e, stop) }},
		{"interrupt, lanczos", gram(iris, gauss(1)), Options{Components: 2, Solver: Lanczos, Interrupt: func() error { return stop }}, "stop now", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Fit(copySym(c.K), c.opt)
			if err == nil {
				t.Fatalf("no error; eigenvalues %v", m.Eigenvalues)
			}
			t.Log(err)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
			if c.check != nil && !c.check(err) {
				t.Errorf("error %v has the wrong identity", err)
			}
		})
	}
}

// TestInterruptMidway: a Lanczos fit that is interrupted after a few
// products stops with the interrupt's error.
func TestInterruptMidway(t *testing.T) {
	X := digitsX(t)[:400]
	stop := errors.New("interrupted")
	calls := 0
	_, err := Fit(gram(X, gauss(1)), Options{Components: 5, Solver: Lanczos, Interrupt: func() error {
		calls++
		if calls > 5 {
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) || calls != 6 {
		t.Errorf("err %v after %d polls", err, calls)
	}
}

// TestIndefinite: a kernel that is not PSD but whose top eigenvalues are
// positive fits, reports a negative MinEigenvalue, and never gives NaN.
func TestIndefinite(t *testing.T) {
	X := loadCSV(t, "iris.csv", 1, 5, 1)
	// gauss(1) − 0.5·linear is indefinite.
	k := func(a, b []float64) float64 { return gauss(1)(a, b) - 0.05*dot(a, b) }
	K := gram(X, k)
	for _, s := range []Solver{Dense, Lanczos} {
		m, err := Fit(copySym(K), Options{Components: 2, Solver: s})
		if err != nil {
			t.Fatal(err)
		}
		if !(m.MinEigenvalue < -1) {
			t.Errorf("%s: MinEigenvalue %g, want clearly negative", s, m.MinEigenvalue)
		}
		p, err := m.Project(kernelRow(X, []float64{5, 3, 1, 0.2}, k), nil)
		if err != nil || math.IsNaN(p[0]) || math.IsNaN(p[1]) {
			t.Errorf("%s: projection %v, %v", s, p, err)
		}
	}
}

func TestProjectErrors(t *testing.T) {
	X := loadCSV(t, "iris.csv", 1, 5, 1)
	m, err := Fit(gram(X, gauss(1)), Options{Components: 2})
	if err != nil {
		t.Fatal(err)
	}
	kz := kernelRow(X, X[3], gauss(1))
	if _, err := m.Project(kz[:149], nil); err == nil || !strings.Contains(err.Error(), "got 149 kernel values") {
		t.Errorf("short: %v", err)
	}
	if _, err := m.Project(kz, make([]float64, 3)); err == nil {
		t.Errorf("wrong dst length accepted")
	}
	kz[10] = math.Inf(-1)
	if _, err := m.Project(kz, nil); err == nil || !strings.Contains(err.Error(), "kernel value 10") {
		t.Errorf("Inf: %v", err)
	}
}

// TestSmallN: both solvers agree down to n = 2 (where Lanczos spans the
// whole space), with k up to n − 1.
func TestSmallN(t *testing.T) {
	X := irisX(t)
	for n := 2; n <= 9; n++ {
		for k := 1; k < n; k++ {
			K := gram(X[45:45+n], gauss(1))
			d, err1 := Fit(copySym(K), Options{Components: k, Solver: Dense})
			l, err2 := Fit(copySym(K), Options{Components: k, Solver: Lanczos})
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("n=%d k=%d: dense %v, lanczos %v", n, k, err1, err2)
			}
			if err1 != nil {
				continue
			}
			for j := 0; j < k; j++ {
				if math.Abs(d.Eigenvalues[j]-l.Eigenvalues[j]) > 1e-12*d.Eigenvalues[0] {
					t.Errorf("n=%d k=%d eigenvalue %d: dense %.15g, lanczos %.15g", n, k, j, d.Eigenvalues[j], l.Eigenvalues[j])
				}
				for i := 0; i < n; i++ {
					if math.Abs(d.Projection(i, nil)[j]-l.Projection(i, nil)[j]) > 1e-9*math.Sqrt(d.Eigenvalues[0]) {
						t.Errorf("n=%d k=%d: projection (%d, %d) differs", n, k, i, j)
					}
				}
			}
		}
	}
}
