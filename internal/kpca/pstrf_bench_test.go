package kpca

import (
	"testing"

	"github.com/ksql/ksql/internal/kernels"
)

// BenchmarkFitMap5391: the kernel_map fit of the digits three times over
// (raw pixels, copy c shifted by 0.01·c: sqlDigits), gauss(sigma=16) —
// rbf gamma 1/512, the kernel of BenchmarkFitMapDigits on pixels/16 — full
// rank 5,391. "fit" is the pivoted Cholesky alone on a copy made outside
// the timer, "gram+fit" the Gram matrix too. The anchor is rbf_kernel +
// scipy.linalg.eigh of the same matrix (testdata/bench_map5391.py).
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
		for b.Loop() {
			b.StopTimer()
			K := NewGram(n)
			copy(K.Upper(), ref.Upper())
			b.StartTimer()
			m, err := K.FitMap(MapOptions{})
			if err != nil {
				b.Fatal(err)
			}
			dim = m.Dim()
		}
		b.ReportMetric(float64(dim), "dim")
	})
	b.Run("gram+fit", func(b *testing.B) {
		for b.Loop() {
			K := NewGram(n)
			if err := spec.Gram(objs, K.Upper(), kernels.GramOptions{}); err != nil {
				b.Fatal(err)
			}
			if _, err := K.FitMap(MapOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
