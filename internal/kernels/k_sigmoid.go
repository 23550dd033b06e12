package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// sigmoidDef is tanh(γ⟨x, z⟩ + r), the hyperbolic tangent (multilayer
// perceptron) kernel of scikit-learn's sigmoid_kernel (coef0 = r) and
// kernlab's tanhdot (scale = γ, offset = r). It is not positive
// semi-definite: K(x, x) is negative where γ‖x‖² + r is, and its Gram
// matrices can have negative eigenvalues whatever r. gamma has no
// default: scikit-learn's, 1/dimension, depends on the data.
var sigmoidDef = Def{
	Name:   "sigmoid",
	Domain: VectorDomain,
	Params: []Param{
		{Name: "gamma", Kind: Real, Required: true, Lo: 0, LoOpen: true, Hi: math.Inf(1)},
		{Name: "r", Kind: Real, Default: 1, Lo: math.Inf(-1), Hi: math.Inf(1)},
	},
	Examples: []Example{{"sigmoid(gamma=0.1, r=1)", "tanh(gamma <x,z> + r), not positive semi-definite"}},
	Build: func(a *Args) (Evaluator, error) {
		return &sigmoidKernel{gamma: a.Float("gamma"), r: a.Float("r")}, nil
	},
}

type sigmoidKernel struct{ gamma, r float64 }

var _ Evaluator = (*sigmoidKernel)(nil)

// Eval is the float64 expression where its terms can be trusted, else
// γ⟨x, z⟩ + r in extended range, so that a dot product past float64
// (1e200·1e200) or a product γ⟨x, z⟩ that would over- or underflow
// still rounds as the exact value would. tanh saturates to ±1 past ±19.
func (k *sigmoidKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	if dot := Dot(a.Vec, b.Vec); trusted(dot) {
		if v := k.gamma * dot; trusted(v) {
			return xfloat.New(math.Tanh(v + k.r)), nil
		}
	}
	arg := xfloat.Add(xfloat.Mul(xfloat.New(k.gamma), DotX(a.Vec, b.Vec)), xfloat.New(k.r))
	return xfloat.New(math.Tanh(arg.Float64())), nil
}
