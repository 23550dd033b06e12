//go:build !amd64 || purego

package svm

var useAVX2 = false

func dotF32AVX2(*float64, *float32, int) float64   { panic("svm: no AVX2 loops on this platform") }
func axpyF32AVX2(float64, *float32, *float64, int) { panic("svm: no AVX2 loops on this platform") }
