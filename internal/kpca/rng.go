package kpca

import "github.com/ksql/ksql/internal/rng"

// splitMix64 is ksql's seeded generator (internal/rng) under kpca's short
// names, so that landmark choices and start vectors are the same bits on
// every Go release.
type splitMix64 rng.SplitMix64

func (r *splitMix64) next() uint64 { return (*rng.SplitMix64)(r).Next() }

// below returns a uniform integer in [0, bound), bound > 0 (unbiased).
func (r *splitMix64) below(bound uint64) uint64 { return (*rng.SplitMix64)(r).Below(bound) }

// symmetric returns a uniform float64 in [-1, 1) built from the top 53 bits.
func (r *splitMix64) symmetric() float64 {
	return float64(r.next()>>11)*0x1p-52 - 1
}
