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
	if c.boxed || c.reals.n != 3 {
		t.Fatalf("three REALs: boxed %v, %d reals", c.boxed, c.reals.n)
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

// A pile gives back what was added, in order, whatever the number of
// blocks it took (the first 256 values, then twice as many a block up to
// pileBlock), and is empty after.
func TestPile(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 257, 768, pileBlock, 3*pileBlock + 5} {
		var p pile[int64]
		var want []int64
		for i := range n {
			x := int64(i)*7919 - 3
			p.add(x)
			want = append(want, x)
			if p.last() != x {
				t.Fatalf("n %d: last after %d adds is %d, want %d", n, i+1, p.last(), x)
			}
		}
		got := p.slice()
		if len(got) != n || (n == 0) != (got == nil) {
			t.Fatalf("n %d: %d values (nil %v)", n, len(got), got == nil)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n %d: value %d is %d, want %d", n, i, got[i], want[i])
			}
		}
		if p.n != 0 || p.slice() != nil {
			t.Fatalf("n %d: the pile is not empty after slice", n)
		}
	}
}

// The lean rows' maps once an object is NULL: every row before it maps to
// itself, the NULL row to no object, and rows after it one object back.
func TestLeanRowsNullObject(t *testing.T) {
	s := &source{}
	var l leanRows
	const n = 1000
	for i := range n {
		var obj any = []byte{1, 2, 3, 4}
		if i == 600 {
			obj = nil
		}
		if err := l.add(s, []any{int64(i + 1), obj}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := l.snapshot(0)
	if err != nil {
		t.Fatal(err)
	}
	if snap.nrows() != n || snap.nobj() != n-1 {
		t.Fatalf("%d rows, %d objects", snap.nrows(), snap.nobj())
	}
	for r := range n {
		want := r
		switch {
		case r == 600:
			want = -1
		case r > 600:
			want = r - 1
		}
		if got := snap.objOf(r); got != want {
			t.Fatalf("row %d: object %d, want %d", r, got, want)
		}
		if want >= 0 && snap.rowOf(want) != r {
			t.Fatalf("object %d: row %d, want %d", want, snap.rowOf(want), r)
		}
	}
	if snap.id(999).(int64) != 1000 {
		t.Fatalf("row 999's id %v", snap.id(999))
	}
}
