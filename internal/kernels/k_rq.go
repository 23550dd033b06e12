package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// rqDef is the rational quadratic kernel (1 + ‖x−z‖²/(2ασ²))^(−α),
// scikit-learn's RationalQuadratic(length_scale=σ, alpha=α): a scale
// mixture of Gaussians, tending to gauss(sigma=σ) as α grows. With
// over=K, the distance is K's.
var rqDef = Def{
	Name:   "rq",
	Domain: VectorDomain,
	Params: []Param{
		sigmaParam,
		{Name: "alpha", Kind: Real, Default: 1, Lo: 0, LoOpen: true, Hi: math.Inf(1)},
	},
	Over:     true,
	Examples: []Example{{"rq(sigma=1, alpha=1)", "(1 + |x-z|^2 / (2 alpha sigma^2))^-alpha"}},
	Build: func(a *Args) (Evaluator, error) {
		s, al := xfloat.New(a.Float("sigma")), xfloat.New(a.Float("alpha"))
		return &rqKernel{alpha: a.Float("alpha"), den: xfloat.Scale(2, xfloat.Mul(al, xfloat.Mul(s, s)))}, nil
	},
}

type rqKernel struct {
	alpha float64
	den   xfloat.F // 2ασ², in extended range: σ may be 1e-300 or 1e300
}

var (
	_ Radial    = (*rqKernel)(nil)
	_ Distancer = (*rqKernel)(nil)
)

// logTerm returns −ln K = α·ln(1 + u), u = d2/(2ασ²): log1p keeps the
// digits of a small u that 1 + u would drop. At the ends of the range u
// may leave float64 while α·ln(1 + u) does not (α = 1e-300 or 1e300):
// past 2^1000, ln(1 + u) is ln u of the extended value; below 2^-500 it
// is u, and α·u is formed in extended range.
func (k *rqKernel) logTerm(d2 xfloat.F) float64 {
	u := xfloat.Div(d2, k.den)
	switch {
	case u.E > 1000:
		return k.alpha * u.Log()
	case u.E < -500:
		return xfloat.Mul(xfloat.New(k.alpha), u).Float64()
	}
	return k.alpha * math.Log1p(u.Float64())
}

func (k *rqKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return k.OfSqDist(SqDistX(a.Vec, b.Vec)), nil
}

func (k *rqKernel) OfSqDist(d2 xfloat.F) xfloat.F { return xfloat.New(fastExp(-k.logTerm(d2))) }

// SqDistOf is 2 − 2K = −2·expm1(−α·ln(1 + u)), without cancellation.
func (k *rqKernel) SqDistOf(d2 xfloat.F) xfloat.F {
	return xfloat.New(-2 * math.Expm1(-k.logTerm(d2)))
}

// SqDist is SqDistOf of the vectors' squared distance; K(a,a) − K(b,b)
// is 0.
func (k *rqKernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	return k.SqDistOf(SqDistX(a.Vec, b.Vec)), xfloat.F{}, nil
}
