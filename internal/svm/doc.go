// Package svm is support vector machines as libsvm formulates and solves
// them, the solver behind scikit-learn's SVC: the dual of C-SVC
//
//	min ½ αᵀQα − eᵀα,  yᵀα = 0,  0 ≤ α_i ≤ C_i,  Q_ij = y_i y_j K(x_i, x_j),
//
// solved by SMO with second-order working-set selection (Fan, Chen & Lin
// 2005), a least-recently-used cache of float32 kernel columns bounded in
// bytes, and shrinking; more than two classes by one-vs-one with voting.
// The other libsvm types share the solver (types.go, nu.go): ν-SVC
// (Options.Type NuSVC, through Fit), the one-class SVM (FitOneClass),
// ε-SVR and ν-SVR (FitRegression), with libsvm's starting points, its
// Solver_NU for the ν types and the 2n-variable form of regression; on
// the reference data they take scikit-learn's iterations exactly.
// It knows nothing of SQL or of which kernel it runs: the caller supplies
// kernel columns through a callback and numbers its sorted classes 0..k−1.
//
//	m, err := svm.Fit(kern, y, svm.Options{C: 1, Tol: 1e-3, Workers: 2, Interrupt: ctx.Err})
//	// kern.Column(i, idx, dst) sets dst[t] = K(x_i, x_idx[t])
//	m.Support, m.NSupport, m.DualCoef, m.Intercept // scikit-learn's layout
//	m.Pairs[p].Iterations, .Objective, .NSV         // per one-vs-one pair
//	m.Warnings                                      // non-PSD kernel, iteration bound
//	class, err := m.Predict(kv, dec)                // kv[s] = K(x_Support[s], z)
//
// The iterations follow libsvm's (and scikit-learn's fork's) arithmetic
// step for step: on the reference data the fits take the same number of
// iterations as scikit-learn's and the dual coefficients agree to 1e-12.
// Decision values follow scikit-learn: with two classes positive for class
// 1; with more, the one-vs-one values (positive for the smaller class of
// each pair). class_weight is Options.ClassWeight (BalancedWeights gives
// 'balanced'); a fit on a subset of the rows (a fold) goes through
// Restrict.
//
// A fit is deterministic: the same bits for any CacheBytes and Workers,
// provided the kernel callback's values do not depend on how the rows are
// grouped into calls. Errors are typed values with fields (*ClassCountError,
// *ParamError, *KernelValueError, …) for ext/ to word; conditions a fit
// completed under are Model.Warnings.
package svm
