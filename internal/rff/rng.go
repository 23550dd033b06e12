package rff

import "math"

const (
	gamma64   = 0x9E3779B97F4A7C15 // SplitMix64's increment, 2⁶⁴/φ
	domainTag = 0x6B73716C2D726666 // "ksql-rff", so other users of SplitMix64 seeds do not collide with ours
)

// mix is SplitMix64's output function, a bijection of uint64.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// splitMix is the SplitMix64 generator.
type splitMix struct{ state uint64 }

func newStream(kind Kind, inDim int, seed uint64) *splitMix {
	key := uint64(kind.code())<<48 + uint64(inDim)
	return &splitMix{state: mix(seed ^ mix(key^domainTag))}
}

func (r *splitMix) next() uint64 {
	r.state += gamma64
	return mix(r.state)
}

// sym returns a uniform value in [−1, 1) with 53 random bits: 2·u − 1
// for u = k·2⁻⁵³, computed as (k − 2⁵²)·2⁻⁵² so that every step is an
// exact integer operation or power-of-two scaling (nothing to fuse).
func (r *splitMix) sym() float64 {
	k := int64(r.next() >> 11)
	return float64(k-1<<52) * 0x1p-52
}

// sampler yields the standard draws of one kind in the documented order.
type sampler struct {
	rng      *splitMix
	kind     Kind
	spare    float64
	hasSpare bool
}

func (s *sampler) draw() float64 {
	if s.kind == Laplace {
		return s.cauchy()
	}
	return s.normal()
}

// normal is Marsaglia's polar method: it needs only ln and sqrt, both of
// which are pinned (detLog, and math.Sqrt is correctly rounded by IEEE).
func (s *sampler) normal() float64 {
	if s.hasSpare {
		s.hasSpare = false
		return s.spare
	}
	for {
		v1, v2 := s.rng.sym(), s.rng.sym()
		q := float64(v1*v1) + float64(v2*v2)
		if q <= 0 || q >= 1 {
			continue
		}
		f := math.Sqrt(-2 * detLog(q) / q)
		s.spare, s.hasSpare = float64(v2*f), true
		return float64(v1 * f)
	}
}

// cauchy is v1/v2 for (v1, v2) uniform in the unit disc: the cotangent of
// a uniform angle, with no trigonometry and no logarithm at all.
func (s *sampler) cauchy() float64 {
	for {
		v1, v2 := s.rng.sym(), s.rng.sym()
		q := float64(v1*v1) + float64(v2*v2)
		if q <= 0 || q >= 1 || v2 == 0 {
			continue
		}
		return v1 / v2
	}
}
