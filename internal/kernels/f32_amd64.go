//go:build amd64 && !purego

package kernels

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly loops over float32 BLOBs (their sums are
// in another order than the Go loops', so they differ in the last bits;
// tests switch them off to compare).
var useAVX2 = hasAVX2

var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The loops read n float32 values (n a multiple of 8) from x and y.

//go:noescape
func sqDistF32AVX2(x, y *byte, n int) float64

//go:noescape
func dotF32AVX2(x, y *byte, n int) float64

//go:noescape
func l1DistF32AVX2(x, y *byte, n int) float64

//go:noescape
func nonFiniteBlockAVX2(x *byte, n int) int
