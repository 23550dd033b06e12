package kpca

import (
	"github.com/ksql/ksql/internal/dense"
	"gonum.org/v1/gonum/floats"
)

// BlockFunc sets dst[(i−lo)·m + l] = k(x_i, x_{landmarks[l]}) for the
// objects lo ≤ i < hi (m = len(landmarks)).
type BlockFunc func(lo, hi int, dst []float64) error

// StreamRows is how many objects a streaming fit asks for at a time.
const StreamRows = 2048

// StreamBytes estimates FitNystromStream's peak memory: a block of kernel
// values, the m×m products, the n×k projections.
func StreamBytes(n, m, k int) int64 {
	return 8 * (int64(min(n, StreamRows))*int64(m) + 5*int64(m)*int64(m) + int64(n)*int64(k))
}

// FitNystromStream is FitNystrom in O(StreamRows·m + m² + n·k) memory:
// the n×m kernel values are asked for in blocks, twice — once for C's
// column means and C_cᵀC_c, once for the projections — and never held
// whole. The first pass accumulates around a shift (the first block's
// means), so the centred products lose nothing to cancellation:
// C_cᵀC_c = DᵀD − n·d̄d̄ᵀ with D = C − 1·shiftᵀ and d̄ small. Its results
// equal FitNystrom's up to rounding.
func FitNystromStream(n int, landmarks []int, block BlockFunc, opt Options) (*Model, error) {
	m, k := len(landmarks), opt.Components
	if err := checkNystrom(n, landmarks, k); err != nil {
		return nil, err
	}
	poll := opt.poll()
	W, err := landmarkBlock(landmarks, block)
	if err != nil {
		return nil, err
	}
	M, minW, err := inverseSqrt(W, m, poll)
	if err != nil {
		return nil, err
	}
	buf := make([]float64, min(n, StreamRows)*m)
	G, mean, err := streamMoments(n, m, buf, block, poll)
	if err != nil {
		return nil, landmarkCol(err, landmarks)
	}
	project := func(coef, proj []float64) error {
		return landmarkCol(forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
			for i := 0; i < hi-lo; i++ {
				floats.Sub(C[i*m:(i+1)*m], mean)
			}
			return dense.Mul(false, hi-lo, k, m, C, m, coef, k, proj[lo*k:], k, poll)
		}), landmarks)
	}
	return nystromModel(G, mean, M, minW, n, landmarks, k, project, poll)
}

// landmarkBlock returns W = K[L, L] (m×m, symmetrised) from one block per
// landmark.
func landmarkBlock(landmarks []int, block BlockFunc) ([]float64, error) {
	m := len(landmarks)
	W := make([]float64, m*m)
	for a, la := range landmarks {
		if err := block(la, la+1, W[a*m:(a+1)*m]); err != nil {
			return nil, err
		}
		if err := finiteRow(W[a*m:(a+1)*m], la); err != nil {
			return nil, landmarkCol(err, landmarks)
		}
	}
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			W[a*m+b] = (W[a*m+b] + W[b*m+a]) / 2
		}
	}
	return W, nil
}

// streamMoments returns C_cᵀC_c (m×m, full) and C's column means.
func streamMoments(n, m int, buf []float64, block BlockFunc, poll func() error) ([]float64, []float64, error) {
	var shift []float64
	var work dense.CrossWork
	sum := make([]float64, m)
	G := make([]float64, m*m)
	err := forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
		if shift == nil {
			shift = make([]float64, m)
			for i := 0; i < hi-lo; i++ {
				floats.Add(shift, C[i*m:(i+1)*m])
			}
			floats.Scale(1/float64(hi-lo), shift)
		}
		for i := 0; i < hi-lo; i++ {
			row := C[i*m : (i+1)*m]
			floats.Sub(row, shift)
			floats.Add(sum, row)
		}
		return work.Product(C, hi-lo, m, G, poll)
	})
	if err != nil {
		return nil, nil, err
	}
	mirrorUpper(G, m, m)
	dbar := floats.ScaleTo(make([]float64, m), 1/float64(n), sum)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			G[a*m+b] -= float64(n) * dbar[a] * dbar[b]
		}
	}
	return G, floats.AddTo(make([]float64, m), shift, dbar), nil
}

// forBlocks asks block for the kernel values of StreamRows objects at a
// time, checks them and hands them to f, whose error stops it.
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
		for i := lo; i < hi; i++ {
			if err := finiteRow(C[(i-lo)*m:(i-lo+1)*m], i); err != nil {
				return err
			}
		}
		if err := f(lo, hi, C); err != nil {
			return err
		}
	}
	return nil
}
