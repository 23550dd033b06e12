package kpca

import (
	"syscall"
	"testing"
	"time"

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
		var cw cpuWall
		for b.Loop() {
			b.StopTimer()
			K := NewGram(n)
			copy(K.Upper(), ref.Upper())
			b.StartTimer()
			cw.start()
			m, err := K.FitMap(MapOptions{})
			if err != nil {
				b.Fatal(err)
			}
			cw.stop()
			dim = m.Dim()
		}
		b.ReportMetric(float64(dim), "dim")
		cw.report(b)
	})
	b.Run("gram+fit", func(b *testing.B) {
		var cw cpuWall
		for b.Loop() {
			cw.start()
			K := NewGram(n)
			if err := spec.Gram(objs, K.Upper(), kernels.GramOptions{}); err != nil {
				b.Fatal(err)
			}
			if _, err := K.FitMap(MapOptions{}); err != nil {
				b.Fatal(err)
			}
			cw.stop()
		}
		cw.report(b)
	})
}

// cpuWall adds up the process's user and system CPU time and the wall time
// of the spans from start to stop.
type cpuWall struct {
	cpu, wall, cpu0 time.Duration
	t0              time.Time
}

func (m *cpuWall) start() { m.cpu0, m.t0 = cpuTime(), time.Now() }

func (m *cpuWall) stop() { m.cpu, m.wall = m.cpu+cpuTime()-m.cpu0, m.wall+time.Since(m.t0) }

func (m *cpuWall) report(b *testing.B) {
	if m.wall > 0 {
		b.ReportMetric(m.cpu.Seconds()/m.wall.Seconds(), "cpu/wall")
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
