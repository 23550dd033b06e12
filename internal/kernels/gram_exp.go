package kernels

import (
	"math"
	"math/big"
)

// expRow and its helpers compute e^x for the Gram rows of gauss, where
// math.Exp (an assembly routine behind a call) costs as much as the dot
// product of two 64-dimensional vectors. The loop below has no calls, so
// the processor overlaps the exponentials of consecutive cells.
//
// Method (Tang's table-driven exponential): x = (128·k + j)·ln2/128 + r
// with |r| ≤ ln2/256, so e^x = 2^k · 2^(j/128) · e^r. 2^(j/128) comes from a
// table as a double-double (hi + lo, computed at start-up to 256 bits);
// e^r − 1 is its Taylor polynomial to degree 5, whose truncation error,
// |r|⁶/720 < 6e-19, is 0.005 ulp; ln2/128 is split into a head with 21
// trailing zero bits (so k·head is exact for |k| < 2²¹) and a tail, as in
// math.Exp. The result hi + (hi·p + lo) is rounded once at the end, so the
// error is below 0.51 ulp (TestExpRowULP checks it against 200-bit
// references). Outside [expMin, expMax], and for NaN, math.Exp is used.

const (
	expMin     = -708 // e^x stays a normal float64 above e^-708.4
	expMax     = 708
	expInvLn2N = 128 / math.Ln2
	expLn2HiN  = 6.93147180369123816490e-01 / 128 // math.Exp's Ln2Hi: 21 trailing zero bits
	expLn2LoN  = 1.90821492927058770002e-10 / 128 // math.Exp's Ln2Lo
	expShift   = 0x1.8p52                         // adding it rounds to an integer
)

// expHi[j] + expLo[j] = 2^(j/128) to about 2^-106 relative.
var expHi, expLo [128]float64

func init() {
	const prec = 256
	root := new(big.Float).SetPrec(prec).SetInt64(2)
	for i := 0; i < 7; i++ {
		root.Sqrt(root) // 2^(1/128)
	}
	p := new(big.Float).SetPrec(prec).SetInt64(1)
	rest := new(big.Float).SetPrec(prec)
	for j := range expHi {
		expHi[j], _ = p.Float64()
		rest.Sub(p, new(big.Float).SetFloat64(expHi[j]))
		expLo[j], _ = rest.Float64()
		p.Mul(p, root)
	}
}

// expRow replaces every d2 of row by e^(−d2/s2), the argument computed
// exactly as math.Exp(-d2 / s2) would receive it. The body is fastExp's,
// written out so that the loop makes no calls.
func expRow(row []float64, s2 float64) {
	for j, d2 := range row {
		x := -d2 / s2
		if !(x >= expMin && x <= expMax) {
			row[j] = math.Exp(x)
			continue
		}
		kd := x*expInvLn2N + expShift
		m := int64(math.Float64bits(kd)) - int64(math.Float64bits(expShift))
		kd -= expShift
		r := (x - kd*expLn2HiN) - kd*expLn2LoN
		r2 := r * r
		p := r + r2*((0.5+r*(1.0/6))+r2*(1.0/24+r*(1.0/120)))
		hi := expHi[m&127]
		row[j] = (hi + (hi*p + expLo[m&127])) * math.Float64frombits(uint64(1023+(m>>7))<<52)
	}
}

// fastExp is e^x to within 0.51 ulp (see above); expRow is the same
// computation on a row.
func fastExp(x float64) float64 {
	if !(x >= expMin && x <= expMax) {
		return math.Exp(x)
	}
	kd := x*expInvLn2N + expShift
	m := int64(math.Float64bits(kd)) - int64(math.Float64bits(expShift))
	kd -= expShift
	r := (x - kd*expLn2HiN) - kd*expLn2LoN
	r2 := r * r
	p := r + r2*((0.5+r*(1.0/6))+r2*(1.0/24+r*(1.0/120)))
	hi := expHi[m&127]
	return (hi + (hi*p + expLo[m&127])) * math.Float64frombits(uint64(1023+(m>>7))<<52)
}
