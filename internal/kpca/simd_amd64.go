//go:build amd64 && !purego

package kpca

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly kernels of simd_amd64.s. They sum in a
// different order than the Go loops (four lanes, fused multiply–adds), so
// results differ in the last bits, never in accuracy; tests switch it off
// to compare.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// symv4AVX2 is symv4 for n a multiple of 4 (out is set, y accumulated).
//
//go:noescape
func symv4AVX2(a *float64, stride, n int, x, y *float64, xr, out *[4]float64)

// dot4AVX2 is dot4 for n a multiple of 4.
//
//go:noescape
func dot4AVX2(a *float64, stride, n int, x *float64, out *[4]float64)

// axpy4AVX2 is axpy4 for n a multiple of 4.
//
//go:noescape
func axpy4AVX2(a *float64, stride, n int, c *[4]float64, y *float64)

// centerAVX2 is centerRow's loop for n a multiple of 4: row[j] = row[j] −
// mu[j] + shift (the same operations, so the same bits), and maxes[0],
// maxes[1] raised to the largest |row[j]| before and after.
//
//go:noescape
func centerAVX2(row, mu *float64, n int, shift float64, maxes *[2]float64)
