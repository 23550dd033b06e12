package kernels

import "github.com/ksql/ksql/internal/strkernel"

// subseqDef is the all-subsequences kernel, or with p=P the subsequences
// of length P only.
var subseqDef = Def{
	Name:   "subseq",
	Domain: StringDomain,
	Params: []Param{{Name: "p", Kind: Int, Default: 0, Lo: 1, Hi: MaxStrParam}},
	Examples: []Example{
		{"subseq", "all common subsequences (empty one too)"},
		{"subseq(p=3)", "common subsequences of length p"},
	},
	Build: func(a *Args) (Evaluator, error) {
		return newStrKernel(strkernel.Params{Kind: strkernel.Subseq, P: a.Int("p"), Unit: a.Unit()}), nil
	},
}
