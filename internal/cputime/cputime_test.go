package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestMeterCountsBusyCores: a span that keeps two goroutines spinning for
// 200 ms reads about two cores where two are free, never more than the
// cores there are, and its CPU time grows by about the work done.
func TestMeterCountsBusyCores(t *testing.T) {
	if runtime.GOOS == "windows" || Process() == 0 {
		t.Skip("no process CPU time on this system")
	}
	var m Meter
	if m.PerWall() != 0 {
		t.Fatal("a meter with no span reads cores")
	}
	spin := func(d time.Duration, done chan<- struct{}) {
		for end := time.Now().Add(d); time.Now().Before(end); {
		}
		done <- struct{}{}
	}
	before := Process()
	m.Start()
	done := make(chan struct{})
	go spin(200*time.Millisecond, done)
	go spin(200*time.Millisecond, done)
	<-done
	<-done
	m.Stop()
	used := Process() - before
	cores := m.PerWall()
	if cores <= 0.5 || cores > float64(runtime.NumCPU())+0.5 {
		t.Errorf("two spinning goroutines read %.2f cores (%d CPUs)", cores, runtime.NumCPU())
	}
	if used < 150*time.Millisecond {
		t.Errorf("200 ms of spinning on two goroutines used %v of CPU", used)
	}
}
