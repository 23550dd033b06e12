package kpca

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/ksql/ksql/internal/dense"
)

// Spectrum summarises the eigenvalues of a Gram matrix: Mercer's condition
// checked on data.
type Spectrum struct {
	// Values are the eigenvalues of (K + Kᵀ)/2, largest first.
	Values []float64
	// Symmetric reports K = Kᵀ to within 1e-12 of its largest entry.
	Symmetric bool
	// Min is the smallest eigenvalue.
	Min float64
	// NegativeMass is Σ|λ| over the negative eigenvalues divided by the
	// trace (Σ|λ| when the trace is not positive): 0 for a positive
	// semi-definite K.
	NegativeMass float64
}

// SpectrumOf returns the spectrum of the n×n matrix K, stored by rows.
// K must be finite. interrupt (nil: none) is called every few milliseconds
// of work and its error returned: the eigenvalues of 2,000 objects take
// seconds.
func SpectrumOf(K []float64, n int, interrupt func() error) (Spectrum, error) {
	var s Spectrum
	if n == 0 {
		return Spectrum{Symmetric: true}, nil
	}
	poll := noPoll
	if interrupt != nil {
		poll = interrupt
	}
	big, asym := 0.0, 0.0
	S := make([]float64, n*n)
	for i := 0; i < n; i++ {
		if i%256 == 0 {
			if err := poll(); err != nil {
				return s, err
			}
		}
		for j := i; j < n; j++ {
			a, b := K[i*n+j], K[j*n+i]
			big = math.Max(big, math.Max(math.Abs(a), math.Abs(b)))
			asym = math.Max(asym, math.Abs(a-b))
			S[i*n+j] = a/2 + b/2
		}
	}
	s.Symmetric = asym <= 1e-12*big
	// The trace and the negative eigenvalues' sum are compared divided by
	// the largest entry: each may pass float64's range where their ratio
	// does not.
	scale := big
	if scale == 0 {
		scale = 1
	}
	trace := 0.0
	for i := 0; i < n; i++ {
		trace += S[i*n+i] / scale
	}
	vals, err := dense.EigenValues(S, n, n, poll)
	if err != nil {
		if errors.Is(err, dense.ErrNoConvergence) {
			return s, errNoConvergence
		}
		return s, err
	}
	for _, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return s, &OverflowError{MaxAbs: big}
		}
	}
	s.Values = vals
	sort.Sort(sort.Reverse(sort.Float64Slice(s.Values)))
	s.Min = s.Values[n-1]
	neg, abs := 0.0, 0.0
	for _, v := range s.Values {
		abs += math.Abs(v) / scale
		if v < 0 {
			neg -= v / scale
		}
	}
	switch {
	case neg == 0:
	case trace > 0:
		s.NegativeMass = neg / trace
	default:
		s.NegativeMass = neg / abs
	}
	return s, nil
}

// OverflowError is a finite matrix whose eigenvalues pass float64's range
// (entries near 1e308 over a few rows).
type OverflowError struct {
	MaxAbs float64 // the largest |entry|
}

func (e *OverflowError) Error() string {
	return fmt.Sprintf("the eigenvalues pass float64's range (the largest |entry| is %.6g); scale the kernel down (a factor such as 1e-200*linear) or the data", e.MaxAbs)
}

// errNoConvergence is an eigensolver that did not converge (LAPACK's info > 0).
var errNoConvergence = errors.New("the eigenvalue computation did not converge")
