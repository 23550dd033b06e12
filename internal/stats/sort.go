package stats

import (
	"cmp"
	"slices"

	"github.com/ksql/ksql/internal/rng"
)

// sortLeaf is the longest run sorted without a poll: about a millisecond.
const sortLeaf = 1 << 15

// sortPolled sorts a ascending (NaNs first, as slices.Sort) and polls
// interrupt every sortLeaf elements of work, so that tens of millions of
// distances stop soon after a cancel: slices.Sort cannot be interrupted.
// It is a quicksort with three-way partitions about random pivots (so
// neither repeated values nor an adversary's order make it quadratic),
// leaves of sortLeaf sorted by slices.Sort.
func sortPolled(a []float64, interrupt func() error) error {
	g := rng.New(uint64(len(a)))
	for len(a) > sortLeaf {
		p := a[g.Below(uint64(len(a)))]
		lt, gt, err := partition3(a, p, interrupt)
		if err != nil {
			return err
		}
		// recur into the shorter side, loop on the longer: the stack
		// stays logarithmic
		if lt < len(a)-gt {
			if err := sortPolled(a[:lt], interrupt); err != nil {
				return err
			}
			a = a[gt:]
		} else {
			if err := sortPolled(a[gt:], interrupt); err != nil {
				return err
			}
			a = a[:lt]
		}
	}
	slices.Sort(a)
	return poll(interrupt)
}

// partition3 reorders a into a[:lt] < p, a[lt:gt] == p, a[gt:] > p.
func partition3(a []float64, p float64, interrupt func() error) (lt, gt int, err error) {
	i, gt := 0, len(a)
	for k := 1; i < gt; k++ {
		if k%sortLeaf == 0 {
			if err := poll(interrupt); err != nil {
				return 0, 0, err
			}
		}
		switch c := cmp.Compare(a[i], p); {
		case c < 0:
			a[lt], a[i] = a[i], a[lt]
			lt++
			i++
		case c > 0:
			gt--
			a[i], a[gt] = a[gt], a[i]
		default:
			i++
		}
	}
	return lt, gt, nil
}
