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

var _ Radial = (*gaussKernel)(nil)

func (k *gaussKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return xfloat.New(Gauss(a.Vec, b.Vec, k.sigma)), nil
}

func (k *gaussKernel) OfSqDist(d2 xfloat.F) xfloat.F {
	return xfloat.New(math.Exp(-d2.Float64() / (2 * k.sigma * k.sigma)))
}

func (k *gaussKernel) shiftInvariant() (string, float64) { return "gauss", k.sigma }
