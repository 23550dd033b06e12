package kernels

import (
	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// MaxStrParam bounds the lengths p and n of the string kernels.
const MaxStrParam = 1 << 20

type strSeq = strkernel.Seq

type strWorkspace = strkernel.Workspace

func decodeString(s string, unit strkernel.Unit) strSeq { return strkernel.Decode(s, unit) }

// strKernel evaluates one of strkernel's dynamic programmes on the
// strings' symbols for its unit, under the workspace's limits.
type strKernel struct{ p strkernel.Params }

var _ Evaluator = (*strKernel)(nil)

func newStrKernel(p strkernel.Params) *strKernel { return &strKernel{p} }

func (k *strKernel) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	return strkernel.Eval(k.p, a.Seq(k.p.Unit), b.Seq(k.p.Unit), &ws.str,
		strkernel.Limits{MaxCells: ws.MaxCells, Check: ws.Check})
}
