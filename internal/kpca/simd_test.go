package kpca

import (
	"math"
	"testing"
)

// TestFourRowKernels checks symv4, dot4 and axpy4, with the assembly
// kernels and without, against plain sums, for every length that exercises
// the 8-, 4- and 1-column paths and a stride longer than the rows.
func TestFourRowKernels(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	rng := splitMix64{7}
	for _, avx := range []bool{false, true} {
		if avx && !saved {
			t.Log("no AVX2/FMA on this machine: only the Go kernels are tested")
			continue
		}
		useAVX2 = avx
		for n := 0; n <= 37; n++ {
			stride := n + 3
			a := make([]float64, 3*stride+n+2)
			for i := range a {
				a[i] = rng.symmetric()
			}
			x, y0 := make([]float64, n), make([]float64, n)
			for j := range x {
				x[j], y0[j] = rng.symmetric(), rng.symmetric()
			}
			c := [4]float64{rng.symmetric(), rng.symmetric(), rng.symmetric(), rng.symmetric()}
			var wantDot [4]float64
			wantY := append([]float64(nil), y0...)
			for r := 0; r < 4; r++ {
				for j := 0; j < n; j++ {
					wantDot[r] += a[r*stride+j] * x[j]
					wantY[j] += c[r] * a[r*stride+j]
				}
			}
			var out [4]float64
			y := append([]float64(nil), y0...)
			symv4(a, stride, x, y, &c, &out)
			check(t, "symv4 out", avx, n, out[:], wantDot[:])
			check(t, "symv4 y", avx, n, y, wantY)
			dot4(a, stride, x, &out)
			check(t, "dot4", avx, n, out[:], wantDot[:])
			y = append(y[:0], y0...)
			axpy4(a, stride, &c, y)
			check(t, "axpy4", avx, n, y, wantY)
		}
	}
}

func check(t *testing.T, what string, avx bool, n int, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-14*(1+math.Abs(want[i])) {
			t.Fatalf("%s (avx=%v, n=%d)[%d] = %v, want %v", what, avx, n, i, got[i], want[i])
		}
	}
}

// TestCenterRowKernel: centerRow gives the same bits with the assembly
// kernel as without, for every length around the 4-column steps, and
// raises the maxima to the largest magnitudes before and after.
func TestCenterRowKernel(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	if !saved {
		t.Skip("no AVX2/FMA on this machine")
	}
	rng := splitMix64{9}
	for n := 1; n <= 37; n++ {
		row, mu := make([]float64, n), make([]float64, n)
		for j := range row {
			row[j], mu[j] = 3*rng.symmetric(), rng.symmetric()
		}
		shift := rng.symmetric()
		var want gramStats
		for j := range row {
			want.maxAbs = math.Max(want.maxAbs, math.Abs(row[j]))
			want.maxCentered = math.Max(want.maxCentered, math.Abs(row[j]-mu[j]+shift))
		}
		want.trace = row[0] - mu[0] + shift
		var got [2]gramStats
		var rows [2][]float64
		for k, avx := range []bool{false, true} {
			useAVX2 = avx
			rows[k] = append([]float64(nil), row...)
			centerRow(rows[k], mu, shift, &got[k])
		}
		for j := range row {
			if rows[1][j] != rows[0][j] || rows[0][j] != row[j]-mu[j]+shift {
				t.Fatalf("n=%d: centred[%d] = %v (AVX2), %v (Go), want %v", n, j, rows[1][j], rows[0][j], row[j]-mu[j]+shift)
			}
		}
		for k := range got {
			if got[k] != want {
				t.Fatalf("n=%d avx=%v: stats %+v, want %+v", n, k == 1, got[k], want)
			}
		}
	}
}
