package stats

import (
	"errors"
	"math"
)

// ErrConstantTarget and ErrConstantKernel are returned when centring
// leaves nothing to align: every label the same, or a kernel matrix that
// is constant up to centring.
var (
	ErrConstantTarget = errors.New("the labels are all the same")
	ErrConstantKernel = errors.New("the centred kernel matrix is zero")
)

// Alignment is the centred kernel–target alignment
// ⟨Kc, Lc⟩_F / (‖Kc‖_F ‖Lc‖_F) of the n×n matrix K with L = Y Yᵀ, Y n×c
// row-major (one-hot classes, or c = 1 for numbers); Kc = HKH, H = I − 11ᵀ/n.
// Lc is never built: with Yc = HY, ⟨Kc, Lc⟩ = Σ Kc_ij (Yc_i·Yc_j) and
// ‖Lc‖² = ‖Ycᵀ Yc‖², so only K takes n² memory. K is scaled and centred in
// place, and Y scaled.
func Alignment(K []float64, n int, Y []float64, c int, interrupt func() error) (float64, error) {
	if constantRows(Y, n, c) {
		return 0, ErrConstantTarget
	}
	// The alignment does not change when K or Y is scaled: both are brought
	// near 1 by powers of two (exact), so that labels or kernel values near
	// float64's limits neither overflow the sums of products nor underflow.
	scaleToOne(K)
	center(K, n)
	scaleToOne(K)
	scaleToOne(Y)
	yc := centerColumns(Y, n, c)
	scaleToOne(yc)
	var dot, kk float64
	for i := range n {
		if err := poll(interrupt); err != nil {
			return 0, err
		}
		yi := yc[i*c : (i+1)*c]
		for j, v := range K[i*n : (i+1)*n] {
			var l float64
			for k, y := range yc[j*c : (j+1)*c] {
				l += yi[k] * y
			}
			dot += v * l
			kk += v * v
		}
	}
	var ll float64 // ‖Ycᵀ Yc‖_F², the c×c Gram matrix of Yc's columns
	for a := range c {
		for b := range c {
			var s float64
			for i := range n {
				s += yc[i*c+a] * yc[i*c+b]
			}
			ll += s * s
		}
	}
	switch {
	case ll == 0:
		return 0, ErrConstantTarget
	case kk == 0:
		return 0, ErrConstantKernel
	}
	return dot / (math.Sqrt(kk) * math.Sqrt(ll)), nil
}

// scaleToOne multiplies xs by the power of two that brings its largest
// magnitude into [0.5, 1).
func scaleToOne(xs []float64) {
	m := 0.0
	for _, x := range xs {
		m = max(m, math.Abs(x))
	}
	if m == 0 {
		return
	}
	_, e := math.Frexp(m)
	for i := range xs {
		xs[i] = math.Ldexp(xs[i], -e)
	}
}

// center replaces K by HKH: K_ij − rowmean_i − colmean_j + mean.
func center(K []float64, n int) {
	row, col := make([]float64, n), make([]float64, n)
	var all float64
	for i := range n {
		for j, v := range K[i*n : (i+1)*n] {
			row[i] += v
			col[j] += v
			all += v
		}
	}
	nf := float64(n)
	for i := range n {
		for j := range n {
			K[i*n+j] += all/(nf*nf) - row[i]/nf - col[j]/nf
		}
	}
}

func centerColumns(Y []float64, n, c int) []float64 {
	out := make([]float64, n*c)
	for k := range c {
		var m float64
		for i := range n {
			m += Y[i*c+k]
		}
		m /= float64(n)
		for i := range n {
			out[i*c+k] = Y[i*c+k] - m
		}
	}
	return out
}

func constantRows(Y []float64, n, c int) bool {
	for i := 1; i < n; i++ {
		for k := range c {
			if Y[i*c+k] != Y[k] {
				return false
			}
		}
	}
	return true
}
