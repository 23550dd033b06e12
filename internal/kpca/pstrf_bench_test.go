package kpca

import (
	"github.com/ksql/ksql/internal/cputime"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
)

// BenchmarkFitMap5391: the kernel_map fit of the digits three times over
// (raw pixels, copy c shifted by 0.01·c: sqlDigits), gauss(sigma=16) —
// rbf gamma 1/512, the kernel of BenchmarkFitMapDigits on pixels/16 — full
// rank 5,391. "fit" is the pivoted Cholesky alone on a copy made outside
// the timer, "gram+fit" the Gram matrix too. The anchor is rbf_kernel +
// scipy.linalg.eigh of the same matrix (testdata/bench_map5391.py).
// cpu/wall is the process's CPU time over the wall time of the timed work:
// the cores it kept busy.
func BenchmarkFitMap5391(b *testing.B) {
	objs := sqlDigits(b, 5391)
	spec, err := kernels.Parse("gauss(sigma=16)")
	if err != nil {
		b.Fatal(err)
	}
	n := len(objs)
	ref := NewGram(n)
	if err := spec.Gram(objs, ref.Upper(), kernels.GramOptions{}); err != nil {
		b.Fatal(err)
	}
	var dim int
	b.Run("fit", func(b *testing.B) {
		var cw cputime.Meter
		for b.Loop() {
			b.StopTimer()
			K := NewGram(n)
			copy(K.Upper(), ref.Upper())
			b.StartTimer()
			cw.Start()
			m, err := K.FitMap(MapOptions{})
			if err != nil {
				b.Fatal(err)
			}
			cw.Stop()
			dim = m.Dim()
		}
		b.ReportMetric(float64(dim), "dim")
		b.ReportMetric(cw.PerWall(), "cpu/wall")
	})
	b.Run("gram+fit", func(b *testing.B) {
		var cw cputime.Meter
		for b.Loop() {
			cw.Start()
			K := NewGram(n)
			if err := spec.Gram(objs, K.Upper(), kernels.GramOptions{}); err != nil {
				b.Fatal(err)
			}
			if _, err := K.FitMap(MapOptions{}); err != nil {
				b.Fatal(err)
			}
			cw.Stop()
		}
		b.ReportMetric(cw.PerWall(), "cpu/wall")
	})
}
