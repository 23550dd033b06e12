package kpca

import (
	"sync"
	"weak"

	"gonum.org/v1/gonum/mat"
)

// NewGram returns an n×n matrix for Fit or FitMap to consume (n ≥ 0): the
// caller fills its upper triangle, RawSymmetric().Data[i·n+j] for j ≥ i
// (the stride is n), and hands it over. Its storage may be that of a matrix
// that an earlier Fit or FitMap has finished with, so entries the caller
// does not write are unspecified, not zero; the lower triangle is never
// read. Reuse spares a fit the page faults of fresh memory, which the Go
// runtime returns to the operating system between fits: about 35 ms for
// n = 2,000 on the test machine, more than computing the Gram matrix.
//
// Fit and FitMap recycle only the storage of matrices that NewGram made,
// never a caller's own.
func NewGram(n int) *mat.SymDense {
	if n == 0 {
		return &mat.SymDense{}
	}
	size := n * n
	var data []float64
	if p, _ := grams.pool.Get().(*[]float64); p != nil && cap(*p) >= size && cap(*p) <= 2*size {
		data = (*p)[:size]
	} else {
		data = make([]float64, size)
	}
	grams.Lock()
	grams.out = append(grams.out, weak.Make(&data[0]))
	grams.Unlock()
	return mat.NewSymDense(n, data)
}

// grams holds the storage of consumed Gram matrices for NewGram (a
// sync.Pool, so an idle process gives it back to the garbage collector)
// and weak pointers to the matrices NewGram has handed out and not yet
// taken back.
var grams struct {
	sync.Mutex
	pool sync.Pool
	out  []weak.Pointer[float64]
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
	grams.Unlock()
	if found {
		data = data[:cap(data)]
		grams.pool.Put(&data)
	}
}
