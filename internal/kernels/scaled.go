package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// Scaled forms of the vector kernels, for inputs at the edges of float64:
// a dot product whose terms overflow (1e200·1e200) or underflow
// (1e-200·1e-200), a distance whose differences overflow, a bandwidth σ
// whose square leaves the float64 range. The plain computation is tried
// first, and its result tells when it cannot be trusted (±Inf, NaN, or a
// value so small that its terms may have underflowed); then the vectors
// are scaled by a power of two (exact) so that their largest element is
// below 1, the sums are formed, and the scale goes into the exponent of an
// extended-range float. Common inputs never take these paths, so their
// results keep the bits of the plain forms.

// tiny is where a plain dot product or squared distance may have lost
// terms to underflow: products of elements below 2^-537 underflow.
const tiny = 0x1p-900

// bounds of 2σ² (and of σ for laplace) within which the plain forms'
// quotients are exact to rounding.
const (
	sigmaLo = 0x1p-1000
	sigmaHi = 0x1p1000
)

// maxExp returns e such that every |element| of a and b is below 2^e, and
// whether any element is non-zero.
func maxExp(a, b Vec) (int, bool) {
	var m float64
	for i := range a.Len() {
		m = max(m, math.Abs(a.At(i)), math.Abs(b.At(i)))
	}
	if m == 0 {
		return 0, false
	}
	_, e := math.Frexp(m)
	return e, true
}

func trusted(v float64) bool {
	v = math.Abs(v)
	return v >= tiny && v <= math.MaxFloat64
}

// DotX returns ⟨a, b⟩ in extended range, exact to rounding even where the
// float64 products overflow or underflow.
func DotX(a, b Vec) xfloat.F {
	v := Dot(a, b)
	if trusted(v) {
		return xfloat.New(v)
	}
	ea, ok := maxExp(a, a)
	if !ok {
		return xfloat.F{}
	}
	eb, ok := maxExp(b, b)
	if !ok {
		return xfloat.F{}
	}
	sa, sb := math.Ldexp(1, -ea), math.Ldexp(1, -eb)
	var s float64
	for i := range a.Len() {
		s += (a.At(i) * sa) * (b.At(i) * sb)
	}
	return xfloat.Make(s, int64(ea+eb))
}

// SqDistX returns ‖a − b‖² in extended range.
func SqDistX(a, b Vec) xfloat.F {
	v := SqDist(a, b)
	if trusted(v) {
		return xfloat.New(v)
	}
	e, ok := maxExp(a, b)
	if !ok {
		return xfloat.F{}
	}
	s := math.Ldexp(1, -e)
	var t float64
	for i := range a.Len() {
		d := a.At(i)*s - b.At(i)*s
		t += d * d
	}
	return xfloat.Make(t, 2*int64(e))
}

// L1DistX returns ‖a − b‖₁ in extended range.
func L1DistX(a, b Vec) xfloat.F {
	v := L1Dist(a, b)
	if v <= math.MaxFloat64 {
		return xfloat.New(v) // a sum of |differences| neither cancels nor underflows
	}
	e, _ := maxExp(a, b)
	s := math.Ldexp(1, -e)
	var t float64
	for i := range a.Len() {
		t += math.Abs(a.At(i)*s - b.At(i)*s)
	}
	return xfloat.Make(t, int64(e))
}

// PolyX returns (⟨x, z⟩ + r)^degree in extended range.
func PolyX(x, z Vec, degree int, r float64) xfloat.F {
	return xfloat.Pow(xfloat.Add(DotX(x, z), xfloat.New(r)), degree)
}

// gaussArg returns ‖x − z‖² / (2σ²), from d2 = SqDist(x, z) when the
// plain quotient is exact to rounding, else in scaled form (+Inf past the
// float64 range).
func gaussArg(x, z Vec, d2, sigma float64) float64 {
	if s2 := 2 * sigma * sigma; s2 >= sigmaLo && s2 <= sigmaHi && d2 <= math.MaxFloat64 {
		return d2 / s2
	}
	return xfloat.Div(SqDistX(x, z), xfloat.Scale(2, xfloat.Mul(xfloat.New(sigma), xfloat.New(sigma)))).Float64()
}

// laplaceArg returns ‖x − z‖₁ / σ, as gaussArg.
func laplaceArg(x, z Vec, d1, sigma float64) float64 {
	if sigma >= sigmaLo && sigma <= sigmaHi && d1 <= math.MaxFloat64 {
		return d1 / sigma
	}
	return xfloat.Div(L1DistX(x, z), xfloat.New(sigma)).Float64()
}

// GaussAt is the Gaussian kernel of x and z given d2 = SqDist(x, z): the
// bits of GaussOf(d2, σ) where that is exact, a scaled computation where
// d2 or 2σ² leave the float64 range.
func GaussAt(x, z Vec, d2, sigma float64) float64 {
	if s2 := 2 * sigma * sigma; s2 >= sigmaLo && s2 <= sigmaHi && d2 <= math.MaxFloat64 {
		return GaussOf(d2, sigma)
	}
	return fastExp(-gaussArg(x, z, d2, sigma))
}

// LaplaceAt is the Laplace kernel of x and z given d1 = L1Dist(x, z), as
// GaussAt.
func LaplaceAt(x, z Vec, d1, sigma float64) float64 {
	if sigma >= sigmaLo && sigma <= sigmaHi && d1 <= math.MaxFloat64 {
		return LaplaceOf(d1, sigma)
	}
	return fastExp(-laplaceArg(x, z, d1, sigma))
}

// LinearAt is ⟨x, z⟩ given dot = Dot(x, z): dot itself unless it cannot be
// trusted, else the scaled form rounded to float64.
func LinearAt(x, z Vec, dot float64) float64 {
	if trusted(dot) {
		return dot
	}
	return DotX(x, z).Float64()
}

// PolyAt is (⟨x, z⟩ + r)^degree given dot = Dot(x, z), as LinearAt.
func PolyAt(x, z Vec, dot float64, degree int, r float64) float64 {
	if trusted(dot) {
		return PolyOf(dot, degree, r)
	}
	return PolyX(x, z, degree, r).Float64()
}

// combDot returns ⟨p·x + q·z, u·x + v·z⟩ for small integer weights, in
// extended range: the vectors are scaled so that no term overflows.
func combDot(x, z Vec, p, q, u, v float64) xfloat.F {
	e, ok := maxExp(x, z)
	if !ok {
		return xfloat.F{}
	}
	sc := math.Ldexp(1, -e)
	var t float64
	for i := range x.Len() {
		xi, zi := x.At(i)*sc, z.At(i)*sc
		t += (p*xi + q*zi) * (u*xi + v*zi)
	}
	return xfloat.Make(t, 2*int64(e))
}
