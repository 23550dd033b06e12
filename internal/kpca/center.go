package kpca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Centerer centres kernel values in feature space, as scikit-learn's
// KernelCenterer does: with Φ the feature map and μ = (1/n) Σ_l Φ(x_l) the
// mean of the n training objects,
//
//	k̃(a, b) = ⟨Φ(a) − μ, Φ(b) − μ⟩
//	        = k(a, b) − (1/n) Σ_l k(a, x_l) − (1/n) Σ_l k(x_l, b) + (1/n²) Σ_lm k(x_l, x_m).
//
// It keeps the training statistics (the column means of the Gram matrix and
// its grand mean) so that the kernel row of a new object can be centred
// exactly as the training rows were.
type Centerer struct {
	colMeans []float64 // colMeans[i] = (1/n) Σ_j K_ij
	grand    float64   // (1/n²) Σ_ij K_ij
}

// CenterGram centres the Gram matrix K in place and returns the statistics
// that centre new rows the same way. Only K's upper triangle is read and
// written, as with any mat.SymDense. It fails, naming the entry, if K holds a NaN or an
// infinity (a string kernel that overflowed, say).
func CenterGram(K *mat.SymDense) (*Centerer, error) {
	raw := K.RawSymmetric()
	c, _, err := centerUpper(raw.Data, raw.N, raw.Stride, nil)
	return c, err
}

// N returns the number of training objects.
func (c *Centerer) N() int { return len(c.colMeans) }

// ColumnMeans returns a copy of the training column means (1/n) Σ_j K_ij.
func (c *Centerer) ColumnMeans() []float64 { return append([]float64(nil), c.colMeans...) }

// GrandMean returns the mean of all entries of the training Gram matrix.
func (c *Centerer) GrandMean() float64 { return c.grand }

// CenterRow writes into dst (length n) the centred kernel values k̃(x_i, z)
// of a new object z, given kz[i] = k(x_i, z) for the n training objects in
// training order. dst may be kz itself. k(z, z) is not needed.
func (c *Centerer) CenterRow(dst, kz []float64) error {
	n := len(c.colMeans)
	if len(kz) != n || len(dst) != n {
		return fmt.Errorf("a kernel row has %d values but the model was fitted on %d objects", len(kz), n)
	}
	mean, err := rowMean(kz)
	if err != nil {
		return err
	}
	shift := c.grand - mean
	for i, v := range kz {
		dst[i] = v - c.colMeans[i] + shift
	}
	return nil
}

// rowMean returns the mean of a new object's kernel values, rejecting the
// non-finite values that would otherwise turn every projection into NaN.
func rowMean(kz []float64) (float64, error) {
	var s float64
	for i, v := range kz {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("kernel value %d of the new object is %v; only finite values can be projected", i, v)
		}
		s += v
	}
	return s / float64(len(kz)), nil
}

// gramStats describes a Gram matrix before and after centring.
type gramStats struct {
	maxAbs      float64 // largest |K_ij| before centring
	maxCentered float64 // largest |K̃_ij|
	trace       float64 // trace of K̃
}

// centerUpper centres the n×n symmetric matrix whose upper triangle is
// stored row-major with the given stride, in place (the lower triangle is
// neither read nor written). poll, if not nil, is called every few rows.
func centerUpper(a []float64, n, stride int, poll func() error) (*Centerer, gramStats, error) {
	var st gramStats
	sums := make([]float64, n)
	for i := 0; i < n; i++ {
		if poll != nil && i%256 == 0 {
			if err := poll(); err != nil {
				return nil, st, err
			}
		}
		row := a[i*stride : i*stride+n]
		for j := i; j < n; j++ {
			v := row[j]
			if v-v != 0 { // NaN or ±Inf
				return nil, st, fmt.Errorf("Gram matrix entry (%d, %d) is %v; kernel values must be finite", i, j, v)
			}
			if v > st.maxAbs {
				st.maxAbs = v
			} else if -v > st.maxAbs {
				st.maxAbs = -v
			}
			sums[i] += v
			if j != i {
				sums[j] += v
			}
		}
	}
	c := &Centerer{colMeans: sums}
	var total float64
	for i := range sums {
		sums[i] /= float64(n)
		total += sums[i]
	}
	c.grand = total / float64(n)
	for i := 0; i < n; i++ {
		if poll != nil && i%256 == 0 {
			if err := poll(); err != nil {
				return nil, st, err
			}
		}
		row := a[i*stride : i*stride+n]
		shift := c.grand - c.colMeans[i]
		for j := i; j < n; j++ {
			v := row[j] - c.colMeans[j] + shift
			row[j] = v
			if v > st.maxCentered {
				st.maxCentered = v
			} else if -v > st.maxCentered {
				st.maxCentered = -v
			}
		}
		st.trace += row[i]
	}
	return c, st, nil
}

// mirrorUpper copies the upper triangle onto the lower one in square tiles,
// so that the strided reads stay in cache.
func mirrorUpper(a []float64, n, stride int) {
	const tile = 64
	for bi := 0; bi < n; bi += tile {
		for bj := bi; bj < n; bj += tile {
			for i := bi; i < min(bi+tile, n); i++ {
				for j := max(bj, i+1); j < min(bj+tile, n); j++ {
					a[j*stride+i] = a[i*stride+j]
				}
			}
		}
	}
}
