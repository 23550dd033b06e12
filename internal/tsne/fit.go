package tsne

import (
	"math"
	"runtime"
	"slices"
	"sort"

	"github.com/ksql/ksql/internal/par"
	"github.com/ksql/ksql/internal/rng"
)

// affinities are the symmetric joint probabilities P: dense (Exact) or
// sparse rows (Barnes–Hut), summing to 1.
type affinities struct {
	n     int
	dense []float64 // n×n, nil when sparse
	// sparse: row i's neighbours cols[start[i]:start[i+1]] with vals
	start []int
	cols  []int32
	vals  []float64
}

// jointDense computes P = (P_j|i + P_i|j)/(2n) over all pairs.
func jointDense(n int, rows Rows, perp float64, interrupt func() error) (*affinities, error) {
	P := make([]float64, n*n)
	workers := par.Workers(runtime.GOMAXPROCS(0), n/16)
	ds := make([][]float64, workers)
	for w := range ds {
		ds[w] = make([]float64, n)
	}
	err := par.For("tsne", n, workers, 16, func(w, i int) error { // each row its own
		if err := poll(interrupt, i, n); err != nil {
			return err
		}
		d := ds[w]
		if err := rows(i, d); err != nil {
			return err
		}
		if err := clampRow(i, d); err != nil {
			return err
		}
		calibrate(d, i, perp, P[i*n:(i+1)*n])
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := math.Max((P[i*n+j]+P[j*n+i])/(2*float64(n)), 1e-12)
			P[i*n+j], P[j*n+i] = v, v
		}
		P[i*n+i] = 0
	}
	return &affinities{n: n, dense: P}, nil
}

// jointSparse keeps each row's k = ⌊3·perplexity⌋ + 1 nearest neighbours
// (ties by index), calibrates over them and symmetrises, as scikit-learn's
// Barnes–Hut path does.
func jointSparse(n int, rows Rows, perp float64, interrupt func() error) (*affinities, error) {
	k := min(n-1, int(3*perp)+1)
	type scratch struct {
		d, nd, np []float64
		idx       []int
	}
	workers := par.Workers(runtime.GOMAXPROCS(0), n/16)
	ws := make([]scratch, workers)
	for w := range ws {
		ws[w] = scratch{make([]float64, n), make([]float64, k), make([]float64, k), make([]int, 0, k+1)}
	}
	// Row i's entries land at cond[i·k:], so the order, and the bits, do
	// not depend on the workers.
	cond := make([]condEntry, n*k)
	err := par.For("tsne", n, workers, 16, func(w, i int) error {
		if err := poll(interrupt, i, n); err != nil {
			return err
		}
		s := &ws[w]
		if err := rows(i, s.d); err != nil {
			return err
		}
		if err := clampRow(i, s.d); err != nil {
			return err
		}
		nb := nearest(s.d, i, k, s.idx[:0])
		for t, j := range nb {
			s.nd[t] = s.d[j]
		}
		calibrate(s.nd, -1, perp, s.np)
		for t, j := range nb {
			cond[i*k+t] = condEntry{int32(i), int32(j), s.np[t]}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return symmetrise(n, cond, interrupt)
}

// condEntry is p_j|i for i's neighbour j.
type condEntry struct {
	i, j int32
	v    float64
}

// halfEntry is one direction of a pair in a row of P.
type halfEntry struct {
	col int32
	v   float64
}

// symmetrise returns P = (C + Cᵀ)/sum for the conditional entries cond,
// grouped by row: every entry is counted into both its rows, then each
// row is sorted by column and its duplicates (a pair that is neighbours
// both ways) merged in bands of rows on every core. A duplicate is two
// terms, whose sum does not depend on their order, and the total adds
// the merged entries in row and column order, so the bits do not depend
// on the workers.
func symmetrise(n int, cond []condEntry, interrupt func() error) (*affinities, error) {
	pos := make([]int, n+1)
	for _, e := range cond {
		pos[e.i+1]++
		pos[e.j+1]++
	}
	for r := 0; r < n; r++ {
		pos[r+1] += pos[r]
	}
	start := slices.Clone(pos)
	buf := make([]halfEntry, 2*len(cond))
	for _, e := range cond {
		buf[pos[e.i]] = halfEntry{e.j, e.v}
		buf[pos[e.j]] = halfEntry{e.i, e.v}
		pos[e.i]++
		pos[e.j]++
	}
	kept := make([]int, n) // row r's merged length
	const band = 256
	err := par.For("tsne", (n+band-1)/band, 0, 1, func(_, b int) error {
		if interrupt != nil {
			if err := interrupt(); err != nil {
				return err
			}
		}
		for r := b * band; r < min(n, (b+1)*band); r++ {
			row := buf[start[r]:start[r+1]]
			slices.SortFunc(row, func(x, y halfEntry) int { return int(x.col) - int(y.col) })
			m := 0
			for t := 0; t < len(row); m++ {
				e := row[t]
				for t++; t < len(row) && row[t].col == e.col; t++ {
					e.v += row[t].v
				}
				row[m] = e
			}
			kept[r] = m
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	a := &affinities{n: n, start: make([]int, n+1)}
	total := 0.0
	for r := 0; r < n; r++ {
		for _, e := range buf[start[r] : start[r]+kept[r]] {
			a.cols, a.vals = append(a.cols, e.col), append(a.vals, e.v)
			total += e.v
		}
		a.start[r+1] = a.start[r] + kept[r]
	}
	for t := range a.vals {
		a.vals[t] = math.Max(a.vals[t]/total, 1e-12)
	}
	return a, nil
}

// poll calls interrupt before every pollRows(n)-th row of n: a row is
// O(n) work or more (distances, a sort), so at 100,000 objects a check
// every 64 rows would be half a second apart.
func poll(interrupt func() error, i, n int) error {
	if interrupt != nil && i%pollRows(n) == 0 {
		return interrupt()
	}
	return nil
}

// Fit embeds n objects whose squared distances rows gives.
func Fit(n int, rows Rows, opt Options) (*Embedding, error) {
	method, err := opt.check(n)
	if err != nil {
		return nil, err
	}
	if opt.Theta == 0 {
		opt.Theta = 0.5
	}
	var P *affinities
	if method == Exact {
		P, err = jointDense(n, rows, opt.Perplexity, opt.Interrupt)
	} else {
		P, err = jointSparse(n, rows, opt.Perplexity, opt.Interrupt)
	}
	if err != nil {
		return nil, err
	}
	e := &Embedding{N: n, Dims: opt.Dims, Y: initial(n, opt.Dims, opt.Seed), Method: method, Perplexity: opt.Perplexity}
	g := newGradient(P, opt.Dims, opt.Theta, opt.Interrupt)
	if err := optimise(e.Y, g, n, opt); err != nil {
		return nil, err
	}
	e.Iterations = opt.Iterations
	if e.KL, err = g.kl(e.Y); err != nil {
		return nil, err
	}
	return e, nil
}

// initial is the seeded start: N(0, 10⁻⁴) coordinates from SplitMix64
// and the Box–Muller transform, fixed forever.
func initial(n, dims int, seed uint64) []float64 {
	g := rng.New(seed)
	Y := make([]float64, n*dims)
	for i := 0; i < len(Y); i += 2 {
		u1 := (float64(g.Next()>>11) + 0.5) / (1 << 53)
		u2 := float64(g.Next()>>11) / (1 << 53)
		r := math.Sqrt(-2 * math.Log(u1))
		Y[i] = 1e-4 * r * math.Cos(2*math.Pi*u2)
		if i+1 < len(Y) {
			Y[i+1] = 1e-4 * r * math.Sin(2*math.Pi*u2)
		}
	}
	return Y
}

// optimise is scikit-learn's _gradient_descent: 250 iterations with P
// exaggerated 12 times and momentum 0.5, then momentum 0.8; gains grow by
// 0.2 where the step keeps its direction and shrink by 0.8 where it turns,
// never below 0.01; learning rate max(n/12/4, 50).
func optimise(Y []float64, g *gradient, n int, opt Options) error {
	lr := math.Max(float64(n)/12/4, 50)
	update := make([]float64, len(Y))
	gains := make([]float64, len(Y))
	for i := range gains {
		gains[i] = 1
	}
	grad := make([]float64, len(Y))
	for it := 0; it < opt.Iterations; it++ {
		if opt.Interrupt != nil {
			if err := opt.Interrupt(); err != nil {
				return err
			}
		}
		exag, mom := 1.0, 0.8
		if it < 250 {
			exag, mom = 12, 0.5
		}
		if err := g.compute(Y, exag, grad); err != nil {
			return err
		}
		for i := range Y {
			if update[i]*grad[i] < 0 {
				gains[i] += 0.2
			} else {
				gains[i] *= 0.8
			}
			gains[i] = math.Max(gains[i], 0.01)
			update[i] = mom*update[i] - lr*gains[i]*grad[i]
			Y[i] += update[i]
		}
	}
	return nil
}

// nearest returns the k objects nearest to i by d (ties by index), in
// increasing order, using heap (capacity k+1) as a bounded max-heap:
// O(n log k) per row instead of a full sort.
func nearest(d []float64, i, k int, heap []int) []int {
	less := func(a, b int) bool { // a before b: nearer, or as near with a smaller index
		return d[a] < d[b] || d[a] == d[b] && a < b
	}
	down := func(h []int, p int) {
		for {
			c := 2*p + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && less(h[c], h[c+1]) {
				c++
			}
			if !less(h[p], h[c]) {
				return
			}
			h[p], h[c] = h[c], h[p]
			p = c
		}
	}
	for j := range d {
		if j == i {
			continue
		}
		if len(heap) < k {
			heap = append(heap, j)
			for c := len(heap) - 1; c > 0; {
				p := (c - 1) / 2
				if !less(heap[p], heap[c]) {
					break
				}
				heap[p], heap[c] = heap[c], heap[p]
				c = p
			}
			continue
		}
		if less(j, heap[0]) {
			heap[0] = j
			down(heap, 0)
		}
	}
	sort.Slice(heap, func(a, b int) bool { return less(heap[a], heap[b]) })
	return heap
}
