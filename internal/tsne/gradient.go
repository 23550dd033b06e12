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

// exact: ∂C/∂y_i = 4 Σ_j (exag·p_ij − q_ij)(y_i − y_j)/(1 + ‖y_i − y_j‖²).
func (g *gradient) exact(Y []float64, exag float64, grad []float64) error {
	n, d := g.P.n, g.dims
	Z := 0.0
	for i := 0; i < n; i++ {
		if err := poll(g.poll, i, n); err != nil {
			return err
		}
		for j := 0; j < n; j++ {
			if i != j {
				Z += 1 / (1 + sqDist(Y, i, j, d))
			}
		}
	}
	for i := 0; i < n; i++ {
		if err := poll(g.poll, i, n); err != nil {
			return err
		}
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
	}
	return nil
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
// Barnes–Hut, so it checks poll too.
func (g *gradient) kl(Y []float64) (float64, error) {
	n, d := g.P.n, g.dims
	Z := 0.0
	for i := 0; i < n; i++ {
		if err := poll(g.poll, i, n); err != nil {
			return 0, err
		}
		for j := 0; j < n; j++ {
			if i != j {
				Z += 1 / (1 + sqDist(Y, i, j, d))
			}
		}
	}
	s := 0.0
	add := func(i, j int, p float64) {
		q := math.Max(1/(1+sqDist(Y, i, j, d))/Z, 1e-300)
		s += p * math.Log(math.Max(p, 1e-12)/q)
	}
	if g.P.dense != nil {
		for i := 0; i < n; i++ {
			if err := poll(g.poll, i, n); err != nil {
				return 0, err
			}
			for j := 0; j < n; j++ {
				if i != j {
					add(i, j, g.P.dense[i*n+j])
				}
			}
		}
		return s, nil
	}
	for i := 0; i < n; i++ {
		for t := g.P.start[i]; t < g.P.start[i+1]; t++ {
			add(i, int(g.P.cols[t]), g.P.vals[t])
		}
	}
	return s, nil
}
