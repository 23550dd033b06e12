package kernels

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// checker turns a parsed spec into a typed kernel tree, validating every
// parameter and the mixing of vector and string kernels.
type checker struct{ spec string }

func (c *checker) errorf(pos int, format string, args ...any) error {
	return &ParseError{c.spec, pos, fmt.Sprintf(format, args...)}
}

func (c *checker) check(a *ast, depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, c.errorf(a.pos, "spec nested more than %d levels deep", MaxDepth)
	}
	switch a.kind {
	case 'n':
		return nil, c.errorf(a.pos, "the number %s is not a kernel; a number may only scale a kernel, as in 0.5*linear", a.name)
	case '+':
		return c.binary(a, opSum, depth)
	case '*':
		return c.product(a, depth)
	}
	return c.call(a, depth)
}

func (c *checker) binary(a *ast, o op, depth int) (*node, error) {
	l, err := c.check(a.l, depth+1)
	if err != nil {
		return nil, err
	}
	r, err := c.check(a.r, depth+1)
	if err != nil {
		return nil, err
	}
	if l.domain != r.domain {
		return nil, c.errorf(a.pos, "cannot combine a %s kernel with a %s kernel", l.domain, r.domain)
	}
	return &node{op: o, kids: []*node{l, r}, domain: l.domain}, nil
}

// product handles c*K, K*c and K1*K2.
func (c *checker) product(a *ast, depth int) (*node, error) {
	num, other := a.l, a.r
	if num.kind != 'n' {
		num, other = a.r, a.l
	}
	if num.kind != 'n' {
		return c.binary(a, opProduct, depth)
	}
	if other.kind == 'n' {
		return nil, c.errorf(a.pos, "%s*%s is a number, not a kernel", a.l.name, a.r.name)
	}
	if !(num.num > 0) || math.IsInf(num.num, 0) {
		return nil, c.errorf(num.pos, "a scale factor must be a positive finite number (got %s): only positive scaling keeps a kernel positive semi-definite", num.name)
	}
	k, err := c.check(other, depth+1)
	if err != nil {
		return nil, err
	}
	return &node{op: opScale, scale: num.num, kids: []*node{k}, domain: k.domain}, nil
}

// params collects a call's named arguments, rejecting unknown and repeated
// names and positional arguments where none are allowed.
type params struct {
	c     *checker
	call  *ast
	named map[string]astArg
}

func (c *checker) params(a *ast, allowed ...string) (*params, error) {
	p := &params{c: c, call: a, named: map[string]astArg{}}
	for _, arg := range a.args {
		if arg.name == "" {
			return nil, c.errorf(arg.pos, "%s takes named arguments only (%s)", a.name, strings.Join(allowed, ", "))
		}
		if _, dup := p.named[arg.name]; dup {
			return nil, c.errorf(arg.pos, "%s: argument %s given twice", a.name, arg.name)
		}
		known := false
		for _, n := range allowed {
			known = known || n == arg.name
		}
		if !known {
			if len(allowed) == 0 {
				return nil, c.errorf(arg.pos, "%s takes no arguments", a.name)
			}
			return nil, c.errorf(arg.pos, "%s has no argument %s (allowed: %s)", a.name, arg.name, strings.Join(allowed, ", "))
		}
		p.named[arg.name] = arg
	}
	return p, nil
}

// number returns a numeric argument; def is used when it is absent and
// required is false.
func (p *params) number(name string, required bool, def float64) (float64, int, error) {
	arg, ok := p.named[name]
	if !ok {
		if required {
			return 0, p.call.pos, p.c.errorf(p.call.pos, "%s needs %s=...", p.call.name, name)
		}
		return def, p.call.pos, nil
	}
	if arg.val.kind != 'n' {
		return 0, arg.pos, p.c.errorf(arg.pos, "%s: %s must be a number", p.call.name, name)
	}
	return arg.val.num, arg.pos, nil
}

// integer returns a whole-number argument in [lo, hi].
func (p *params) integer(name string, required bool, def, lo, hi int) (int, error) {
	if _, ok := p.named[name]; !ok && !required {
		return def, nil
	}
	v, pos, err := p.number(name, required, float64(def))
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, p.c.errorf(pos, "%s: %s must be a whole number from %d to %d, got %v", p.call.name, name, lo, hi, v)
	}
	return int(v), nil
}

func (p *params) sigma() (float64, error) {
	v, pos, err := p.number("sigma", true, 0)
	if err != nil {
		return 0, err
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return 0, p.c.errorf(pos, "%s: sigma must be a positive finite number, got %v", p.call.name, v)
	}
	return v, nil
}

func (p *params) unit() (int, error) {
	arg, ok := p.named["unit"]
	if !ok {
		return unitChar, nil
	}
	if arg.val.kind == 'c' && !arg.val.paren {
		switch arg.val.name {
		case "char":
			return unitChar, nil
		case "word":
			return unitWord, nil
		}
	}
	return 0, p.c.errorf(arg.pos, "%s: unit must be char or word", p.call.name)
}

var kernelNames = []string{"gauss", "laplace", "linear", "ngram", "normalize", "poly", "ssk", "subseq"}

func (c *checker) call(a *ast, depth int) (*node, error) {
	switch a.name {
	case "linear":
		if _, err := c.params(a); err != nil {
			return nil, err
		}
		return &node{op: opLinear}, nil
	case "poly":
		p, err := c.params(a, "degree", "r")
		if err != nil {
			return nil, err
		}
		deg, err := p.integer("degree", true, 0, 1, MaxDegree)
		if err != nil {
			return nil, err
		}
		r, pos, err := p.number("r", false, 1)
		if err != nil {
			return nil, err
		}
		if !(r >= 0) || math.IsInf(r, 0) {
			return nil, c.errorf(pos, "poly: r must be a finite number ≥ 0, got %v", r)
		}
		return &node{op: opPoly, degree: deg, r: r}, nil
	case "gauss":
		return c.gauss(a, depth)
	case "laplace":
		p, err := c.params(a, "sigma")
		if err != nil {
			return nil, err
		}
		s, err := p.sigma()
		return &node{op: opLaplace, sigma: s}, err
	case "normalize":
		if len(a.args) != 1 || a.args[0].name != "" {
			return nil, c.errorf(a.pos, "normalize takes exactly one kernel, as in normalize(ngram(n=3))")
		}
		k, err := c.check(a.args[0].val, depth+1)
		if err != nil {
			return nil, err
		}
		return &node{op: opNormalize, kids: []*node{k}, domain: k.domain}, nil
	case "subseq", "ssk", "ngram":
		sp, err := c.stringKernel(a)
		if err != nil {
			return nil, err
		}
		return &node{op: opString, str: sp, domain: StringDomain}, nil
	}
	names := append([]string(nil), kernelNames...)
	sort.Strings(names)
	return nil, c.errorf(a.pos, "unknown kernel %q (known: %s)", a.name, strings.Join(names, ", "))
}

func (c *checker) gauss(a *ast, depth int) (*node, error) {
	p, err := c.params(a, "sigma", "over")
	if err != nil {
		return nil, err
	}
	s, err := p.sigma()
	if err != nil {
		return nil, err
	}
	over, ok := p.named["over"]
	if !ok {
		return &node{op: opGauss, sigma: s}, nil
	}
	k, err := c.check(over.val, depth+1)
	if err != nil {
		return nil, err
	}
	return &node{op: opGaussOver, sigma: s, kids: []*node{k}, domain: k.domain}, nil
}

func (c *checker) stringKernel(a *ast) (strParams, error) {
	var sp strParams
	var p *params
	var err error
	switch a.name {
	case "subseq":
		if p, err = c.params(a, "p", "unit"); err != nil {
			return sp, err
		}
		sp.kind = strSubseq
		sp.p, err = p.integer("p", false, 0, 1, 1<<20)
	case "ssk":
		if p, err = c.params(a, "p", "lambda", "unit"); err != nil {
			return sp, err
		}
		sp.kind = strSSK
		if sp.p, err = p.integer("p", true, 0, 1, 1<<20); err != nil {
			return sp, err
		}
		var pos int
		sp.lambda, pos, err = p.number("lambda", true, 0)
		if err == nil && !(sp.lambda > 0 && sp.lambda <= 1) {
			err = c.errorf(pos, "ssk: lambda must be in (0, 1], got %v", sp.lambda)
		}
	case "ngram":
		if p, err = c.params(a, "n", "unit"); err != nil {
			return sp, err
		}
		sp.kind = strNgram
		sp.n, err = p.integer("n", true, 0, 1, 1<<20)
	}
	if err != nil {
		return sp, err
	}
	sp.unit, err = p.unit()
	return sp, err
}
