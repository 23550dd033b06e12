package kpca

import (
	"errors"
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
	c, _, err := centerUpper(raw.Data, raw.N, raw.Stride, nil, newUpperOp(raw.Data, raw.N, raw.Stride, 0))
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
// neither read nor written), using op (a product with the same matrix) for
// the row sums and op's team for the centring pass. poll, if not nil, is
// called between the passes.
func centerUpper(a []float64, n, stride int, poll func() error, op *upperOp) (*Centerer, gramStats, error) {
	var st gramStats
	if poll == nil {
		poll = noPoll
	}
	if err := poll(); err != nil {
		return nil, st, err
	}
	// Row sums in one symmetric product with a vector of ones; a NaN or an
	// infinity anywhere makes its row's sum non-finite, and only then is
	// the matrix searched for it.
	sums, ones := make([]float64, n), make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	if err := op.mul(sums, ones); err != nil {
		return nil, st, err
	}
	for _, s := range sums {
		if s-s != 0 {
			return nil, st, nonFiniteEntry(a, n, stride)
		}
	}
	c := &Centerer{colMeans: sums}
	var total, diagSum, diagMax float64
	for i := range sums {
		sums[i] /= float64(n)
		total += sums[i]
		d := a[i*stride+i]
		diagSum += d
		diagMax = math.Max(diagMax, math.Abs(d))
	}
	c.grand = total / float64(n)
	if err := poll(); err != nil {
		return nil, st, err
	}
	// trace(K̃) = Σ K_ii − n·g is the total variance. When it is within
	// 2^20 roundings of the values (objects near each other, far from the
	// origin: points around 10⁸ under a linear kernel), the plain centring
	// below would cancel away what variance there is; centre with
	// compensated sums instead (rare: never for kernels bounded by 1 whose
	// objects differ).
	if diagSum-float64(n)*c.grand <= 0x1p20*float64(n)*eps*diagMax {
		return centerCompensated(a, n, stride, poll)
	}
	parts := make([]gramStats, op.tasks)
	err := op.team.Do(op.tasks, func(t int) {
		const block = 16 // as in upperOp.rows: interleaved blocks balance the triangle
		for lo := t * block; lo < n; lo += op.tasks * block {
			for i := lo; i < min(lo+block, n); i++ {
				centerRow(a[i*stride+i:i*stride+n], c.colMeans[i:], c.grand-c.colMeans[i], &parts[t])
			}
		}
	})
	if err != nil {
		return nil, st, err
	}
	for _, p := range parts {
		st.maxAbs = math.Max(st.maxAbs, p.maxAbs)
		st.maxCentered = math.Max(st.maxCentered, p.maxCentered)
		st.trace += p.trace
	}
	return c, st, nil
}

// centerRow centres the stored part row[j−i] = K_ij (j ≥ i) of row i,
// K̃_ij = K_ij − μ_j − μ_i + g with shift = g − μ_i and mu[j−i] = μ_j, and
// adds to st.
func centerRow(row, mu []float64, shift float64, st *gramStats) {
	mu = mu[:len(row)]
	j0 := 0
	if n4 := len(row) &^ 3; useAVX2 && n4 > 0 {
		maxes := [2]float64{st.maxAbs, st.maxCentered}
		centerAVX2(&row[0], &mu[0], n4, shift, &maxes)
		st.maxAbs, st.maxCentered = maxes[0], maxes[1]
		j0 = n4
	}
	maxAbs, maxC := st.maxAbs, st.maxCentered
	for j := j0; j < len(row); j++ {
		v := row[j]
		w := v - mu[j] + shift
		row[j] = w
		if v < 0 {
			v = -v
		}
		if v > maxAbs {
			maxAbs = v
		}
		if w < 0 {
			w = -w
		}
		if w > maxC {
			maxC = w
		}
	}
	st.maxAbs, st.maxCentered = maxAbs, maxC
	st.trace += row[0]
}

// nonFiniteEntry names the first NaN or infinite entry of the upper
// triangle, in row order; if there is none, the row sums overflowed.
func nonFiniteEntry(a []float64, n, stride int) error {
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := a[i*stride+j]; v-v != 0 {
				return &NonFiniteError{Row: i, Col: j, Landmark: -1, Value: v}
			}
		}
	}
	return errors.New("the row sums of the Gram matrix overflow the float64 range; kernel values must be smaller")
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

// dd is a double-double number hi + lo, |lo| ≤ ulp(hi)/2.
type dd struct{ hi, lo float64 }

// twoSum returns s = fl(a+b) and the exact error a + b − s (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

func (x dd) add(y float64) dd {
	s, e := twoSum(x.hi, y)
	return fastDD(s, e+x.lo)
}

func fastDD(hi, lo float64) dd {
	s := hi + lo
	return dd{s, lo - (s - hi)}
}

// div returns x/n to double-double accuracy.
func (x dd) div(n float64) dd {
	q := x.hi / n
	r := math.FMA(-q, n, x.hi) + x.lo
	return fastDD(q, r/n)
}

// centerCompensated is centerUpper's careful path: row sums and every
// centred entry in double-double arithmetic, so that K̃ is the centring of
// the stored (rounded) K to within about ε·|K̃_ij| + n·ε²·max|K|. Objects
// identical under the kernel (bitwise equal entries) give exactly zero,
// whatever the magnitude and n; values that vary by no more than their own
// rounding give a *PrecisionError. It runs on one core: only data whose
// variance is lost in plain centring reaches it.
func centerCompensated(a []float64, n, stride int, poll func() error) (*Centerer, gramStats, error) {
	var st gramStats
	mu := make([]dd, n)
	for i := 0; i < n; i++ {
		if i%64 == 0 {
			if err := poll(); err != nil {
				return nil, st, err
			}
		}
		for j := i; j < n; j++ {
			v := a[i*stride+j]
			mu[i] = mu[i].add(v)
			if j != i {
				mu[j] = mu[j].add(v)
			}
			st.maxAbs = math.Max(st.maxAbs, math.Abs(v))
		}
	}
	var g dd
	for i := range mu {
		mu[i] = mu[i].div(float64(n))
		g = g.add(mu[i].hi).add(mu[i].lo)
	}
	g = g.div(float64(n))
	c := &Centerer{colMeans: make([]float64, n), grand: g.hi + g.lo}
	for i := 0; i < n; i++ {
		c.colMeans[i] = mu[i].hi + mu[i].lo
		for j := i; j < n; j++ {
			p, e1 := twoSum(a[i*stride+j], -mu[i].hi)
			q, e2 := twoSum(p, -mu[j].hi)
			r, e3 := twoSum(q, g.hi)
			w := r + (((e1 + e2) + e3) + ((g.lo - mu[i].lo) - mu[j].lo))
			a[i*stride+j] = w
			st.maxCentered = math.Max(st.maxCentered, math.Abs(w))
			if j == i {
				st.trace += w
			}
		}
	}
	// Rounding of the stored values themselves is ε/2·|K_ij| each; below
	// 2^10·n of it the centred matrix is that rounding, not the data.
	if st.maxCentered > 8*float64(n)*eps*eps*st.maxAbs && st.maxCentered <= 0x1p10*float64(n)*eps*st.maxAbs {
		return nil, st, &PrecisionError{MaxAbs: st.maxAbs, MaxCentered: st.maxCentered}
	}
	return c, st, nil
}
