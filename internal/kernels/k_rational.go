package kernels

import (
	"fmt"

	"github.com/ksql/ksql/internal/fst"
	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// rationalDef is the rational kernel (T∘T⁻¹)(s, t) = Σ_z T(s, z)·T(t, z) of
// a weighted transducer T named by fst=, which the connection's Env
// resolves (kind "fst") to an *fst.Table holding T's rows.
var rationalDef = Def{
	Name:     "rational",
	Domain:   StringDomain,
	Params:   []Param{{Name: "fst", Kind: Ident, Required: true}},
	Examples: []Example{{"rational(fst=T)", "(T∘T⁻¹)(s, t) of the transducer stored in table T"}},
	Build: func(a *Args) (Evaluator, error) {
		return &rationalKernel{name: a.Name("fst"), unit: a.Unit()}, nil
	},
}

type rationalKernel struct {
	name string
	unit strkernel.Unit
}

var _ Evaluator = (*rationalKernel)(nil)

// FSTKind is the kind under which a rational kernel asks Env.Resolve for
// its transducer; the answer must be an *fst.Table.
const FSTKind = "fst"

func (k *rationalKernel) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	if ws.Env == nil {
		return xfloat.F{}, fmt.Errorf("rational: no transducer tables here (fst=%s needs a database connection)", k.name)
	}
	v, err := ws.Env.Resolve(FSTKind, k.name)
	if err != nil {
		return xfloat.F{}, err
	}
	tab, ok := v.(*fst.Table)
	if !ok {
		return xfloat.F{}, fmt.Errorf("rational: fst=%s resolved to %T, not a transducer", k.name, v)
	}
	lim := strkernel.Limits{MaxCells: ws.MaxCells, Check: ws.Check}
	kern, err := tab.Kernel(k.unit, lim)
	if err != nil {
		return xfloat.F{}, fmt.Errorf("rational(fst=%s): %w", k.name, err)
	}
	return kern.EvalSeq(a.Seq(k.unit), b.Seq(k.unit), &ws.fst, lim)
}
