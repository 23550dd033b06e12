package gp

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/ksql/ksql/internal/par"
)

// invBlock is how many columns of U⁻¹ one task finds: enough for the
// row updates to run on gonum's vector kernels, few enough that the two
// workers share the n/invBlock tasks evenly.
const invBlock = 64

// pollWork is the multiply–adds between two interrupt checks: a few
// milliseconds.
const pollWork = 1 << 22

// invDiag returns diag((UᵀU)⁻¹), the squared row norms of U⁻¹, for the
// n×n upper triangular U (row-major, stride n). Column j of U⁻¹ is the
// back substitution U x = e_j, rows 0..j only, so the columns come in
// independent blocks, shared among workers; each block adds its squares
// into a row of its own and the rows are summed in block order, so the
// result has the same bits for any number of workers.
func invDiag(U []float64, n int, poll func() error) ([]float64, error) {
	if poll == nil {
		poll = func() error { return nil }
	}
	blocks := (n + invBlock - 1) / invBlock
	workers := par.Workers(0, blocks)
	bufs := make([][]float64, workers)
	part := make([]float64, blocks*n)
	// The largest blocks (the last columns) first, so that the workers
	// finish together.
	err := par.For("gp.TrainStd", blocks, workers, 1, func(w, t int) error {
		b := blocks - 1 - t
		j0, j1 := b*invBlock, min(n, (b+1)*invBlock)
		if bufs[w] == nil {
			bufs[w] = make([]float64, n*invBlock)
		}
		c := j1 - j0
		X := bufs[w][:j1*c]
		if err := backSolveUnit(U, n, j0, j1, X, poll); err != nil {
			return err
		}
		sq := part[b*n : b*n+j1]
		for i := range sq {
			s := 0.0
			for _, v := range X[i*c : (i+1)*c] {
				s += v * v
			}
			sq[i] = s
		}
		return nil
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

// backSolveUnit sets X (j1×c, c = j1 − j0, row-major) to the columns
// j0..j1−1 of U⁻¹, rows 0..j1−1: the solution of U[:j1,:j1]·X = E, E
// those columns of the identity. Row i is (e_i − U[i, i+1:j1]·X[i+1:j1])
// / U_ii, one matrix–vector product on gonum's vector kernels.
func backSolveUnit(U []float64, n, j0, j1 int, X []float64, poll func() error) error {
	c := j1 - j0
	clear(X)
	bi := blas64.Implementation()
	work := 0
	for i := j1 - 1; i >= 0; i-- {
		if work += (j1 - i) * c; work >= pollWork {
			if err := poll(); err != nil {
				return err
			}
			work = 0
		}
		row := X[i*c : (i+1)*c]
		if i >= j0 {
			row[i-j0] = 1
		}
		if k := j1 - i - 1; k > 0 {
			bi.Dgemv(blas.Trans, k, c, -1, X[(i+1)*c:], c, U[i*n+i+1:], 1, 1, row, 1)
		}
		inv := 1 / U[i*n+i]
		for t := range row {
			row[t] *= inv
		}
	}
	return nil
}
