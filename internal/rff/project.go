package rff

import (
	"encoding/binary"
	"math"
)

// projectF64 sets theta[k] = Σ_i w[i·32+k]·x[i] for one block, summing in
// order of i with every product rounded (the specified order). Eight
// frequencies at a time keep eight independent sums in registers, so the
// adds overlap instead of waiting for each other.
func projectF64(w []float64, x []float64, theta *[block]float64) {
	for sub := 0; sub < block; sub += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 float64
		for i, xi := range x {
			r := w[i*block+sub : i*block+sub+8 : i*block+sub+8]
			a0 += float64(r[0] * xi)
			a1 += float64(r[1] * xi)
			a2 += float64(r[2] * xi)
			a3 += float64(r[3] * xi)
			a4 += float64(r[4] * xi)
			a5 += float64(r[5] * xi)
			a6 += float64(r[6] * xi)
			a7 += float64(r[7] * xi)
		}
		theta[sub], theta[sub+1], theta[sub+2], theta[sub+3] = a0, a1, a2, a3
		theta[sub+4], theta[sub+5], theta[sub+6], theta[sub+7] = a4, a5, a6, a7
	}
}

// projectF32 is projectF64 for a float32 BLOB, widening each value
// (exactly) as it goes so that no scratch buffer is needed.
func projectF32(w []float64, xLE []byte, theta *[block]float64) {
	d := len(xLE) / 4
	for sub := 0; sub < block; sub += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 float64
		for i := 0; i < d; i++ {
			xi := float64(math.Float32frombits(binary.LittleEndian.Uint32(xLE[4*i:])))
			r := w[i*block+sub : i*block+sub+8 : i*block+sub+8]
			a0 += float64(r[0] * xi)
			a1 += float64(r[1] * xi)
			a2 += float64(r[2] * xi)
			a3 += float64(r[3] * xi)
			a4 += float64(r[4] * xi)
			a5 += float64(r[5] * xi)
			a6 += float64(r[6] * xi)
			a7 += float64(r[7] * xi)
		}
		theta[sub], theta[sub+1], theta[sub+2], theta[sub+3] = a0, a1, a2, a3
		theta[sub+4], theta[sub+5], theta[sub+6], theta[sub+7] = a4, a5, a6, a7
	}
}
