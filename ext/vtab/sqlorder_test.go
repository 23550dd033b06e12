package vtab

import (
	"fmt"
	"testing"
)

// TestCompareValues: SQLite's ORDER BY order, checked case by case against
// what sqlite3 3.40 returns for SELECT a < b, a = b (numbers compared
// exactly, so 2⁵³ + 1 > 2⁵³ as a REAL although float64(2⁵³ + 1) = 2⁵³).
func TestCompareValues(t *testing.T) {
	for _, c := range []struct {
		a, b any
		want int
	}{
		{nil, int64(-5), -1},
		{int64(1), 1.0, 0},
		{int64(2), 1.5, 1},
		{-0.5, int64(0), -1},
		{int64(9007199254740993), 9007199254740992.0, 1},
		{9007199254740992.0, int64(9007199254740993), -1},
		{int64(-9223372036854775808), -9.3e18, 1},
		{1e300, int64(9223372036854775807), 1},
		{int64(10), "1", -1},
		{"b", "a", 1},
		{"a", "ab", -1},
		{"z", []byte("a"), -1},
		{[]byte("ab"), []byte("b"), -1},
	} {
		if got := compareValues(c.a, c.b); sign(got) != c.want {
			t.Errorf("compare(%#v, %#v) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := compareValues(c.b, c.a); sign(got) != -c.want {
			t.Errorf("compare(%#v, %#v) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
	got := sortDistinct([]any{"x", int64(10), 10.0, nil, int64(2), []byte("q"), "a"})
	want := []any{nil, int64(2), int64(10), "a", "x", []byte("q")}
	if len(got) != len(want) {
		t.Fatalf("sortDistinct: %v, want %v", got, want)
	}
	for i := range got {
		if compareValues(got[i], want[i]) != 0 {
			t.Fatalf("sortDistinct: %v, want %v", got, want)
		}
	}
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// TestDistinctValues: distinctValues is sortDistinct of a copy (the first
// of equal values kept, in SQLite's order), checked against a brute-force
// scan, for few values and past the small set's 1,024.
func TestDistinctValues(t *testing.T) {
	many := make([]any, 3000)
	for i := range many {
		many[i] = int64((i * 7919) % 2500)
	}
	for _, vals := range [][]any{
		nil,
		{int64(3), int64(1), int64(3), int64(2), int64(1)},
		{int64(1), 1.0, "a", []byte("a"), 2.5, int64(1), "a"},
		{1.0, int64(1)},
		many,
	} {
		got := distinctValues(vals)
		var want []any // each value whose first equal is itself, then sorted
		for i, v := range vals {
			first := true
			for _, u := range vals[:i] {
				if compareValues(u, v) == 0 {
					first = false
					break
				}
			}
			if first {
				want = append(want, v)
			}
		}
		for i := 1; i < len(want); i++ { // insertion sort: stable
			for j := i; j > 0 && compareValues(want[j-1], want[j]) > 0; j-- {
				want[j-1], want[j] = want[j], want[j-1]
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d values: %d distinct, want %d", len(vals), len(got), len(want))
		}
		for i := range want {
			if fmt.Sprintf("%T %v", got[i], got[i]) != fmt.Sprintf("%T %v", want[i], want[i]) {
				t.Fatalf("%d values: value %d is %T %v, want %T %v", len(vals), i, got[i], got[i], want[i], want[i])
			}
		}
	}
}
