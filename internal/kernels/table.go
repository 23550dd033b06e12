package kernels

// table lists the built-in leaf kernels, each defined in a file of its own
// (k_<name>.go). Adding a kernel is one such file and one entry here; the
// parser, the type checker, the shell's completion and .kernels, and the
// scalar functions' parameter checks all read the definitions.
var table = []*Def{
	&linearDef,
	&polyDef,
	&gaussDef,
	&laplaceDef,
	&sigmoidDef,
	&rqDef,
	&maternDef,
	&periodicDef,
	&chi2Def,
	&anovaDef,
	&subseqDef,
	&sskDef,
	&ngramDef,
	&gappyDef,
	&rationalDef,
}

func init() {
	for _, d := range table {
		Register(d)
	}
}
