// Package nystrom holds what the streamed Nyström fits (kernel PCA and
// kernel ridge regression on m landmarks) share: the sums over the n×m
// kernel values C = K[:, L] that they need, accumulated block by block so
// that C is never held whole.
//
// A block's sums are computed on its own (Block, on any worker) and added
// to the total in the order the blocks were read (Add): the total is then
// the same sum in the same order whatever the number of workers, so fits
// are bit-identical on every machine of a replicated database.
package nystrom

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/dense"
)

// Sums are the sums over the rows C_i of the kernel values, shifted by a
// fixed vector s (D_i = C_i − s, so that centred products keep their
// digits: the shift is close to the column means):
//
//	G = Σ D_iᵀD_i (m×m, upper triangle; the strict lower one holds partial
//	    sums to ignore), Sum = Σ D_i, Ty = Σ y_i·C_i (when targets are
//	    given), N = the number of rows.
type Sums struct {
	M, N  int
	Shift []float64 // nil: no shift
	G     []float64
	Sum   []float64
	Ty    []float64 // nil without targets
	work  dense.CrossWork
}

// New returns zero sums for m landmarks, shifted by shift (nil: none),
// with Ty when targets is set.
func New(m int, shift []float64, targets bool) *Sums {
	s := &Sums{M: m, Shift: shift, G: make([]float64, m*m), Sum: make([]float64, m)}
	if targets {
		s.Ty = make([]float64, m)
	}
	s.work.Workers = 1 // blocks run side by side (par.Ordered)
	return s
}

// Block sets s to the sums of one block of rows×m kernel values (C is
// shifted in place) with targets y (nil without), on one goroutine.
// A non-finite kernel value is a *NonFiniteError with its row in the block.
func (s *Sums) Block(C []float64, rows int, y []float64, poll func() error) error {
	m := s.M
	s.N = rows
	clear(s.G)
	clear(s.Sum)
	if s.Ty != nil {
		clear(s.Ty)
	}
	for i := range rows {
		row := C[i*m : (i+1)*m]
		for l, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NonFiniteError{Row: i, Landmark: l, Value: v}
			}
		}
		if s.Ty != nil {
			floats.AddScaled(s.Ty, y[i], row)
		}
		if s.Shift != nil {
			floats.Sub(row, s.Shift)
		}
		floats.Add(s.Sum, row)
	}
	return s.work.Product(C, rows, m, s.G, poll)
}

// Add adds the sums of a block to s.
func (s *Sums) Add(b *Sums) {
	s.N += b.N
	floats.Add(s.G, b.G)
	floats.Add(s.Sum, b.Sum)
	if s.Ty != nil {
		floats.Add(s.Ty, b.Ty)
	}
}

// Centred returns C_cᵀC_c (m×m, full) and C's column means from shifted
// sums: with d̄ = Sum/N, C_cᵀC_c = G − N·d̄d̄ᵀ and the means are s + d̄.
// It consumes s.G.
func (s *Sums) Centred() (G, mean []float64) {
	m, n := s.M, float64(s.N)
	G = s.G
	mirrorUpper(G, m)
	dbar := floats.ScaleTo(make([]float64, m), 1/n, s.Sum)
	for a := range m {
		for b := range m {
			G[a*m+b] -= n * dbar[a] * dbar[b]
		}
	}
	mean = dbar
	if s.Shift != nil {
		floats.Add(mean, s.Shift)
	}
	return G, mean
}

// Full returns the unshifted CᵀC (m×m, full) of sums made without a
// shift. It consumes s.G.
func (s *Sums) Full() []float64 {
	mirrorUpper(s.G, s.M)
	return s.G
}

func mirrorUpper(G []float64, m int) {
	for a := range m {
		for b := a + 1; b < m; b++ {
			G[b*m+a] = G[a*m+b]
		}
	}
}

// NonFiniteError is a kernel value that is NaN or infinite, at row Row of
// its block and landmark Landmark.
type NonFiniteError struct {
	Row, Landmark int
	Value         float64
}

func (e *NonFiniteError) Error() string { return "non-finite kernel value" }
