// Package cputime reads the CPU time (user and system) this process has
// used, which benchmarks report beside wall time: on a shared machine the
// wall time also measures the other processes, and on many cores the
// ratio of the two says how many the work kept busy.
package cputime

import "time"

// Process is the CPU time this process has used so far, 0 where the
// system does not say.
func Process() time.Duration { return process() }

// Meter adds up the CPU and wall time of the spans from Start to Stop.
type Meter struct {
	cpu, wall, cpu0 time.Duration
	t0              time.Time
}

// Start begins a span.
func (m *Meter) Start() { m.cpu0, m.t0 = Process(), time.Now() }

// Stop ends the span Start began.
func (m *Meter) Stop() { m.cpu, m.wall = m.cpu+Process()-m.cpu0, m.wall+time.Since(m.t0) }

// PerWall is the spans' CPU time over their wall time: the cores they
// kept busy (0 before any span).
func (m *Meter) PerWall() float64 {
	if m.wall <= 0 {
		return 0
	}
	return m.cpu.Seconds() / m.wall.Seconds()
}
