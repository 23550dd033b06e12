//go:build amd64 && !purego

package rff

//go:generate go run simd_gen.go

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 kernels. They do per lane exactly the
// operations of the Go code, in the same order and without FMA, so the
// bits do not depend on it (TestSIMDMatchesGo checks); tests switch it off
// to compare.
var useAVX2 = cpu.X86.HasAVX2

// projectAVX2 adds Σ_i w[i·32+k]·x[i] to theta[k] for one block (theta
// must hold the starting sums, +0 for a fresh block); x has d values.
//
//go:noescape
func projectAVX2(w *float64, x *float64, d int, theta *[block]float64)

// projectF32AVX2 is projectAVX2 for d little-endian float32 values.
//
//go:noescape
func projectF32AVX2(w *float64, x *byte, d int, theta *[block]float64)

// sincosAVX2 writes float32(cos θ_k·scale) to cosOut and float32(sin θ_k·scale)
// to sinOut for k < n (n a multiple of 4). It returns false, having written
// possibly some of the values, when a θ_k is NaN or |θ_k| ≥ 2²⁹ (Payne–Hanek
// and errors are left to the Go code).
//
//go:noescape
func sincosAVX2(theta *float64, n int, scale float64, cosOut, sinOut *byte) bool
