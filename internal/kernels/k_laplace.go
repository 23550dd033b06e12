package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// laplaceDef is exp(−‖x−z‖₁ / σ).
var laplaceDef = Def{
	Name:     "laplace",
	Domain:   VectorDomain,
	Params:   []Param{sigmaParam},
	Examples: []Example{{"laplace(sigma=2)", "exp(-|x-z|_1 / sigma)"}},
	Build:    func(a *Args) (Evaluator, error) { return &laplaceKernel{sigma: a.Float("sigma")}, nil },
}

type laplaceKernel struct{ sigma float64 }

var _ Distancer = (*laplaceKernel)(nil)

func (k *laplaceKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return xfloat.New(LaplaceAt(a.Vec, b.Vec, L1Dist(a.Vec, b.Vec), k.sigma)), nil
}

// SqDist is 2 − 2K(a,b) = −2·expm1(−‖x−z‖₁/σ).
func (k *laplaceKernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	return xfloat.New(-2 * math.Expm1(-laplaceArg(a.Vec, b.Vec, L1Dist(a.Vec, b.Vec), k.sigma))), xfloat.F{}, nil
}

func (k *laplaceKernel) shiftInvariant() (string, float64) { return "laplace", k.sigma }
