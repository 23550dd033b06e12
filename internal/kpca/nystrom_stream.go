package kpca

import (
	"errors"

	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/nystrom"
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
// whole (NystromSums and FinishNystrom, driven here on one goroutine).
// Its results equal FitNystrom's up to rounding.
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
	buf := make([]float64, min(n, StreamRows)*m)
	sums, part := NystromSums(W, m), NystromSums(W, m)
	err = forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
		if err := part.Block(C, hi-lo, nil, poll); err != nil {
			return err
		}
		sums.Add(part)
		return nil
	})
	if err != nil {
		return nil, landmarkCol(err, landmarks)
	}
	project := func(mean, coef, proj []float64) error {
		coefT := Transpose(coef, m)
		return landmarkCol(forBlocks(n, m, buf, block, poll, func(lo, hi int, C []float64) error {
			return ProjectRows(C, hi-lo, mean, coefT, proj[lo*k:hi*k])
		}), landmarks)
	}
	return FinishNystrom(W, sums, landmarks, project, opt)
}

// NystromSums returns zero sums for a streamed fit on m landmarks whose
// kernel block is W (m×m): shifted by the landmarks' mean kernel values,
// which are close to C's column means, so that centring loses nothing to
// cancellation.
func NystromSums(W []float64, m int) *nystrom.Sums {
	shift := make([]float64, m)
	for a := range m {
		floats.Add(shift, W[a*m:(a+1)*m])
	}
	floats.Scale(1/float64(m), shift)
	return nystrom.New(m, shift, false)
}

// FinishNystrom is FitNystrom from the sums over the kernel values of the
// n = sums.N objects (NystromSums, then Block and Add for each block of
// rows in order) and the landmarks' block W (m×m, upper triangle read,
// destroyed). project(mean, coef, proj) must set proj (n×k) to the
// projections of every object, in order: each block of kernel values
// through ProjectRows with the mean and coef given.
func FinishNystrom(W []float64, sums *nystrom.Sums, landmarks []int, project func(mean, coef, proj []float64) error, opt Options) (*Model, error) {
	n, m, k := sums.N, len(landmarks), opt.Components
	if err := checkNystrom(n, landmarks, k); err != nil {
		return nil, err
	}
	poll := opt.poll()
	for a := range m {
		if err := finiteRow(W[a*m:(a+1)*m], landmarks[a]); err != nil {
			return nil, landmarkCol(err, landmarks)
		}
		for b := a + 1; b < m; b++ {
			W[a*m+b] = (W[a*m+b] + W[b*m+a]) / 2
		}
	}
	M, minW, err := inverseSqrt(W, m, poll)
	if err != nil {
		return nil, err
	}
	G, mean := sums.Centred()
	return nystromModel(G, mean, M, minW, n, landmarks, k, func(coef, proj []float64) error {
		return project(mean, coef, proj)
	}, poll)
}

// ProjectRows sets dst (rows×k) to the projections (C_i − mean)·coef of
// rows×m kernel values C, which it centres in place; a non-finite value
// is a *NonFiniteError with its row in the block. coefT is coef (m×k)
// transposed (k×m, Transpose): with k a handful of components, k dot
// products a row are several times faster than a matrix product, whose
// blocking is made for wide results.
func ProjectRows(C []float64, rows int, mean, coefT, dst []float64) error {
	m := len(mean)
	k := len(coefT) / m
	for i := range rows {
		row := C[i*m : (i+1)*m]
		if err := finiteRow(row, i); err != nil {
			return err
		}
		floats.Sub(row, mean)
		for j := range k {
			dst[i*k+j] = floats.Dot(row, coefT[j*m:(j+1)*m])
		}
	}
	return nil
}

// Transpose returns the k×m transpose of the m×k row-major coef.
func Transpose(coef []float64, m int) []float64 {
	k := len(coef) / m
	t := make([]float64, len(coef))
	for l := range m {
		for j := range k {
			t[j*m+l] = coef[l*k+j]
		}
	}
	return t
}

// landmarkBlock returns W = K[L, L] (m×m) from one block per landmark.
func landmarkBlock(landmarks []int, block BlockFunc) ([]float64, error) {
	m := len(landmarks)
	W := make([]float64, m*m)
	for a, la := range landmarks {
		if err := block(la, la+1, W[a*m:(a+1)*m]); err != nil {
			return nil, err
		}
	}
	return W, nil
}

// forBlocks asks block for the kernel values of StreamRows objects at a
// time and hands them to f, whose error stops it; a *NonFiniteError from
// f gets its object's index.
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
			return BlockError(err, lo)
		}
	}
	return nil
}

// BlockError gives a non-finite kernel value found in a block of rows
// starting at object lo (by nystrom.Sums.Block or ProjectRows) its
// object's index; other errors pass.
func BlockError(err error, lo int) error {
	var nf *nystrom.NonFiniteError
	var kf *NonFiniteError
	switch {
	case errors.As(err, &nf):
		return &NonFiniteError{Row: lo + nf.Row, Col: -1, Landmark: nf.Landmark, Value: nf.Value}
	case errors.As(err, &kf) && kf.Landmark >= 0 && kf.Col < 0:
		return &NonFiniteError{Row: lo + kf.Row, Col: -1, Landmark: kf.Landmark, Value: kf.Value}
	}
	return err
}
