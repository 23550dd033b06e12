package kernels

import "github.com/ksql/ksql/internal/xfloat"

// linearDef is ⟨x, z⟩.
var linearDef = Def{
	Name:     "linear",
	Domain:   VectorDomain,
	Examples: []Example{{"linear", "<x,z>"}},
	Build:    func(*Args) (Evaluator, error) { return linearKernel{}, nil },
}

type linearKernel struct{}

var _ Evaluator = linearKernel{}

func (linearKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return xfloat.New(Dot(a.Vec, b.Vec)), nil
}
