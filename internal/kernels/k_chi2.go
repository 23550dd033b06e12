package kernels

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// chi2Def is the exponentiated χ² kernel exp(−γ·Σ_k (x_k−z_k)²/(x_k+z_k))
// on vectors of non-negative values (histograms), terms with
// x_k + z_k = 0 left out: scikit-learn's chi2_kernel.
var chi2Def = Def{
	Name:     "chi2",
	Domain:   VectorDomain,
	Params:   []Param{{Name: "gamma", Kind: Real, Default: 1, Lo: 0, LoOpen: true, Hi: math.Inf(1)}},
	Examples: []Example{{"chi2(gamma=1)", "exp(-gamma sum (x_k-z_k)^2/(x_k+z_k)), x, z >= 0"}},
	Build:    func(a *Args) (Evaluator, error) { return &chi2Kernel{gamma: a.Float("gamma")}, nil },
}

type chi2Kernel struct{ gamma float64 }

var _ Distancer = (*chi2Kernel)(nil)

// arg returns γ·Σ_k (x_k−z_k)²/(x_k+z_k), or an error naming a negative
// element.
func (k *chi2Kernel) arg(x, z Vec) (float64, error) {
	s, err := chi2Sum(x, z)
	if err != nil {
		return 0, err
	}
	if v := k.gamma * s; trusted(s) && trusted(v) {
		return v, nil
	}
	return xfloat.Mul(xfloat.New(k.gamma), chi2SumX(x, z)).Float64(), nil
}

// chi2Sum is Σ_k d_k·(d_k/s_k), d = x − z, s = x + z: d/s is in [−1, 1],
// so unlike d²/s no term overflows or underflows before the last
// product. It is +Inf where s_k or the sum leaves float64 (x_k near
// MaxFloat64), and loses terms below 2^-1022 to underflow: negligible
// unless the sum is below 2^-900 (not trusted), when its caller takes
// chi2SumX. Every element is checked, whatever the sum.
func chi2Sum(x, z Vec) (float64, error) {
	var t float64
	over := false
	for i := range x.Len() {
		xi, zi := x.At(i), z.At(i)
		if !(xi >= 0 && zi >= 0) {
			return 0, negativeElement(i, xi, zi)
		}
		s := xi + zi
		if s == 0 {
			continue
		}
		d := xi - zi
		t += d * (d / s)
		over = over || s > math.MaxFloat64
	}
	if over {
		return math.Inf(1), nil
	}
	return t, nil
}

// chi2SumX is chi2Sum in extended range, for vectors already checked:
// each term d·(d/s) is formed as an extended product (d itself cannot
// overflow for non-negative x and z, and s = x + z is halved where it
// would), and the sum is extended.
func chi2SumX(x, z Vec) xfloat.F {
	var t xfloat.F
	for i := range x.Len() {
		xi, zi := x.At(i), z.At(i)
		d := xi - zi
		if d == 0 {
			continue
		}
		q := d / (xi + zi)
		if math.IsInf(xi+zi, 1) {
			q = (xi/2 - zi/2) / (xi/2 + zi/2)
		}
		t = xfloat.Add(t, xfloat.Mul(xfloat.New(d), xfloat.New(q)))
	}
	return t
}

func negativeElement(i int, xi, zi float64) error {
	v := xi
	if xi >= 0 {
		v = zi
	}
	return fmt.Errorf("chi2: element %d of a vector is %v; chi2 compares vectors of non-negative values", i+1, v)
}

func (k *chi2Kernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	u, err := k.arg(a.Vec, b.Vec)
	return xfloat.New(fastExp(-u)), err
}

// SqDist is 2 − 2K = −2·expm1(−arg), without cancellation; K(a,a) − K(b,b)
// is 0.
func (k *chi2Kernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	u, err := k.arg(a.Vec, b.Vec)
	return xfloat.New(-2 * math.Expm1(-u)), xfloat.F{}, err
}
