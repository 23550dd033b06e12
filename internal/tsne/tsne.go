// Package tsne embeds objects in 1–3 dimensions by t-SNE (van der Maaten &
// Hinton 2008) from their squared distances alone, as scikit-learn's
// TSNE(metric='precomputed') does: per-point perplexity calibration by
// bisection, early exaggeration, momentum and gains, exact gradients or
// Barnes–Hut ones (van der Maaten 2014) over sparse neighbour affinities.
// It knows nothing of kernels: for a kernel the caller supplies
// d²(x, z) = k(x,x) − 2k(x,z) + k(z,z).
//
// A fit is deterministic: the same inputs and seed give the same bits, on
// any number of cores (sums are taken in index order).
package tsne

import (
	"fmt"
	"math"
)

// Method chooses how gradients are computed.
type Method int

const (
	// Auto is BarnesHut above BarnesHutAbove objects in 2 dimensions, Exact
	// otherwise.
	Auto Method = iota
	// Exact computes all n² affinities each iteration: O(n²) time and memory.
	Exact
	// BarnesHut keeps the 3·perplexity nearest neighbours' affinities and
	// approximates repulsion with a quadtree (θ = 0.5): O(n log n) per
	// iteration, O(n·perplexity) memory. 2 dimensions only.
	BarnesHut
)

// BarnesHutAbove is the n above which Auto uses Barnes–Hut.
const BarnesHutAbove = 1000

// MaxIterations bounds Options.Iterations.
const MaxIterations = 1_000_000

// Options control Fit.
type Options struct {
	Dims       int     // 1, 2 or 3
	Perplexity float64 // > 0 and < n − 1
	Iterations int     // ≥ 250 (the exaggeration phase) and ≤ MaxIterations
	Seed       uint64
	Method     Method
	Theta      float64 // Barnes–Hut's θ; 0 means 0.5
	// Interrupt, when not nil, is polled every iteration.
	Interrupt func() error
}

// ParamError is an option out of its range.
type ParamError struct {
	Name    string
	Value   float64
	Allowed string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: allowed %s", e.Name, e.Value, e.Allowed)
}

// DistanceError is a squared distance that is NaN or infinite, at row
// Row (−1 for an object being placed) and column Col. Whether the values
// it was computed from were already so, or finite ones overflowed, only
// the Rows that computed it knows; its caller says which.
type DistanceError struct {
	Row, Col int
	Value    float64
}

func (e *DistanceError) Error() string {
	return fmt.Sprintf("squared distance (%d, %d) is %v", e.Row, e.Col, e.Value)
}

// Rows supplies squared distances: Row(i, dst) sets dst[j] = d²(i, j) for
// every j (len(dst) = n). It is called from several goroutines at once
// (each with its own dst), so it must be safe for concurrent use.
type Rows func(i int, dst []float64) error

// Embedding is a fitted t-SNE.
type Embedding struct {
	N, Dims    int
	Y          []float64 // n×Dims, row-major
	KL         float64   // KL(P‖Q) at the end (of the sparse P for Barnes–Hut)
	Iterations int
	Method     Method
	Perplexity float64
}

func (o *Options) check(n int) (Method, error) {
	switch {
	case n < 4:
		return 0, &ParamError{"objects", float64(n), "at least 4"}
	case o.Dims < 1 || o.Dims > 3:
		return 0, &ParamError{"dims", float64(o.Dims), "1, 2 or 3"}
	case !(o.Perplexity > 0) || !(o.Perplexity < float64(n-1)) || math.IsInf(o.Perplexity, 0):
		return 0, &ParamError{"perplexity", o.Perplexity, fmt.Sprintf("a number > 0 and < objects − 1 = %d", n-1)}
	case o.Iterations < 250 || o.Iterations > MaxIterations:
		return 0, &ParamError{"iterations", float64(o.Iterations), fmt.Sprintf("250 to %d", MaxIterations)}
	case o.Theta < 0 || o.Theta >= 0.7:
		return 0, &ParamError{"theta", o.Theta, "0 ≤ θ < 0.7"}
	}
	m := o.Method
	if m == Auto {
		m = Exact
		if n > BarnesHutAbove && o.Dims == 2 {
			m = BarnesHut
		}
	}
	if m == BarnesHut && o.Dims != 2 {
		return 0, &ParamError{"dims", float64(o.Dims), "2 with the Barnes–Hut method"}
	}
	return m, nil
}

// Bytes is the memory a fit of n objects needs beyond the caller's
// distances: n² values for Exact, O(n·perplexity) for Barnes–Hut.
func Bytes(n int, o Options) int64 {
	m, err := o.check(n)
	if err != nil || m == BarnesHut {
		k := int64(3*o.Perplexity + 1)
		return int64(n) * (k*12 + int64(o.Dims)*32 + 64)
	}
	return 2*int64(n)*int64(n)*8 + int64(n)*int64(o.Dims)*32
}

// clampRow checks a row of squared distances and clamps tiny negatives
// (rounding in k(x,x) − 2k(x,z) + k(z,z)) to 0.
func clampRow(i int, d []float64) error {
	for j, v := range d {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return &DistanceError{i, j, v}
		case v < 0:
			d[j] = 0
		}
	}
	d[i] = 0
	return nil
}

// calibrate finds the precision β of row i's Gaussian so that the entropy
// of p_j|i ∝ exp(−β·d_j) (j ≠ self) is log(perplexity), by bisection as
// scikit-learn's _binary_search_perplexity; it writes the normalised p
// into p. The exponents are shifted by the smallest distance, which
// changes no p but keeps exp from underflowing on far-apart data (where
// an unshifted search can lock onto a β at which every term is 0).
func calibrate(d []float64, self int, perp float64, p []float64) {
	target := math.Log(perp)
	dmin := math.Inf(1)
	for j, v := range d {
		if j != self {
			dmin = math.Min(dmin, v)
		}
	}
	beta, lo, hi := 1.0, math.Inf(-1), math.Inf(1)
	for it := 0; it < 100; it++ {
		sum := 0.0
		for j, v := range d {
			if j == self {
				p[j] = 0
				continue
			}
			p[j] = math.Exp(-(v - dmin) * beta)
			sum += p[j]
		}
		dsum := 0.0
		for j := range p {
			p[j] /= sum
			dsum += (d[j] - dmin) * p[j]
		}
		diff := math.Log(sum) + beta*dsum - target
		if math.Abs(diff) <= 1e-5 {
			break
		}
		if diff > 0 {
			lo = beta
			if math.IsInf(hi, 1) {
				beta *= 2
			} else {
				beta = (beta + hi) / 2
			}
		} else {
			hi = beta
			if math.IsInf(lo, -1) {
				beta /= 2
			} else {
				beta = (beta + lo) / 2
			}
		}
	}
}
