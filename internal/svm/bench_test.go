package svm

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"
)

// The scikit-learn side of these benchmarks is testdata/bench_sklearn.py
// (same data, C, gamma and tol); figures side by side are in the note.

// benchFit also reports the time spent in the kernel callback (summed over
// workers), so that the solver's own share is known.
func benchFit(b *testing.B, x [][]float64, y []int, sigma float64, opt Options) {
	k := newGauss(x, sigma)
	var inKernel atomic.Int64
	timed := KernelFunc(func(i int, idx []int, dst []float64) error {
		t0 := time.Now()
		err := k.Column(i, idx, dst)
		inKernel.Add(int64(time.Since(t0)))
		return err
	})
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			o := opt
			o.Workers = workers
			var m *Model
			inKernel.Store(0)
			for b.Loop() {
				var err error
				if m, err = Fit(timed, y, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(m.Iterations()), "iterations")
			b.ReportMetric(float64(len(m.Support)), "SVs")
			b.ReportMetric(float64(inKernel.Load())/float64(b.N)/1e6, "kernel-ms/op")
		})
	}
}

// BenchmarkFitDigits: 1,797 digits, 10 classes (45 pairs), raw pixels.
func BenchmarkFitDigits(b *testing.B) {
	x, y := loadDigits(b)
	benchFit(b, x, y, math.Sqrt(500), Options{C: 1, Tol: 1e-5})
}

// BenchmarkFitSpam: 4,601 standardised spam rows, two classes.
func BenchmarkFitSpam(b *testing.B) {
	x, y := loadSpam(b)
	benchFit(b, x, y, math.Sqrt(28.5), Options{C: 5, Tol: 1e-5})
}

// benchPredict predicts the first 1,000 rows: kernel values against the
// support vectors, decision values and votes (what SVC.predict does).
func benchPredict(b *testing.B, x [][]float64, y []int, sigma float64, opt Options) {
	k := newGauss(x, sigma)
	m, err := Fit(k, y, opt)
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	sv := newGauss(nil, sigma)
	sv.d = k.d
	for _, r := range m.Support {
		sv.x = append(sv.x, k.row(r)...)
	}
	ns, np := len(m.Support), m.NumPairs()
	kv := make([]float64, n*ns)
	dec := make([]float64, n*np)
	classes := make([]int, n)
	for b.Loop() {
		for i := 0; i < n; i++ {
			z, row := x[i], kv[i*ns:(i+1)*ns]
			for s := range row {
				row[s] = math.Exp(-sv.gamma * sqDist(z, sv.row(s)))
			}
		}
		if err := m.PredictBatch(kv, dec, classes); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPredictDigits1000(b *testing.B) {
	x, y := loadDigits(b)
	benchPredict(b, x, y, math.Sqrt(500), Options{C: 1, Tol: 1e-5})
}

func BenchmarkPredictSpam1000(b *testing.B) {
	x, y := loadSpam(b)
	benchPredict(b, x, y, math.Sqrt(28.5), Options{C: 5, Tol: 1e-5})
}
