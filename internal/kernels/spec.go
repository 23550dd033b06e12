package kernels

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/ksql/ksql/internal/xfloat"
)

// Domain is the kind of object a kernel compares.
type Domain int

// The two domains: vectors and strings.
const (
	VectorDomain Domain = iota
	StringDomain
)

func (d Domain) String() string {
	if d == StringDomain {
		return "string"
	}
	return "vector"
}

// MaxDegree bounds poly's degree; larger degrees only overflow.
const MaxDegree = 1000

type op int

const (
	opLinear op = iota
	opPoly
	opGauss
	opLaplace
	opString
	opNormalize
	opGaussOver
	opSum
	opScale
	opProduct
)

// node is one checked kernel in a spec's tree.
type node struct {
	op     op
	degree int
	r      float64
	sigma  float64
	scale  float64
	str    strParams
	kids   []*node
	domain Domain
}

// Spec is a parsed and type-checked kernel spec. It is immutable and safe
// for concurrent use.
type Spec struct {
	text  string
	root  *node
	units [2]bool // string units the spec's string kernels use
}

// Domain reports whether the spec compares vectors or strings.
func (s *Spec) Domain() Domain { return s.root.domain }

// String returns the spec's text as given.
func (s *Spec) String() string { return s.text }

// ShiftInvariant reports whether the spec is exactly gauss(sigma=σ) or
// laplace(sigma=σ), the kernels random Fourier features support, and
// returns its name and σ.
func (s *Spec) ShiftInvariant() (name string, sigma float64, ok bool) {
	switch s.root.op {
	case opGauss:
		return "gauss", s.root.sigma, true
	case opLaplace:
		return "laplace", s.root.sigma, true
	}
	return "", 0, false
}

// Parse parses and type-checks a kernel spec.
func Parse(text string) (*Spec, error) {
	a, err := parseAST(text)
	if err != nil {
		return nil, err
	}
	c := checker{spec: text}
	root, err := c.check(a, 0)
	if err != nil {
		return nil, err
	}
	s := &Spec{text: text, root: root}
	markUnits(root, &s.units)
	return s, nil
}

func markUnits(n *node, u *[2]bool) {
	if n.op == opString {
		u[n.str.unit] = true
	}
	for _, k := range n.kids {
		markUnits(k, u)
	}
}

var cache = struct {
	sync.Mutex
	m map[string]cached
}{m: map[string]cached{}}

type cached struct {
	spec *Spec
	err  error
}

// cacheSize bounds the spec cache; it is cleared when full, which only
// costs a re-parse.
const cacheSize = 512

// ParseCached is Parse with a process-wide cache keyed by the spec text, so
// a statement that names the same spec on every row parses it once.
func ParseCached(text string) (*Spec, error) {
	cache.Lock()
	c, ok := cache.m[text]
	cache.Unlock()
	if ok {
		return c.spec, c.err
	}
	// The caller's text may be a view of SQLite's memory: keep a copy.
	text = strings.Clone(text)
	spec, err := Parse(text)
	cache.Lock()
	if len(cache.m) >= cacheSize {
		clear(cache.m)
	}
	cache.m[text] = cached{spec, err}
	cache.Unlock()
	return spec, err
}

// Object is one argument of a kernel, decoded once so that it can be
// compared with many others: a vector, or a string with its symbol
// sequences for the units the spec uses.
type Object struct {
	Vec   Vec
	isStr bool
	seqs  [2]strSeq
}

// PrepareVec wraps a vector for Eval.
func (s *Spec) PrepareVec(v Vec) Object { return Object{Vec: v} }

// PrepareString decodes a string for Eval.
func (s *Spec) PrepareString(t string) Object {
	o := Object{isStr: true}
	for u, used := range s.units {
		if used {
			o.seqs[u] = decodeString(t, u)
		}
	}
	return o
}

// Workspace holds the buffers of one evaluating goroutine.
type Workspace struct {
	str strWorkspace
	// MaxCells bounds a string kernel's dynamic programme (0: no bound).
	MaxCells int64
	// Check is polled during long computations; its error aborts them.
	Check func() error
}

// Eval returns K(a, b) as an extended-range float: string kernels of long
// texts exceed float64, and ratios of such values (normalize) must not be
// computed as Inf/Inf.
func (s *Spec) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	if err := s.checkArgs(a, b); err != nil {
		return xfloat.F{}, err
	}
	return s.root.eval(a, b, ws)
}

func (s *Spec) checkArgs(a, b *Object) error {
	if s.root.domain == VectorDomain {
		if a.isStr || b.isStr {
			return fmt.Errorf("kernel %s compares vectors, not strings", s.text)
		}
		if a.Vec.Len() != b.Vec.Len() {
			return fmt.Errorf("vectors differ in length (%d and %d)", a.Vec.Len(), b.Vec.Len())
		}
	} else if !a.isStr || !b.isStr {
		return fmt.Errorf("kernel %s compares strings, not vectors", s.text)
	}
	return nil
}

// EvalFloat is Eval converted to float64 (±Inf past its range).
func (s *Spec) EvalFloat(a, b *Object, ws *Workspace) (float64, error) {
	v, err := s.Eval(a, b, ws)
	return v.Float64(), err
}

// Distance returns sqrt(K(a,a) − 2K(a,b) + K(b,b)), the distance in the
// kernel's feature space; rounding below zero is clamped to 0.
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
	return s.root.sqDist(a, b, ws)
}

// withSelf returns K(a,b), K(a,a) and K(b,b), which normalize and the
// feature-space distance both need.
func (n *node) withSelf(a, b *Object, ws *Workspace) (kab, kaa, kbb xfloat.F, err error) {
	if kab, err = n.eval(a, b, ws); err != nil {
		return
	}
	if kaa, err = n.eval(a, a, ws); err != nil {
		return
	}
	kbb, err = n.eval(b, b, ws)
	return
}

func (n *node) sqDist(a, b *Object, ws *Workspace) (xfloat.F, error) {
	kab, kaa, kbb, err := n.withSelf(a, b, ws)
	if err != nil {
		return xfloat.F{}, err
	}
	d := xfloat.Add(xfloat.Sub(kaa, xfloat.Scale(2, kab)), kbb)
	if d.M < 0 || math.IsNaN(d.M) {
		return xfloat.F{}, nil
	}
	return d, nil
}

func (n *node) eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	switch n.op {
	case opLinear:
		return xfloat.New(Dot(a.Vec, b.Vec)), nil
	case opPoly:
		return xfloat.Pow(xfloat.New(Dot(a.Vec, b.Vec)+n.r), n.degree), nil
	case opGauss:
		return xfloat.New(Gauss(a.Vec, b.Vec, n.sigma)), nil
	case opLaplace:
		return xfloat.New(Laplace(a.Vec, b.Vec, n.sigma)), nil
	case opString:
		return evalString(n.str, a, b, ws)
	case opNormalize:
		return n.normalize(a, b, ws)
	case opGaussOver:
		d, err := n.kids[0].sqDist(a, b, ws)
		if err != nil {
			return xfloat.F{}, err
		}
		return xfloat.New(math.Exp(-d.Float64() / (2 * n.sigma * n.sigma))), nil
	case opScale:
		v, err := n.kids[0].eval(a, b, ws)
		return xfloat.Scale(n.scale, v), err
	case opSum, opProduct:
		l, err := n.kids[0].eval(a, b, ws)
		if err != nil {
			return l, err
		}
		r, err := n.kids[1].eval(a, b, ws)
		if err != nil {
			return r, err
		}
		if n.op == opSum {
			return xfloat.Add(l, r), nil
		}
		return xfloat.Mul(l, r), nil
	}
	panic("kernels: unknown op")
}

func (n *node) normalize(a, b *Object, ws *Workspace) (xfloat.F, error) {
	kab, kaa, kbb, err := n.kids[0].withSelf(a, b, ws)
	if err != nil {
		return xfloat.F{}, err
	}
	if kaa.M <= 0 || kbb.M <= 0 {
		// An object with no features (a string shorter than n under
		// ngram(n), a zero vector under linear) is orthogonal to all.
		return xfloat.F{}, nil
	}
	return xfloat.Div(kab, xfloat.Sqrt(xfloat.Mul(kaa, kbb))), nil
}
