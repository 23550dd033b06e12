// Package cv assigns rows to cross-validation folds by a seeded rule that
// is fixed forever, so a fold assignment is the same bits on every
// machine, Go release and node of a cluster.
//
// The rule: a SplitMix64 generator seeded with seed; a Fisher–Yates
// shuffle of the positions 0..n−1 (rows in id order), drawing j uniformly
// in [0, i] for i = n−1 down to 1 by Lemire's multiply-shift with
// rejection; the row at shuffled position p goes to fold p mod k.
// Stratified assignment shuffles each class's rows the same way (classes
// in increasing order, one generator for all) and deals them round-robin
// with one counter running across classes, so every fold gets ⌊n_c/k⌋ or
// ⌈n_c/k⌉ rows of each class c.
package cv

import (
	"fmt"

	"github.com/ksql/ksql/internal/rng"
)

// FoldsError is a fold count the rows cannot support.
type FoldsError struct {
	Folds, Rows int
	// Class is the class with fewer rows than folds (stratified), or −1.
	Class, ClassRows int
}

func (e *FoldsError) Error() string {
	if e.Class >= 0 {
		return fmt.Sprintf("%d folds but class %d has %d rows", e.Folds, e.Class, e.ClassRows)
	}
	return fmt.Sprintf("%d folds for %d rows: need 2 ≤ folds ≤ rows", e.Folds, e.Rows)
}

// Folds returns the fold (0..k−1) of each of n rows.
func Folds(n, k int, seed uint64) ([]int, error) {
	if k < 2 || k > n {
		return nil, &FoldsError{Folds: k, Rows: n, Class: -1}
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = i
	}
	rng.New(seed).Shuffle(pos)
	fold := make([]int, n)
	for p, r := range pos {
		fold[r] = p % k
	}
	return fold, nil
}

// Stratified returns the fold of each row given its class y[r] in
// 0..classes−1; every class needs at least k rows.
func Stratified(y []int, classes, k int, seed uint64) ([]int, error) {
	n := len(y)
	if k < 2 || k > n {
		return nil, &FoldsError{Folds: k, Rows: n, Class: -1}
	}
	byClass := make([][]int, classes)
	for r, c := range y {
		byClass[c] = append(byClass[c], r)
	}
	for c, rows := range byClass {
		if len(rows) < k {
			return nil, &FoldsError{Folds: k, Rows: n, Class: c, ClassRows: len(rows)}
		}
	}
	g := rng.New(seed)
	fold := make([]int, n)
	next := 0
	for _, rows := range byClass {
		g.Shuffle(rows)
		for _, r := range rows {
			fold[r] = next % k
			next++
		}
	}
	return fold, nil
}

// Split returns the rows outside and inside fold f.
func Split(fold []int, f int) (train, test []int) {
	for r, g := range fold {
		if g == f {
			test = append(test, r)
		} else {
			train = append(train, r)
		}
	}
	return train, test
}
