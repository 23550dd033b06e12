package vtab

import (
	"math"
	"testing"
)

// A lean column keeps REALs as float64s until the first other value, then
// every value as read, in order, with its type.
func TestLeanColumn(t *testing.T) {
	var c leanColumn
	for _, v := range []any{1.5, 2.0, math.Copysign(0, -1)} {
		c.add(v)
	}
	if c.boxed || len(c.reals) != 3 {
		t.Fatalf("three REALs: boxed %v, %d reals", c.boxed, len(c.reals))
	}
	c.add(int64(3))
	c.add(nil)
	c.add(4.5)
	want := []any{1.5, 2.0, math.Copysign(0, -1), int64(3), nil, 4.5}
	if !c.boxed || len(c.vals) != len(want) {
		t.Fatalf("boxed %v, values %#v", c.boxed, c.vals)
	}
	for i, v := range want {
		if !sameValue(c.vals[i], v) {
			t.Errorf("value %d: %#v, want %#v", i, c.vals[i], v)
		}
	}
}
