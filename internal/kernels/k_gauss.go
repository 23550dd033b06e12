package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// sigmaParam is the bandwidth of gauss and laplace.
var sigmaParam = Param{Name: "sigma", Kind: Real, Required: true, Lo: 0, LoOpen: true, Hi: math.Inf(1)}

// gaussDef is exp(−‖x−z‖² / (2σ²)); with over=K, the distance is K's.
var gaussDef = Def{
	Name:     "gauss",
	Domain:   VectorDomain,
	Params:   []Param{sigmaParam},
	Over:     true,
	Examples: []Example{{"gauss(sigma=0.5)", "exp(-|x-z|^2 / (2 sigma^2))"}},
	Build:    func(a *Args) (Evaluator, error) { return &gaussKernel{sigma: a.Float("sigma")}, nil },
}

type gaussKernel struct{ sigma float64 }

var (
	_ Radial    = (*gaussKernel)(nil)
	_ Distancer = (*gaussKernel)(nil)
)

func (k *gaussKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return xfloat.New(GaussAt(a.Vec, b.Vec, SqDist(a.Vec, b.Vec), k.sigma)), nil
}

// SqDist is 2 − 2K(a,b) = −2·expm1(−‖x−z‖²/(2σ²)), accurate for nearby
// points where 1 − K(a,b) would cancel.
// K(a,a) − K(b,b) is 0.
func (k *gaussKernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	return xfloat.New(-2 * math.Expm1(-gaussArg(a.Vec, b.Vec, SqDist(a.Vec, b.Vec), k.sigma))), xfloat.F{}, nil
}

// arg returns d2/(2σ²) as float64 (+Inf past its range): the plain
// quotient where it is exact, else in extended range.
func (k *gaussKernel) arg(d2 xfloat.F) float64 {
	d, s2 := d2.Float64(), 2*k.sigma*k.sigma
	if s2 >= sigmaLo && s2 <= sigmaHi && d <= math.MaxFloat64 {
		return d / s2
	}
	return xfloat.Div(d2, xfloat.Scale(2, xfloat.Mul(xfloat.New(k.sigma), xfloat.New(k.sigma)))).Float64()
}

func (k *gaussKernel) OfSqDist(d2 xfloat.F) xfloat.F { return xfloat.New(math.Exp(-k.arg(d2))) }

func (k *gaussKernel) SqDistOf(d2 xfloat.F) xfloat.F {
	return xfloat.New(-2 * math.Expm1(-k.arg(d2)))
}

func (k *gaussKernel) shiftInvariant() (string, float64) { return "gauss", k.sigma }
