package nystrom

import (
	"errors"
	"math"

	"github.com/ksql/ksql/internal/dense"
)

// ErrOverflow is a landmarks' kernel block whose entries are finite but
// whose eigenvalues pass float64's range (entries near 1e308): unchecked,
// an infinite λ_max keeps no eigenpair and reads as a kernel that is not
// positive semi-definite.
var ErrOverflow = errors.New("the eigenvalues of the landmarks' Gram matrix pass float64's range")

// Map returns the Nyström map M = U_r·Λ_r^(−1/2) (m×r, row-major) of the
// landmarks' kernel block W (m×m; its upper triangle is read and W is
// destroyed): the features of an object with kernel values k against the
// landmarks are kᵀM, and ΦΦᵀ = C·W⁺·Cᵀ. It keeps the eigenpairs with
// λ > cutoff·λ_max and λ > 0, largest first (r = len(M)/m, 0 when none
// is kept), and returns every eigenvalue of W, ascending: the smallest
// says whether the kernel is positive semi-definite on the landmarks.
// kpca, krr and svm's Nyström fits share it; they differ in cutoff alone.
func Map(W []float64, m int, cutoff float64, poll func() error) (M, vals []float64, err error) {
	vals, err = dense.EigenSym(W, m, m, poll) // ascending; W's columns become the eigenvectors
	if err != nil {
		return nil, nil, err
	}
	for _, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, nil, ErrOverflow
		}
	}
	top := vals[m-1]
	r := 0
	for r < m && vals[m-1-r] > cutoff*top && vals[m-1-r] > 0 {
		r++
	}
	M = make([]float64, m*r)
	for c := range r {
		j := m - 1 - c
		s := 1 / math.Sqrt(vals[j])
		for i := range m {
			M[i*r+c] = W[i*m+j] * s
		}
	}
	return M, vals, nil
}
