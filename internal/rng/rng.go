// Package rng is the one random generator ksql's seeded rules draw from
// (cross-validation folds, landmark samples, t-SNE starts): SplitMix64
// (Steele, Lea & Flood 2014, as published by Vigna), specified here in full
// rather than taken from math/rand, so that a seed gives the same bits on
// every machine and Go release — a stored fit and every node of a cluster
// depend on it.
package rng

import "math/bits"

// SplitMix64 is the generator; its zero value is seeded with 0.
type SplitMix64 struct{ State uint64 }

// New returns a generator seeded with seed.
func New(seed uint64) *SplitMix64 { return &SplitMix64{State: seed} }

// Next returns the next 64 random bits.
func (r *SplitMix64) Next() uint64 {
	r.State += 0x9e3779b97f4a7c15
	z := r.State
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Below returns a uniform integer in [0, bound), bound > 0, by Lemire's
// multiply-shift with rejection, which is unbiased (a plain modulo is not).
func (r *SplitMix64) Below(bound uint64) uint64 {
	hi, lo := bits.Mul64(r.Next(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.Next(), bound)
		}
	}
	return hi
}

// Shuffle permutes p by Fisher–Yates, drawing j in [0, i] for i = len−1
// down to 1.
func (r *SplitMix64) Shuffle(p []int) {
	for i := len(p) - 1; i > 0; i-- {
		j := int(r.Below(uint64(i + 1)))
		p[i], p[j] = p[j], p[i]
	}
}
