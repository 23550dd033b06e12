package krr

import (
	"encoding/csv"
	"github.com/ksql/ksql/internal/cputime"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
)

// tripledDigits is the digits three times over (raw pixels, copy c
// shifted by 0.01·c in every pixel) with their labels.
func tripledDigits(b testing.TB) ([]kernels.Object, []float64) {
	f, err := os.Open("../kpca/testdata/digits.csv")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	rows = rows[1:]
	objs, y := make([]kernels.Object, 3*len(rows)), make([]float64, 3*len(rows))
	for i := range objs {
		r, c := rows[i%len(rows)], float64(i/len(rows))
		v := make([]float64, 64)
		for j := range v {
			x, err := strconv.ParseFloat(r[2+j], 64)
			if err != nil {
				b.Fatal(err)
			}
			v[j] = x + 0.01*c
		}
		objs[i] = kernels.Object{Vec: kernels.Vec{F64: v}}
		if y[i], err = strconv.ParseFloat(r[1], 64); err != nil {
			b.Fatal(err)
		}
	}
	return objs, y
}

// BenchmarkFitPredict5391: exact krr on the digits three times over,
// gauss(sigma=√32) (rbf gamma 1/64), alpha = 1, fit and predict on its
// own rows, as testdata/bench_krr5391.py times scikit-learn's
// KernelRidge: the Gram matrix, the blocked Cholesky and solves, then the
// training predictions — "train" as the krr table makes them, Kc = y − αc
// exactly, "rows" from the kernel rows again (the fit overwrote them), as
// scikit-learn's predict(X) does. cpu/wall is CPU time over wall time.
func BenchmarkFitPredict5391(b *testing.B) {
	objs, y := tripledDigits(b)
	spec, err := kernels.Parse("gauss(sigma=" + strconv.FormatFloat(math.Sqrt(32), 'g', -1, 64) + ")")
	if err != nil {
		b.Fatal(err)
	}
	n := len(objs)
	K := make([]float64, n*n)
	const alpha = 1.0
	for _, again := range []bool{false, true} {
		name := map[bool]string{false: "train", true: "rows"}[again]
		b.Run(name, func(b *testing.B) {
			var mae float64
			cpu0 := cputime.Process().Seconds()
			for b.Loop() {
				if err := spec.Gram(objs, K, kernels.GramOptions{}); err != nil {
					b.Fatal(err)
				}
				c, err := Fit(K, y, alpha)
				if err != nil {
					b.Fatal(err)
				}
				if again {
					if err := spec.Cross(objs, objs, K, kernels.GramOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				mae = 0
				for i := range y {
					p := y[i] - alpha*c[i]
					if again {
						p = Predict(c, K[i*n:(i+1)*n])
					}
					mae += math.Abs(p - y[i])
				}
				mae /= float64(n)
			}
			b.ReportMetric(mae, "trainMAE")
			b.ReportMetric((cputime.Process().Seconds()-cpu0)/b.Elapsed().Seconds(), "cpu/wall")
		})
	}
}
