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
		return dotF32(a.F32, b.F32[:len(a.F32)])
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
		return sqDistF32(a.F32, b.F32[:len(a.F32)])
	case a.F32 == nil && b.F32 == nil:
		return sqDist4(a.F64, b.F64)
	default:
		for i := range a.Len() {
			d := a.At(i) - b.At(i)
			s += d * d
		}
	}
	return s
}

// sqDist4 is ‖x − y‖², computed from the differences (not from norms and
// a dot product, which would cancel for nearby points).
func sqDist4(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0, d1, d2, d3 := x[i]-y[i], x[i+1]-y[i+1], x[i+2]-y[i+2], x[i+3]-y[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		d := x[i] - y[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// L1Dist returns ‖a − b‖₁.
func L1Dist(a, b Vec) float64 {
	var s float64
	switch {
	case a.F32 != nil && b.F32 != nil:
		return l1DistF32(a.F32, b.F32[:len(a.F32)])
	case a.F32 == nil && b.F32 == nil:
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

// Linear is ⟨x, z⟩, exact to rounding where the float64 products overflow.
func Linear(x, z Vec) float64 { return LinearAt(x, z, Dot(x, z)) }

// Poly is (⟨x, z⟩ + r)^degree, as Linear.
func Poly(x, z Vec, degree int, r float64) float64 { return PolyAt(x, z, Dot(x, z), degree, r) }

// PolyOf is the polynomial kernel's value at inner product dot.
func PolyOf(dot float64, degree int, r float64) float64 { return powInt(dot+r, degree) }

// Gauss is exp(−‖x−z‖² / (2σ²)), in scaled form where ‖x−z‖² or 2σ²
// leave the float64 range (see GaussAt).
func Gauss(x, z Vec, sigma float64) float64 { return GaussAt(x, z, SqDist(x, z), sigma) }

// GaussOf is the Gaussian kernel's value at squared distance d2. Every
// gauss path (scalar function, spec, Gram rows) takes its exponential from
// here or from expRow, which computes the same bits as fastExp.
func GaussOf(d2, sigma float64) float64 { return fastExp(-d2 / (2 * sigma * sigma)) }

// Laplace is exp(−‖x−z‖₁ / σ), as Gauss.
func Laplace(x, z Vec, sigma float64) float64 { return LaplaceAt(x, z, L1Dist(x, z), sigma) }

// LaplaceOf is the Laplace kernel's value at L1 distance d1.
func LaplaceOf(d1, sigma float64) float64 { return fastExp(-d1 / sigma) }

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
