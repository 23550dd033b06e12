// Package kernels holds ksql's vector kernels, the kernel spec language
// (parsing, type checking and evaluation of specs such as
// "normalize(ngram(n=3))" or "0.5*gauss(sigma=1) + linear"), and Gram
// matrix computation.
package kernels

import (
	"encoding/binary"
	"math"
)

// Vec is a vector in one of the two forms ksql accepts: float64 values
// (parsed from JSON text) or little-endian float32 bytes (sqlite-vec's BLOB
// format), kept undecoded so that kernels on BLOBs allocate nothing.
// Exactly one of F64 and F32 is used; F32 has a length divisible by 4.
type Vec struct {
	F64 []float64
	F32 []byte
}

// Len returns the dimension of v.
func (v Vec) Len() int {
	if v.F32 != nil {
		return len(v.F32) / 4
	}
	return len(v.F64)
}

// At returns element i.
func (v Vec) At(i int) float64 {
	if v.F32 != nil {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(v.F32[4*i:])))
	}
	return v.F64[i]
}

// Float64s returns v as float64 values, decoding float32 BLOBs.
func (v Vec) Float64s() []float64 {
	if v.F32 == nil {
		return v.F64
	}
	out := make([]float64, v.Len())
	for i := range out {
		out[i] = v.At(i)
	}
	return out
}

func f32(b []byte, i int) float64 {
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
}

// Dot returns ⟨a, b⟩; a and b have the same length.
func Dot(a, b Vec) float64 {
	var s float64
	switch {
	case a.F32 != nil && b.F32 != nil:
		x, y := a.F32, b.F32[:len(a.F32)]
		for i := 0; i+4 <= len(x); i += 4 {
			s += float64(math.Float32frombits(binary.LittleEndian.Uint32(x[i:]))) *
				float64(math.Float32frombits(binary.LittleEndian.Uint32(y[i:])))
		}
	case a.F32 == nil && b.F32 == nil:
		y := b.F64[:len(a.F64)]
		for i, x := range a.F64 {
			s += x * y[i]
		}
	default:
		for i := range a.Len() {
			s += a.At(i) * b.At(i)
		}
	}
	return s
}

// SqDist returns ‖a − b‖².
func SqDist(a, b Vec) float64 {
	var s float64
	switch {
	case a.F32 != nil && b.F32 != nil:
		x, y := a.F32, b.F32[:len(a.F32)]
		for i := 0; i+4 <= len(x); i += 4 {
			d := float64(math.Float32frombits(binary.LittleEndian.Uint32(x[i:]))) -
				float64(math.Float32frombits(binary.LittleEndian.Uint32(y[i:])))
			s += d * d
		}
	case a.F32 == nil && b.F32 == nil:
		y := b.F64[:len(a.F64)]
		for i, x := range a.F64 {
			d := x - y[i]
			s += d * d
		}
	default:
		for i := range a.Len() {
			d := a.At(i) - b.At(i)
			s += d * d
		}
	}
	return s
}

// L1Dist returns ‖a − b‖₁.
func L1Dist(a, b Vec) float64 {
	var s float64
	if a.F32 == nil && b.F32 == nil {
		y := b.F64[:len(a.F64)]
		for i, x := range a.F64 {
			s += math.Abs(x - y[i])
		}
		return s
	}
	for i := range a.Len() {
		s += math.Abs(a.At(i) - b.At(i))
	}
	return s
}

// Linear is ⟨x, z⟩.
func Linear(x, z Vec) float64 { return Dot(x, z) }

// Poly is (⟨x, z⟩ + r)^degree.
func Poly(x, z Vec, degree int, r float64) float64 {
	return powInt(Dot(x, z)+r, degree)
}

// Gauss is exp(−‖x−z‖² / (2σ²)).
func Gauss(x, z Vec, sigma float64) float64 {
	return math.Exp(-SqDist(x, z) / (2 * sigma * sigma))
}

// Laplace is exp(−‖x−z‖₁ / σ).
func Laplace(x, z Vec, sigma float64) float64 {
	return math.Exp(-L1Dist(x, z) / sigma)
}

// powInt is x^n by repeated squaring, n ≥ 0; exact for small integers,
// unlike math.Pow's general path.
func powInt(x float64, n int) float64 {
	r := 1.0
	for n > 0 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
		n >>= 1
	}
	return r
}
