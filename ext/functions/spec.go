package functions

import (
	"fmt"
	"math"
	"sync"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/transducer"
	"github.com/ksql/ksql/internal/kernels"
)

// Kernel is kernel(spec, a, b): any kernel spec.
var Kernel = host.Func{Name: "kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true, ReadsTables: true,
	Usage: "kernel(spec, a, b)", Body: kernelFunc}

// KernelDistance is kernel_distance(spec, a, b): the distance in feature space.
var KernelDistance = host.Func{Name: "kernel_distance", MinArgs: 3, MaxArgs: 3, Deterministic: true, ReadsTables: true,
	Usage: "kernel_distance(spec, a, b)", Body: kernelDistance}

// Spec reads argument i as a kernel spec, parsed once per distinct text.
func Spec(args []any, i int) (*kernels.Spec, error) {
	s, ok := args[i].(string)
	if !ok {
		return nil, argError(i, "spec", fmt.Errorf("must be TEXT naming a kernel such as 'gauss(sigma=1)', got %s", host.TypeName(args[i])))
	}
	return kernels.ParseCached(s)
}

// Object decodes argument i as an object of spec's domain. null reports a
// NULL argument.
func Object(spec *kernels.Spec, args []any, i int, name string) (o kernels.Object, null bool, err error) {
	if spec.Domain() == kernels.StringDomain {
		s, null, err := Text(args, i, name)
		if err != nil || null {
			return o, null, err
		}
		return spec.PrepareString(s), false, nil
	}
	v, null, err := Vector(args, i, name)
	if err != nil || null {
		return o, null, err
	}
	if err := host.CheckFinite(v); err != nil {
		return o, false, argError(i, name, err)
	}
	return spec.PrepareVec(v), false, nil
}

var workspaces = sync.Pool{New: func() any { return new(kernels.Workspace) }}

// Workspace returns a pooled workspace bound to c's limits and to the
// transducer tables spec names, read now; Release it.
func Workspace(c *host.Conn, spec *kernels.Spec) (*kernels.Workspace, error) {
	env := transducer.For(c)
	if err := env.Prepare(spec); err != nil {
		return nil, err
	}
	ws := workspaces.Get().(*kernels.Workspace)
	ws.MaxCells = host.MaxDPCells.Get(c)
	ws.Check = c.Err
	ws.Env = env
	return ws, nil
}

// Release returns a workspace to the pool.
func Release(ws *kernels.Workspace) {
	ws.Check, ws.Env = nil, nil
	workspaces.Put(ws)
}

func specArgs(args []any) (*kernels.Spec, kernels.Object, kernels.Object, bool, error) {
	var a, b kernels.Object
	if args[0] == nil {
		return nil, a, b, true, nil
	}
	spec, err := Spec(args, 0)
	if err != nil {
		return nil, a, b, false, err
	}
	a, na, err := Object(spec, args, 1, "a")
	if err != nil {
		return nil, a, b, false, err
	}
	b, nb, err := Object(spec, args, 2, "b")
	if err != nil {
		return nil, a, b, false, err
	}
	return spec, a, b, na || nb, nil
}

func kernelFunc(c *host.Conn, args []any) (any, error) {
	spec, a, b, null, err := specArgs(args)
	if err != nil || null {
		return nil, err
	}
	ws, err := Workspace(c, spec)
	if err != nil {
		return nil, err
	}
	defer Release(ws)
	v, err := spec.EvalFloat(&a, &b, ws)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func kernelDistance(c *host.Conn, args []any) (any, error) {
	spec, a, b, null, err := specArgs(args)
	if err != nil || null {
		return nil, err
	}
	ws, err := Workspace(c, spec)
	if err != nil {
		return nil, err
	}
	defer Release(ws)
	v, err := spec.Distance(&a, &b, ws)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// KernelParam reads argument i as a value of the kernel parameter p (from
// the kernel definition table, whose Check is the one range check of the
// spec language and the scalar functions alike).
func KernelParam(args []any, i int, p *kernels.Param) (float64, error) {
	a := host.ArgOf(args[i])
	return kernelParam(&a, i, p)
}

// kernelParam is KernelParam of an unboxed argument.
func kernelParam(a *host.Arg, i int, p *kernels.Param) (float64, error) {
	v, ok := a.Number()
	switch {
	case !ok && p.Kind == kernels.Int:
		return 0, argError(i, p.Name, fmt.Errorf("must be an integer, got %s", a.TypeName()))
	case !ok:
		return 0, argError(i, p.Name, fmt.Errorf("must be a number, got %s", a.TypeName()))
	case p.Kind != kernels.Int && (math.IsNaN(v) || math.IsInf(v, 0)):
		return 0, argError(i, p.Name, fmt.Errorf("must be a finite number, got %v", v))
	}
	if err := p.Check(v); err != nil {
		return 0, argError(i, p.Name, fmt.Errorf("must be %s, got %v", paramBounds(p), a.Box()))
	}
	return v, nil
}

// paramBounds words a numeric parameter's range for a scalar function's
// error: "> 0", "≥ 0", "in (0, 1]", "a whole number from 1 to 1000".
func paramBounds(p *kernels.Param) string {
	switch {
	case p.Kind == kernels.Int:
		return fmt.Sprintf("a whole number from %d to %d", int64(p.Lo), int64(p.Hi))
	case math.IsInf(p.Hi, 1) && p.LoOpen:
		return fmt.Sprintf("> %v", p.Lo)
	case math.IsInf(p.Hi, 1):
		return fmt.Sprintf("≥ %v", p.Lo)
	}
	lo, hi := "[", "]"
	if p.LoOpen {
		lo = "("
	}
	if p.HiOpen {
		hi = ")"
	}
	return fmt.Sprintf("in %s%v, %v%s", lo, p.Lo, p.Hi, hi)
}
