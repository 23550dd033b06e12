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
// support vectors (the callback's fast path), decision values and votes,
// what SVC.predict does. kernel-ms/op is the share of the kernel values.
func benchPredict(b *testing.B, x [][]float64, y []int, sigma float64, opt Options) {
	k := newGauss(x, sigma)
	m, err := Fit(k, y, opt)
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	svs := make([][]float64, len(m.Support))
	for s, r := range m.Support {
		svs[s] = x[r]
	}
	sv := newGauss(svs, sigma)
	ns, np := len(m.Support), m.NumPairs()
	kv := make([]float64, n*ns)
	dec := make([]float64, n*np)
	classes := make([]int, n)
	var inKernel time.Duration
	for b.Loop() {
		t0 := time.Now()
		for i := 0; i < n; i++ {
			sv.against(x[i], kv[i*ns:(i+1)*ns])
		}
		inKernel += time.Since(t0)
		if err := m.PredictBatch(kv, dec, classes); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(inKernel)/float64(b.N)/1e6, "kernel-ms/op")
}

func BenchmarkPredictDigits1000(b *testing.B) {
	x, y := loadDigits(b)
	benchPredict(b, x, y, math.Sqrt(500), Options{C: 1, Tol: 1e-5})
}

func BenchmarkPredictSpam1000(b *testing.B) {
	x, y := loadSpam(b)
	benchPredict(b, x, y, math.Sqrt(28.5), Options{C: 5, Tol: 1e-5})
}
