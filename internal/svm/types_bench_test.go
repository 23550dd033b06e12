package svm

import (
	"fmt"
	"github.com/ksql/ksql/internal/cputime"
	"math"
	"testing"
)

// The scikit-learn side of these benchmarks is
// testdata/bench_types_sklearn.py: the same digits, gamma = 0.001 (σ =
// √500), tol = 1e-3, fit and then predict every row.

// benchType fits all 1,797 digits with opt on one and two workers and answers
// every row: kernel values against the support vectors, then the decision
// values (fit + predict, as the script times).
func benchType(b *testing.B, opt Options) {
	x, cls := loadDigits(b)
	benchTypeOn(b, x, cls, math.Sqrt(500), opt)
}

// benchTypeSpam is benchType on the standardised spam (4,601 rows × 57), γ
// = 1/57 (σ = √(57/2)), as BenchmarkFitSpam; the regressions' target is
// the class (0 or 1).
func benchTypeSpam(b *testing.B, opt Options) {
	x, cls := loadSpam(b)
	benchTypeOn(b, x, cls, math.Sqrt(57.0/2), opt)
}

func benchTypeOn(b *testing.B, x [][]float64, cls []int, sigma float64, opt Options) {
	y := make([]float64, len(cls))
	for i, c := range cls {
		y[i] = float64(c)
	}
	k := newGauss(x, sigma)
	opt.Tol = 1e-3
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			o := opt
			o.Workers = workers
			var m *Model
			cpu0 := cputime.Process().Nanoseconds()
			for b.Loop() {
				var err error
				if m, err = fitPredict(k, x, cls, y, o); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, less disturbed than wall time on a shared machine.
			b.ReportMetric(float64(cputime.Process().Nanoseconds()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(m.Iterations()), "iterations")
			b.ReportMetric(float64(len(m.Support)), "SVs")
		})
	}
}

// fitPredict is one fit and the decision values of every row.
func fitPredict(k *gaussKernel, x [][]float64, cls []int, y []float64, opt Options) (*Model, error) {
	var m *Model
	var err error
	switch {
	case opt.Type == OneClass:
		m, err = FitOneClass(k, len(x), opt)
	case opt.Type.Regression():
		m, err = FitRegression(k, y, opt)
	default:
		m, err = Fit(k, cls, opt)
	}
	if err != nil {
		return nil, err
	}
	svs := make([][]float64, len(m.Support))
	for s, r := range m.Support {
		svs[s] = x[r]
	}
	sv := newGauss(svs, k.sigma)
	ns, np := len(m.Support), m.NumPairs()
	kv, dec := make([]float64, len(x)*ns), make([]float64, len(x)*np)
	for i := range x {
		sv.against(x[i], kv[i*ns:(i+1)*ns])
	}
	return m, m.DecisionBatch(kv, dec)
}

func BenchmarkNuSVCDigits(b *testing.B)    { benchType(b, Options{Type: NuSVC, Nu: 0.1}) }
func BenchmarkOneClassDigits(b *testing.B) { benchType(b, Options{Type: OneClass, Nu: 0.1}) }
func BenchmarkEpsSVRDigits(b *testing.B)   { benchType(b, Options{Type: EpsilonSVR, C: 1, Epsilon: 0.1}) }
func BenchmarkNuSVRDigits(b *testing.B)    { benchType(b, Options{Type: NuSVR, C: 1, Nu: 0.5}) }

func BenchmarkNuSVCSpam(b *testing.B)    { benchTypeSpam(b, Options{Type: NuSVC, Nu: 0.1}) }
func BenchmarkOneClassSpam(b *testing.B) { benchTypeSpam(b, Options{Type: OneClass, Nu: 0.1}) }
func BenchmarkEpsSVRSpam(b *testing.B) {
	benchTypeSpam(b, Options{Type: EpsilonSVR, C: 1, Epsilon: 0.1})
}
func BenchmarkNuSVRSpam(b *testing.B) { benchTypeSpam(b, Options{Type: NuSVR, C: 1, Nu: 0.5}) }
