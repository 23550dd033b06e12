package tsne

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestSplitTreeIsSerial: a tree built in cells on several workers gives
// every point the repulsion and Σ qZ of the tree built one point at a
// time, bit for bit — spread points, tight clusters, and points that
// coincide (a leaf at maxDepth) — with one worker and with several.
func TestSplitTreeIsSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	spread := func(i int) (float64, float64) { return r.NormFloat64(), r.NormFloat64() }
	clusters := func(i int) (float64, float64) {
		c := float64(i % 5)
		return 10*math.Cos(c) + 1e-3*r.NormFloat64(), 10*math.Sin(c) + 1e-3*r.NormFloat64()
	}
	twins := func(i int) (float64, float64) { return float64(i % 37), float64((i * 7) % 11) } // many equal points
	for name, gen := range map[string]func(int) (float64, float64){"spread": spread, "clusters": clusters, "twins": twins} {
		for _, n := range []int{splitAbove, 5000} {
			Y := make([]float64, 2*n)
			for i := 0; i < n; i++ {
				Y[2*i], Y[2*i+1] = gen(i)
			}
			serial := quadtree{y: Y, nodes: []qnode{rootCell(Y, n)}}
			for i := 0; i < n; i++ {
				serial.insert(0, i, Y[2*i], Y[2*i+1], 0)
			}
			want := make([]float64, 3*n)
			for i := 0; i < n; i++ {
				want[3*i] = serial.repulse(i, Y[2*i], Y[2*i+1], 0.5, want[3*i+1:3*i+3])
			}
			for _, procs := range []int{1, 3} {
				old := runtime.GOMAXPROCS(procs)
				var split quadtree
				err := split.build(Y, n)
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				if len(split.nodes) != len(serial.nodes) {
					t.Fatalf("%s n=%d: %d nodes, serial %d", name, n, len(split.nodes), len(serial.nodes))
				}
				got := make([]float64, 3)
				for i := 0; i < n; i++ {
					got[0] = split.repulse(i, Y[2*i], Y[2*i+1], 0.5, got[1:3])
					for c := range got {
						if math.Float64bits(got[c]) != math.Float64bits(want[3*i+c]) {
							t.Fatalf("%s n=%d procs=%d: point %d value %d is %v, serial %v", name, n, procs, i, c, got[c], want[3*i+c])
						}
					}
				}
			}
		}
	}
}

// TestFitWorkers: fits give the same bits with one worker and with
// several — Barnes–Hut large enough for the split tree, and exact in 3
// dimensions.
func TestFitWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, c := range []struct {
		n   int
		opt Options
	}{
		{splitAbove + 100, Options{Dims: 2, Perplexity: 20, Iterations: 260, Method: BarnesHut, Seed: 3}},
		{300, Options{Dims: 3, Perplexity: 10, Iterations: 260, Method: Exact, Seed: 4}},
	} {
		X := make([][]float64, c.n)
		for i := range X {
			X[i] = []float64{float64(i%7) + r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		}
		var ref *Embedding
		for _, procs := range []int{1, 2, 5} {
			old := runtime.GOMAXPROCS(procs)
			e, err := Fit(len(X), euclidRows(X), c.opt)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = e
				continue
			}
			if math.Float64bits(e.KL) != math.Float64bits(ref.KL) {
				t.Fatalf("n=%d: %d workers: KL %v, one worker %v", c.n, procs, e.KL, ref.KL)
			}
			for i := range e.Y {
				if math.Float64bits(e.Y[i]) != math.Float64bits(ref.Y[i]) {
					t.Fatalf("n=%d: %d workers: Y[%d] = %v, one worker %v", c.n, procs, i, e.Y[i], ref.Y[i])
				}
			}
		}
	}
}
