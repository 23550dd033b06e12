package krr

import (
	"errors"

	"github.com/ksql/ksql/internal/nystrom"
)

// StreamRows is how many objects FitNystromStream asks for at a time.
const StreamRows = 2048

// BlockFunc sets dst[(i−lo)·m + l] = k(x_i, x_{landmarks[l]}) for the
// objects lo ≤ i < hi (m = len(landmarks)).
type BlockFunc func(lo, hi int, dst []float64) error

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

// FitNystromStream is FitNystromWPolled for n objects whose n×m kernel
// values are asked for in blocks, twice — the sums, then the predictions —
// so that memory is O(StreamRows·m + m² + n). It returns β and the
// predictions Σ_l β_l·k(x_i, x_{landmarks[l]}) of the n objects. poll
// (nil: none) is called between blocks.
func FitNystromStream(y []float64, landmarks []int, block BlockFunc, alpha float64, poll func() error) (beta, pred []float64, err error) {
	n, m := len(y), len(landmarks)
	if poll == nil {
		poll = func() error { return nil }
	}
	W := make([]float64, m*m)
	for a, la := range landmarks {
		if err := block(la, la+1, W[a*m:(a+1)*m]); err != nil {
			return nil, nil, err
		}
	}
	sums, part := NystromSums(m), NystromSums(m)
	buf := make([]float64, min(n, StreamRows)*m)
	err = forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
		if err := part.Block(C, hi-lo, y[lo:hi], poll); err != nil {
			return BlockError(err, lo)
		}
		sums.Add(part)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if beta, err = FinishNystrom(sums, W, alpha, poll); err != nil {
		return nil, nil, err
	}
	pred = make([]float64, n)
	err = forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
		for i := lo; i < hi; i++ {
			pred[i] = Predict(beta, C[(i-lo)*m:(i-lo+1)*m])
		}
		return nil
	})
	return beta, pred, err
}

// forBlocks computes the kernel values of StreamRows objects at a time and
// hands them to f.
func forBlocks(n, m int, buf []float64, block BlockFunc, poll func() error, f func(lo, hi int, C []float64) error) error {
	for lo := 0; lo < n; lo += StreamRows {
		if err := poll(); err != nil {
			return err
		}
		hi := min(n, lo+StreamRows)
		C := buf[:(hi-lo)*m]
		if err := block(lo, hi, C); err != nil {
			return err
		}
		if err := f(lo, hi, C); err != nil {
			return err
		}
	}
	return nil
}
