package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// anovaDef is the ANOVA radial basis kernel (Σ_k exp(−σ(x_k−z_k)²))^d,
// kernlab's anovadot(sigma=σ, degree=d), with kernlab's defaults σ = 1
// and d = 1: a sum of one-dimensional Gaussians, raised to a power.
var anovaDef = Def{
	Name:   "anova",
	Domain: VectorDomain,
	Params: []Param{
		{Name: "sigma", Kind: Real, Default: 1, Lo: 0, LoOpen: true, Hi: math.Inf(1)},
		{Name: "degree", Kind: Int, Default: 1, Lo: 1, Hi: MaxDegree},
	},
	Examples: []Example{{"anova(sigma=1, degree=2)", "(sum_k exp(-sigma (x_k-z_k)^2))^degree"}},
	Build: func(a *Args) (Evaluator, error) {
		return &anovaKernel{sigma: a.Float("sigma"), degree: a.Int("degree")}, nil
	},
}

type anovaKernel struct {
	sigma  float64
	degree int
}

var _ Evaluator = (*anovaKernel)(nil)

// Eval raises the sum to the degree in extended range: d = 1000 on 100
// coordinates is 1e2000.
func (k *anovaKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	x, z := a.Vec, b.Vec
	var s float64
	for i := range x.Len() {
		s += fastExp(-k.term(x.At(i), z.At(i)))
	}
	return xfloat.Pow(xfloat.New(s), k.degree), nil
}

// term is σ·(x − z)², in extended range where (x − z)² leaves the normal
// float64 range (a subnormal square has lost digits that a σ of 1e300
// would bring back; x − z itself overflows for ±MaxFloat64).
func (k *anovaKernel) term(x, z float64) float64 {
	d := x - z
	if dd := d * d; dd <= math.MaxFloat64 && (dd >= 0x1p-1022 || d == 0) {
		return k.sigma * dd
	}
	dx := xfloat.New(d)
	if math.IsInf(d, 0) {
		dx = xfloat.Make(x/2-z/2, 1)
	}
	return xfloat.Mul(xfloat.New(k.sigma), xfloat.Mul(dx, dx)).Float64()
}
