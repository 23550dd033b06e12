package kpca

import "math/bits"

// splitMix64 is Steele, Lea and Flood's SplitMix64 generator (the 64-bit
// finaliser of Java's SplittableRandom, as published by Vigna). It is
// specified here in full, rather than taken from math/rand, so that landmark
// choices and start vectors are the same bits on every Go release.
type splitMix64 struct{ state uint64 }

func (r *splitMix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// below returns a uniform integer in [0, bound), bound > 0, by Lemire's
// multiply-shift with rejection, which is unbiased (a plain modulo is not).
func (r *splitMix64) below(bound uint64) uint64 {
	hi, lo := bits.Mul64(r.next(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.next(), bound)
		}
	}
	return hi
}

// symmetric returns a uniform float64 in [-1, 1) built from the top 53 bits.
func (r *splitMix64) symmetric() float64 {
	return float64(r.next()>>11)*0x1p-52 - 1
}
