package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// MaxDegree bounds poly's degree; larger degrees only overflow.
const MaxDegree = 1000

// polyDef is (⟨x, z⟩ + r)^degree.
var polyDef = Def{
	Name:   "poly",
	Domain: VectorDomain,
	Params: []Param{
		{Name: "degree", Kind: Int, Required: true, Lo: 1, Hi: MaxDegree},
		{Name: "r", Kind: Real, Default: 1, Lo: 0, Hi: math.Inf(1)},
	},
	Examples: []Example{{"poly(degree=3, r=1)", "(<x,z> + r)^degree"}},
	Build: func(a *Args) (Evaluator, error) {
		return &polyKernel{degree: a.Int("degree"), r: a.Float("r")}, nil
	},
}

type polyKernel struct {
	degree int
	r      float64
}

var _ Evaluator = (*polyKernel)(nil)

func (k *polyKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return xfloat.Pow(xfloat.New(Dot(a.Vec, b.Vec)+k.r), k.degree), nil
}
