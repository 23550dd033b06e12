package par

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestReview2TeamForPanicName: a panic in a body of Team.For is a
// *PanicError naming For's name, as par.For's is, whichever way the
// indices ran: on no team, on the team's helpers, or on For's goroutines
// because every helper slot was taken (the fallback). Before, the team's
// own name stood in the error on the team's path only, so the same panic
// in dense.CrossProduct read "fda: ..." or "dense.CrossProduct: ..."
// depending on whether other fits were running.
func TestReview2TeamForPanicName(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	body := func(i int) error {
		if i == 2 {
			panic("boom")
		}
		return nil
	}
	check := func(how string, tm *Team) {
		t.Helper()
		err := tm.For("dense.Body", 6, 0, body)
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Func != "dense.Body" || pe.Value != "boom" {
			t.Errorf("%s: %v, want a *PanicError of dense.Body", how, err)
		}
	}
	check("no team", nil)
	check("a team", NewTeam("the team", 3))
	check("a team of one", NewTeam("the team", 1))

	// every slot taken by a busy team: the other team's For falls back
	for start := time.Now(); helping.Load() > 0; time.Sleep(50 * time.Microsecond) {
		if time.Since(start) > 2*time.Second {
			t.Fatalf("%d helpers still spinning", helping.Load())
		}
	}
	busy := NewTeam("busy", 3)
	release, done := make(chan struct{}), make(chan error)
	var started atomic.Int32
	go func() { done <- busy.Do(3, func(int) { started.Add(1); <-release }) }()
	for start := time.Now(); started.Load() < 3; time.Sleep(10 * time.Microsecond) {
		if time.Since(start) > 2*time.Second {
			close(release)
			<-done
			t.Fatalf("%d of 3 tasks started", started.Load())
		}
	}
	check("a team without a slot", NewTeam("the team", 3))
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
