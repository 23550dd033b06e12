package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// maternDef is the Matérn kernel of smoothness ν ∈ {1/2, 3/2, 5/2}, in
// closed form with t = √(2ν)·‖x−z‖/σ: e^(−t), (1 + t)·e^(−t) and
// (1 + t + t²/3)·e^(−t), scikit-learn's Matern(length_scale=σ, nu=ν).
// ν = 1/2 is laplace with the Euclidean distance; ν → ∞ would be gauss.
// With over=K, the distance is K's.
var maternDef = Def{
	Name:   "matern",
	Domain: VectorDomain,
	Params: []Param{
		sigmaParam,
		{Name: "nu", Kind: Real, Default: 1.5, Lo: 0.5, Hi: 2.5, Values: []float64{0.5, 1.5, 2.5}},
	},
	Over: true,
	Examples: []Example{
		{"matern(sigma=1, nu=1.5)", "(1 + t) exp(-t), t = sqrt(3) |x-z| / sigma"},
		{"matern(sigma=1, nu=0.5)", "exp(-|x-z| / sigma); also nu=2.5"},
	},
	Build: func(a *Args) (Evaluator, error) {
		nu := a.Float("nu")
		return &maternKernel{sigma: a.Float("sigma"), nu2: int(2 * nu), c: math.Sqrt(2 * nu)}, nil
	},
}

type maternKernel struct {
	sigma float64
	nu2   int     // 2ν: 1, 3 or 5
	c     float64 // √(2ν)
}

var (
	_ Radial    = (*maternKernel)(nil)
	_ Distancer = (*maternKernel)(nil)
)

// maternFar is where every Matérn value is below the smallest float64.
const maternFar = 1e4

// tX returns t = √(2ν)·sqrt(d2)/σ in extended range: d2 may be 1e-600 or
// 1e600 and σ 1e-300 or 1e300.
func (k *maternKernel) tX(d2 xfloat.F) xfloat.F {
	return xfloat.Scale(k.c, xfloat.Div(xfloat.Sqrt(d2), xfloat.New(k.sigma)))
}

// poly is the factor of e^(−t): 1, 1 + t or 1 + t + t²/3.
func (k *maternKernel) poly(t float64) float64 {
	switch k.nu2 {
	case 1:
		return 1
	case 3:
		return 1 + t
	}
	return 1 + t + t*t/3
}

func (k *maternKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return k.OfSqDist(SqDistX(a.Vec, b.Vec)), nil
}

// OfSqDist is poly(t)·e^(−t); past t = 700, where e^(−t) nears the
// subnormals and would lose digits, e^(ln poly(t) − t); past maternFar,
// where t may be +Inf and Inf·0 would be NaN, 0.
func (k *maternKernel) OfSqDist(d2 xfloat.F) xfloat.F {
	t := k.tX(d2).Float64()
	switch {
	case t > maternFar:
		return xfloat.F{}
	case t > 700:
		return xfloat.New(fastExp(math.Log(k.poly(t)) - t))
	}
	return xfloat.New(k.poly(t) * fastExp(-t))
}

// SqDistOf is 2 − 2K. 1 − K = e^(−t)·(e^t − poly(t)), and e^t − poly(t)
// is a series of positive terms, Σ_{n≥2} tⁿ/n! less t²/3 for ν = 5/2
// (t²/6 + Σ_{n≥3} tⁿ/n!): summed as such up to t = 2 it has no
// cancellation, where 1 − K would lose every digit as t → 0. Past t = 2,
// K < 0.6 and 1 − K is accurate. ν = 1/2 is −expm1(−t). Below 2^-200,
// 1 − K is its leading term to float64 precision, t or c·t², formed in
// extended range where t² would underflow.
func (k *maternKernel) SqDistOf(d2 xfloat.F) xfloat.F {
	tx := k.tX(d2)
	t := tx.Float64()
	c := 0.5 // 1 − K ≈ c·t² for ν = 3/2 and 5/2
	if k.nu2 == 5 {
		c = 1.0 / 6
	}
	switch {
	case tx.E < -200 && k.nu2 == 1:
		return xfloat.Scale(2, tx)
	case tx.E < -200:
		return xfloat.Scale(2*c, xfloat.Mul(tx, tx))
	case k.nu2 == 1:
		return xfloat.New(-2 * math.Expm1(-t))
	case t > 2:
		return xfloat.New(2 * (1 - k.OfSqDist(d2).Float64()))
	}
	term := t * t / 2
	s := c * t * t
	for n := 3.0; term > 0x1p-60*s; n++ {
		term *= t / n
		s += term
	}
	return xfloat.New(2 * fastExp(-t) * s)
}

// SqDist is SqDistOf of the vectors' squared distance; K(a,a) − K(b,b)
// is 0.
func (k *maternKernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	return k.SqDistOf(SqDistX(a.Vec, b.Vec)), xfloat.F{}, nil
}
