package tsne

import (
	"math"
	"sort"
)

// Trustworthiness is Venna & Kaski's measure of how far the k nearest
// neighbours in the embedding are from being neighbours in the input, as
// scikit-learn's sklearn.manifold.trustworthiness: 1 − 2/(n·k·(2n − 3k − 1))
// · Σ_i Σ_{j ∈ U_i} (r(i, j) − k), where U_i are i's k nearest in the
// embedding that are not among its k nearest in the input and r(i, j) is
// j's rank among i's input neighbours. Needs k < n/2.
func Trustworthiness(e *Embedding, rows Rows, k int, interrupt func() error) (float64, error) {
	n, d := e.N, e.Dims
	if k < 1 || 2*k >= n {
		return 0, &ParamError{"k", float64(k), "1 ≤ k < objects/2"}
	}
	in := make([]float64, n)
	order := make([]int, n)
	rank := make([]int, n)
	emb := make([]float64, n)
	eorder := make([]int, n)
	penalty := 0.0
	for i := 0; i < n; i++ {
		if err := poll(interrupt, i, n); err != nil {
			return 0, err
		}
		if err := rows(i, in); err != nil {
			return 0, err
		}
		if err := clampRow(i, in); err != nil {
			return 0, err
		}
		byDistance(in, i, order)
		for r, j := range order {
			rank[j] = r // 0 is i itself
		}
		for j := 0; j < n; j++ {
			emb[j] = sqDist(e.Y, i, j, d)
		}
		byDistance(emb, i, eorder)
		for _, j := range eorder[1 : k+1] {
			if r := rank[j]; r > k {
				penalty += float64(r - k)
			}
		}
	}
	nf, kf := float64(n), float64(k)
	return 1 - 2/(nf*kf*(2*nf-3*kf-1))*penalty, nil
}

// byDistance orders 0..n−1 by dist, i itself first, ties by index (as a
// stable argsort does).
func byDistance(dist []float64, i int, order []int) {
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool {
		ja, jb := order[a], order[b]
		if ja == i || jb == i {
			return ja == i && jb != i
		}
		return dist[ja] < dist[jb]
	})
}

// Place puts a new object into the fixed embedding, as openTSNE's
// transform does: d2[j] is its squared distance to training object j; its
// affinities to the training objects are calibrated to the embedding's
// perplexity, it starts at their affinity-weighted mean and moves by
// gradient descent on KL(p‖q) with the training positions fixed (250
// steps, momentum 0.5 then 0.8 after 100, gains as in the fit).
func (e *Embedding) Place(d2 []float64, dst []float64) error {
	n, d := e.N, e.Dims
	if len(d2) != n || len(dst) != d {
		return &ParamError{"distances", float64(len(d2)), "one per training object"}
	}
	dd := append([]float64(nil), d2...)
	for j, v := range dd {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &DistanceError{-1, j, v}
		}
		dd[j] = math.Max(v, 0)
	}
	p := make([]float64, n)
	calibrate(dd, -1, math.Min(e.Perplexity, float64(n-1)/3), p)
	clear(dst)
	for j, pj := range p {
		for c := 0; c < d; c++ {
			dst[c] += pj * e.Y[j*d+c]
		}
	}
	update, gains, grad := make([]float64, d), make([]float64, d), make([]float64, d)
	for c := range gains {
		gains[c] = 1
	}
	w := make([]float64, n)
	for it := 0; it < 250; it++ {
		Z := 0.0
		for j := 0; j < n; j++ {
			s := 0.0
			for c := 0; c < d; c++ {
				t := dst[c] - e.Y[j*d+c]
				s += t * t
			}
			w[j] = 1 / (1 + s)
			Z += w[j]
		}
		clear(grad)
		for j := 0; j < n; j++ {
			f := 4 * (p[j] - w[j]/Z) * w[j]
			for c := 0; c < d; c++ {
				grad[c] += f * (dst[c] - e.Y[j*d+c])
			}
		}
		mom := 0.5
		if it >= 100 {
			mom = 0.8
		}
		for c := 0; c < d; c++ {
			if update[c]*grad[c] < 0 {
				gains[c] += 0.2
			} else {
				gains[c] = math.Max(gains[c]*0.8, 0.01)
			}
			update[c] = mom*update[c] - gains[c]*grad[c]
			dst[c] += update[c]
		}
	}
	return nil
}
