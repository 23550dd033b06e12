package kpca

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/nystrom"
	"github.com/ksql/ksql/internal/par"
)

// StreamRows bounds how many objects a block of a streamed fit holds.
const StreamRows = 2048

// StreamBytes estimates a streamed fit's peak memory (NystromSums,
// FinishNystrom): a block of kernel values, the m×m products, the n×k
// projections.
func StreamBytes(n, m, k int) int64 {
	return 8 * (int64(min(n, StreamRows))*int64(m) + 5*int64(m)*int64(m) + int64(n)*int64(k))
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
// rows in order) and the map of the landmarks' block W (StartLandmarkMap).
// project(mean, coef, proj) must set proj (n×k) to the projections of
// every object, in order: each block of kernel values through ProjectRows
// with the mean and coef given.
func FinishNystrom(lm *LandmarkMap, sums *nystrom.Sums, landmarks []int, project func(mean, coef, proj []float64) error, opt Options) (*Model, error) {
	n, k := sums.N, opt.Components
	return finishNystrom(lm, sums, landmarks, func(mean, coef []float64, mod *Model) ([]bool, error) {
		mod.proj = make([]float64, n*k)
		if err := project(mean, coef, mod.proj); err != nil {
			return nil, err
		}
		return fixSigns(mod.proj, n, k), nil
	}, opt)
}

// FinishNystromTo is FinishNystrom for projections the model does not
// hold (a million rows' are kept in pieces elsewhere as they are
// computed), with the landmarks' part of the fit started beforehand
// (StartLandmarkMap): project(mean, coef, signs) must keep the
// projections of every object, in order, and hand each block of them to
// signs.Add. The model's Flipped says which kept columns to negate.
func FinishNystromTo(lm *LandmarkMap, sums *nystrom.Sums, landmarks []int, project func(mean, coef []float64, signs *SignRule) error, opt Options) (*Model, error) {
	return finishNystrom(lm, sums, landmarks, func(mean, coef []float64, mod *Model) ([]bool, error) {
		signs := NewSignRule(opt.Components)
		if err := project(mean, coef, signs); err != nil {
			return nil, err
		}
		mod.flipped = signs.flips()
		return mod.flipped, nil
	}, opt)
}

func finishNystrom(lm *LandmarkMap, sums *nystrom.Sums, landmarks []int, project func(mean, coef []float64, mod *Model) ([]bool, error), opt Options) (*Model, error) {
	n, k := sums.N, opt.Components
	if err := checkNystrom(n, landmarks, k); err != nil {
		return nil, err
	}
	w, err := lm.Wait()
	if err != nil {
		return nil, err
	}
	G, mean := sums.Centred()
	return nystromModel(G, mean, w.m, w.minW, n, landmarks, k, func(coef []float64, mod *Model) ([]bool, error) {
		return project(mean, coef, mod)
	}, opt.poll())
}

// LandmarkMap is the part of a Nyström fit that needs only the landmarks'
// kernel block W: its rows checked finite, and the map W^(−1/2) (an
// eigendecomposition of W, a tenth of a second on one core at m = 500).
// StartLandmarkMap computes it on a goroutine of its own, beside the pass
// that sums the source's kernel values, which does not need it.
type LandmarkMap = par.Future[landmarkMap]

type landmarkMap struct {
	m    []float64
	minW float64
}

// StartLandmarkMap starts the map of W (m×m, upper triangle read, not
// changed) for the given landmarks, polling poll (nil: never).
func StartLandmarkMap(W []float64, landmarks []int, poll func() error) *LandmarkMap {
	W = slices.Clone(W)
	return par.Start("kpca.LandmarkMap", func() (landmarkMap, error) {
		M, minW, err := mapLandmarks(W, landmarks, poll)
		return landmarkMap{M, minW}, err
	})
}

func mapLandmarks(W []float64, landmarks []int, poll func() error) ([]float64, float64, error) {
	if poll == nil {
		poll = noPoll
	}
	m := len(landmarks)
	for a := range m {
		if err := finiteRow(W[a*m:(a+1)*m], landmarks[a]); err != nil {
			return nil, 0, landmarkCol(err, landmarks)
		}
		for b := a + 1; b < m; b++ {
			W[a*m+b] = (W[a*m+b] + W[b*m+a]) / 2
		}
	}
	return inverseSqrt(W, m, poll)
}

// SignRule finds the sign rule's evidence (fixSigns) in projections handed
// to it block by block in object order, without keeping them: the first
// coordinate of largest magnitude in each column.
type SignRule struct {
	best, at []float64
}

// NewSignRule returns a rule for k columns.
func NewSignRule(k int) *SignRule {
	s := &SignRule{best: make([]float64, k), at: make([]float64, k)}
	for j := range s.best {
		s.best[j] = -1
	}
	return s
}

// Add takes the next rows×k projections.
func (s *SignRule) Add(proj []float64) {
	k := len(s.best)
	for i := 0; i+k <= len(proj); i += k {
		for j, v := range proj[i : i+k] {
			if a := math.Abs(v); a > s.best[j] {
				s.best[j], s.at[j] = a, v
			}
		}
	}
}

// flips says which columns the rule negates.
func (s *SignRule) flips() []bool {
	f := make([]bool, len(s.at))
	for j, v := range s.at {
		f[j] = v < 0
	}
	return f
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
