package cluster

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/par"
)

// rowChunk is the rows a worker takes at a time, and how often it polls.
const rowChunk = 64

// KernelResult is a kernel k-means partition with what placing a new
// object needs.
type KernelResult struct {
	Result
	// Self[c] is the squared norm of cluster c's centre in feature space,
	// (1/|c|²) Σ_{j,l ∈ c} K_jl.
	Self []float64
}

// NonFiniteError is a Gram or affinity entry that is NaN or infinite.
type NonFiniteError struct {
	Row, Col int
	Value    float64
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("cluster: entry (%d, %d) is %v", e.Row, e.Col, e.Value)
}

// RangeError is a Gram matrix whose entries, each finite, are so large
// that the sums of up to n² of them that k-means forms overflow float64.
type RangeError struct {
	// Max is the largest |entry|, Limit the largest allowed.
	Max, Limit float64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("cluster: the largest |entry| %g is past %g, beyond which the sums of entries overflow", e.Max, e.Limit)
}

// checkRange bounds the entries so that no sum, centre norm, distance or
// objective overflows: each is at most (n² + 2n + 2) times the largest
// |entry|.
func checkRange(K []float64, n int) error {
	m := 0.0
	for _, v := range K {
		m = math.Max(m, math.Abs(v))
	}
	nf := float64(n)
	if limit := math.MaxFloat64 / (nf*nf + 2*nf + 2); m > limit {
		return &RangeError{Max: m, Limit: limit}
	}
	return nil
}

// KernelKMeans partitions n objects by kernel k-means on their Gram matrix
// K (n×n, row-major, symmetric): Lloyd's algorithm in feature space,
// where the squared distance of object i to the mean of cluster c is
//
//	K_ii − (2/|c|) Σ_{j∈c} K_ij + (1/|c|²) Σ_{j,l∈c} K_jl.
//
// With the linear kernel it is k-means on the points.
func KernelKMeans(K []float64, n int, opt Options) (*KernelResult, error) {
	if len(K) != n*n {
		return nil, fmt.Errorf("cluster: a Gram matrix of %d entries for %d objects", len(K), n)
	}
	if err := opt.check(n); err != nil {
		return nil, err
	}
	for i, v := range K {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, &NonFiniteError{Row: i / n, Col: i % n, Value: v}
		}
	}
	if err := checkRange(K, n); err != nil {
		return nil, err
	}
	g := &gramGeometry{K: K, n: n, self: make([]float64, opt.K), sums: make([]float64, n*opt.K), prev: make([]int, n)}
	res, err := run(g, opt)
	if err != nil {
		return nil, err
	}
	// The distances are measured once more from fresh sums, so that the
	// stored ones are those Nearest gives a stored object.
	g.fresh = false
	d := make([]float64, n*opt.K)
	if err := g.toCentres(res.Labels, res.Sizes, opt.K, d, opt.poll()); err != nil {
		return nil, err
	}
	res.Objective = 0
	for i, l := range res.Labels {
		res.Dist2[i] = d[i*opt.K+l]
		res.Objective += res.Dist2[i]
	}
	return &KernelResult{Result: *res, Self: append([]float64(nil), g.self...)}, nil
}

// gramGeometry is feature space seen through a full Gram matrix. Within a
// restart it keeps sums[i*k+c] = Σ_{j∈c} K_ij and updates them by the
// objects that moved since the last pass (a pass late in Lloyd's
// algorithm moves few), recomputing them in full when more than n/16
// moved: an update reads K at scattered columns and writes two sums, and
// measured at n = 2,000 it costs more than a full row beyond that.
type gramGeometry struct {
	K     []float64
	n     int
	self  []float64 // the centres' squared norms
	sums  []float64 // n×k
	prev  []int     // the labels sums are for
	fresh bool      // sums and prev are valid
	moved []int     // scratch: the objects whose label changed
}

func (g *gramGeometry) size() int { return g.n }

func (g *gramGeometry) restart() { g.fresh = false }

func (g *gramGeometry) pair(i, j int) float64 {
	n := g.n
	return math.Max(0, g.K[i*n+i]+g.K[j*n+j]-2*g.K[i*n+j])
}

// toCentres brings the sums up to date, from which the mean kernel value
// of i against cluster c is sums/|c| and the centres' norms are the
// cluster means of those. Each row is one worker's and its updates run in
// object order, so the result does not depend on the number of workers.
func (g *gramGeometry) toCentres(labels, sizes []int, k int, d []float64, poll func() error) error {
	n := g.n
	g.moved = g.moved[:0]
	if g.fresh {
		for j, l := range labels {
			if l != g.prev[j] {
				g.moved = append(g.moved, j)
			}
		}
	}
	full := !g.fresh || 16*len(g.moved) > n
	err := par.For("cluster.KernelKMeans", n, 0, rowChunk, func(_, i int) error {
		if i%rowChunk == 0 {
			if err := poll(); err != nil {
				return err
			}
		}
		row, kr := g.sums[i*k:(i+1)*k], g.K[i*n:(i+1)*n]
		if full {
			clear(row)
			for j, v := range kr {
				row[labels[j]] += v
			}
			return nil
		}
		for _, j := range g.moved {
			row[g.prev[j]] -= kr[j]
			row[labels[j]] += kr[j]
		}
		return nil
	})
	if err != nil {
		g.fresh = false
		return err
	}
	copy(g.prev, labels)
	g.fresh = true
	clear(g.self)
	for i, l := range labels {
		g.self[l] += g.sums[i*k+l]
	}
	for c := range g.self {
		s := float64(sizes[c])
		g.self[c] /= s * s
	}
	for i := 0; i < n; i++ {
		kii := g.K[i*n+i]
		for c := 0; c < k; c++ {
			d[i*k+c] = math.Max(0, kii-2*g.sums[i*k+c]/float64(sizes[c])+g.self[c])
		}
	}
	return nil
}

// Nearest is the cluster whose centre is nearest a new object z, and the
// squared distance to it, from kz[i] = k(x_i, z) against the clustered
// objects, kzz = k(z, z), and the partition (the lowest cluster wins a tie).
func Nearest(kz []float64, kzz float64, r *KernelResult) (int, float64) {
	k := len(r.Sizes)
	sums := make([]float64, k)
	for i, v := range kz {
		sums[r.Labels[i]] += v
	}
	best, bestD := 0, math.Inf(1)
	for c := 0; c < k; c++ {
		d := math.Max(0, kzz-2*sums[c]/float64(r.Sizes[c])+r.Self[c])
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}
