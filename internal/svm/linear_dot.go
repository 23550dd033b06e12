package svm

// The float32 features' inner products of the linear solver, the same
// bits on every machine: sixteen partial sums in a fixed order (four
// vectors of four lanes where the CPU has AVX2, the same sums in Go
// elsewhere), each product rounded before it is added, never fused (the
// conversions below forbid Go to fuse them where the CPU could).

// dotF32 is Σ w_j·x_j: blocks of sixteen into acc[0..15], then blocks of
// four into acc[0..3], the sums paired as the vector code pairs them, then
// the last n mod 4 products one by one.
func dotF32(w []float64, x []float32) float64 {
	n := len(x) &^ 3
	var s float64
	if useAVX2 && n > 0 {
		s = dotF32AVX2(&w[0], &x[0], n)
	} else {
		s = dotF32Go(w[:n], x[:n])
	}
	for j := n; j < len(x); j++ {
		s += float64(w[j] * float64(x[j]))
	}
	return s
}

func dotF32Go(w []float64, x []float32) float64 {
	var acc [16]float64
	j := 0
	for ; j+16 <= len(x); j += 16 {
		for l := range acc {
			acc[l] += float64(w[j+l] * float64(x[j+l]))
		}
	}
	for ; j+4 <= len(x); j += 4 {
		for l := range 4 {
			acc[l] += float64(w[j+l] * float64(x[j+l]))
		}
	}
	var v [4]float64 // (acc0 + acc2) + (acc1 + acc3), lane by lane
	for l := range v {
		v[l] = (acc[l] + acc[8+l]) + (acc[4+l] + acc[12+l])
	}
	return (v[0] + v[2]) + (v[1] + v[3])
}

// axpyF32 is w_j += d·x_j.
func axpyF32(d float64, x []float32, w []float64) {
	n := len(x) &^ 3
	if useAVX2 && n > 0 {
		axpyF32AVX2(d, &x[0], &w[0], n)
	} else {
		n = 0
	}
	w = w[:len(x)]
	for j := n; j < len(x); j++ {
		w[j] += float64(d * float64(x[j]))
	}
}
