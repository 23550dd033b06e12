//go:build !amd64 || purego

package rff

var useAVX2 = false

func projectAVX2(w *float64, x *float64, d int, theta *[block]float64) {
	panic("rff: no AVX2 kernels on this platform")
}

func projectF32AVX2(w *float64, x *byte, d int, theta *[block]float64) {
	panic("rff: no AVX2 kernels on this platform")
}

func sincosAVX2(theta *float64, n int, scale float64, cosOut, sinOut *byte) bool {
	panic("rff: no AVX2 kernels on this platform")
}
