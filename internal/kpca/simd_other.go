//go:build !amd64 || purego

package kpca

var useAVX2 = false

func symv4AVX2(a *float64, stride, n int, x, y *float64, xr, out *[4]float64) {
	panic("kpca: no AVX2 kernels on this platform")
}

func dot4AVX2(a *float64, stride, n int, x *float64, out *[4]float64) {
	panic("kpca: no AVX2 kernels on this platform")
}

func axpy4AVX2(a *float64, stride, n int, c *[4]float64, y *float64) {
	panic("kpca: no AVX2 kernels on this platform")
}

func centerAVX2(row, mu *float64, n int, shift float64, maxes *[2]float64) {
	panic("kpca: no AVX2 kernels on this platform")
}
