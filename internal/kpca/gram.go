package kpca

import (
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Gram is an n×n matrix of kernel values for one fit, in storage that
// fits hand on to the next: the caller fills its upper triangle,
// Upper()[i·n+j] for j ≥ i, and calls Fit or FitMap, which consume it, or
// Release when it will not fit after all (the kernel computation failed).
// The storage may be that of a matrix an earlier fit finished with, so
// entries the caller does not write are unspecified, not zero; the lower
// triangle is never read. Reuse spares a fit the page faults of fresh
// memory (the Go runtime returns freed memory to the operating system
// between fits): about 35 ms for n = 2,000 on the test machine, more than
// computing the Gram matrix. A Gram is not safe for concurrent use.
type Gram struct {
	sym *mat.SymDense // nil once consumed or released
}

// NewGram returns an n×n Gram matrix (n ≥ 0) to fill.
func NewGram(n int) *Gram {
	if n == 0 {
		return &Gram{sym: &mat.SymDense{}}
	}
	size := n * n
	var data []float64
	grams.Lock()
	if cap(grams.spare) >= size && cap(grams.spare) <= 2*size {
		data = grams.spare[:size]
	}
	grams.spare = nil // a spare of the wrong size is left to the collector
	grams.Unlock()
	if data == nil {
		data = make([]float64, size)
	}
	return &Gram{sym: mat.NewSymDense(n, data)}
}

// N returns n.
func (g *Gram) N() int { return g.sym.SymmetricDim() }

// Upper returns the n·n row-major storage whose upper triangle the caller
// fills (the stride is n).
func (g *Gram) Upper() []float64 { return g.sym.RawSymmetric().Data }

// Release gives the storage back for the next NewGram; g must not be used
// afterwards. Releasing twice is harmless.
func (g *Gram) Release() {
	if g.sym == nil {
		return
	}
	data := g.sym.RawSymmetric().Data
	g.sym = nil
	if len(data) == 0 || 8*cap(data) > gramKeepBytes {
		return
	}
	grams.Lock()
	defer grams.Unlock()
	grams.spare = data[:cap(data)]
	if grams.timer == nil {
		grams.timer = time.AfterFunc(gramKeep, func() {
			grams.Lock()
			grams.spare = nil
			grams.Unlock()
		})
	} else {
		grams.timer.Reset(gramKeep)
	}
}

// Fit is the package's Fit on g, which it consumes: its storage is
// released when the fit is done with it.
func (g *Gram) Fit(opt Options) (*Model, error) {
	K := g.take()
	return fitExact(K, opt, g.giveBack(K))
}

// FitMap is the package's FitMap on g, which it consumes like Fit.
func (g *Gram) FitMap(opt MapOptions) (*Map, error) {
	K := g.take()
	return fitMap(K, opt, g.giveBack(K))
}

func (g *Gram) take() *mat.SymDense {
	K := g.sym
	if K == nil {
		panic("kpca: Gram used after Fit, FitMap or Release")
	}
	return K
}

// giveBack returns the function a fit calls when it no longer needs K:
// reuse false means a background computation may still write to it (an
// interrupted dense factorisation), so it is left to the collector.
func (g *Gram) giveBack(K *mat.SymDense) func(reuse bool) {
	return func(reuse bool) {
		if reuse {
			g.Release()
		}
		g.sym = nil
	}
}

const (
	// gramKeep is how long the storage of a consumed Gram matrix waits for
	// the next NewGram before it is left to the garbage collector.
	gramKeep = 5 * time.Second
	// gramKeepBytes bounds the storage kept: for larger matrices the page
	// faults are a smaller part of the fit than holding the memory costs.
	gramKeepBytes = 128 << 20
)

// grams holds the storage of the last released Gram matrix.
var grams struct {
	sync.Mutex
	spare []float64
	timer *time.Timer
}
