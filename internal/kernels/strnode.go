package kernels

import (
	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// String kernel kinds and units as the spec language names them.
const (
	strSubseq = int(strkernel.Subseq)
	strSSK    = int(strkernel.SSK)
	strNgram  = int(strkernel.NGram)
)

const (
	unitChar = int(strkernel.Char)
	unitWord = int(strkernel.Word)
)

// strParams are a string kernel's parameters as parsed from a spec.
type strParams struct {
	kind   int
	p      int // subseq: 0 for all lengths
	lambda float64
	n      int
	unit   int
}

type strSeq = strkernel.Seq

type strWorkspace = strkernel.Workspace

func decodeString(s string, unit int) strSeq { return strkernel.Decode(s, strkernel.Unit(unit)) }

func evalString(p strParams, a, b *Object, ws *Workspace) (xfloat.F, error) {
	sp := strkernel.Params{Kind: strkernel.Kind(p.kind), P: p.p, Lambda: p.lambda, N: p.n, Unit: strkernel.Unit(p.unit)}
	return strkernel.Eval(sp, a.seqs[p.unit], b.seqs[p.unit], &ws.str, strkernel.Limits{MaxCells: ws.MaxCells, Check: ws.Check})
}
