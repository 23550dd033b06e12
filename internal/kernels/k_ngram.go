package kernels

import "github.com/ksql/ksql/internal/strkernel"

// ngramDef is the spectrum kernel: common substrings of length n.
var ngramDef = Def{
	Name:     "ngram",
	Domain:   StringDomain,
	Params:   []Param{{Name: "n", Kind: Int, Required: true, Lo: 1, Hi: MaxStrParam}},
	Examples: []Example{{"ngram(n=3)", "common substrings of length n (spectrum)"}},
	Build: func(a *Args) (Evaluator, error) {
		return newStrKernel(strkernel.Params{Kind: strkernel.NGram, N: a.Int("n"), Unit: a.Unit()}), nil
	},
}
