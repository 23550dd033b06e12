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

var _ Distancer = linearKernel{}

func (linearKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	return DotX(a.Vec, b.Vec), nil
}

// SqDist is ‖x − z‖², from the differences, and ‖x‖² − ‖z‖² as
// ⟨x + z, x − z⟩.
func (linearKernel) SqDist(a, b *Object, _ *Workspace) (d2, diff xfloat.F, err error) {
	return SqDistX(a.Vec, b.Vec), combDot(a.Vec, b.Vec, 1, 1, 1, -1), nil
}
