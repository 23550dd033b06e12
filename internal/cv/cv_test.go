package cv

import (
	"errors"
	"slices"
	"testing"
)

// TestFoldsGolden pins the assignment's bits: a change here breaks every
// stored cv_prediction and every cluster node that compares them. The
// values come from testdata/make_golden.py, an independent Python
// implementation of the rule in the package comment.
func TestFoldsGolden(t *testing.T) {
	for _, c := range []struct {
		n, k int
		seed uint64
		want []int
	}{
		{10, 3, 0, []int{1, 1, 2, 2, 0, 0, 0, 2, 0, 1}},
		{12, 4, 42, []int{3, 2, 1, 0, 0, 3, 2, 1, 3, 0, 1, 2}},
	} {
		got, err := Folds(c.n, c.k, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Fatalf("Folds(%d, %d, %d) = %v, want %v", c.n, c.k, c.seed, got, c.want)
		}
	}
}

// TestFoldsBalanced: every fold has ⌊n/k⌋ or ⌈n/k⌉ rows, for any seed,
// and stratified folds do so within each class.
func TestFoldsBalanced(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		for _, nk := range [][2]int{{10, 2}, {10, 10}, {97, 5}, {150, 7}} {
			f, err := Folds(nk[0], nk[1], seed)
			if err != nil {
				t.Fatal(err)
			}
			checkSizes(t, f, nk[0], nk[1])
		}
		y := make([]int, 100)
		for r := range y {
			y[r] = r % 3
			if r >= 90 {
				y[r] = 2
			}
		}
		f, err := Stratified(y, 3, 5, seed)
		if err != nil {
			t.Fatal(err)
		}
		for c := 0; c < 3; c++ {
			var fc []int
			for r := range y {
				if y[r] == c {
					fc = append(fc, f[r])
				}
			}
			checkSizes(t, fc, len(fc), 5)
		}
	}
}

func checkSizes(t *testing.T, fold []int, n, k int) {
	t.Helper()
	size := make([]int, k)
	for _, g := range fold {
		size[g]++
	}
	for g, s := range size {
		if s != n/k && s != (n+k-1)/k {
			t.Fatalf("fold %d has %d of %d rows (k = %d)", g, s, n, k)
		}
	}
}

func TestFoldsErrors(t *testing.T) {
	var fe *FoldsError
	if _, err := Folds(5, 1, 0); !errors.As(err, &fe) || fe.Folds != 1 {
		t.Fatalf("k = 1: %v", err)
	}
	if _, err := Folds(5, 6, 0); !errors.As(err, &fe) || fe.Rows != 5 {
		t.Fatalf("k > n: %v", err)
	}
	if _, err := Stratified([]int{0, 0, 0, 1}, 2, 2, 0); !errors.As(err, &fe) || fe.Class != 1 || fe.ClassRows != 1 {
		t.Fatalf("small class: %v", err)
	}
}

func TestSplit(t *testing.T) {
	train, test := Split([]int{0, 1, 0, 2, 1}, 1)
	if !slices.Equal(train, []int{0, 2, 3}) || !slices.Equal(test, []int{1, 4}) {
		t.Fatalf("Split: %v %v", train, test)
	}
}
