// Package kpca is the mathematics behind ksql's kpca and kernel_map
// virtual tables: centring of Gram matrices, eigensolvers, exact kernel
// PCA, Nyström kernel PCA and the exact explicit feature map. It knows
// nothing of SQL or of kernel specs: callers hand it kernel values.
//
// Errors carry fields (ComponentsError, NonFiniteError), so that callers
// word them in their own terms.
//
// # Exact kernel PCA
//
//	if kpca.ExactBytes(n) > limit { /* the caller's error */ }
//	K := kpca.NewGram(n)                         // recycled storage; fill the upper triangle:
//	K.Upper()[i*n+j] = k(x_i, x_j)               // for j ≥ i (kernels.Spec.Gram does it)
//	m, err := K.Fit(kpca.Options{Components: k, Interrupt: conn.Err})
//	// K is now consumed (Fit works in place); keep m. K.Release() if not fitting.
//	m.Projection(i, dst)                          // row i: pc1..pck
//	m.Project(kz, dst)                            // new z: kz[i] = k(x_i, z), i = 0..n−1
//	m.Eigenvalues, m.ExplainedRatio, m.MinEigenvalue   // kpca_eigen
//
// The model follows Schölkopf et al. and scikit-learn's KernelPCA: the Gram
// matrix is centred in feature space (Centerer), its top k eigenpairs
// (λ_j, v_j) are found, training object i projects to sqrt(λ_j)·v_ij and a
// new object to Σ_i α_ij·k̃(x_i, z) with α_j = v_j/sqrt(λ_j) and k̃ centred
// by the training statistics. Eigenvalues are those of the centred Gram
// matrix (scikit-learn's eigenvalues_) and ExplainedRatio divides them by
// its trace. Tested against scikit-learn 1.2.1 to ~1e-12.
//
// Solvers: for n ≤ 200, or k ≥ n/3, LAPACK's dense Dsyev (O(n³)); otherwise
// thick-restart Lanczos with full reorthogonalisation, O(n²) per product
// (reading only the upper triangle, with AVX2 kernels where available, on
// all cores), typically 25–90 products for k = 5 to reach residuals of
// 1e-12·‖K‖ (eigenvalues to ~1e-15 relative): about 25 ms for n = 2,000
// on the 2-core test machine. Like
// ARPACK, single-vector Lanczos relies on rounding to separate exactly
// repeated eigenvalues.
//
// Sign rule: each eigenvector's entry of largest absolute value is made
// positive, the lowest index winning ties (scikit-learn's svd_flip), so
// output is deterministic and matches scikit-learn's signs.
//
// Components whose eigenvalue is ≤ ZeroTol·max|λ| are not numbers but
// rounding noise, so Fit refuses them: a *ComponentsError says how many
// components the data supports, and, when the kernel is not positive
// semi-definite on the data, the negative eigenvalue found. Otherwise a
// kernel with negative eigenvalues still fits (its top components are well
// defined) and reports MinEigenvalue < 0; projections are never NaN.
//
// # Nyström
//
//	L, err := kpca.SampleLandmarks(n, landmarks, seed)  // reproducible, documented generator
//	if kpca.NystromBytes(n, len(L), k) > limit { ... }
//	// C[i·m+l] = k(x_i, x_{L[l]}), e.g. from kernels.Spec.Cross:
//	m, err := kpca.FitNystromMatrix(C, L, kpca.Options{Components: k, Interrupt: conn.Err})
//	// or FitNystrom(n, L, rowFunc, opt) to have the rows computed on demand
//	m.Project(kL, dst)                            // new z: kL[l] = k(x_{L[l]}, z), len(L) values
//
// The same Model type, so Projection, Eigenvalues and friends work alike;
// BasisSize tells how many kernel values Project needs (n or m). O(n·m²)
// time and n·m float64s: 20,000 objects and 500 landmarks take ~6 s and
// ~110 MB on the 2-core test machine.
//
// # Explicit feature map
//
//	fm, err := K.FitMap(kpca.MapOptions{Interrupt: conn.Err}) // K consumed too
//	fm.Stored(i, dst)                             // vector of training object i (length fm.Dim())
//	fm.Apply(kz, dst)                             // vector of new z, kz[i] = k(x_i, z)
//
// The feature map of Ghiasi-Shirazi & Qaraei through the pivoted Cholesky
// factor of K (r = Dim() coordinates, r ≤ n, the numerical rank; see Map
// and MapOptions). ⟨Stored(i), Apply(z)⟩ = k(x_i, z) to ~1e-9 relative or
// better on the test data in float64, ~6e-8 absolute after rounding to
// float32 for gauss. Store training objects with Stored (not Apply of
// their kernel rows). It costs a blocked n³/3 factorisation (~0.35 s at
// n = 1,797).
//
// # Conventions
//
// Error messages carry no module name and no caller's vocabulary;
// ErrNoObjects, ErrIdentical, *ComponentsError and *NonFiniteError can be
// tested with errors.Is / errors.As, and Interrupt's error is returned
// unchanged. Kernel values that are NaN or infinite (an overflowing string
// kernel) are refused with their position. Fitted models are immutable and
// safe for concurrent use; Project and Apply allocate nothing when given dst.
package kpca
