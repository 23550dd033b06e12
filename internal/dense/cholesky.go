package dense

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/ksql/ksql/internal/par"
)

// Blocked Cholesky, A = UᵀU on the upper triangle of a row-major matrix,
// for the exact fits (krr, kfda) that ran gonum's Dpotrf as one call: tens
// of seconds at the sizes max_gram_bytes allows, with no way to stop it.
// Here the work comes in pieces of a few milliseconds with an interrupt
// check before each: the diagonal block, column chunks of the row panel,
// groups of 32 rows of the trailing update. The trailing update A −= PᵀP
// (P the jb-row panel), which is nearly all of the n³/3 flops, runs
// through CrossProduct's 4×8 tile kernel on both cores. Every entry is the
// same sums in the same order whatever the number of workers, and agrees
// with LAPACK's to rounding.

// cholBlock is the panel height jb: each trailing update reads and writes
// the trailing triangle once, so a taller panel means less memory traffic,
// while the panel's own triangular work (jb² per column) stays small. A
// variable so that tests can try others.
var cholBlock = 128

// cholCols is the largest column chunk of the row panel's triangular
// solve (jb·cholCols values, in L2) and its unit of work between checks;
// panelCols makes it smaller where a panel is too narrow for every worker.
const cholCols = 256

// panelCols is the column chunk of a row panel w columns wide: cholCols,
// or less (a multiple of 16, at least 64) so that each of workers gets
// two. A 1,000-row factorisation's panels were four chunks or fewer, four
// cores of sixteen. Every column's values are the same whatever the chunk.
func panelCols(w, workers int) int {
	c := (w + 2*workers - 1) / (2 * workers)
	return min(cholCols, max(64, (c+15)&^15))
}

// syrkGroup is how many 4-row tile panels one task of the trailing update
// covers: each packed 8-column panel is used by all of them while it is in
// L1.
const syrkGroup = 8

// packGroup is how many 4-column panels (packGroup/2 8-column panels) of
// the trailing update's packing one task copies; even, so that both kinds
// of panel split at the same columns.
const packGroup = 32

// CholWork holds the packed panels of a factorisation; the zero value is
// ready, and it is kept between factorisations to save allocations. Team
// runs the phases of each panel (nil: Cholesky makes one, SyrkSub uses
// par.For): a factorisation of a few thousand rows is dozens of phases of
// a millisecond, each of which would otherwise start its goroutines anew.
// A CholWork is used by one goroutine at a time, and its Team by no one
// else meanwhile.
type CholWork struct {
	a, b []float64
	Team *par.Team
}

// Cholesky factors the symmetric positive definite n×n matrix whose upper
// triangle is in a (row-major, stride lda) as UᵀU, overwriting that
// triangle with U; the strict lower triangle is neither read nor written.
// It reports false when A is not positive definite to working precision
// (a pivot ≤ 0 or NaN), leaving a partly factored. poll (nil: none) is
// called before every piece of work of a few milliseconds; its error
// stops the factorisation, leaving a partly factored too.
func Cholesky(a []float64, n, lda int, poll func() error) (bool, error) {
	return new(CholWork).Cholesky(a, n, lda, poll)
}

// Cholesky is the package's Cholesky with w's panels.
func (w *CholWork) Cholesky(a []float64, n, lda int, poll func() error) (bool, error) {
	if poll == nil {
		poll = noPoll
	}
	t := w.Team
	if workers := par.Workers(0, n); t == nil && workers > 1 {
		t = par.NewTeam("dense.Cholesky", workers)
	}
	for k := 0; k < n; k += cholBlock {
		if err := poll(); err != nil {
			return false, err
		}
		jb := min(cholBlock, n-k)
		if !potf2(a[k*lda+k:], jb, lda) {
			return false, nil
		}
		j := k + jb
		if j == n {
			break
		}
		if err := panelSolve(t, a, lda, k, jb, n, poll); err != nil {
			return false, err
		}
		if err := w.syrkSub(t, a[k*lda+j:], jb, n-j, lda, a[j*lda+j:], lda, poll); err != nil {
			return false, err
		}
	}
	return true, nil
}

func noPoll() error { return nil }

// potf2 factors the jb×jb diagonal block (unblocked, right-looking).
func potf2(a []float64, jb, lda int) bool {
	for j := 0; j < jb; j++ {
		ajj := a[j*lda+j]
		if !(ajj > 0) {
			return false
		}
		ajj = math.Sqrt(ajj)
		a[j*lda+j] = ajj
		row := a[j*lda+j+1 : j*lda+jb]
		for c := range row {
			row[c] /= ajj
		}
		for r := j + 1; r < jb; r++ {
			subScaled(a[r*lda+r:r*lda+jb], a[j*lda+r], a[j*lda+r:j*lda+jb])
		}
	}
	return true
}

// panelSolve sets the row panel a[k:k+jb, k+jb:n] to U_kk⁻ᵀ times itself
// (forward substitution by rows), in column chunks shared among workers.
func panelSolve(t *par.Team, a []float64, lda, k, jb, n int, poll func() error) error {
	j := k + jb
	cols := panelCols(n-j, par.Workers(0, n-j))
	chunks := (n - j + cols - 1) / cols
	bi := blas64.Implementation()
	return t.For("dense.Cholesky", chunks, 0, func(ch int) error {
		if err := poll(); err != nil {
			return err
		}
		lo := j + ch*cols
		hi := min(n, lo+cols)
		for r := 0; r < jb; r++ {
			row := a[(k+r)*lda+lo : (k+r)*lda+hi]
			bi.Dscal(len(row), 1/a[(k+r)*lda+k+r], row, 1)
			for s := r + 1; s < jb; s++ {
				subScaled(a[(k+s)*lda+lo:(k+s)*lda+hi], a[(k+r)*lda+k+s], row)
			}
		}
		return nil
	})
}

// subScaled sets dst −= f·src (len(src) ≥ len(dst)): the panel solve's
// inner loop, by AVX2 where the machine has it, multiplying and
// subtracting unfused as the Go loop does, so the bits are the loop's.
func subScaled(dst []float64, f float64, src []float64) {
	if useAVX2 && len(dst) > 0 {
		_ = src[len(dst)-1]
		subScaledAVX2(&dst[0], &src[0], len(dst), f)
		return
	}
	for c := range dst {
		dst[c] -= f * src[c]
	}
}

// syrkSub subtracts PᵀP from the upper triangle of the m×m matrix C
// (stride ldc), P being k×m (stride ldp): the negated 4-column panels of P
// against its 8-column panels, tile by tile.
func (w *CholWork) syrkSub(t *par.Team, P []float64, k, m, ldp int, C []float64, ldc int, poll func() error) error {
	pm, qm := (m+3)/4, (m+7)/8
	if len(w.a) < pm*k*4 {
		w.a = make([]float64, pm*k*4)
	}
	if len(w.b) < qm*k*8 {
		w.b = make([]float64, qm*k*8)
	}
	// The packing is k·m copies, serial a tenth of the update on many cores.
	err := t.For("dense.Cholesky", (pm+packGroup-1)/packGroup, 0, func(g int) error {
		lo := g * packGroup * 4 // columns lo..hi−1: packGroup 4-panels, packGroup/2 8-panels
		hi := min(m, lo+packGroup*4)
		packStrided(P[lo:], k, hi-lo, ldp, 4, -1, w.a[lo*k:])
		packStrided(P[lo:], k, hi-lo, ldp, 8, 1, w.b[lo*k:])
		return nil
	})
	if err != nil {
		return err
	}
	groups := (pm + syrkGroup - 1) / syrkGroup
	return t.For("dense.Cholesky", groups, 0, func(g int) error {
		if err := poll(); err != nil {
			return err
		}
		var tile [32]float64
		p0, p1 := g*syrkGroup, min(pm, (g+1)*syrkGroup)
		for qb := p0 / 2; qb < qm; qb++ {
			bp := w.b[qb*k*8 : (qb+1)*k*8]
			for pb := p0; pb < p1 && pb/2 <= qb; pb++ {
				clear(tile[:])
				gramTile4x8(w.a[pb*k*4:(pb+1)*k*4], bp, k, &tile)
				addUpperTile(C, ldc, m, pb*4, qb*8, &tile)
			}
		}
		return nil
	})
}

// packStrided copies the k×m matrix P (stride ldp), times sign, into
// panels of w columns: panel j holds P[i][j·w+t] at j·k·w + i·w + t, zero
// past column m.
func packStrided(P []float64, k, m, ldp, w int, sign float64, dst []float64) {
	for j := 0; j*w < m; j++ {
		p := dst[j*k*w:]
		cols := min(w, m-j*w)
		for i := 0; i < k; i++ {
			row := p[i*w : i*w+w]
			src := P[i*ldp+j*w : i*ldp+j*w+cols]
			for t, v := range src {
				row[t] = sign * v
			}
			clear(row[cols:])
		}
	}
}

// addUpperTile adds the 4×8 tile at (p0, q0) to the upper triangle of C
// (q ≥ p), within its m×m bounds.
func addUpperTile(C []float64, ldc, m, p0, q0 int, tile *[32]float64) {
	if q0 >= p0+3 && q0+8 <= m { // wholly above the diagonal and inside
		for p := 0; p < 4; p++ {
			row := C[(p0+p)*ldc+q0 : (p0+p)*ldc+q0+8]
			t := tile[p*8 : p*8+8]
			row[0] += t[0]
			row[1] += t[1]
			row[2] += t[2]
			row[3] += t[3]
			row[4] += t[4]
			row[5] += t[5]
			row[6] += t[6]
			row[7] += t[7]
		}
		return
	}
	for p := 0; p < 4 && p0+p < m; p++ {
		row := C[(p0+p)*ldc:]
		for q := max(0, p0+p-q0); q < 8 && q0+q < m; q++ {
			row[q0+q] += tile[p*8+q]
		}
	}
}

// pollWork is the multiply–adds of the triangular solves between two
// interrupt checks: a few milliseconds.
const pollWork = 1 << 22

// SolveUT solves UᵀX = B for the n×c row-major B, which X overwrites; U
// is Cholesky's factor (upper triangle of u, stride ldu). poll (nil: none)
// is called every few milliseconds of work.
func SolveUT(u []float64, n, ldu int, B []float64, c int, poll func() error) error {
	if poll == nil {
		poll = noPoll
	}
	work := 0
	for k := 0; k < n; k++ {
		if work += (n - k) * c; work >= pollWork {
			if err := poll(); err != nil {
				return err
			}
			work = 0
		}
		xk := B[k*c : (k+1)*c]
		for t := range xk {
			xk[t] /= u[k*ldu+k]
		}
		row := u[k*ldu+k+1 : k*ldu+n]
		if c == 1 {
			x, rest := xk[0], B[k+1:n]
			for r, f := range row {
				rest[r] -= f * x
			}
			continue
		}
		for r, f := range row {
			dst := B[(k+1+r)*c : (k+2+r)*c]
			for t := range dst {
				dst[t] -= f * xk[t]
			}
		}
	}
	return nil
}

// SolveU solves UX = B for the n×c row-major B, which X overwrites, as
// SolveUT does.
func SolveU(u []float64, n, ldu int, B []float64, c int, poll func() error) error {
	if poll == nil {
		poll = noPoll
	}
	work := 0
	for k := n - 1; k >= 0; k-- {
		if work += (n - k) * c; work >= pollWork {
			if err := poll(); err != nil {
				return err
			}
			work = 0
		}
		xk := B[k*c : (k+1)*c]
		row := u[k*ldu+k+1 : k*ldu+n]
		if c == 1 {
			s, rest := xk[0], B[k+1:n]
			for j, f := range row {
				s -= f * rest[j]
			}
			xk[0] = s / u[k*ldu+k]
			continue
		}
		for j, f := range row {
			src := B[(k+1+j)*c : (k+2+j)*c]
			for t := range xk {
				xk[t] -= f * src[t]
			}
		}
		for t := range xk {
			xk[t] /= u[k*ldu+k]
		}
	}
	return nil
}
