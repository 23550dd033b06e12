package cluster

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/kpca"
)

// SpectralResult is a spectral clustering: the partition of the objects'
// embedding, and the embedding's eigenvalues.
type SpectralResult struct {
	Result
	// Eigenvalues are the K largest eigenvalues, descending, of
	// D^(−1/2) A D^(−1/2); 1 is the largest, and a cluster well apart from
	// the others adds an eigenvalue near 1.
	Eigenvalues []float64
}

// NegativeError is an affinity below zero between objects Row and Col.
type NegativeError struct {
	Row, Col int
	Value    float64
}

func (e *NegativeError) Error() string {
	return fmt.Sprintf("cluster: the affinity of objects %d and %d is %v", e.Row, e.Col, e.Value)
}

// IsolatedError is an object whose affinity to every other object is 0:
// its degree is 0 and the normalised affinity is undefined.
type IsolatedError struct{ Row int }

func (e *IsolatedError) Error() string {
	return fmt.Sprintf("cluster: object %d has affinity 0 to every other object", e.Row)
}

// Spectral partitions n objects by Ng, Jordan & Weiss (2001) from their
// affinities A (n×n, row-major, symmetric, ≥ 0), which it overwrites: the
// diagonal is set to 0 (an object's affinity to itself says nothing about
// the partition, as in the paper, kernlab's specc and scikit-learn's
// Laplacian), A becomes D^(−1/2) A D^(−1/2) with D the row sums, its top K
// eigenvectors are the columns of U, the rows of U are scaled to unit
// length, and the rows are clustered by k-means. Dist2 and Objective are
// measured in that embedding.
func Spectral(A []float64, n int, opt Options) (*SpectralResult, error) {
	if len(A) != n*n {
		return nil, fmt.Errorf("cluster: an affinity matrix of %d entries for %d objects", len(A), n)
	}
	if err := opt.check(n); err != nil {
		return nil, err
	}
	poll := opt.poll()
	dinv, err := degrees(A, n, poll)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if i%rowChunk == 0 {
			if err := poll(); err != nil {
				return nil, err
			}
		}
		row := A[i*n : (i+1)*n]
		for j := range row {
			row[j] *= dinv[i] * dinv[j]
		}
	}
	vals, U, err := kpca.TopEigen(A, n, n, opt.K, kpca.Options{Interrupt: opt.Interrupt})
	if err != nil {
		return nil, err
	}
	k := opt.K
	for i := 0; i < n; i++ {
		row := U[i*k : (i+1)*k]
		norm := 0.0
		for _, v := range row {
			norm += v * v
		}
		if norm > 0 {
			norm = 1 / math.Sqrt(norm)
			for c := range row {
				row[c] *= norm
			}
		}
	}
	res, _, err := KMeans(U, n, k, opt)
	if err != nil {
		return nil, err
	}
	return &SpectralResult{Result: *res, Eigenvalues: vals}, nil
}

// degrees zeroes A's diagonal, checks its entries and returns 1/√d_i for
// the row sums d_i. D^(−1/2) A D^(−1/2) does not change when A is scaled,
// so entries so large that a row sum would overflow are first scaled by a
// power of two below 1 (exactly) rather than give d_i = +Inf and rows of 0.
func degrees(A []float64, n int, poll func() error) ([]float64, error) {
	largest := 0.0
	for i := 0; i < n; i++ {
		if i%rowChunk == 0 {
			if err := poll(); err != nil {
				return nil, err
			}
		}
		A[i*n+i] = 0
		for j, v := range A[i*n : (i+1)*n] {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, &NonFiniteError{Row: i, Col: j, Value: v}
			case v < 0:
				return nil, &NegativeError{Row: min(i, j), Col: max(i, j), Value: v}
			}
			largest = math.Max(largest, v)
		}
	}
	if largest > math.MaxFloat64/float64(n) {
		_, e := math.Frexp(largest)
		s := math.Ldexp(1, -e)
		for i := range A {
			A[i] *= s
		}
	}
	dinv := make([]float64, n)
	for i := 0; i < n; i++ {
		sum := 0.0
		for _, v := range A[i*n : (i+1)*n] {
			sum += v
		}
		if !(sum > 0) {
			return nil, &IsolatedError{Row: i}
		}
		dinv[i] = 1 / math.Sqrt(sum)
	}
	return dinv, nil
}
