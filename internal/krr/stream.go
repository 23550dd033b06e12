package krr

import (
	"errors"

	"github.com/ksql/ksql/internal/nystrom"
	"github.com/ksql/ksql/internal/par"
)

// StreamRows bounds how many objects a block of a streamed fit holds.
const StreamRows = 2048

// NystromSums returns zero sums (CᵀC and Cᵀy over blocks of kernel
// values, nystrom.Sums) for a streamed fit on m landmarks.
func NystromSums(m int) *nystrom.Sums { return nystrom.New(m, nil, true) }

// FinishNystrom returns β from the sums over every object's kernel values
// and labels and the landmarks' block W (m×m): FitNystromWPolled without
// the n×m kernel values. pre is W's map begun beforehand (StartWMap), or
// nil.
func FinishNystrom(sums *nystrom.Sums, W []float64, pre *WMap, alpha float64, poll func() error) ([]float64, error) {
	if poll == nil {
		poll = func() error { return nil }
	}
	return fitMoments(sums.Full(), sums.Ty, W, pre, alpha, poll)
}

// WMap is the map U_r Λ_r^(−1/2) of the landmarks' block W, an
// eigendecomposition that needs nothing of the source: StartWMap runs it on
// a goroutine of its own, beside the pass that sums the source's kernel
// values.
type WMap = par.Future[[]float64]

// StartWMap starts the map of W (m×m, not changed), polling poll (nil:
// never).
func StartWMap(W []float64, m int, poll func() error) *WMap {
	if poll == nil {
		poll = func() error { return nil }
	}
	W = append([]float64(nil), W...)
	return par.Start("krr.WMap", func() ([]float64, error) {
		M, _, err := nystrom.Map(W, m, 1e-12, poll)
		return M, err
	})
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
