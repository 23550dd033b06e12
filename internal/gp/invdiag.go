package gp

import (
	"github.com/ksql/ksql/internal/dense"
	"github.com/ksql/ksql/internal/par"
)

// invBlock is how many columns of U⁻¹ one task finds (eight 8-column
// strips for the tile kernel); the n/invBlock tasks are shared among the
// workers.
const invBlock = 64

// pollWork is the multiply–adds between two interrupt checks: a few
// milliseconds.
const pollWork = 1 << 23

// invDiag returns diag((UᵀU)⁻¹), the squared row norms of U⁻¹, for the
// n×n upper triangular U (row-major, stride n). Column j of U⁻¹ is the
// back substitution U x = e_j, rows 0..j only, so the columns come in
// independent blocks, shared among workers; each block writes its squares
// into a row of its own and the rows are summed in block order, so the
// result has the same bits for any number of workers.
func invDiag(U []float64, n int, poll func() error) ([]float64, error) {
	if poll == nil {
		poll = func() error { return nil }
	}
	blocks := (n + invBlock - 1) / invBlock
	workers := par.Workers(0, blocks)
	work := make([]invWork, workers)
	part := make([]float64, blocks*n)
	// The largest blocks (the last columns) first, so that the workers
	// finish together.
	err := par.For("gp.TrainStd", blocks, workers, 1, func(w, t int) error {
		b := blocks - 1 - t
		j0, j1 := b*invBlock, min(n, (b+1)*invBlock)
		return work[w].block(U, n, j0, j1, part[b*n:b*n+j1], poll)
	})
	if err != nil {
		return nil, err
	}
	d := make([]float64, n)
	for b := 0; b < blocks; b++ {
		for i, v := range part[b*n : b*n+min(n, (b+1)*invBlock)] {
			d[i] += v
		}
	}
	return d, nil
}

// invWork is one worker's storage: the solved rows of a block, packed in
// 8-column strips (strip s holds row i's columns 8s..8s+7 at s·n·8 + i·8),
// a group's 4 rows of U packed for the tile kernel, and the group's rows.
type invWork struct {
	strips, a []float64
	rows      [4][invBlock]float64
}

// block finds columns j0..j1−1 of U⁻¹ (rows 0..j1−1: U[:j1,:j1]·X = E, E
// those columns of the identity) and sets sq[i] to the sum of squares of
// row i. The rows are solved 4 at a time from the bottom: first the
// product with the rows already solved, on the 4×8 tile kernel, then the
// small triangle within the group.
func (w *invWork) block(U []float64, n, j0, j1 int, sq []float64, poll func() error) error {
	c := j1 - j0
	ns := (c + 7) / 8
	if len(w.strips) < ns*n*8 {
		w.strips, w.a = make([]float64, invBlock/8*n*8), make([]float64, 4*n)
	}
	work := 0
	for r1 := j1; r1 > 0; r1 -= 4 {
		r0 := max(0, r1-4)
		g, k := r1-r0, j1-r1
		if work += 4 * k * c; work >= pollWork {
			if err := poll(); err != nil {
				return err
			}
			work = 0
		}
		for p := 0; p < g; p++ {
			clear(w.rows[p][:c])
			if i := r0 + p; i >= j0 {
				w.rows[p][i-j0] = 1
			}
		}
		if k > 0 {
			w.subtractSolved(U, n, r0, r1, j1, c)
		}
		for p := g - 1; p >= 0; p-- {
			sq[r0+p] = w.solveRow(U, n, r0, r1, p, c)
		}
	}
	return nil
}

// subtractSolved subtracts U[r0:r1, r1:j1]·X[r1:j1, :] from the group's
// rows.
func (w *invWork) subtractSolved(U []float64, n, r0, r1, j1, c int) {
	k := j1 - r1
	a := w.a[:4*k]
	for p := 0; p < 4; p++ {
		if r0+p >= r1 {
			for t := 0; t < k; t++ {
				a[t*4+p] = 0
			}
			continue
		}
		for t, u := range U[(r0+p)*n+r1 : (r0+p)*n+j1] {
			a[t*4+p] = u
		}
	}
	var tile [32]float64
	for s := 0; s*8 < c; s++ {
		clear(tile[:])
		dense.Tile4x8(a, w.strips[s*n*8+r1*8:s*n*8+j1*8], k, &tile)
		for p := 0; p < r1-r0; p++ {
			row := w.rows[p][s*8 : min(c, s*8+8)]
			for q := range row {
				row[q] -= tile[p*8+q]
			}
		}
	}
}

// solveRow finishes row r0+p of the group (the rows below it in the group
// are solved), stores it in the strips and returns its sum of squares.
func (w *invWork) solveRow(U []float64, n, r0, r1, p, c int) float64 {
	i := r0 + p
	row := w.rows[p][:c]
	for pp := p + 1; pp < r1-r0; pp++ {
		f := U[i*n+r0+pp]
		for t, v := range w.rows[pp][:c] {
			row[t] -= f * v
		}
	}
	inv, s := 1/U[i*n+i], 0.0
	for t := range row {
		row[t] *= inv
		s += row[t] * row[t]
	}
	for st := 0; st*8 < c; st++ {
		dst := w.strips[st*n*8+i*8 : st*n*8+i*8+8]
		clear(dst[copy(dst, row[st*8:min(c, st*8+8)]):])
	}
	return s
}
