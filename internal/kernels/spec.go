package kernels

import (
	"fmt"
	"github.com/ksql/ksql/internal/fst"
	"slices"
	"strings"
	"sync"

	"github.com/ksql/ksql/internal/strkernel"
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

type op int

const (
	opLeaf      op = iota // a kernel of the definition table
	opNormalize           // normalize(K)
	opOver                // a Radial leaf over K's feature-space distance
	opSum                 // K1 + K2 + ...
	opProduct             // c * K1 * K2 * ...
)

// node is one checked kernel in a spec's tree.
type node struct {
	op     op
	ev     Evaluator      // opLeaf
	unit   strkernel.Unit // opLeaf of the string domain
	radial Radial         // opOver
	scale  xfloat.F       // opProduct: the product of its numbers
	scaled bool           // opProduct: it has numbers
	kids   []*node
	domain Domain
	leaf   int // opLeaf: its index among the spec's leaves
}

// Spec is a parsed and type-checked kernel spec. It is immutable and safe
// for concurrent use.
type Spec struct {
	text  string
	root  *node
	units [2]bool // string units the spec's string kernels use
	refs  []Reference
	// selfLeaves are the leaves when objects keep their K(a, a) per leaf
	// (selfCache), nil when they do not: see markSelf.
	selfLeaves []*node
}

// Reference is a name that a spec's kernel parameter refers to outside the
// spec text, such as the table of rational(fst=NAME).
type Reference struct {
	// Kernel and Param name the leaf kernel and its parameter; Name is the
	// name the spec gives it.
	Kernel, Param, Name string
}

// References returns the names the spec refers to, in spec order, so that
// a caller can tell when what they name has changed.
func (s *Spec) References() []Reference { return slices.Clone(s.refs) }

// Domain reports whether the spec compares vectors or strings.
func (s *Spec) Domain() Domain { return s.root.domain }

// String returns the spec's text as given.
func (s *Spec) String() string { return s.text }

// ShiftInvariant reports whether the spec is exactly gauss(sigma=σ) or
// laplace(sigma=σ), the kernels random Fourier features support, and
// returns its name and σ.
func (s *Spec) ShiftInvariant() (name string, sigma float64, ok bool) {
	if k, is := s.root.ev.(interface{ shiftInvariant() (string, float64) }); is && s.root.op == opLeaf {
		name, sigma = k.shiftInvariant()
		return name, sigma, true
	}
	return "", 0, false
}

// Parse parses and type-checks a kernel spec.
func Parse(text string) (*Spec, error) { return ParseEnv(text, nil) }

// ParseEnv is Parse with an environment for the builders of kernels that
// need something outside the spec text (Args.Env). Its result is not
// cached: it may depend on env.
func ParseEnv(text string, env Env) (*Spec, error) {
	a, err := parseAST(text)
	if err != nil {
		return nil, err
	}
	c := checker{spec: text, env: env}
	root, err := c.check(a, 0)
	if err != nil {
		return nil, err
	}
	s := &Spec{text: text, root: root, refs: c.refs}
	markUnits(root, &s.units)
	s.markSelf()
	return s, nil
}

func markUnits(n *node, u *[2]bool) {
	if n.op == opLeaf && n.domain == StringDomain {
		u[n.unit] = true
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

func clearCache() {
	cache.Lock()
	clear(cache.m)
	cache.Unlock()
}

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
	seqs  *[2]strSeq // a string's symbols per unit (nil for a vector: a source of a million vectors is a million Objects)
	self  *selfCache // K(a, a) per leaf, for normalize and over= (nil: none)
}

// PrepareVec wraps a vector for Eval.
func (s *Spec) PrepareVec(v Vec) Object { return Object{Vec: v} }

// PrepareString decodes a string for Eval.
func (s *Spec) PrepareString(t string) Object {
	o := Object{isStr: true, seqs: new([2]strSeq)}
	if s.selfLeaves != nil {
		o.self = newSelfCache(s.selfLeaves)
	}
	for u, used := range s.units {
		if used {
			o.seqs[u] = decodeString(t, strkernel.Unit(u))
		}
	}
	return o
}

// Seq returns a string object's symbols for unit u: empty unless the
// spec's string kernels use u.
func (o *Object) Seq(u strkernel.Unit) strkernel.Seq {
	if o.seqs == nil {
		return strkernel.Seq{}
	}
	return o.seqs[u]
}

// IsString reports whether o was prepared from a string.
func (o *Object) IsString() bool { return o.isStr }

// Workspace holds the buffers of one evaluating goroutine.
type Workspace struct {
	str strWorkspace
	fst fst.Workspace
	// MaxCells bounds a string kernel's dynamic programme (0: no bound).
	MaxCells int64
	// Check is polled during long computations; its error aborts them.
	Check func() error
	// Env resolves what kernels need from outside their spec, for the
	// connection evaluating (nil: nothing; such kernels then fail).
	Env Env
}

// Eval returns K(a, b) as an extended-range float: string kernels of long
// texts exceed float64, and ratios of such values (normalize) must not be
// computed as Inf/Inf.
func (s *Spec) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	if err := s.checkArgs(a, b); err != nil {
		return xfloat.F{}, err
	}
	a, b = canonical(a, b)
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
