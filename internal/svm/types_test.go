package svm

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
)

// typesRef is testdata/ref_types.json, a copy of
// sqltests/testdata/ref_svm_types.json (made by make_svm_types.py there
// with scikit-learn 1.2.1).
type typesRef struct {
	Blobs, Wave struct {
		X    [][]float64 `json:"x"`
		Y    []float64   `json:"y"`
		NewX [][]float64 `json:"new_x"`
	}
	Cases map[string]typeCase `json:"cases"`
}

type typeCase struct {
	Data        string          `json:"data"`
	Type        string          `json:"type"`
	Nu          float64         `json:"nu"`
	C           float64         `json:"C"`
	Epsilon     float64         `json:"epsilon"`
	Support     []int           `json:"support"`
	NSupport    []int           `json:"n_support"`
	DualCoef    [][]float64     `json:"dual_coef"`
	Intercept   []float64       `json:"intercept"`
	NIter       []int           `json:"n_iter"`
	Decision    json.RawMessage `json:"decision"`
	NewDecision json.RawMessage `json:"new_decision"`
	Predict     []float64       `json:"predict"`
	NewPredict  []float64       `json:"new_predict"`
}

func loadTypesRef(t testing.TB) *typesRef {
	t.Helper()
	b, err := os.ReadFile("testdata/ref_types.json")
	if err != nil {
		t.Fatal(err)
	}
	var r typesRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// decisions reads a decision_function: one value per row, or a row of
// one-vs-one values.
func decisions(t testing.TB, raw json.RawMessage) [][]float64 {
	t.Helper()
	var flat []float64
	if err := json.Unmarshal(raw, &flat); err == nil {
		out := make([][]float64, len(flat))
		for i, v := range flat {
			out[i] = []float64{v}
		}
		return out
	}
	var rows [][]float64
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// fitCase fits a vector case of the reference on its data.
func fitCase(t testing.TB, r *typesRef, c typeCase, opt Options) (*Model, *gaussKernel, [][]float64, [][]float64) {
	t.Helper()
	m, k, x, newX, err := fitCaseErr(r, c, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m, k, x, newX
}

func fitCaseErr(r *typesRef, c typeCase, opt Options) (*Model, *gaussKernel, [][]float64, [][]float64, error) {
	x, y, newX := r.Blobs.X, r.Blobs.Y, r.Blobs.NewX
	if c.Data == "wave" {
		x, y, newX = r.Wave.X, r.Wave.Y, r.Wave.NewX
	}
	if c.Data == "blobs2" {
		x, y = x[:80], y[:80]
	}
	k := newGauss(x, 1)
	opt.Tol, opt.Nu, opt.C, opt.Epsilon = 1e-3, c.Nu, c.C, c.Epsilon
	var m *Model
	var err error
	switch c.Type {
	case "nu_svc":
		opt.Type = NuSVC
		cls := make([]int, len(y))
		for i, v := range y {
			cls[i] = int(v)
		}
		m, err = Fit(k, cls, opt)
	case "one_class":
		opt.Type = OneClass
		m, err = FitOneClass(k, len(x), opt)
	case "eps_svr", "nu_svr":
		opt.Type = map[string]Type{"eps_svr": EpsilonSVR, "nu_svr": NuSVR}[c.Type]
		m, err = FitRegression(k, y, opt)
	}
	return m, k, x, newX, err
}

// TestTypesInterrupt: an interrupt stops a fit of every type inside the
// solver (past the n polls of the diagonal), and the fit returns the
// interrupt's error as is.
func TestTypesInterrupt(t *testing.T) {
	r := loadTypesRef(t)
	stop := errors.New("stop")
	for _, name := range []string{"nu_svc3", "one_class", "eps_svr", "nu_svr"} {
		t.Run(name, func(t *testing.T) {
			calls := 0
			opt := Options{Interrupt: func() error {
				if calls++; calls > 140 { // 120 or 100 rows' diagonal, then the solver
					return stop
				}
				return nil
			}}
			if _, _, _, _, err := fitCaseErr(r, r.Cases[name], opt); err != stop {
				t.Fatalf("error %v after %d polls, want the interrupt's", err, calls)
			}
		})
	}
}

// TestTypesAgainstScikitLearn: NuSVC (three and two classes), OneClassSVM,
// SVR and NuSVR on the reference data take scikit-learn's iterations, keep
// its support vectors with its dual coefficients and intercepts (to 1e-9),
// and give its decision values (to 1e-6 of their range) and predictions
// on the training rows and on new points.
func TestTypesAgainstScikitLearn(t *testing.T) {
	r := loadTypesRef(t)
	for _, name := range []string{"nu_svc3", "nu_svc2", "one_class", "eps_svr", "nu_svr"} {
		c := r.Cases[name]
		t.Run(name, func(t *testing.T) {
			m, k, x, newX := fitCase(t, r, c, Options{})
			if len(m.Warnings) != 0 {
				t.Fatalf("warnings %v", m.Warnings)
			}
			for p, pr := range m.Pairs {
				if pr.Iterations != c.NIter[p] {
					t.Errorf("pair %d: %d iterations, scikit-learn %d", p, pr.Iterations, c.NIter[p])
				}
			}
			if len(m.Support) != len(c.Support) {
				t.Fatalf("%d support vectors, scikit-learn %d", len(m.Support), len(c.Support))
			}
			for s := range m.Support {
				if m.Support[s] != c.Support[s] {
					t.Fatalf("support vector %d is row %d, scikit-learn %d", s, m.Support[s], c.Support[s])
				}
				for q := range m.DualCoef {
					if d := math.Abs(m.DualCoef[q][s] - c.DualCoef[q][s]); d > 1e-9*max(1, c.C) {
						t.Fatalf("dual coef [%d][%d] = %v, scikit-learn %v", q, s, m.DualCoef[q][s], c.DualCoef[q][s])
					}
				}
			}
			for q := range m.Intercept {
				if d := math.Abs(m.Intercept[q] - c.Intercept[q]); d > 1e-9 {
					t.Errorf("intercept %d = %v, scikit-learn %v", q, m.Intercept[q], c.Intercept[q])
				}
			}
			dec, newDec := c.Decision, c.NewDecision
			if m.Type.Regression() { // SVR has no decision_function: predict is its value
				dec, _ = json.Marshal(c.Predict)
				newDec, _ = json.Marshal(c.NewPredict)
			}
			checkTypeAnswers(t, k, m, x, decisions(t, dec), c.Predict)
			checkTypeAnswers(t, k, m, newX, decisions(t, newDec), c.NewPredict)
		})
	}
}

// checkTypeAnswers compares decisions and predictions of objects zs.
func checkTypeAnswers(t *testing.T, k *gaussKernel, m *Model, zs [][]float64, dec [][]float64, pred []float64) {
	t.Helper()
	np := m.NumPairs()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range dec {
		for _, v := range row {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	kv := make([]float64, len(m.Support))
	got := make([]float64, np)
	for i, z := range zs {
		for s, r := range m.Support {
			kv[s] = k.eval(z, r)
		}
		if err := m.DecisionBatch(kv, got); err != nil {
			t.Fatal(err)
		}
		for p, v := range got {
			if d := math.Abs(v - dec[i][p]); d > 1e-6*(hi-lo) {
				t.Fatalf("object %d: decision %d = %v, scikit-learn %v", i, p, v, dec[i][p])
			}
		}
		var want float64
		switch {
		case m.Type.Regression():
			want = got[0]
		case m.Type == OneClass:
			want = float64(2*m.Vote(got) - 1)
		default:
			want = float64(m.Vote(got))
		}
		if m.Type.Regression() {
			if math.Abs(want-pred[i]) > 1e-6*(hi-lo) {
				t.Fatalf("object %d: prediction %v, scikit-learn %v", i, want, pred[i])
			}
		} else if want != pred[i] {
			t.Fatalf("object %d: prediction %v, scikit-learn %v", i, want, pred[i])
		}
	}
}

// TestTypesBadOptions: each type's options out of range are typed errors.
func TestTypesBadOptions(t *testing.T) {
	k := newGauss([][]float64{{0}, {1}, {2}, {3}, {4}, {5}}, 1)
	cls := []int{0, 0, 0, 0, 0, 1}
	y := []float64{0, 1, 2, 3, 4, 5}
	cases := []struct {
		name  string
		fit   func() error
		field string
	}{
		{"nu 0", func() error { _, err := Fit(k, cls, Options{Type: NuSVC, Nu: 0, Tol: 1e-3}); return err }, "Nu"},
		{"nu > 1", func() error { _, err := FitOneClass(k, 6, Options{Type: OneClass, Nu: 1.5, Tol: 1e-3}); return err }, "Nu"},
		{"nu NaN", func() error {
			_, err := FitRegression(k, y, Options{Type: NuSVR, C: 1, Nu: math.NaN(), Tol: 1e-3})
			return err
		}, "Nu"},
		{"epsilon < 0", func() error {
			_, err := FitRegression(k, y, Options{Type: EpsilonSVR, C: 1, Epsilon: -0.1, Tol: 1e-3})
			return err
		}, "Epsilon"},
		{"svr without C", func() error { _, err := FitRegression(k, y, Options{Type: EpsilonSVR, Tol: 1e-3}); return err }, "C"},
		{"class weight on nu_svc", func() error {
			_, err := Fit(k, cls, Options{Type: NuSVC, Nu: 0.1, Tol: 1e-3, ClassWeight: []float64{1, 1}})
			return err
		}, "ClassWeight"},
		{"regression type to Fit", func() error { _, err := Fit(k, cls, Options{Type: NuSVR, C: 1, Nu: 0.5, Tol: 1e-3}); return err }, "Type"},
		{"classifier to FitRegression", func() error { _, err := FitRegression(k, y, Options{C: 1, Tol: 1e-3}); return err }, "Type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var pe *ParamError
			if err := tc.fit(); !errors.As(err, &pe) || pe.Name != tc.field {
				t.Fatalf("error %v, want a ParamError on %s", err, tc.field)
			}
		})
	}
	// One row of class 1 in six: ν·(5+1)/2 ≤ 1 needs ν ≤ 1/3.
	_, err := Fit(k, cls, Options{Type: NuSVC, Nu: 0.34, Tol: 1e-3})
	var ne *NuInfeasibleError
	if !errors.As(err, &ne) || ne.A != 0 || ne.B != 1 || ne.CountA != 5 || ne.CountB != 1 {
		t.Fatalf("ν = 0.34: error %v, want NuInfeasibleError for classes 0 (5 rows) and 1 (1 row)", err)
	}
	if _, err := Fit(k, cls, Options{Type: NuSVC, Nu: 1.0 / 3, Tol: 1e-3}); err != nil {
		t.Fatalf("ν = 1/3 is feasible: %v", err)
	}
	// ν = 1 puts every one-class α at its bound: ρ is infinite.
	_, err = FitOneClass(k, 6, Options{Type: OneClass, Nu: 1, Tol: 1e-3})
	var re *RhoError
	if !errors.As(err, &re) || !math.IsInf(re.Rho, 1) {
		t.Fatalf("one-class ν = 1: error %v, want RhoError with ρ = +Inf", err)
	}
	// ν at its bound 1/2 for classes of three rows and one, linear kernel
	// (svm_types.test's case, on which scikit-learn fails): r = +Inf.
	xs := []float64{-2, -1, 1, -3}
	lin := KernelFunc(func(i int, idx []int, dst []float64) error {
		for t, j := range idx {
			dst[t] = xs[i] * xs[j]
		}
		return nil
	})
	_, err = Fit(lin, []int{0, 0, 1, 0}, Options{Type: NuSVC, Nu: 0.5, Tol: 1e-9})
	var me *NuMarginError
	if !errors.As(err, &me) || me.A != 0 || me.B != 1 {
		t.Fatalf("ν at the bound: error %v, want NuMarginError for classes 0 and 1", err)
	}
	_, err = FitRegression(k, []float64{0, 1, math.Inf(1), 3, 4, 5}, Options{Type: EpsilonSVR, C: 1, Tol: 1e-3})
	var te *TargetError
	if !errors.As(err, &te) || te.Row != 2 {
		t.Fatalf("infinite target: error %v", err)
	}
}

// TestTypesSameBitsAnyCacheOrWorkers: a cache of two columns and four
// workers (which split the columns of the one problem) give the same
// coefficients and intercepts, to the bit, as the defaults.
func TestTypesSameBitsAnyCacheOrWorkers(t *testing.T) {
	r := loadTypesRef(t)
	for _, name := range []string{"nu_svc3", "one_class", "eps_svr", "nu_svr"} {
		t.Run(name, func(t *testing.T) {
			a, _, _, _ := fitCase(t, r, r.Cases[name], Options{})
			b, _, _, _ := fitCase(t, r, r.Cases[name], Options{CacheBytes: 1, Workers: 4})
			if a.Iterations() != b.Iterations() || len(a.Support) != len(b.Support) {
				t.Fatalf("iterations %d vs %d, support vectors %d vs %d", a.Iterations(), b.Iterations(), len(a.Support), len(b.Support))
			}
			for q := range a.DualCoef {
				for s := range a.DualCoef[q] {
					if a.DualCoef[q][s] != b.DualCoef[q][s] {
						t.Fatalf("dual coef [%d][%d]: %v vs %v", q, s, a.DualCoef[q][s], b.DualCoef[q][s])
					}
				}
			}
			for q := range a.Intercept {
				if a.Intercept[q] != b.Intercept[q] {
					t.Fatalf("intercept %d: %v vs %v", q, a.Intercept[q], b.Intercept[q])
				}
			}
		})
	}
}
