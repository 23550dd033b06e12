package par

import (
	"errors"
	"testing"
)

// TestOrderedMergesInOrder: whatever the worker count, merge sees the
// items in the order they were filled, each after its work, and at most
// workers+2 items ever exist.
func TestOrderedMergesInOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		type item struct{ seq, sq int }
		made, next := 0, 0
		var got []int
		o := NewOrdered("test", workers, func() *item { made++; return &item{} },
			func(_ int, it *item) error { it.sq = it.seq * it.seq; return nil },
			func(it *item) error {
				if it.sq != it.seq*it.seq {
					t.Errorf("workers=%d: item %d merged before its work", workers, it.seq)
				}
				got = append(got, it.seq)
				return nil
			})
		for range 100 {
			it, err := o.Next()
			if err != nil {
				t.Fatal(err)
			}
			it.seq, it.sq = next, -1
			next++
			o.Submit(it)
		}
		if err := o.Close(); err != nil {
			t.Fatal(err)
		}
		if len(got) != 100 {
			t.Fatalf("workers=%d: %d merges, want 100", workers, len(got))
		}
		for i, s := range got {
			if s != i {
				t.Fatalf("workers=%d: merge %d saw item %d", workers, i, s)
			}
		}
		if w := Workers(workers, 1<<30); made > w+2 {
			t.Errorf("workers=%d: %d items made, want at most %d", workers, made, w+2)
		}
	}
}

// TestOrderedErrors: the first error of work, or a panic in work or
// merge, stops the input at Next and is Close's result.
func TestOrderedErrors(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name  string
		work  func(int, *int) error
		merge func(*int) error
		want  func(error) bool
	}{
		{"work error", func(_ int, it *int) error {
			if *it == 5 {
				return boom
			}
			return nil
		}, func(*int) error { return nil }, func(err error) bool { return errors.Is(err, boom) }},
		{"work panic", func(_ int, it *int) error {
			if *it == 5 {
				panic("bad")
			}
			return nil
		}, func(*int) error { return nil }, func(err error) bool { var p *PanicError; return errors.As(err, &p) && p.Func == "t" }},
		{"merge panic", func(int, *int) error { return nil }, func(it *int) error {
			if *it == 5 {
				var s []int
				_ = s[*it]
			}
			return nil
		}, func(err error) bool { var p *PanicError; return errors.As(err, &p) }},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 4} {
			o := NewOrdered("t", workers, func() *int { return new(int) }, c.work, c.merge)
			stopped := false
			for i := range 1000 {
				it, err := o.Next()
				if err != nil {
					stopped = true
					break
				}
				*it = i
				o.Submit(it)
			}
			err := o.Close()
			if !stopped || !c.want(err) {
				t.Errorf("%s, workers=%d: stopped=%v, Close = %v", c.name, workers, stopped, err)
			}
		}
	}
}

// TestOrderedCloseTwice: a second Close (a deferred one after an explicit
// one) returns the same result and does not block.
func TestOrderedCloseTwice(t *testing.T) {
	boom := errors.New("boom")
	o := NewOrdered("t", 3, func() *int { return new(int) }, func(_ int, it *int) error {
		if *it == 2 {
			return boom
		}
		return nil
	}, func(*int) error { return nil })
	for i := range 5 {
		it, err := o.Next()
		if err != nil {
			break
		}
		*it = i
		o.Submit(it)
	}
	if err := o.Close(); !errors.Is(err, boom) {
		t.Fatalf("first Close: %v", err)
	}
	if err := o.Close(); !errors.Is(err, boom) {
		t.Fatalf("second Close: %v", err)
	}
}
