package kernels

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// periodicDef is the exponential sine squared kernel
// exp(−2·sin²(π‖x−z‖/p)/σ²), scikit-learn's ExpSineSquared(length_scale=σ,
// periodicity=p). It is positive semi-definite on numbers (vectors of one
// element), where it is a Gaussian of (cos, sin)(2πx/p); on longer
// vectors the Euclidean distance in it need not keep it so, which
// kernel_spectrum shows on the data.
var periodicDef = Def{
	Name:   "periodic",
	Domain: VectorDomain,
	Params: []Param{
		sigmaParam,
		{Name: "period", Kind: Real, Required: true, Lo: 0, LoOpen: true, Hi: math.Inf(1)},
	},
	Examples: []Example{{"periodic(sigma=1, period=2)", "exp(-2 sin^2(pi |x-z| / period) / sigma^2)"}},
	Build: func(a *Args) (Evaluator, error) {
		return &periodicKernel{sigma: a.Float("sigma"), period: a.Float("period")}, nil
	},
}

type periodicKernel struct{ sigma, period float64 }

var _ Distancer = (*periodicKernel)(nil)

// maxPeriods bounds ‖x−z‖/p: the distance is rounded to about 2^-52 of
// itself, so past 2^40 periods its phase is uncertain by more than 2^-12
// of a period, and the kernel's value with it. Such a pair is an error,
// not a number that rounding chose.
const maxPeriods = 0x1p40

// arg returns 2·sin²(π‖x−z‖/p)/σ². The distance is first reduced modulo
// p exactly (math.Mod), and to [0, p/2] by the symmetry of sin², so that
// π·(d mod p)/p is accurate where π·d/p would carry d/p's rounding into
// the phase. (sin/σ)² is formed as such: σ² may underflow.
func (k *periodicKernel) arg(a, b Vec) (float64, error) {
	d := xfloat.Sqrt(SqDistX(a, b)).Float64()
	if d/k.period > maxPeriods {
		return 0, fmt.Errorf("periodic: the vectors are %g apart, more than 2^40 periods (period=%g): rounding has lost the phase", d, k.period)
	}
	m := math.Mod(d, k.period)
	if m > k.period/2 {
		m = k.period - m // exact: p/2 < m < p
	}
	s := math.Sin(math.Pi*(m/k.period)) / k.sigma
	return 2 * s * s, nil
}

func (k *periodicKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	u, err := k.arg(a.Vec, b.Vec)
	return xfloat.New(fastExp(-u)), err
}

// SqDist is 2 − 2K = −2·expm1(−arg), without cancellation; K(a,a) − K(b,b)
// is 0.
func (k *periodicKernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	u, err := k.arg(a.Vec, b.Vec)
	return xfloat.New(-2 * math.Expm1(-u)), xfloat.F{}, err
}
