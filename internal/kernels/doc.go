// Package kernels holds ksql's vector kernels, the kernel spec language
// (parsing, type checking and evaluation of specs such as
// "normalize(ngram(n=3))" or "0.5*gauss(sigma=1) + linear"), its kernel
// definition table, and Gram matrix computation.
//
// # The definition table
//
// Every leaf kernel of the language (linear, poly, gauss, laplace,
// sigmoid, rq, matern, periodic, chi2, anova; subseq, ssk, ngram, gappy,
// rational) is one Def: a name, a Domain (vectors or strings), Params
// with their kinds, ranges and defaults, help Examples, and a Build
// function that turns checked Args into an Evaluator. The parser knows no
// kernel by name: it looks calls up in the registry, checks their
// arguments against the Params (Param.Check is the only range check; the
// scalar SQL functions call it too) and calls Build. The operators of the
// language stay in the parser: '+', '*', positive scaling, normalize(K),
// and over=K on kernels that declare Over (their evaluator implements
// Radial, a function of a squared distance). String kernels take
// unit=char|word (UnitParam) without declaring it.
//
// # Adding a kernel
//
// Write one file, k_<name>.go, holding
//
//	var fooDef = Def{
//		Name:   "foo",
//		Domain: StringDomain,
//		Params: []Param{
//			{Name: "n", Kind: Int, Required: true, Lo: 1, Hi: MaxStrParam},
//			{Name: "lambda", Kind: Real, Default: 0.5, Lo: 0, Hi: 1},
//			{Name: "fst", Kind: Ident, Required: true}, // a name, e.g. a table's
//		},
//		Examples: []Example{{"foo(n=3, fst=T)", "what it computes"}},
//		Build: func(a *Args) (Evaluator, error) {
//			return &fooKernel{n: a.Int("n"), lambda: a.Float("lambda"),
//				fst: a.Name("fst"), unit: a.Unit()}, nil
//		},
//	}
//
// and its evaluator (Eval(a, b *Object, ws *Workspace) (xfloat.F, error),
// safe for concurrent use; per-goroutine buffers go in the Workspace), and
// add &fooDef to table in table.go. Nothing else changes: the spec
// language, its errors ("foo: n must be a whole number from 1 to 1048576,
// got 0"), the shell's completion words (Words) and .kernels text (Help)
// follow. A scalar SQL function for the kernel, if wanted, reads its
// arguments with the same Params. A test can Register (and Unregister) a
// throwaway Def through the same path, as def_test.go does.
//
// # Things outside the spec text
//
// An Ident parameter takes a name (fst=bigram), not a number; a Param with
// Choices allows only those names (unit=char|word). A kernel that needs
// what such a name refers to (the transducer stored in table bigram) gets
// it from an Env, which the SQL layer implements per connection:
//
//   - at evaluation time, through Workspace.Env (GramOptions.Env for Gram
//     and Cross workers): ws.Env.Resolve("fst", name). This keeps the
//     parsed spec independent of any connection, so ParseCached can share
//     it, and lets every statement see the table as it is now; the Env
//     caches what is costly to rebuild.
//   - at parse time, through Args.Env when the caller used ParseEnv (nil
//     otherwise), for a builder that wants to check the name at once.
//
// Spec.References lists the names a spec refers to, so a caller can tell
// when a cached fit depends on a table that changed.
//
// # Parallel loops
//
// Gram and Cross run on internal/par, which returns a panic in any worker
// as an error naming the function; results do not depend on the number of
// workers.
package kernels
