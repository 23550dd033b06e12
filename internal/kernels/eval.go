package kernels

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// Evaluation of a spec's tree. K(a, b) alone needs one visit of each node;
// normalize and over= need their child's K(a,a), K(b,b) and, for over=,
// the squared feature-space distance d²(a, b) = K(a,a) − 2K(a,b) + K(b,b).
// full computes these for a node from one call of full on each child, so
// a spec's cost is linear in its size however deeply normalize and over=
// nest (evaluating K(a,a) by a separate recursive call at every level
// would cost 3^depth).
//
// d² is computed without subtracting nearly equal kernel values wherever
// there is a direct form: ‖x − z‖² for linear, −2·expm1(−d²/2σ²) for gauss
// (and laplace with its L1 distance), an expansion in differences for
// poly, d₁² + d₂² for sums, c·d² for scaling, and for normalize, over= and
// products the identities below. Only leaves without a direct form (the
// string kernels) use K(a,a) − 2K(a,b) + K(b,b), evaluated as
// (K(a,a) − K(a,b)) + (K(b,b) − K(a,b)): exact while the values are
// integers below 2^53 (the counts of subseq and ngram), else with an
// absolute error of a few ulps of K(a,a) + K(b,b).

// Distancer is a leaf evaluator with direct forms of its feature-space
// distance.
type Distancer interface {
	Evaluator
	// SqDist returns d2 = K(a,a) − 2K(a,b) + K(b,b) and
	// diff = K(a,a) − K(b,b), both without cancellation.
	SqDist(a, b *Object, ws *Workspace) (d2, diff xfloat.F, err error)
}

// pair is what full computes for a node and a pair of objects.
type pair struct {
	ab, aa, bb xfloat.F
	// d2 = K(a,a) − 2K(a,b) + K(b,b) and diff = K(a,a) − K(b,b), set only
	// when asked for: products and normalize need diff to compute their
	// d2 without cancellation.
	d2, diff xfloat.F
}

func (n *node) eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	switch n.op {
	case opLeaf:
		return n.ev.Eval(a, b, ws)
	case opNormalize, opOver:
		p, err := n.full(a, b, ws, n.op == opOver)
		return p.ab, err
	case opSum:
		var s xfloat.F
		for i, k := range n.kids {
			v, err := k.eval(a, b, ws)
			if err != nil {
				return v, err
			}
			if i == 0 {
				s = v
			} else {
				s = xfloat.Add(s, v)
			}
		}
		return s, nil
	}
	// opProduct
	var s xfloat.F
	for i, k := range n.kids {
		v, err := k.eval(a, b, ws)
		if err != nil {
			return v, err
		}
		if i == 0 {
			s = v
		} else {
			s = xfloat.Mul(s, v)
		}
	}
	if n.scaled {
		s = xfloat.Mul(n.scale, s)
	}
	return s, nil
}

// full returns K(a,b), K(a,a) and K(b,b), and d²(a, b) when wantD2.
func (n *node) full(a, b *Object, ws *Workspace, wantD2 bool) (pair, error) {
	switch n.op {
	case opLeaf:
		return n.leafFull(a, b, ws, wantD2)
	case opNormalize:
		p, err := n.kids[0].full(a, b, ws, wantD2)
		if err != nil {
			return p, err
		}
		return normalizePair(p, wantD2), nil
	case opOver:
		p, err := n.kids[0].full(a, b, ws, true)
		if err != nil {
			return p, err
		}
		one := n.radial.OfSqDist(xfloat.F{})
		return pair{ab: n.radial.OfSqDist(p.d2), aa: one, bb: one, d2: n.radial.SqDistOf(p.d2)}, nil // diff 0
	case opSum:
		var s pair
		for i, k := range n.kids {
			p, err := k.full(a, b, ws, wantD2)
			if err != nil {
				return p, err
			}
			if i == 0 {
				s = p
			} else {
				s = pair{xfloat.Add(s.ab, p.ab), xfloat.Add(s.aa, p.aa), xfloat.Add(s.bb, p.bb), xfloat.Add(s.d2, p.d2), xfloat.Add(s.diff, p.diff)}
			}
		}
		return s, nil
	}
	var s pair
	for i, k := range n.kids {
		p, err := k.full(a, b, ws, wantD2)
		if err != nil {
			return p, err
		}
		if i == 0 {
			s = p
		} else {
			s = productPair(s, p, wantD2)
		}
	}
	if n.scaled {
		c := n.scale
		s = pair{xfloat.Mul(c, s.ab), xfloat.Mul(c, s.aa), xfloat.Mul(c, s.bb), xfloat.Mul(c, s.d2), xfloat.Mul(c, s.diff)}
	}
	return s, nil
}

func (n *node) leafFull(a, b *Object, ws *Workspace, wantD2 bool) (p pair, err error) {
	if a == b {
		p.ab, err = n.selfValue(a, ws)
		p.aa, p.bb = p.ab, p.ab
		return p, err
	}
	if p.ab, err = n.ev.Eval(a, b, ws); err != nil {
		return p, err
	}
	if p.aa, err = n.selfValue(a, ws); err != nil {
		return p, err
	}
	if p.bb, err = n.selfValue(b, ws); err != nil {
		return p, err
	}
	if !wantD2 {
		return p, nil
	}
	if d, ok := n.ev.(Distancer); ok {
		p.d2, p.diff, err = d.SqDist(a, b, ws)
		return p, err
	}
	p.d2 = clampSq(xfloat.Add(xfloat.Sub(p.aa, p.ab), xfloat.Sub(p.bb, p.ab)))
	p.diff = xfloat.Sub(p.aa, p.bb)
	return p, nil
}

// clampSq returns d, or 0 where rounding (or Inf − Inf) left a squared
// distance negative or NaN.
func clampSq(d xfloat.F) xfloat.F {
	if d.M < 0 || math.IsNaN(d.M) {
		return xfloat.F{}
	}
	return d
}

// normalizePair is full for normalize(K) from K's pair: the cosine, 1 for
// an object with features and 0 for one without (orthogonal to all).
//
// With u = φ(a), v = φ(b), the squared distance of u/‖u‖ and v/‖v‖ is
// 2 − 2·cos, whose absolute error is a few ulps but which loses all
// relative accuracy for nearby objects, or equally
// (‖u − v‖² − (‖u‖ − ‖v‖)²) / (‖u‖‖v‖) with (‖u‖ − ‖v‖)² computed as
// (K(a,a) − K(b,b))² / (‖u‖ + ‖v‖)², whose error is a few ulps of
// ‖u − v‖² / (‖u‖‖v‖): as good or better while that is at most 4, and
// relatively accurate for nearby objects of similar norms. The second is
// used there, the first elsewhere (norms far apart).
func normalizePair(p pair, wantD2 bool) pair {
	oneIf := func(k xfloat.F) xfloat.F {
		if k.M > 0 {
			return xfloat.New(1)
		}
		return xfloat.F{}
	}
	out := pair{aa: oneIf(p.aa), bb: oneIf(p.bb)}
	out.diff = xfloat.Sub(out.aa, out.bb)
	if p.aa.M <= 0 || p.bb.M <= 0 {
		out.d2 = xfloat.Add(out.aa, out.bb)
		return out
	}
	out.ab = xfloat.Div(p.ab, xfloat.Sqrt(xfloat.Mul(p.aa, p.bb)))
	if !wantD2 {
		return out
	}
	na, nb := xfloat.Sqrt(p.aa), xfloat.Sqrt(p.bb)
	nab := xfloat.Mul(na, nb)
	if xfloat.Cmp(p.d2, xfloat.Scale(4, nab)) <= 0 {
		diff := xfloat.Div(p.diff, xfloat.Add(na, nb))
		out.d2 = xfloat.Div(clampSq(xfloat.Sub(p.d2, xfloat.Mul(diff, diff))), nab)
	} else {
		out.d2 = clampSq(xfloat.Add(xfloat.Sub(out.aa, xfloat.Scale(2, out.ab)), out.bb))
	}
	return out
}

// productPair is full for K1·K2. With u₁ ⊗ u₂ and v₁ ⊗ v₂ the feature
// vectors, u − v = ½[(u₁−v₁) ⊗ (u₂+v₂) + (u₁+v₁) ⊗ (u₂−v₂)], so
// d² = ¼[d₁²·s₂² + s₁²·d₂² + 2(K₁(a,a) − K₁(b,b))(K₂(a,a) − K₂(b,b))]
// with s² = ‖u + v‖² = K(a,a) + 2K(a,b) + K(b,b), the differences being
// the children's direct diff; and likewise
// K(a,a) − K(b,b) = ½[diff₁·(K₂(a,a) + K₂(b,b)) + (K₁(a,a) + K₁(b,b))·diff₂].
func productPair(p, q pair, wantD2 bool) pair {
	out := pair{ab: xfloat.Mul(p.ab, q.ab), aa: xfloat.Mul(p.aa, q.aa), bb: xfloat.Mul(p.bb, q.bb)}
	if wantD2 {
		s1 := xfloat.Add(xfloat.Add(p.aa, xfloat.Scale(2, p.ab)), p.bb)
		s2 := xfloat.Add(xfloat.Add(q.aa, xfloat.Scale(2, q.ab)), q.bb)
		cross := xfloat.Scale(2, xfloat.Mul(p.diff, q.diff))
		sum := xfloat.Add(xfloat.Add(xfloat.Mul(p.d2, s2), xfloat.Mul(s1, q.d2)), cross)
		out.d2 = clampSq(xfloat.Scale(0.25, sum))
		out.diff = xfloat.Scale(0.5, xfloat.Add(xfloat.Mul(p.diff, xfloat.Add(q.aa, q.bb)), xfloat.Mul(xfloat.Add(p.aa, p.bb), q.diff)))
	}
	return out
}

// Distance returns sqrt(K(a,a) − 2K(a,b) + K(b,b)), the distance in the
// kernel's feature space, computed as described above (direct forms,
// never negative).
func (s *Spec) Distance(a, b *Object, ws *Workspace) (float64, error) {
	d, err := s.sqDist(a, b, ws)
	if err != nil {
		return 0, err
	}
	return xfloat.Sqrt(d).Float64(), nil
}

func (s *Spec) sqDist(a, b *Object, ws *Workspace) (xfloat.F, error) {
	if err := s.checkArgs(a, b); err != nil {
		return xfloat.F{}, err
	}
	a, b = canonical(a, b)
	p, err := s.root.full(a, b, ws, true)
	return clampSq(p.d2), err
}
