package kernels

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// eachLoop runs f with the Go loops and, where the CPU has them, the
// assembly ones.
func eachLoop(f func(asm bool)) {
	defer func(v bool) { useAVX2 = v }(useAVX2)
	for _, asm := range []bool{false, true} {
		if asm && !hasAVX2 {
			continue
		}
		useAVX2 = asm
		f(asm)
	}
}

// f32Blob encodes v as a float32 BLOB.
func f32Blob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// TestF32Loops checks the float32 BLOB loops, assembly and Go, against
// sums written out one term at a time, for every length up to 70 (blocks
// of eight and every tail).
func TestF32Loops(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	eachLoop(func(asm bool) {
		for n := range 71 {
			x, y := make([]float32, n), make([]float32, n)
			var dot, sq, l1, abs float64
			for i := range x {
				x[i], y[i] = float32(r.NormFloat64()*10), float32(r.NormFloat64()*10)
				a, b := float64(x[i]), float64(y[i])
				dot += a * b
				sq += (a - b) * (a - b)
				l1 += math.Abs(a - b)
				abs += math.Abs(a * b)
			}
			bx, by := f32Blob(x), f32Blob(y)
			for _, c := range []struct {
				name      string
				got, want float64
				scale     float64
			}{
				{"dot", dotF32(bx, by), dot, abs},
				{"sqdist", sqDistF32(bx, by), sq, sq},
				{"l1", l1DistF32(bx, by), l1, l1},
			} {
				if math.Abs(c.got-c.want) > 1e-14*c.scale {
					t.Errorf("asm=%v n=%d %s = %v, want %v", asm, n, c.name, c.got, c.want)
				}
			}
		}
	})
}

// TestF32LoopsNonFinite: a NaN or infinite element shows in every loop's
// result, at every position (ext/functions checks the result, not each
// element).
func TestF32LoopsNonFinite(t *testing.T) {
	eachLoop(func(asm bool) {
		for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			for n := 1; n <= 20; n++ {
				for at := range n {
					x, y := make([]float32, n), make([]float32, n)
					for i := range x {
						x[i], y[i] = 1, -1
					}
					x[at] = bad
					bx, by := f32Blob(x), f32Blob(y)
					for name, v := range map[string]float64{"dot": dotF32(bx, by), "sqdist": sqDistF32(bx, by), "l1": l1DistF32(bx, by)} {
						if !math.IsNaN(v) && !math.IsInf(v, 0) {
							t.Fatalf("asm=%v n=%d %v at %d: %s = %v, want non-finite", asm, n, bad, at, name, v)
						}
					}
				}
			}
		}
	})
}

// BenchmarkSqDistF32 is the loop of gauss_kernel on 64-dimensional BLOBs.
func BenchmarkSqDistF32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float32, 64), make([]float32, 64)
	for i := range x {
		x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	bx, by := f32Blob(x), f32Blob(y)
	for _, asm := range []bool{false, true} {
		if asm && !hasAVX2 {
			continue
		}
		b.Run(map[bool]string{false: "go", true: "avx2"}[asm], func(b *testing.B) {
			defer func(v bool) { useAVX2 = v }(useAVX2)
			useAVX2 = asm
			var s float64
			for b.Loop() {
				s += sqDistF32(bx, by)
			}
			_ = s
		})
	}
}

// TestFirstNonFinite: every non-finite value at every position of
// vectors up to 70 long, through the assembly and the Go loop, is found
// at its first occurrence; finite extremes are not.
func TestFirstNonFinite(t *testing.T) {
	eachLoop(func(asm bool) {
		for n := range 71 {
			x := make([]float32, n)
			for i := range x {
				x[i] = []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0, 1}[i%5]
			}
			if got := FirstNonFinite(f32Blob(x)); got != -1 {
				t.Fatalf("asm=%v n=%d finite: %d", asm, n, got)
			}
			for at := range n {
				for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
					y := append([]float32(nil), x...)
					y[at], y[n-1] = bad, bad
					if got := FirstNonFinite(f32Blob(y)); got != at {
						t.Fatalf("asm=%v n=%d %v at %d: found at %d", asm, n, bad, at, got)
					}
				}
			}
		}
	})
}
