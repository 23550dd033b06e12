package kernels

import (
	"slices"
	"strings"

	"github.com/ksql/ksql/internal/fst"
	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// gappyDef is the gappy n-gram kernel of Cortes, Haffner & Mohri (2004),
// the rational kernel of a counting transducer (internal/fst computes it).
var gappyDef = Def{
	Name:   "gappy",
	Domain: StringDomain,
	Params: []Param{
		{Name: "n", Kind: Int, Required: true, Lo: 1, Hi: MaxStrParam},
		{Name: "lambda", Kind: Real, Required: true, Lo: 0, Hi: 1},
	},
	Examples: []Example{{"gappy(n=3, lambda=0.5)", "n-grams with gaps, λ per skipped symbol (rational kernel)"}},
	Build: func(a *Args) (Evaluator, error) {
		return &gappyKernel{g: fst.Gappy{N: a.Int("n"), Lambda: a.Float("lambda")}, unit: a.Unit()}, nil
	},
}

type gappyKernel struct {
	g    fst.Gappy
	unit strkernel.Unit
}

var _ Evaluator = (*gappyKernel)(nil)

func (k *gappyKernel) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	sa, sb := a.Seq(k.unit), b.Seq(k.unit)
	if compareSeqs(sa, sb) < 0 {
		// Word ids depend on the order the words are met: one order for
		// both (a, b) and (b, a) keeps K symmetric to the bit.
		sa, sb = sb, sa
	}
	x, y := ws.str.Ints(sa, sb)
	return k.g.EvalLabels(x, y, &ws.fst, strkernel.Limits{MaxCells: ws.MaxCells, Check: ws.Check})
}

// compareSeqs orders sequences by length, then by their symbols.
func compareSeqs(a, b strkernel.Seq) int {
	if c := a.Len() - b.Len(); c != 0 {
		return c
	}
	if a.Unit() == strkernel.Word {
		return slices.CompareFunc(a.Words(), b.Words(), strings.Compare)
	}
	return slices.Compare(a.Chars(), b.Chars())
}
