package rff

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

func loadIris(t *testing.T) [][]float64 {
	f, err := os.Open("testdata/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var xs [][]float64
	for _, r := range rows[1:] {
		x := make([]float64, 4)
		for i := range x {
			if x[i], err = strconv.ParseFloat(r[1+i], 64); err != nil {
				t.Fatal(err)
			}
		}
		xs = append(xs, x)
	}
	if len(xs) != 150 {
		t.Fatalf("iris has %d rows, want 150", len(xs))
	}
	return xs
}

// errorTheory predicts the mean over pairs p of |⟨φ(x),φ(z)⟩ − K(x,z)| and
// its standard deviation, for n frequencies, from the kernel alone.
//
// ⟨φ(x),φ(z)⟩ = (1/n)·Σ_j cos(w_jᵀδ) with δ = x − z, an average of n
// independent terms with mean k(δ) and variance v(δ) = (1 + k(2δ))/2 − k(δ)²
// (cos² = (1 + cos 2·)/2). So the error e_p is close to N(0, v_p/n) and
// E|e_p| = sqrt(2·v_p/(π·n)). The errors of two pairs share the frequencies:
// Cov(cos wᵀδ_p, cos wᵀδ_q) = (k(δ_p−δ_q) + k(δ_p+δ_q))/2 − k(δ_p)·k(δ_q), and
// for jointly normal errors with correlation ρ,
// Cov(|e_p|, |e_q|) = (2/π)·σ_p·σ_q·(ρ·asin ρ + sqrt(1−ρ²) − 1). Var of the
// mean is the average of that over pairs of pairs, estimated on every
// `stride`-th pair.
func errorTheory(xs [][]float64, k func(d []float64) float64, n, stride int) (mean, sd float64) {
	type pair struct {
		d    []float64
		k, v float64
	}
	var ps []pair
	for a := range xs {
		for b := a + 1; b < len(xs); b++ {
			d := make([]float64, len(xs[a]))
			d2 := make([]float64, len(d))
			for i := range d {
				d[i] = xs[a][i] - xs[b][i]
				d2[i] = 2 * d[i]
			}
			kd := k(d)
			ps = append(ps, pair{d, kd, max(0, (1+k(d2))/2-kd*kd)})
		}
	}
	for _, p := range ps {
		mean += math.Sqrt(2 * p.v / (math.Pi * float64(n)))
	}
	mean /= float64(len(ps))

	var sub []pair
	for i := 0; i < len(ps); i += stride {
		sub = append(sub, ps[i])
	}
	diff, sum := make([]float64, len(xs[0])), make([]float64, len(xs[0]))
	var varSum float64
	for _, p := range sub {
		for _, q := range sub {
			if p.v == 0 || q.v == 0 {
				continue
			}
			for i := range diff {
				diff[i], sum[i] = p.d[i]-q.d[i], p.d[i]+q.d[i]
			}
			rho := ((k(diff)+k(sum))/2 - p.k*q.k) / math.Sqrt(p.v*q.v)
			rho = max(-1, min(1, rho))
			varSum += 2 / math.Pi * math.Sqrt(p.v*q.v) / float64(n) *
				(rho*math.Asin(rho) + math.Sqrt(1-rho*rho) - 1)
		}
	}
	return mean, math.Sqrt(varSum / float64(len(sub)*len(sub)))
}

// meanAbsError measures the mean over all pairs of |⟨φ(x),φ(z)⟩ − K(x,z)|.
func meanAbsError(t *testing.T, xs [][]float64, m *Map, k func(d []float64) float64) float64 {
	phis := make([][]float64, len(xs))
	for i, x := range xs {
		phis[i] = floats(embed(t, m, x))
	}
	d := make([]float64, len(xs[0]))
	var s float64
	var cnt int
	for a := range xs {
		for b := a + 1; b < len(xs); b++ {
			var dot float64
			for i, v := range phis[a] {
				dot += v * phis[b][i]
			}
			for i := range d {
				d[i] = xs[a][i] - xs[b][i]
			}
			s += math.Abs(dot - k(d))
			cnt++
		}
	}
	return s / float64(cnt)
}

// TestIrisAccuracy: the approximation error falls like 1/sqrt(n), with the
// constant the variance predicts. σ = 1 cm puts iris pairs across the whole
// range of kernel values (same species ≈ 0.5–1, different species ≈ 0).
func TestIrisAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of arithmetic")
	}
	xs := loadIris(t)
	const sigma = 1.0
	kernels := []struct {
		kind Kind
		k    func(d []float64) float64
	}{
		{Gauss, func(d []float64) float64 {
			var s float64
			for _, v := range d {
				s += v * v
			}
			return math.Exp(-s / (2 * sigma * sigma))
		}},
		{Laplace, func(d []float64) float64 {
			var s float64
			for _, v := range d {
				s += math.Abs(v)
			}
			return math.Exp(-s / sigma)
		}},
	}
	// One draw of frequencies gives a noisy figure (every pair shares them,
	// so the pairs' errors are strongly correlated: sd ≈ 23% of the mean for
	// gauss); the average over S seeds has S^(−1/2) of that sd.
	const seeds = 16
	for _, kc := range kernels {
		var got, want, sd [2]float64
		for i, dim := range []int{64, 4096} {
			for s := range uint64(seeds) {
				m, err := Get(kc.kind, sigma, 4, dim, 2024+s)
				if err != nil {
					t.Fatal(err)
				}
				got[i] += meanAbsError(t, xs, m, kc.k) / seeds
			}
			want[i], sd[i] = errorTheory(xs, kc.k, dim/2, 9)
			sd[i] /= math.Sqrt(seeds)
			// 4 standard deviations (a normal tail of 6e-5), plus 5% for the
			// normal approximation of an average of only 32 terms at dim 64
			// (it overstates E|error| by 3% there: 200 seeds gave 0.0783
			// against 0.0806).
			tol := 4*sd[i] + 0.05*want[i]
			t.Logf("%v dim %4d: mean |error| %.5f, predicted %.5f ± %.5f", kc.kind, dim, got[i], want[i], tol)
			if math.Abs(got[i]-want[i]) > tol {
				t.Errorf("%v dim %d: mean |error| %.5f, predicted %.5f ± %.5f", kc.kind, dim, got[i], want[i], tol)
			}
		}
		// The ratio's relative sd by the delta method (the two errors are
		// nearly independent: they share 32 of 2048 frequencies).
		ratio := got[0] / got[1]
		tol := 8 * (4*math.Hypot(sd[0]/want[0], sd[1]/want[1]) + 0.05)
		t.Logf("%v: ratio dim 64 / dim 4096 = %.3f, theory 8 ± %.2f", kc.kind, ratio, tol)
		if math.Abs(ratio-8) > tol {
			t.Errorf("%v: error ratio dim 64 / dim 4096 = %.3f, want 8 ± %.2f", kc.kind, ratio, tol)
		}
	}
}
