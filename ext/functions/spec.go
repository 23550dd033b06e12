package functions

import (
	"fmt"
	"sync"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// Kernel is kernel(spec, a, b): any kernel spec.
var Kernel = host.Func{Name: "kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "kernel(spec, a, b)", Body: kernelFunc}

// KernelDistance is kernel_distance(spec, a, b): the distance in feature space.
var KernelDistance = host.Func{Name: "kernel_distance", MinArgs: 3, MaxArgs: 3, Deterministic: true,
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

// Workspace returns a pooled workspace bound to c's limits; Release it.
func Workspace(c *host.Conn) *kernels.Workspace {
	ws := workspaces.Get().(*kernels.Workspace)
	ws.MaxCells = host.MaxDPCells.Get(c)
	ws.Check = c.Err
	return ws
}

// Release returns a workspace to the pool.
func Release(ws *kernels.Workspace) {
	ws.Check = nil
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
	ws := Workspace(c)
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
	ws := Workspace(c)
	defer Release(ws)
	v, err := spec.Distance(&a, &b, ws)
	if err != nil {
		return nil, err
	}
	return v, nil
}
