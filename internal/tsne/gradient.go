package tsne

import (
	"math"
	"runtime"

	"github.com/ksql/ksql/internal/par"
)

// gradient computes KL(P‖Q)'s gradient for an embedding, exactly or by
// Barnes–Hut; its buffers are reused across iterations.
type gradient struct {
	P     *affinities
	dims  int
	theta float64
	tree  quadtree
	rep   []float64 // per point: Σ q²Z·(y_i − y_j) (Barnes–Hut)
	att   []float64 // per point: the attraction (Barnes–Hut)
	sumQ  []float64 // per point: Σ_j qZ
	// poll is the interrupt check, called every few milliseconds: an
	// iteration over thousands of objects is a tenth of a second or more.
	poll func() error
}

func newGradient(P *affinities, dims int, theta float64, interrupt func() error) *gradient {
	if interrupt == nil {
		interrupt = func() error { return nil }
	}
	return &gradient{P: P, dims: dims, theta: theta, rep: make([]float64, P.n*dims), att: make([]float64, P.n*dims), sumQ: make([]float64, P.n), poll: interrupt}
}

func (g *gradient) compute(Y []float64, exag float64, grad []float64) error {
	if g.P.dense != nil {
		return g.exact(Y, exag, grad)
	}
	return g.barnesHut(Y, exag, grad)
}

// pollRows is how many rows of n pairs go between two checks (about 2¹⁶
// pairs, well under a millisecond).
func pollRows(n int) int { return max(1, (1<<16)/max(n, 1)) }

func sqDist(Y []float64, i, j, dims int) float64 {
	s := 0.0
	for c := 0; c < dims; c++ {
		d := Y[i*dims+c] - Y[j*dims+c]
		s += d * d
	}
	return s
}

// exact: ∂C/∂y_i = 4 Σ_j (exag·p_ij − q_ij)(y_i − y_j)/(1 + ‖y_i − y_j‖²),
// in bands of rows on every core. Z is each row's sum (in column order)
// added in row order, so the bits do not depend on the workers.
func (g *gradient) exact(Y []float64, exag float64, grad []float64) error {
	n, d := g.P.n, g.dims
	err := g.byRows(n, func(i int) {
		z := 0.0
		for j := 0; j < n; j++ {
			if i != j {
				z += 1 / (1 + sqDist(Y, i, j, d))
			}
		}
		g.sumQ[i] = z
	})
	if err != nil {
		return err
	}
	Z := 0.0
	for _, z := range g.sumQ {
		Z += z
	}
	return g.byRows(n, func(i int) {
		gi := grad[i*d : (i+1)*d]
		clear(gi)
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			w := 1 / (1 + sqDist(Y, i, j, d))
			f := 4 * (exag*g.P.dense[i*n+j] - w/Z) * w
			for c := 0; c < d; c++ {
				gi[c] += f * (Y[i*d+c] - Y[j*d+c])
			}
		}
	})
}

// byRows runs f(i) for i < n in bands of pollRows(n) rows shared among
// workers, polling before each band.
func (g *gradient) byRows(n int, f func(i int)) error {
	band := pollRows(n)
	return par.For("tsne", (n+band-1)/band, 0, 1, func(_, b int) error {
		if err := g.poll(); err != nil {
			return err
		}
		for i := b * band; i < min(n, (b+1)*band); i++ {
			f(i)
		}
		return nil
	})
}

// barnesHut: attraction over the sparse P exactly, repulsion from the
// quadtree's cells that look small from y_i (width/distance < θ).
func (g *gradient) barnesHut(Y []float64, exag float64, grad []float64) error {
	n := g.P.n
	if err := g.tree.build(Y, n); err != nil {
		return err
	}
	// Each point's sums land in its own slots and Z adds them in index
	// order below, so the bits do not depend on the workers.
	err := par.For("tsne", n, par.Workers(runtime.GOMAXPROCS(0), n/64), 64, func(_, i int) error {
		if i%256 == 0 {
			if err := g.poll(); err != nil {
				return err
			}
		}
		g.sumQ[i] = g.tree.repulse(i, Y[2*i], Y[2*i+1], g.theta, g.rep[2*i:2*i+2])
		g.attract(Y, i, exag, g.att[2*i:2*i+2])
		return nil
	})
	if err != nil {
		return err
	}
	Z := 0.0
	for _, s := range g.sumQ {
		Z += s
	}
	for i := range grad {
		grad[i] = 4 * (g.att[i] - g.rep[i]/Z)
	}
	return nil
}

// attract sets att to point i's attraction Σ_j exag·p_ij·q_ijZ·(y_i − y_j)
// over its sparse neighbours.
func (g *gradient) attract(Y []float64, i int, exag float64, att []float64) {
	var ax, ay float64
	for t := g.P.start[i]; t < g.P.start[i+1]; t++ {
		j := int(g.P.cols[t])
		dx, dy := Y[2*i]-Y[2*j], Y[2*i+1]-Y[2*j+1]
		w := exag * g.P.vals[t] / (1 + dx*dx + dy*dy)
		ax += w * dx
		ay += w * dy
	}
	att[0], att[1] = ax, ay
}

// kl is KL(P‖Q) = Σ p_ij log(p_ij / q_ij), with Z exact: O(n²) even for
// Barnes–Hut, so it runs in bands of rows on every core, checking poll.
// Each row's terms are summed in column order and the rows' sums in row
// order, so the bits do not depend on the workers.
func (g *gradient) kl(Y []float64) (float64, error) {
	n, d := g.P.n, g.dims
	rowZ, rowS := make([]float64, n), make([]float64, n)
	err := g.byRows(n, func(i int) {
		z := 0.0
		for j := 0; j < n; j++ {
			if i != j {
				z += 1 / (1 + sqDist(Y, i, j, d))
			}
		}
		rowZ[i] = z
	})
	if err != nil {
		return 0, err
	}
	Z := 0.0
	for _, z := range rowZ {
		Z += z
	}
	term := func(i, j int, p float64) float64 {
		q := math.Max(1/(1+sqDist(Y, i, j, d))/Z, 1e-300)
		return p * math.Log(math.Max(p, 1e-12)/q)
	}
	err = g.byRows(n, func(i int) {
		s := 0.0
		if g.P.dense != nil {
			for j := 0; j < n; j++ {
				if i != j {
					s += term(i, j, g.P.dense[i*n+j])
				}
			}
		} else {
			for t := g.P.start[i]; t < g.P.start[i+1]; t++ {
				s += term(i, int(g.P.cols[t]), g.P.vals[t])
			}
		}
		rowS[i] = s
	})
	if err != nil {
		return 0, err
	}
	s := 0.0
	for _, v := range rowS {
		s += v
	}
	return s, nil
}
