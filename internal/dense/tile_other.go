//go:build !amd64 || purego

package dense

var useAVX2 = false

func gramTile4x8AVX2(a, b *float64, k int, out *[32]float64) {
	panic("dense: no AVX2 kernels on this platform")
}

func subScaledAVX2(dst, src *float64, n int, f float64) {
	panic("dense: no AVX2 kernels on this platform")
}
