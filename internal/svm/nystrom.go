package svm

import (
	"errors"
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/dense"
	"github.com/ksql/ksql/internal/nystrom"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// NystromMap returns M = U_r·Σ_r^(−1/2) (m×r, row-major) for the landmarks'
// Gram matrix W (m×m, row-major, symmetric; its upper triangle is read):
// the Nyström features of an object with kernel values k against the
// landmarks are φ = kᵀM, so that φ(x)·φ(z) = k_xᵀW⁺k_z. Eigenvalues at
// most m·ε·λ_max, and negative ones, are dropped (kpca's rule), leaving r;
// scikit-learn's Nystroem instead floors them at 1e-12 and rotates back by
// Uᵀ, which changes no inner product of the kept directions. minEig is W's
// smallest eigenvalue (negative: the kernel is not positive semi-definite
// on the landmarks).
func NystromMap(W []float64, m int, poll func() error) (M []float64, r int, minEig float64, err error) {
	if m < 1 || len(W) != m*m {
		return nil, 0, 0, &LengthError{Name: "W", Got: len(W), Want: m * max(m, 1)}
	}
	for a := 0; a < m; a++ {
		for b := a; b < m; b++ {
			if v := W[a*m+b]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, 0, &KernelValueError{Row: a, Col: b, Value: v}
			}
		}
	}
	// Thousands of landmarks are seconds of eigendecomposition: dense's
	// polls poll, where gonum's could not be stopped.
	M, vals, err := nystrom.Map(append([]float64(nil), W...), m, float64(m)*0x1p-52, poll)
	if errors.Is(err, dense.ErrNoConvergence) {
		return nil, 0, 0, errors.New("svm: the eigendecomposition of the landmarks' Gram matrix did not converge")
	}
	if err != nil {
		return nil, 0, 0, err
	}
	if len(M) == 0 {
		return nil, 0, vals[0], fmt.Errorf("svm: the Gram matrix of the %d landmarks has no positive eigenvalue (largest %.6g)", m, vals[m-1])
	}
	r = len(M) / m
	return M, r, vals[0], nil
}

// NystromRows sets X (rows×r) to the features C·M of one block of rows×m
// kernel values C, with P (at least rows·r values) as scratch. A
// non-finite kernel value is a *KernelValueError whose Row is in the
// block and whose Col is the landmark's index.
func NystromRows[F float32 | float64](C []float64, rows, m int, M []float64, r int, P []float64, X []F) error {
	c := C[:rows*m]
	for i, v := range c {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &KernelValueError{Row: i / m, Col: i % m, Value: v}
		}
	}
	p := P[:rows*r]
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas64.General{Rows: rows, Cols: m, Stride: m, Data: c},
		blas64.General{Rows: m, Cols: r, Stride: r, Data: M},
		0, blas64.General{Rows: rows, Cols: r, Stride: r, Data: p})
	for i, v := range p {
		X[i] = F(v)
	}
	return nil
}

// NystromFeature is NystromFeatures for one object: phi = kᵀM.
func NystromFeature(k, M []float64, r int, phi []float64) {
	for j := range phi[:r] {
		phi[j] = 0
	}
	for l, v := range k {
		row := M[l*r : (l+1)*r]
		for j, w := range row {
			phi[j] += v * w
		}
	}
}
