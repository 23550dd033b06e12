// Package catalog is the one declared list of what ksql registers on a
// connection: its SQL functions, its virtual table modules and the
// settings ksql_config reads and changes, in the manner of sqlite-vec's
// aFunc[] and aMod[] tables. Every driver adapter (ext for modernc,
// ext/mattn, the loadable extension over SQLite's C API) installs it with
//
//	hc := catalog.Extension.NewConn(query)
//	err := catalog.Extension.Install(registrar)
//
// (see host.Registrar). Adding a function or a module to ksql is one entry
// here, beside its implementation in ext/functions or ext/vtab. The list
// is its own package, not part of ext, so that an adapter links only the
// driver it adapts.
package catalog

import (
	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/transducer"
	"github.com/ksql/ksql/ext/vtab"
)

// Extension is everything ksql registers. It is read-only once a
// connection has been opened.
var Extension = host.Extension{
	Functions: []host.Func{
		functions.LinearKernel,
		functions.PolyKernel,
		functions.GaussKernel,
		functions.LaplaceKernel,
		functions.SubseqKernel,
		functions.SSKKernel,
		functions.NGramKernel,
		functions.Kernel,
		functions.KernelDistance,
		functions.TransducerWeight,
		vtab.KernelAlignment,
		functions.RFFEmbed,
		functions.KSQLConfig,
		functions.KSQLVersion,
	},
	Modules: []host.ModuleEntry{
		{Name: "gram", Module: vtab.Gram},
		{Name: "kpca", Module: vtab.KPCA},
		{Name: "kernel_map", Module: vtab.KernelMap},
		{Name: "kpca_eigen", Module: vtab.KPCAEigen},
		{Name: "svm", Module: vtab.SVM},
		{Name: "krr", Module: vtab.KRR},
		{Name: "klms", Module: vtab.KLMS},
		{Name: "tsne", Module: vtab.TSNE},
		{Name: "kfda", Module: vtab.KFDA},
		{Name: "gp", Module: vtab.GP},
		{Name: "kkmeans", Module: vtab.KKMeans},
		{Name: "spectral", Module: vtab.Spectral},
		{Name: "ksql_model", Module: vtab.KSQLModel},
		{Name: "fst_text", Module: vtab.FSTText},
		{Name: "kernel_spectrum", Module: vtab.KernelSpectrum},
		{Name: "kernel_mmd", Module: vtab.KernelMMD},
		{Name: "kernel_sigma", Module: vtab.KernelSigma},
		{Name: "model_search", Module: vtab.ModelSearch},
	},
	Settings: []*host.Setting{
		host.MaxDPCells,
		transducer.MaxRows,
		transducer.MaxBytes,
		vtab.MaxGramBytes,
		vtab.MaxSVMCacheBytes,
		vtab.MaxKLMSEpochs,
		vtab.MaxSearchPoints,
		functions.MaxRFFDim,
		functions.MaxRFFMapBytes,
	},
}
