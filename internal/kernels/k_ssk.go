package kernels

import "github.com/ksql/ksql/internal/strkernel"

// sskDef is the gap-weighted subsequence kernel of Lodhi et al. (2002).
var sskDef = Def{
	Name:   "ssk",
	Domain: StringDomain,
	Params: []Param{
		{Name: "p", Kind: Int, Required: true, Lo: 1, Hi: MaxStrParam},
		{Name: "lambda", Kind: Real, Required: true, Lo: 0, LoOpen: true, Hi: 1},
	},
	Examples: []Example{{"ssk(p=3, lambda=0.5)", "gap-weighted subsequences (Lodhi et al.)"}},
	Build: func(a *Args) (Evaluator, error) {
		return newStrKernel(strkernel.Params{Kind: strkernel.SSK, P: a.Int("p"), Lambda: a.Float("lambda"), Unit: a.Unit()}), nil
	},
}
