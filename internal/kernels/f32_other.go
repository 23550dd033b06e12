//go:build !amd64 || purego

package kernels

var useAVX2, hasAVX2 = false, false

func sqDistF32AVX2(x, y *byte, n int) float64 { panic("kernels: no AVX2 loops on this platform") }
func dotF32AVX2(x, y *byte, n int) float64    { panic("kernels: no AVX2 loops on this platform") }
func l1DistF32AVX2(x, y *byte, n int) float64 { panic("kernels: no AVX2 loops on this platform") }
func nonFiniteBlockAVX2(x *byte, n int) int   { panic("kernels: no AVX2 loops on this platform") }
