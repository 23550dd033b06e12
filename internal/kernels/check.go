package kernels

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// checker turns a parsed spec into a typed kernel tree, validating every
// parameter and the mixing of vector and string kernels.
type checker struct {
	spec string
	env  Env
	refs []Reference
}

func (c *checker) errorf(pos int, format string, args ...any) error {
	return &ParseError{c.spec, pos, fmt.Sprintf(format, args...)}
}

func (c *checker) check(a *ast, depth int) (*node, error) {
	if depth > maxTreeDepth {
		return nil, c.errorf(a.pos, "spec nested more than %d levels deep", MaxDepth)
	}
	switch a.kind {
	case 'n':
		return nil, c.errorf(a.pos, "the number %s is not a kernel; a number may only scale a kernel, as in 0.5*linear", a.name)
	case '+':
		return c.sum(a, depth)
	case '*':
		return c.product(a, depth)
	}
	return c.call(a, depth)
}

// sum checks an n-ary sum: every term of one domain.
func (c *checker) sum(a *ast, depth int) (*node, error) {
	n := &node{op: opSum}
	for i, k := range a.kids {
		kid, err := c.check(k, depth+1)
		if err != nil {
			return nil, err
		}
		if i > 0 && kid.domain != n.domain {
			return nil, c.errorf(a.ops[i], "cannot combine a %s kernel with a %s kernel", n.domain, kid.domain)
		}
		n.kids, n.domain = append(n.kids, kid), kid.domain
	}
	return n, nil
}

// product checks an n-ary product of kernels and positive numbers (c*K,
// K*c, K1*K2*...): the kernels multiply, the numbers scale the product.
func (c *checker) product(a *ast, depth int) (*node, error) {
	n := &node{op: opProduct, scale: xfloat.New(1)}
	var nums []string
	for i, k := range a.kids {
		if k.kind == 'n' {
			if !(k.num > 0) || math.IsInf(k.num, 0) {
				return nil, c.errorf(k.pos, "a scale factor must be a positive finite number (got %s): only positive scaling keeps a kernel positive semi-definite", k.name)
			}
			n.scale, n.scaled = xfloat.Mul(n.scale, xfloat.New(k.num)), true
			nums = append(nums, k.name)
			continue
		}
		kid, err := c.check(k, depth+1)
		if err != nil {
			return nil, err
		}
		if len(n.kids) > 0 && kid.domain != n.domain {
			return nil, c.errorf(a.ops[i], "cannot combine a %s kernel with a %s kernel", n.domain, kid.domain)
		}
		n.kids, n.domain = append(n.kids, kid), kid.domain
	}
	if len(n.kids) == 0 {
		return nil, c.errorf(a.pos, "%s is a number, not a kernel", strings.Join(nums, "*"))
	}
	return n, nil
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
			return nil, c.errorf(arg.pos, "%s has no argument %s (allowed: %s%s)", a.name, arg.name, strings.Join(allowed, ", "), habit(a.name, arg.name))
		}
		p.named[arg.name] = arg
	}
	return p, nil
}

// value returns the checked value of parameter prm: its default when
// absent and optional, else a number in range or an allowed name.
func (p *params) value(prm *Param) (num float64, name string, given bool, err error) {
	fn := p.call.name
	arg, ok := p.named[prm.Name]
	if !ok {
		if prm.Required {
			return 0, "", false, p.c.errorf(p.call.pos, "%s needs %s=...", fn, prm.Name)
		}
		return prm.Default, prm.DefaultName, false, nil
	}
	if prm.Kind == Ident {
		v := arg.val
		if v.kind != 'c' || v.paren || len(prm.Choices) > 0 && !slices.Contains(prm.Choices, v.name) {
			return 0, "", true, p.c.errorf(arg.pos, "%s: %s must be %s", fn, prm.Name, prm.Range())
		}
		return 0, v.name, true, nil
	}
	if arg.val.kind != 'n' {
		return 0, "", true, p.c.errorf(arg.pos, "%s: %s must be a number", fn, prm.Name)
	}
	if err := prm.Check(arg.val.num); err != nil {
		return 0, "", true, p.c.errorf(arg.pos, "%s: %v", fn, err)
	}
	return arg.val.num, "", true, nil
}

func (c *checker) call(a *ast, depth int) (*node, error) {
	if a.name == "normalize" {
		if len(a.args) != 1 || a.args[0].name != "" {
			return nil, c.errorf(a.pos, "normalize takes exactly one kernel, as in normalize(ngram(n=3))")
		}
		k, err := c.check(a.args[0].val, depth+1)
		if err != nil {
			return nil, err
		}
		return &node{op: opNormalize, kids: []*node{k}, domain: k.domain}, nil
	}
	d, ok := Lookup(a.name)
	if !ok {
		return nil, c.errorf(a.pos, "unknown kernel %q (known: %s%s)", a.name, strings.Join(Names(), ", "), habit(a.name, ""))
	}
	return c.leaf(a, d, depth)
}

// leaf checks a call of the leaf kernel d against its definition and
// builds its evaluator; over=K wraps it in the operator.
func (c *checker) leaf(a *ast, d *Def, depth int) (*node, error) {
	p, err := c.params(a, d.allowed()...)
	if err != nil {
		return nil, err
	}
	args := &Args{def: d, nums: make([]float64, len(d.Params)), names: make([]string, len(d.Params)),
		given: make([]bool, len(d.Params)), Env: c.env}
	for i := range d.Params {
		if args.nums[i], args.names[i], args.given[i], err = p.value(&d.Params[i]); err != nil {
			return nil, err
		}
	}
	for i, prm := range d.Params {
		if prm.Kind == Ident && len(prm.Choices) == 0 {
			c.refs = append(c.refs, Reference{Kernel: d.Name, Param: prm.Name, Name: args.names[i]})
		}
	}
	if d.Domain == StringDomain {
		_, unit, _, err := p.value(&UnitParam)
		if err != nil {
			return nil, err
		}
		args.unit = strkernel.Unit(slices.Index(UnitParam.Choices, unit))
	}
	ev, err := d.Build(args)
	if err != nil {
		return nil, c.errorf(a.pos, "%s: %v", d.Name, err)
	}
	leaf := &node{op: opLeaf, ev: ev, unit: args.unit, domain: d.Domain}
	over, ok := p.named["over"]
	if !ok {
		return leaf, nil
	}
	radial, ok := ev.(Radial)
	if !ok {
		return nil, c.errorf(over.pos, "%s does not accept over=", d.Name)
	}
	k, err := c.check(over.val, depth+1)
	if err != nil {
		return nil, err
	}
	return &node{op: opOver, radial: radial, kids: []*node{k}, domain: k.domain}, nil
}
