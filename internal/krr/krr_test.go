package krr

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"
)

type refCase struct {
	Kernel string    `json:"kernel"`
	Alpha  float64   `json:"alpha"`
	Train  []float64 `json:"train"`
	Test   []float64 `json:"test"`
}

type ref struct {
	Cases []refCase `json:"cases"`
	KLMS  struct {
		Step      float64   `json:"step"`
		Epochs    int       `json:"epochs"`
		LambdaMax float64   `json:"lambda_max"`
		Beta      []float64 `json:"beta"`
		MSE       []float64 `json:"mse"`
		Test      []float64 `json:"test"`
	} `json:"klms"`
}

// wine loads testdata/wine.csv as make_ref.py does: the 12 columns after
// alcohol z-scored with the population standard deviation, alcohol the label.
func wine(t testing.TB) ([][]float64, []float64) {
	f, err := os.Open("testdata/wine.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = rows[1:]
	X := make([][]float64, len(rows))
	y := make([]float64, len(rows))
	for i, r := range rows {
		y[i], _ = strconv.ParseFloat(r[2], 64)
		for _, s := range r[3:] {
			v, _ := strconv.ParseFloat(s, 64)
			X[i] = append(X[i], v)
		}
	}
	d := len(X[0])
	for j := 0; j < d; j++ {
		var mean, sq float64
		for i := range X {
			mean += X[i][j]
		}
		mean /= float64(len(X))
		for i := range X {
			sq += (X[i][j] - mean) * (X[i][j] - mean)
		}
		sd := math.Sqrt(sq / float64(len(X)))
		for i := range X {
			X[i][j] = (X[i][j] - mean) / sd
		}
	}
	return X, y
}

func kernelFunc(name string) func(a, b []float64) float64 {
	return func(a, b []float64) float64 {
		var dot, d2 float64
		for i := range a {
			dot += a[i] * b[i]
			d2 += (a[i] - b[i]) * (a[i] - b[i])
		}
		if name == "rbf" {
			return math.Exp(-0.1 * d2)
		}
		return (dot + 1) * (dot + 1)
	}
}

func gram(k func(a, b []float64) float64, A, B [][]float64) []float64 {
	out := make([]float64, 0, len(A)*len(B))
	for _, a := range A {
		for _, b := range B {
			out = append(out, k(a, b))
		}
	}
	return out
}

func loadRef(t testing.TB) *ref {
	b, err := os.ReadFile("testdata/ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var r ref
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func near(t *testing.T, what string, got, want []float64, rel float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > rel*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("%s[%d] = %.15g, want %.15g", what, i, got[i], want[i])
		}
	}
}

func predictAll(c []float64, kz []float64, m int) []float64 {
	out := make([]float64, len(kz)/m)
	for i := range out {
		out[i] = Predict(c, kz[i*m:(i+1)*m])
	}
	return out
}

// TestAgainstScikitLearn: exact KRR equals KernelRidge(kernel='precomputed')
// for stored rows and new points, rbf and poly, two alphas, to 1e-8; and
// the Nyström solution with every row a landmark equals it too.
func TestAgainstScikitLearn(t *testing.T) {
	X, y := wine(t)
	tr, te := X[:150], X[150:]
	all := make([]int, 150)
	for i := range all {
		all[i] = i
	}
	for _, c := range loadRef(t).Cases {
		k := kernelFunc(c.Kernel)
		K := gram(k, tr, tr)
		coef, err := Fit(append([]float64(nil), K...), y[:150], c.Alpha)
		if err != nil {
			t.Fatal(err)
		}
		near(t, c.Kernel+" train", predictAll(coef, K, 150), c.Train, 1e-8)
		near(t, c.Kernel+" test", predictAll(coef, gram(k, te, tr), 150), c.Test, 1e-8)
		beta, err := FitNystrom(K, all, y[:150], c.Alpha)
		if err != nil {
			t.Fatal(err)
		}
		near(t, c.Kernel+" nystrom(all) test", predictAll(beta, gram(k, te, tr), 150), c.Test, 1e-6)
	}
}

// TestKLMSBatchAgainstNumpy: 50 batch epochs equal numpy's iterate, and
// the per-epoch MSE too; λ_max agrees with numpy's eigvalsh.
func TestKLMSBatchAgainstNumpy(t *testing.T) {
	X, y := wine(t)
	r := loadRef(t).KLMS
	K := gram(kernelFunc("rbf"), X[:150], X[:150])
	res, err := FitLMS(K, y[:150], r.Step, r.Epochs, Batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "beta", res.Beta, r.Beta, 1e-9)
	near(t, "mse", res.MSE, r.MSE, 1e-9)
	near(t, "test", predictAll(res.Beta, gram(kernelFunc("rbf"), X[150:], X[:150]), 150), r.Test, 1e-9)
	if math.Abs(res.MaxStable-2/r.LambdaMax) > 1e-5*res.MaxStable {
		t.Fatalf("largest stable step %v, want 2/λ_max = %v", res.MaxStable, 2/r.LambdaMax)
	}
}

// TestKLMSApproachesKRR: on a well-conditioned problem (K + I), many
// stable batch epochs converge to the KRR solution with alpha → 0 of the
// same matrix: Kβ → y.
func TestKLMSApproachesKRR(t *testing.T) {
	X, y := wine(t)
	n := 40
	K := gram(kernelFunc("rbf"), X[:n], X[:n])
	for i := 0; i < n; i++ {
		K[i*n+i] += 1
	}
	want, err := Fit(append([]float64(nil), K...), y[:n], 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(1)
	for _, epochs := range []int{10, 100, 2000} {
		res, err := FitLMS(K, y[:n], 1.0/(2/res0(t, K, y[:n])), epochs, Batch, nil)
		if err != nil {
			t.Fatal(err)
		}
		gap := 0.0
		for i := range want {
			gap = math.Max(gap, math.Abs(res.Beta[i]-want[i]))
		}
		if gap >= prev {
			t.Fatalf("%d epochs: gap %v did not shrink from %v", epochs, gap, prev)
		}
		prev = gap
	}
	if prev > 1e-6 {
		t.Fatalf("after 2000 epochs the gap to KRR is %v", prev)
	}
}

// res0 returns λ_max via a one-epoch fit's MaxStable.
func res0(t *testing.T, K, y []float64) float64 {
	res, err := FitLMS(K, y, 1e-12, 1, Batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.MaxStable
}

func TestKLMSDivergence(t *testing.T) {
	X, y := wine(t)
	K := gram(kernelFunc("rbf"), X[:50], X[:50])
	stable := res0(t, K, y[:50])
	var de *DivergenceError
	if _, err := FitLMS(K, y[:50], stable*1.01, 5, Batch, nil); !errors.As(err, &de) || de.MaxStable != stable {
		t.Fatalf("step above 2/λ_max: %v", err)
	}
	if _, err := FitLMS(K, y[:50], 50, 200, Online, nil); !errors.As(err, &de) || de.Epoch == 0 {
		t.Fatalf("online run with a huge step: %v", err)
	}
	res, err := FitLMS(K, y[:50], 0.5, 30, Online, nil)
	if err != nil || res.MSE[29] >= res.MSE[0] {
		t.Fatalf("online with a small step should lower the error: %v", err)
	}
}

func TestErrors(t *testing.T) {
	var pe *ParamError
	if _, err := Fit([]float64{1}, []float64{1}, 0); !errors.As(err, &pe) || pe.Name != "alpha" {
		t.Fatalf("alpha 0: %v", err)
	}
	if _, err := Fit([]float64{1}, []float64{1}, math.NaN()); !errors.As(err, &pe) {
		t.Fatalf("alpha NaN: %v", err)
	}
	var nf *NonFiniteError
	if _, err := Fit([]float64{1}, []float64{math.Inf(1)}, 1); !errors.As(err, &nf) || nf.What != "label" {
		t.Fatalf("Inf label: %v", err)
	}
	var se *SingularError
	if _, err := Fit([]float64{-5, 0, 0, -5}, []float64{1, 2}, 1); !errors.As(err, &se) {
		t.Fatalf("negative definite: %v", err)
	}
	if _, err := FitLMS([]float64{1}, []float64{1}, 0.1, 0, Batch, nil); !errors.As(err, &pe) || pe.Name != "epochs" {
		t.Fatalf("epochs 0: %v", err)
	}
}
