package kernels

import "github.com/ksql/ksql/internal/xfloat"

// laplaceDef is exp(−‖x−z‖₁ / σ).
var laplaceDef = Def{
	Name:     "laplace",
	Domain:   VectorDomain,
	Params:   []Param{sigmaParam},
	Examples: []Example{{"laplace(sigma=2)", "exp(-|x-z|_1 / sigma)"}},
	Build:    func(a *Args) (Evaluator, error) { return &laplaceKernel{sigma: a.Float("sigma")}, nil },
}

type laplaceKernel struct{ sigma float64 }

var _ Evaluator = (*laplaceKernel)(nil)

func (k *laplaceKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return xfloat.New(Laplace(a.Vec, b.Vec, k.sigma)), nil
}

func (k *laplaceKernel) shiftInvariant() (string, float64) { return "laplace", k.sigma }
