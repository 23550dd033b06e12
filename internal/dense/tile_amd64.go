//go:build amd64 && !purego

package dense

import "golang.org/x/sys/cpu"

// useAVX2 selects gramTile4x8AVX2 (fused multiply–adds, so its sums differ
// from the Go loop's in the last bits; tests switch it off to compare).
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// gramTile4x8AVX2 is gramTile4x8's loop.
//
//go:noescape
func gramTile4x8AVX2(a, b *float64, k int, out *[32]float64)

// subScaledAVX2 is subScaled's loop (unfused, so the same bits).
//
//go:noescape
func subScaledAVX2(dst, src *float64, n int, f float64)
