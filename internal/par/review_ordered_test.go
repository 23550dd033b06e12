package par

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestReviewOrderedFailures: a failing or panicking work or merge at any
// item stops the input with that error, Close returns it, merge saw the
// items before it in order, and no goroutine is left.
func TestReviewOrderedFailures(t *testing.T) {
	base := runtime.NumGoroutine()
	boom := errors.New("boom")
	for _, workers := range []int{1, 2, 5} {
		for _, where := range []string{"work", "merge", "workpanic", "mergepanic", "stop", "held"} {
			for _, at := range []int{0, 1, 6, 50} {
				var merged []int
				o := NewOrdered("t", workers, func() *int { return new(int) },
					func(w int, it *int) error {
						if *it == at && where == "work" {
							return boom
						}
						if *it == at && where == "workpanic" {
							panic("p")
						}
						return nil
					}, func(it *int) error {
						if *it == at && where == "merge" {
							return boom
						}
						if *it == at && where == "mergepanic" {
							panic("p")
						}
						merged = append(merged, *it)
						return nil
					})
				var nerr error
				for i := range 100 {
					if where == "stop" && i == at {
						break
					}
					it, err := o.Next()
					if err != nil {
						nerr = err
						break
					}
					if where == "held" && i == at {
						break // an item taken, never submitted
					}
					*it = i
					o.Submit(it)
				}
				err := o.Close()
				want := at
				switch where {
				case "stop", "held":
					if err != nil || nerr != nil {
						t.Fatalf("%s at %d: %v %v", where, at, err, nerr)
					}
				case "work", "merge":
					if !errors.Is(err, boom) {
						t.Fatalf("%d workers, %s at %d: %v", workers, where, at, err)
					}
				default:
					var pe *PanicError
					if !errors.As(err, &pe) {
						t.Fatalf("%d workers, %s at %d: %v", workers, where, at, err)
					}
				}
				if len(merged) != want {
					t.Fatalf("%d workers %s at %d: merged %v", workers, where, at, merged)
				}
				for i, v := range merged {
					if v != i {
						t.Fatalf("out of order: %v", merged)
					}
				}
			}
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > base {
		t.Errorf("%d goroutines left, %d before", g, base)
	}
}
