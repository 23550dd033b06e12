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
	Usage: "kernel(spec, a, b)", Number: kernelFunc}

// KernelDistance is kernel_distance(spec, a, b): the distance in feature space.
var KernelDistance = host.Func{Name: "kernel_distance", MinArgs: 3, MaxArgs: 3, Deterministic: true, ReadsTables: true,
	Usage: "kernel_distance(spec, a, b)", Number: kernelDistance}

// Spec reads argument i as a kernel spec, parsed once per distinct text.
func Spec(args []any, i int) (*kernels.Spec, error) {
	a := host.ArgOf(args[i])
	return specArg(&a, i)
}

// specArg is Spec of an unboxed argument.
func specArg(a *host.Arg, i int) (*kernels.Spec, error) {
	s, ok := a.Text()
	if !ok {
		return nil, argError(i, "spec", fmt.Errorf("must be TEXT naming a kernel such as 'gauss(sigma=1)', got %s", a.TypeName()))
	}
	return kernels.ParseCached(s)
}

// object decodes argument i as an object of spec's domain. null reports a
// NULL argument.
func object(spec *kernels.Spec, args []host.Arg, i int, name string) (o kernels.Object, null bool, err error) {
	if spec.Domain() == kernels.StringDomain {
		s, null, err := textArg(&args[i], i, name)
		if err != nil || null {
			return o, null, err
		}
		return spec.PrepareString(s), false, nil
	}
	var v kernels.Vec
	if null, err := vectorArg(args, i, name, &v); err != nil || null {
		return o, null, err
	}
	if err := host.CheckFinite(v); err != nil {
		return o, false, argError(i, name, err)
	}
	return spec.PrepareVec(v), false, nil
}

// specCall is what one kernel() or kernel_distance() call works in,
// pooled: the workspace and the two objects, which Eval takes by pointer
// and which would otherwise escape to the heap on every call.
type specCall struct {
	ws   kernels.Workspace
	a, b kernels.Object
}

var specCalls = sync.Pool{New: func() any { return new(specCall) }}

func kernelFunc(c *host.Conn, args []host.Arg) (float64, bool, error) {
	return evalSpec(c, args, (*kernels.Spec).EvalFloat)
}

func kernelDistance(c *host.Conn, args []host.Arg) (float64, bool, error) {
	return evalSpec(c, args, (*kernels.Spec).Distance)
}

// evalSpec runs eval on the spec and the two objects of a call; NULL in
// gives NULL out.
func evalSpec(c *host.Conn, args []host.Arg, eval func(*kernels.Spec, *kernels.Object, *kernels.Object, *kernels.Workspace) (float64, error)) (float64, bool, error) {
	if args[0].IsNull() {
		return 0, true, nil
	}
	spec, err := specArg(&args[0], 0)
	if err != nil {
		return 0, false, err
	}
	k := specCalls.Get().(*specCall)
	defer k.release()
	var na, nb bool
	if k.a, na, err = object(spec, args, 1, "a"); err != nil {
		return 0, false, err
	}
	if k.b, nb, err = object(spec, args, 2, "b"); err != nil || na || nb {
		return 0, err == nil, err
	}
	// The transducer tables spec names are read now, on the statement's
	// connection, and the workspace bound to its limits.
	env := transducer.For(c)
	if err := env.PrepareCall(spec); err != nil {
		return 0, false, err
	}
	k.ws.MaxCells, k.ws.Check, k.ws.Env = host.MaxDPCells.Get(c), c.ErrFunc(), env
	v, err := eval(spec, &k.a, &k.b, &k.ws)
	return v, false, err
}

// release drops what refers to the call (views of SQLite's memory, the
// connection) and pools k.
func (k *specCall) release() {
	k.a, k.b = kernels.Object{}, kernels.Object{}
	k.ws.Check, k.ws.Env = nil, nil
	specCalls.Put(k)
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
