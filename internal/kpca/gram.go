package kpca

import (
	"sync"
	"time"
	"weak"

	"gonum.org/v1/gonum/mat"
)

// NewGram returns an n×n matrix for Fit or FitMap to consume (n ≥ 0): the
// caller fills its upper triangle, RawSymmetric().Data[i·n+j] for j ≥ i
// (the stride is n), and hands it over. Its storage may be that of a matrix
// that an earlier Fit or FitMap has finished with, so entries the caller
// does not write are unspecified, not zero; the lower triangle is never
// read. Reuse spares a fit the page faults of fresh memory (the Go runtime
// returns freed memory to the operating system between fits): about 35 ms
// for n = 2,000 on the test machine, more than computing the Gram matrix.
//
// The storage of the last consumed matrix is kept for gramKeep after its
// fit, if it is at most gramKeepBytes; Fit and FitMap recycle only the
// storage of matrices that NewGram made, never a caller's own.
func NewGram(n int) *mat.SymDense {
	if n == 0 {
		return &mat.SymDense{}
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
	grams.Lock()
	grams.out = append(grams.out, weak.Make(&data[0]))
	grams.Unlock()
	return mat.NewSymDense(n, data)
}

const (
	// gramKeep is how long the storage of a consumed Gram matrix waits for
	// the next NewGram before it is left to the garbage collector.
	gramKeep = 5 * time.Second
	// gramKeepBytes bounds the storage kept: for larger matrices the page
	// faults are a smaller part of the fit than holding the memory costs.
	gramKeepBytes = 128 << 20
)

// grams holds the storage of the last consumed Gram matrix, and weak
// pointers to the matrices NewGram has handed out and not yet taken back.
var grams struct {
	sync.Mutex
	spare []float64
	timer *time.Timer
	out   []weak.Pointer[float64]
}

// recycleGram gives K's storage back to NewGram if NewGram made it. The
// caller must not touch K afterwards.
func recycleGram(K *mat.SymDense) {
	data := K.RawSymmetric().Data
	if len(data) == 0 {
		return
	}
	p := &data[0]
	found := false
	grams.Lock()
	defer grams.Unlock()
	live := grams.out[:0]
	for _, w := range grams.out {
		switch v := w.Value(); {
		case v == p && !found:
			found = true
		case v != nil:
			live = append(live, w)
		}
	}
	clear(grams.out[len(live):])
	grams.out = live
	if !found || 8*cap(data) > gramKeepBytes {
		return
	}
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
