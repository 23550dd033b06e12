package svm

import (
	"math/rand/v2"
	"testing"
)

// TestVoteManyClasses: Vote and PredictBatch's vote agree with a count
// made here, pair by pair, for class counts on both sides of the vote's
// fixed buffer (64), on random decision values.
func TestVoteManyClasses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{3, 63, 64, 65, 70, 130} {
		m := &Model{Classes: k}
		dec := make([]float64, m.NumPairs())
		for trial := 0; trial < 20; trial++ {
			for q := range dec {
				dec[q] = r.NormFloat64()
			}
			want := bruteVote(k, dec)
			if got := m.Vote(dec); got != want {
				t.Fatalf("k=%d: Vote %d, counted %d", k, got, want)
			}
			votes := make([]int, k)
			votes[0] = 99 // vote must clear what it is given
			if got := m.vote(dec, votes); got != want {
				t.Fatalf("k=%d: vote with a used buffer %d, counted %d", k, got, want)
			}
		}
	}
}

// bruteVote counts, for each class c, the pairs (a, b) in libsvm's order
// whose decision favours c, and returns the first class with most votes.
func bruteVote(k int, dec []float64) int {
	count := map[int]int{}
	q := 0
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			if dec[q] > 0 {
				count[a]++
			} else {
				count[b]++
			}
			q++
		}
	}
	best := 0
	for c := 0; c < k; c++ {
		if count[c] > count[best] {
			best = c
		}
	}
	return best
}
