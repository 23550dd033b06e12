// Package xfloat is a float64 with an extended exponent: the value of an F
// is M·2^E. String kernel values overflow float64 on long texts (the
// all-subsequences kernel of two 5,000-character texts is far beyond 1e308);
// carrying the exponent separately keeps them exact to float64 precision so
// that ratios such as normalize(K) stay finite and accurate.
package xfloat

import "math"

// F is M·2^E. The zero value is 0. Normalised values have 0.5 ≤ |M| < 1;
// M may also be ±Inf or NaN, in which case E is 0.
type F struct {
	M float64
	E int64
}

// New returns x as an F.
func New(x float64) F {
	m, e := math.Frexp(x)
	return F{m, int64(e)}
}

// Make returns m·2^e, normalised.
func Make(m float64, e int64) F {
	f := New(m)
	if f.M == 0 || math.IsInf(f.M, 0) || math.IsNaN(f.M) {
		return F{M: f.M}
	}
	f.E += e
	return f
}

// IsZero reports whether f is 0.
func (f F) IsZero() bool { return f.M == 0 }

// Float64 converts f to float64: ±Inf past the float64 range, 0 below it.
func (f F) Float64() float64 {
	if f.E > 2000 {
		return math.Copysign(math.Inf(1), f.M)
	}
	if f.E < -2000 {
		return math.Copysign(0, f.M)
	}
	return math.Ldexp(f.M, int(f.E))
}

// Log returns the natural logarithm of f (f > 0), without overflow.
func (f F) Log() float64 { return math.Log(f.M) + float64(f.E)*math.Ln2 }

// Mul returns a·b.
func Mul(a, b F) F { return Make(a.M*b.M, a.E+b.E) }

// Div returns a/b.
func Div(a, b F) F { return Make(a.M/b.M, a.E-b.E) }

// Scale returns c·a for a float64 c.
func Scale(c float64, a F) F {
	s := New(c)
	return Mul(s, a)
}

// Add returns a+b, rounded as float64 addition of the aligned mantissas.
func Add(a, b F) F {
	if a.M == 0 || math.IsInf(b.M, 0) || math.IsNaN(b.M) {
		if a.M == 0 || math.IsNaN(b.M) {
			return b
		}
		if math.IsInf(a.M, 0) {
			return F{M: a.M + b.M}
		}
		return b
	}
	if b.M == 0 || math.IsInf(a.M, 0) || math.IsNaN(a.M) {
		return a
	}
	if a.E < b.E {
		a, b = b, a
	}
	d := a.E - b.E
	if d > 1100 {
		return a
	}
	return Make(a.M+math.Ldexp(b.M, -int(d)), a.E)
}

// Sub returns a−b.
func Sub(a, b F) F { return Add(a, F{-b.M, b.E}) }

// Sqrt returns the square root of a ≥ 0.
func Sqrt(a F) F {
	if a.M <= 0 || math.IsInf(a.M, 0) || math.IsNaN(a.M) {
		return F{M: math.Sqrt(a.M)}
	}
	m, e := a.M, a.E
	if e%2 != 0 {
		m *= 2
		e--
	}
	return Make(math.Sqrt(m), e/2)
}

// Pow returns a^n for an integer n ≥ 0, by repeated squaring.
func Pow(a F, n int) F {
	r := New(1)
	for n > 0 {
		if n&1 == 1 {
			r = Mul(r, a)
		}
		a = Mul(a, a)
		n >>= 1
	}
	return r
}

// Cmp compares a and b (finite values) and returns -1, 0 or +1.
func Cmp(a, b F) int {
	d := Sub(a, b)
	switch {
	case d.M < 0:
		return -1
	case d.M > 0:
		return 1
	}
	return 0
}
