package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// spinner shows that a long statement is still running. It draws on stderr
// only when stderr is a terminal, and only after the statement has run for
// progressDelay, so quick statements and pipes never see it.
type spinner struct {
	once sync.Once
	quit chan struct{}
	done chan struct{}
}

var spinFrames = []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

func (s *Shell) startSpinner() *spinner {
	sp := &spinner{quit: make(chan struct{}), done: make(chan struct{})}
	if !s.progress {
		close(sp.done)
		return sp
	}
	go sp.run(s.stderr, s.progressDelay)
	return sp
}

func (sp *spinner) run(w io.Writer, delay time.Duration) {
	defer close(sp.done)
	t0 := time.Now()
	select {
	case <-sp.quit:
		return
	case <-time.After(delay):
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		fmt.Fprintf(w, "\r%c running %.1fs (Ctrl-C interrupts)\x1b[K", spinFrames[i%len(spinFrames)], time.Since(t0).Seconds())
		select {
		case <-sp.quit:
			fmt.Fprint(w, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}

// stop removes the spinner (if it was drawn) before anything else is
// written; it is safe to call more than once.
func (sp *spinner) stop() {
	sp.once.Do(func() { close(sp.quit) })
	<-sp.done
}
