package rff

import (
	"fmt"
	"testing"
)

// BenchmarkEmbed measures one row; 64→512 is the reference size
// (compare numpy RBFSampler(n_components=512).transform).
func BenchmarkEmbed(b *testing.B) {
	for _, c := range []struct{ in, dim int }{{64, 512}, {4, 4096}, {784, 2048}} {
		m, err := Get(Gauss, 1, c.in, c.dim, 0)
		if err != nil {
			b.Fatal(err)
		}
		x := make([]float64, c.in)
		for i := range x {
			x[i] = float64(i%17) / 16
		}
		blob := f32Blob(x)
		out := make([]byte, 4*c.dim)
		b.Run(fmt.Sprintf("f64/in=%d/dim=%d", c.in, c.dim), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := m.EmbedF64(x, out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("f32/in=%d/dim=%d", c.in, c.dim), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := m.EmbedF32(blob, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuild is the one-time cost of drawing a map (not cached here).
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		build(Gauss, 1, 64, 512, 0)
	}
}

func BenchmarkSincos(b *testing.B) {
	var s float64
	for i := 0; b.Loop(); i++ {
		x, y := detSincos(float64(i&1023) * 0.01)
		s += x + y
	}
	_ = s
}
