package krr

import (
	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/dense"
)

// StreamRows is how many objects FitNystromStream asks for at a time.
const StreamRows = 2048

// BlockFunc sets dst[(i−lo)·m + l] = k(x_i, x_{landmarks[l]}) for the
// objects lo ≤ i < hi (m = len(landmarks)).
type BlockFunc func(lo, hi int, dst []float64) error

// FitNystromStream is FitNystromWPolled for n objects whose n×m kernel values
// are asked for in blocks, twice — CᵀC and Cᵀy, then the predictions — so
// that memory is O(StreamRows·m + m² + n). It returns β and the
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
	CtC, Cty := make([]float64, m*m), make([]float64, m)
	var work dense.CrossWork
	buf := make([]float64, min(n, StreamRows)*m)
	err = forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
		for i := lo; i < hi; i++ {
			floats.AddScaled(Cty, y[i], C[(i-lo)*m:(i-lo+1)*m])
		}
		return work.Product(C, hi-lo, m, CtC, poll)
	})
	if err != nil {
		return nil, nil, err
	}
	if beta, err = fitMoments(CtC, Cty, W, alpha, poll); err != nil {
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
// hands them to f, refusing non-finite ones.
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
		for k, v := range C {
			if v-v != 0 {
				return &NonFiniteError{What: "kernel", Row: lo + k/m, Value: v}
			}
		}
		if err := f(lo, hi, C); err != nil {
			return err
		}
	}
	return nil
}
