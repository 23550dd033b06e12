//go:build amd64 && !purego

package svm

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly loops (the same bits as the Go ones;
// tests switch them off to compare).
var useAVX2 = cpu.X86.HasAVX2

// dotF32AVX2 is dotF32Go over n values, n a multiple of 4.
//
//go:noescape
func dotF32AVX2(w *float64, x *float32, n int) float64

// axpyF32AVX2 is w_j += d·x_j over n values, n a multiple of 4.
//
//go:noescape
func axpyF32AVX2(d float64, x *float32, w *float64, n int)
