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

var _ Distancer = (*polyKernel)(nil)

func (k *polyKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return PolyX(a.Vec, b.Vec, k.degree, k.r), nil
}

// SqDist is A^m − 2B^m + C^m with A = ⟨x,x⟩ + r, B = ⟨x,z⟩ + r,
// C = ⟨z,z⟩ + r, expanded in differences computed from δ = x − z so that
// nearby points do not cancel:
//
//	A^m − 2B^m + C^m = ‖δ‖²·S_m(C, B) + ⟨x,δ⟩·⟨x+z,δ⟩·Σ_{k=1}^{m−1} S_k(A, C)·B^(m−1−k)
//
// where S_k(u, v) = Σ_{j<k} u^j·v^(k−1−j) (so u^k − v^k = (u − v)·S_k(u, v)),
// A − B = ⟨x,δ⟩, C − B = −⟨z,δ⟩ and A − C = ⟨x+z,δ⟩. The sums follow
// S_{k+1}(u, v) = u·S_k(u, v) + v^k, O(m) in extended range.
//
// K(a,a) − K(b,b) = A^m − C^m is (A − C)·S_m(A, C).
func (k *polyKernel) SqDist(a, b *Object, ws *Workspace) (d2, diff xfloat.F, err error) {
	// The form is not symmetric in its rounding (it reads ⟨x,δ⟩, not
	// ⟨z,δ⟩): evaluate it in one canonical order, so that d(a,b) and
	// d(b,a) are the same bits and K(a,b) = K(b,a) exactly.
	if vecLess(b.Vec, a.Vec) {
		d2, diff, err = k.SqDist(b, a, ws)
		return d2, xfloat.F{M: -diff.M, E: diff.E}, err
	}
	x, z := a.Vec, b.Vec
	r := xfloat.New(k.r)
	A, B, C := xfloat.Add(DotX(x, x), r), xfloat.Add(DotX(x, z), r), xfloat.Add(DotX(z, z), r)
	dd := SqDistX(x, z)
	sd := combDot(x, z, 1, 1, 1, -1) // ⟨x+z, δ⟩ = A − C
	if k.degree == 1 {
		return dd, sd, nil
	}
	xd := combDot(x, z, 1, 0, 1, -1) // ⟨x, δ⟩
	one := xfloat.New(1)
	sAC, cPow := one, one // S_1(A, C), C^0
	sCB, bPow := one, one // S_1(C, B), B^0
	rest := xfloat.F{}    // Σ_{j≤k} S_j(A, C)·B^(k−j), by Horner
	for j := 1; j < k.degree; j++ {
		rest = xfloat.Add(xfloat.Mul(rest, B), sAC)
		cPow = xfloat.Mul(cPow, C)
		sAC = xfloat.Add(xfloat.Mul(A, sAC), cPow)
		bPow = xfloat.Mul(bPow, B)
		sCB = xfloat.Add(xfloat.Mul(C, sCB), bPow)
	}
	d := xfloat.Add(xfloat.Mul(dd, sCB), xfloat.Mul(xfloat.Mul(xd, sd), rest))
	return clampSq(d), xfloat.Mul(sd, sAC), nil
}

// vecLess orders vectors by length, then lexicographically by value: a
// canonical order for evaluating forms whose rounding is not symmetric.
func vecLess(a, b Vec) bool {
	if a.Len() != b.Len() {
		return a.Len() < b.Len()
	}
	for i := 0; i < a.Len(); i++ {
		if x, y := a.At(i), b.At(i); x != y {
			return x < y
		}
	}
	return false
}
