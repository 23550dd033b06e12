package stats

import (
	"errors"
	"math"

	"github.com/ksql/ksql/internal/rng"
)

// ErrSmallSample is returned when a sample has fewer than two objects,
// for which the unbiased statistic is undefined.
var ErrSmallSample = errors.New("each sample needs at least two objects")

// ErrOverflow is a test whose statistics, unscaled, pass float64's range
// (means in feature space some 1e154 apart): each would read +Inf.
var ErrOverflow = errors.New("the MMD² statistics pass float64's range")

// MMD is the result of a two-sample test.
type MMD struct {
	Unbiased, Biased float64 // MMD² estimates (Gretton et al. 2012, eq. 3 and 5)
	PValue           float64 // (1 + #{permuted ≥ observed}) / (1 + permutations)
	Permutations     int
	NA, NB           int
}

// MMDTest tests whether the first na objects and the other N−na of a
// joint Gram matrix K (N×N, row-major, K = [[Kxx Kxy] [Kyx Kyy]]) come from
// one distribution. The permutation test relabels the pooled objects
// perms times, drawn from seed; the unbiased statistic is the test's.
// interrupt, if not nil, is polled between permutations. K may be scaled
// in place.
func MMDTest(K []float64, N, na, perms int, seed uint64, interrupt func() error) (MMD, error) {
	nb := N - na
	if na < 2 || nb < 2 {
		return MMD{}, ErrSmallSample
	}
	inA := make([]bool, N)
	for i := range na {
		inA[i] = true
	}
	scale := sumScale(K, N)
	u, b := mmd2(K, N, na, inA)
	r := MMD{Unbiased: u / scale, Biased: b / scale, Permutations: perms, NA: na, NB: nb}
	if math.IsInf(r.Unbiased, 0) || math.IsInf(r.Biased, 0) {
		return MMD{}, ErrOverflow
	}
	p := make([]int, N)
	for i := range p {
		p[i] = i
	}
	g := rng.New(seed)
	exceed := 0
	for range perms {
		if interrupt != nil {
			if err := interrupt(); err != nil {
				return MMD{}, err
			}
		}
		g.Shuffle(p)
		for i, o := range p {
			inA[o] = i < na
		}
		// The same summation as the observed statistic's, so that a
		// permutation that keeps the samples gives exactly the same value.
		if pu, _ := mmd2(K, N, na, inA); pu >= u {
			exceed++
		}
	}
	r.PValue = float64(1+exceed) / float64(1+perms)
	return r, nil
}

// sumScale brings K, in place, where its sums of up to N² values stay
// within float64 (finite values of 1e307 sum to +Inf), by a power of two,
// which is exact and leaves the permutation test's order unchanged; it
// returns the factor the statistics must be divided by (1 when K needs
// none, as it almost never does).
func sumScale(K []float64, N int) float64 {
	m := 0.0
	for _, v := range K {
		m = max(m, math.Abs(v))
	}
	if m*float64(N)*float64(N) <= 0x1p1000 {
		return 1
	}
	_, e := math.Frexp(m)
	scale := math.Ldexp(1, -e)
	for i := range K {
		K[i] *= scale
	}
	return scale
}

// mmd2 sums the blocks of K that the labelling inA cuts it into, in
// one pass: Σ Kxx and Σ Kyy with and without their diagonals, Σ Kxy + Kyx.
func mmd2(K []float64, N, na int, inA []bool) (unbiased, biased float64) {
	var sxx, syy, sxy, dx, dy float64
	for i := range N {
		row := K[i*N : (i+1)*N]
		var ra, rb float64
		for j, v := range row {
			if inA[j] {
				ra += v
			} else {
				rb += v
			}
		}
		if inA[i] {
			sxx += ra
			sxy += rb
			dx += row[i]
		} else {
			syy += rb
			sxy += ra
			dy += row[i]
		}
	}
	n, m := float64(na), float64(N-na)
	cross := sxy / (n * m) // both off-diagonal blocks: 2·mean(Kxy) when K is symmetric
	biased = sxx/(n*n) + syy/(m*m) - cross
	unbiased = (sxx-dx)/(n*(n-1)) + (syy-dy)/(m*(m-1)) - cross
	return unbiased, biased
}
