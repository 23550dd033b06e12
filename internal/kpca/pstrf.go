package kpca

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/ksql/ksql/internal/dense"
	"github.com/ksql/ksql/internal/par"
)

// pstrfBlock is the panel height nb: each trailing update reads and writes
// the trailing triangle once, so a taller panel means less memory traffic,
// while the panel's own left-looking work (nb/2 row updates per column)
// grows with it. A variable so that tests can try others.
var pstrfBlock = 128

// pstrfCols is the column chunk of a panel row's update, and pstrfRows the
// row chunk of the deferred exchanges, shared among workers.
const pstrfCols, pstrfRows = 512, 64

// pstrfStretch is the chunk of a long exchange's strided stretch
// (swapStretch) that a worker takes.
const pstrfStretch = 256

// pstrf is LAPACK's blocked pivoted Cholesky (Dpstrf, upper case) on the
// upper triangle of a, PᵀAP = UᵀU with tolerance tol ≥ 0, returning the
// rank and piv (0-based). Each panel of nb rows is factored left-looking
// with pivoting, as Dpstrf does; the trailing update A −= PᵀP, nearly all
// of the n³/3 flops, is dense.SyrkSub's 4×8 tile kernel on every core.
// Pivots are Dpstrf's and values agree with it to rounding; every value is
// the same sums in the same order whatever the number of workers. poll is
// called before every column of a panel, every group of rows of the
// trailing update and of the deferred exchanges: a kernel map of 30,000
// objects factors for minutes, and an interrupted statement must stop
// within milliseconds.
func pstrf(a []float64, n, lda int, piv []int, tol float64, poll func() error) (int, error) {
	if n == 0 {
		return 0, nil
	}
	for i := range piv {
		piv[i] = i
	}
	ajj := a[0]
	for i := 1; i < n; i++ {
		if aii := a[i*lda+i]; aii > ajj { // not max: LAPACK's NaN handling
			ajj = aii
		}
	}
	if ajj <= 0 || math.IsNaN(ajj) {
		return 0, nil
	}
	nb := max(1, pstrfBlock)
	f := &pstrfState{a: a, n: n, lda: lda, piv: piv, tol: tol, poll: poll,
		dots: make([]float64, n), work: make([]float64, n), diag: make([]float64, n), swap: make([]int, n),
		team: par.NewTeam("kpca: pivoted Cholesky", par.Workers(0, n))}
	w := dense.CholWork{Team: f.team} // the trailing updates on the panels' team too
	for k := 0; k < n; k += nb {
		jb := min(nb, n-k)
		r, done, err := f.panel(k, jb)
		if err != nil {
			return 0, err
		}
		if done {
			return r, f.exchangeRows(r, nb)
		}
		if j := k + jb; j < n {
			if err := w.SyrkSub(a[k*lda+j:], jb, n-j, lda, a[j*lda+j:], lda, poll); err != nil {
				return 0, err
			}
		}
	}
	return n, f.exchangeRows(n, nb)
}

// pstrfState is one factorisation: the matrix, the pivots, and scratch
// space. diag holds the trailing diagonal contiguously (read once a panel
// rather than once a column: n² strided loads otherwise). swap[j] is the
// object column j was exchanged with: rows of earlier panels, which
// nothing reads again, get their column exchanges at the end, a row at a
// time, instead of one strided pass over them for every pivot.
type pstrfState struct {
	a                []float64
	n, lda           int
	piv, swap        []int
	tol              float64
	poll             func() error
	dots, work, diag []float64
	best             []pivot // panelRow's chunks' pivot candidates
	// team shares a column's row update and exchange: a job every few
	// tens of microseconds, too short for goroutines started per job
	// (par.For), which left a panel to one core.
	team *par.Team
}

// panel factors columns k..k+jb−1 with pivoting (Dpstrf's inner loop);
// done reports that the remaining diagonal fell to tol at column r. poll
// is called before each column (O(jb·n) work). Each column's row update
// also updates the remaining diagonal (dots, work) and finds the next
// pivot's candidates, chunk by chunk on the team (panelRow), so that the
// column's serial work is the exchange alone.
func (f *pstrfState) panel(k, jb int) (r int, done bool, err error) {
	a, n, lda := f.a, f.n, f.lda
	dots, work, diag := f.dots, f.work, f.diag
	next := pivot{at: -1}
	for i := k; i < n; i++ {
		dots[i], diag[i] = 0, a[i*lda+i]
		work[i] = diag[i]
		next = next.or(i, work[i])
	}
	for j := k; j < k+jb; j++ {
		if err := f.poll(); err != nil {
			return 0, false, err
		}
		pvt, ajj := next.at, next.val // the first of the largest work[j:], Dpstrf's choice
		if j > 0 && (ajj <= f.tol || math.IsNaN(ajj)) {
			a[j*lda+j] = ajj
			return j, true, nil
		}
		f.swap[j] = pvt
		if j != pvt {
			if err := f.exchange(k, j, pvt); err != nil {
				return 0, false, err
			}
		}
		ajj = math.Sqrt(ajj)
		a[j*lda+j] = ajj
		if j < n-1 {
			if next, err = f.panelRow(k, j, ajj); err != nil {
				return 0, false, err
			}
		}
	}
	return 0, false, nil
}

// pivot is a pivot candidate: the first entry of largest work in a range
// scanned in order (not max: LAPACK's NaN handling, a NaN first stays).
type pivot struct {
	at  int
	val float64
}

// or is p after looking at entry i of work w, later in the range.
func (p pivot) or(i int, w float64) pivot {
	if p.at < 0 || w > p.val {
		return pivot{i, w}
	}
	return p
}

// exchange swaps objects j < p (Dpstrf's swaps) in the upper triangle
// from row k on: column entries of the panel's rows above j, the
// diagonals, the rows past p, and the stretch between them, which is row
// j against column p. Rows above k wait for exchangeRows.
func (f *pstrfState) exchange(k, j, p int) error {
	a, n, lda := f.a, f.n, f.lda
	bi := blas64.Implementation()
	a[p*lda+p], f.diag[p] = a[j*lda+j], f.diag[j]
	bi.Dswap(j-k, a[k*lda+j:], lda, a[k*lda+p:], lda)
	if p < n-1 {
		bi.Dswap(n-p-1, a[j*lda+(p+1):], 1, a[p*lda+(p+1):], 1)
	}
	f.dots[j], f.dots[p] = f.dots[p], f.dots[j]
	f.piv[j], f.piv[p] = f.piv[p], f.piv[j]
	return f.swapStretch(j, p)
}

// swapStretch swaps row j's entries j+1..p−1 with column p's: a stride
// of a row between loads of the column, a cache miss each, which past a
// few thousand rows is shared among workers (the swaps are independent).
func (f *pstrfState) swapStretch(j, p int) error {
	a, lda := f.a, f.lda
	bi := blas64.Implementation()
	d := p - j - 1
	if d < 2*pstrfStretch {
		bi.Dswap(d, a[j*lda+(j+1):], 1, a[(j+1)*lda+p:], lda)
		return nil
	}
	return f.team.Do((d+pstrfStretch-1)/pstrfStretch, func(c int) {
		i0 := j + 1 + c*pstrfStretch
		cnt := min(pstrfStretch, p-i0)
		bi.Dswap(cnt, a[j*lda+i0:], 1, a[i0*lda+p:], lda)
	})
}

// exchangeRows makes the column exchanges of columns past each row's
// panel, up to column r, that exchange left out: row by row, in chunks
// shared among workers.
func (f *pstrfState) exchangeRows(r, nb int) error {
	a, lda, swap := f.a, f.lda, f.swap
	return par.For("kpca: pivoted Cholesky", (r+pstrfRows-1)/pstrfRows, 0, 1, func(_, c int) error {
		if err := f.poll(); err != nil {
			return err
		}
		for i := c * pstrfRows; i < min(r, (c+1)*pstrfRows); i++ {
			row := a[i*lda:]
			for j := (i/nb + 1) * nb; j < r; j++ {
				if p := swap[j]; p != j {
					row[j], row[p] = row[p], row[j]
				}
			}
		}
		return nil
	})
}

// panelRow finishes row j of U from column j+1 on: it subtracts the
// panel's rows k..j−1 above it (Dgemv) and divides by the pivot ajj, then
// takes the row from the remaining diagonal (dots, work) and returns the
// next column's pivot candidate, in column chunks shared by the team when
// the row is long. Each entry's operations do not depend on the chunks,
// let alone on the workers, and the chunks' candidates are taken in order.
func (f *pstrfState) panelRow(k, j int, ajj float64) (pivot, error) {
	a, n, lda := f.a, f.n, f.lda
	dots, work, diag := f.dots, f.work, f.diag
	bi := blas64.Implementation()
	lo, cols := j+1, n-j-1
	chunk := func(c0, c1 int) pivot {
		bi.Dgemv(blas.Trans, j-k, c1-c0, -1, a[k*lda+c0:], lda, a[k*lda+j:], lda, 1, a[j*lda+c0:], 1)
		bi.Dscal(c1-c0, 1/ajj, a[j*lda+c0:], 1)
		p := pivot{at: -1}
		for i, t := range a[j*lda+c0 : j*lda+c1] {
			i += c0
			dots[i] += t * t
			work[i] = diag[i] - dots[i]
			if p.at < 0 && i > lo && math.IsNaN(work[i]) {
				continue // only the range's first entry is a NaN pivot: later chunks skip theirs
			}
			p = p.or(i, work[i])
		}
		return p
	}
	if (j-k+1)*cols < 1<<15 {
		return chunk(lo, n), nil
	}
	chunks := (cols + pstrfCols - 1) / pstrfCols
	if cap(f.best) < chunks {
		f.best = make([]pivot, chunks)
	}
	best := f.best[:chunks]
	err := f.team.Do(chunks, func(c int) {
		c0 := lo + c*pstrfCols
		best[c] = chunk(c0, min(n, c0+pstrfCols))
	})
	p := best[0]
	for _, b := range best[1:] {
		if b.at >= 0 { // a chunk of NaNs has no candidate
			p = p.or(b.at, b.val)
		}
	}
	return p, err
}
