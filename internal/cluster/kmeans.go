// Package cluster partitions objects: kernel k-means (Dhillon, Guan &
// Kulis 2004) on a Gram matrix, k-means on points, and spectral clustering
// (Ng, Jordan & Weiss 2001) on an affinity matrix. Every method is seeded
// by greedy k-means++ (Arthur & Vassilvitskii 2007, with scikit-learn's
// 2 + ⌊ln k⌋ candidates per centre) from ksql's own generator, restarted,
// and keeps the restart of lowest objective, so a seed gives the same
// partition on every machine.
package cluster

import (
	"math"
	"strconv"

	"github.com/ksql/ksql/internal/rng"
)

// Options configure a clustering.
type Options struct {
	// K is the number of clusters, 1 ≤ K ≤ the number of objects.
	K int
	// Seed seeds the k-means++ draws of every restart.
	Seed uint64
	// Restarts is the number of seedings tried (scikit-learn's n_init), ≥ 1.
	Restarts int
	// MaxIter bounds the Lloyd passes of one restart, ≥ 1.
	MaxIter int
	// Interrupt, if not nil, is polled every few milliseconds of work; the
	// fit stops with its error.
	Interrupt func() error
}

func (o *Options) poll() func() error {
	if o.Interrupt == nil {
		return func() error { return nil }
	}
	return o.Interrupt
}

// Result is a partition of n objects into K clusters.
type Result struct {
	// Labels[i] is object i's cluster, 0 … K−1, numbered in the order of
	// each cluster's first object (so the numbering does not depend on the
	// seeding).
	Labels []int
	// Dist2[i] is the squared distance of object i to its cluster's centre.
	Dist2 []float64
	// Objective is Σ Dist2, the within-cluster sum of squares (inertia).
	Objective float64
	// Iterations counts the Lloyd passes of the kept restart.
	Iterations int
	// Sizes[c] is the number of objects in cluster c (never 0).
	Sizes []int
	// Reseeded counts the clusters of the kept restart that became empty
	// and were given the object farthest from its centre.
	Reseeded int
}

// ParamError is an option out of its range; Max is the largest value
// allowed (the number of objects for K), 0 when there is none.
type ParamError struct {
	Name  string
	Value int
	Max   int
}

func (e *ParamError) Error() string {
	if e.Max > 0 {
		return "cluster: " + e.Name + " must be between 1 and " + strconv.Itoa(e.Max)
	}
	return "cluster: " + e.Name + " must be at least 1"
}

func (o *Options) check(n int) error {
	switch {
	case o.K < 1 || o.K > n:
		return &ParamError{Name: "K", Value: o.K, Max: n}
	case o.Restarts < 1:
		return &ParamError{Name: "Restarts", Value: o.Restarts}
	case o.MaxIter < 1:
		return &ParamError{Name: "MaxIter", Value: o.MaxIter}
	}
	return nil
}

// geometry is where the objects live: feature space through a Gram matrix,
// or the plane of points.
type geometry interface {
	size() int
	// restart forgets what toCentres kept from the last restart.
	restart()
	// pair is the squared distance between objects i and j.
	pair(i, j int) float64
	// toCentres sets d[i*k+c] to the squared distance of object i to the
	// mean of cluster c, every cluster having sizes[c] > 0 objects.
	toCentres(labels, sizes []int, k int, d []float64, poll func() error) error
}

// run is k-means on g: opt.Restarts seedings drawn in turn from one
// generator, each refined by Lloyd passes; the lowest objective wins (the
// first on ties).
func run(g geometry, opt Options) (*Result, error) {
	n := g.size()
	if err := opt.check(n); err != nil {
		return nil, err
	}
	poll := opt.poll()
	r := rng.New(opt.Seed)
	w := newWork(n, opt.K)
	var best *Result
	for t := 0; t < opt.Restarts; t++ {
		g.restart()
		if err := w.seed(g, r, poll); err != nil {
			return nil, err
		}
		res, err := w.lloyd(g, opt.MaxIter, poll)
		if err != nil {
			return nil, err
		}
		if best == nil || res.Objective < best.Objective {
			best = res
		}
	}
	renumber(best)
	return best, nil
}

// work is the state of one restart, reused across restarts.
type work struct {
	n, k    int
	labels  []int
	sizes   []int
	d       []float64 // n×k squared distances to the current centres
	closest []float64 // seeding: squared distance to the nearest chosen centre
	trial   []float64 // seeding: the same with a candidate added
	seeds   []int
}

func newWork(n, k int) *work {
	return &work{n: n, k: k, labels: make([]int, n), sizes: make([]int, k), d: make([]float64, n*k),
		closest: make([]float64, n), trial: make([]float64, n), seeds: make([]int, 0, k)}
}

// uniform is a float64 in [0, 1) from the top 53 bits of a draw.
func uniform(r *rng.SplitMix64) float64 { return float64(r.Next()>>11) * 0x1p-53 }

// seed chooses k objects by greedy k-means++ and assigns every object to
// the nearest (w.d holds the distances to them).
func (w *work) seed(g geometry, r *rng.SplitMix64, poll func() error) error {
	n, k := w.n, w.k
	w.seeds = append(w.seeds[:0], int(r.Below(uint64(n))))
	pot := 0.0
	for i := 0; i < n; i++ {
		w.closest[i] = g.pair(i, w.seeds[0])
		pot += w.closest[i]
	}
	trials := 2 + int(math.Log(float64(k)))
	for len(w.seeds) < k {
		if err := poll(); err != nil {
			return err
		}
		bestCand, bestPot := -1, math.Inf(1)
		for t := 0; t < trials; t++ {
			cand := w.draw(uniform(r) * pot)
			p := 0.0
			for i := 0; i < n; i++ {
				p += math.Min(w.closest[i], g.pair(i, cand))
			}
			if p < bestPot {
				bestCand, bestPot = cand, p
			}
		}
		for i := 0; i < n; i++ {
			w.closest[i] = math.Min(w.closest[i], g.pair(i, bestCand))
		}
		w.seeds, pot = append(w.seeds, bestCand), bestPot
	}
	for i := 0; i < n; i++ {
		for c, s := range w.seeds {
			w.d[i*k+c] = g.pair(i, s)
		}
		w.labels[i] = -1
	}
	w.assign()
	return nil
}

// draw is the object at which the running sum of w.closest first exceeds
// u (the last object with a positive distance when rounding leaves u at
// the total, the first object when every distance is 0).
func (w *work) draw(u float64) int {
	sum, last := 0.0, 0
	for i, v := range w.closest {
		if v <= 0 {
			continue
		}
		sum, last = sum+v, i
		if sum > u {
			return i
		}
	}
	return last
}

// assign moves every object to its nearest centre in w.d, staying where it
// is on a tie (the lowest cluster wins a tie otherwise), and counts the
// moves.
func (w *work) assign() int {
	k, moved := w.k, 0
	clear(w.sizes)
	for i := 0; i < w.n; i++ {
		row := w.d[i*k : (i+1)*k]
		cur := w.labels[i]
		best := 0
		for c := 1; c < k; c++ {
			if row[c] < row[best] {
				best = c
			}
		}
		if cur >= 0 && row[cur] <= row[best] {
			best = cur
		}
		if best != cur {
			w.labels[i] = best
			moved++
		}
		w.sizes[best]++
	}
	return moved
}

// lloyd alternates centre updates and assignments from w's seeding until
// no object moves or maxIter passes are done. Either way w.d ends measured
// from the centres of the final labels, so the objective is theirs.
func (w *work) lloyd(g geometry, maxIter int, poll func() error) (*Result, error) {
	res := &Result{}
	for {
		res.Reseeded += w.reseed()
		if err := g.toCentres(w.labels, w.sizes, w.k, w.d, poll); err != nil {
			return nil, err
		}
		res.Iterations++
		if res.Iterations >= maxIter || w.assign() == 0 {
			return w.result(res), nil
		}
	}
}

// reseed gives every empty cluster the object farthest from its centre
// (by w.d) among those whose cluster keeps another object; the lowest
// index wins ties.
func (w *work) reseed() int {
	k, count := w.k, 0
	for c := 0; c < k; c++ {
		if w.sizes[c] > 0 {
			continue
		}
		far, farD := -1, -1.0
		for i := 0; i < w.n; i++ {
			if l := w.labels[i]; w.sizes[l] > 1 && w.d[i*k+l] > farD {
				far, farD = i, w.d[i*k+l]
			}
		}
		w.sizes[w.labels[far]]--
		w.labels[far] = c
		w.sizes[c] = 1
		count++
	}
	return count
}

func (w *work) result(res *Result) *Result {
	k := w.k
	res.Labels = append([]int(nil), w.labels...)
	res.Sizes = append([]int(nil), w.sizes...)
	res.Dist2 = make([]float64, w.n)
	for i, l := range w.labels {
		res.Dist2[i] = w.d[i*k+l]
		res.Objective += res.Dist2[i]
	}
	return res
}

// renumber numbers the clusters in the order of their first objects.
func renumber(res *Result) {
	k := len(res.Sizes)
	to := make([]int, k)
	for c := range to {
		to[c] = -1
	}
	next := 0
	for _, l := range res.Labels {
		if to[l] < 0 {
			to[l] = next
			next++
		}
	}
	sizes := make([]int, k)
	for i, l := range res.Labels {
		res.Labels[i] = to[l]
		sizes[to[l]]++
	}
	res.Sizes = sizes
}
