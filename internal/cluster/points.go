package cluster

import (
	"fmt"
	"math"
)

// KMeans partitions n points of dimension dim (X row-major, n×dim) by
// k-means, returning the centres (K×dim, row-major) beside the partition.
func KMeans(X []float64, n, dim int, opt Options) (*Result, []float64, error) {
	if len(X) != n*dim {
		return nil, nil, fmt.Errorf("cluster: %d values for %d points of dimension %d", len(X), n, dim)
	}
	if err := opt.check(n); err != nil {
		return nil, nil, err
	}
	for i, v := range X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, &NonFiniteError{Row: i / dim, Col: i % dim, Value: v}
		}
	}
	g := &pointGeometry{X: X, n: n, dim: dim, centres: make([]float64, opt.K*dim)}
	res, err := run(g, opt)
	if err != nil {
		return nil, nil, err
	}
	centres := make([]float64, opt.K*dim)
	means(X, dim, res.Labels, res.Sizes, centres)
	return res, centres, nil
}

// means sets centres (zeroed, len(sizes)×dim) to the mean of each
// cluster's rows of X.
func means(X []float64, dim int, labels, sizes []int, centres []float64) {
	for i, l := range labels {
		c := centres[l*dim : (l+1)*dim]
		for a, v := range X[i*dim : (i+1)*dim] {
			c[a] += v
		}
	}
	for c, s := range sizes {
		for a := 0; a < dim; a++ {
			centres[c*dim+a] /= float64(s)
		}
	}
}

// pointGeometry is the space of the points themselves.
type pointGeometry struct {
	X       []float64
	n, dim  int
	centres []float64 // scratch: K×dim
}

func (g *pointGeometry) size() int { return g.n }

func (g *pointGeometry) restart() {}

func (g *pointGeometry) pair(i, j int) float64 {
	return dist2(g.X[i*g.dim:(i+1)*g.dim], g.X[j*g.dim:(j+1)*g.dim])
}

func dist2(a, b []float64) float64 {
	s := 0.0
	for t, v := range a {
		e := v - b[t]
		s += e * e
	}
	return s
}

func (g *pointGeometry) toCentres(labels, sizes []int, k int, d []float64, poll func() error) error {
	dim := g.dim
	clear(g.centres)
	means(g.X, dim, labels, sizes, g.centres)
	for i := 0; i < g.n; i++ {
		if i%(16*rowChunk) == 0 {
			if err := poll(); err != nil {
				return err
			}
		}
		x := g.X[i*dim : (i+1)*dim]
		for c := 0; c < k; c++ {
			d[i*k+c] = dist2(x, g.centres[c*dim:(c+1)*dim])
		}
	}
	return nil
}
