package krr

import (
	"errors"

	"github.com/ksql/ksql/internal/nystrom"
)

// StreamRows bounds how many objects a block of a streamed fit holds.
const StreamRows = 2048

// NystromSums returns zero sums (CᵀC and Cᵀy over blocks of kernel
// values, nystrom.Sums) for a streamed fit on m landmarks.
func NystromSums(m int) *nystrom.Sums { return nystrom.New(m, nil, true) }

// FinishNystrom returns β from the sums over every object's kernel values
// and labels and the landmarks' block W (m×m): FitNystromWPolled without
// the n×m kernel values.
func FinishNystrom(sums *nystrom.Sums, W []float64, alpha float64, poll func() error) ([]float64, error) {
	if poll == nil {
		poll = func() error { return nil }
	}
	return fitMoments(sums.Full(), sums.Ty, W, alpha, poll)
}

// BlockError gives a non-finite kernel value found by nystrom.Sums.Block
// in a block starting at object lo its object's index.
func BlockError(err error, lo int) error {
	var nf *nystrom.NonFiniteError
	if errors.As(err, &nf) {
		return &NonFiniteError{What: "kernel", Row: lo + nf.Row, Value: nf.Value}
	}
	return err
}
