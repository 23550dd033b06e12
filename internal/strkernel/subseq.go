package strkernel

import (
	"github.com/ksql/ksql/internal/xfloat"
)

// subseqAll is the all-subsequences kernel by the dynamic programme of the
// lecture notes: DP(i, j) = K(s[1:i], t[1:j]), DP(0, j) = DP(i, 0) = 1 and
//
//	DP(i, j) = DP(i−1, j) + P(j),  P(j) = Σ_{k ≤ j, t_k = s_i} DP(i−1, k−1),
//
// with the running sums P(j) built along the row. P changes only where
// t_j = s_i: between two such columns every cell gains the same P, so a row
// is done by runs between the occurrences of s_i in t, and rows whose
// symbol is not in t, which change nothing, are skipped. Each row is
// written from the previous one into a second row of cells, and the two
// change roles. While every cell has exponent 0 and a row cannot reach
// cellMax (all of a pair of 500-character texts), runRow adds rows without
// looking at exponents; anyRow does the others.
//
// A cell's value depends only on its own recurrence, and every loop does
// each cell's additions in the recurrence's order, so which loop does a row,
// and in what order it visits the cells, changes no bit: the values are
// those of the textbook loop, cell by cell (TestSubseqSameBits and
// TestAnyRowSameCells compare them with the old cell-by-cell loops).
// len(t) ≥ 1.
func subseqAll(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error) {
	n := len(t)
	in := ws.occurrences(t).in
	poll := poller{check: lim.Check}
	size := n + 1 + runBlock
	f, k := ws.floats(2*size), ws.ints(2*size)
	for j := range f {
		f[j] = 1
	}
	clear(k)
	v, w := f[:size], f[size:]
	e, ew := k[:size], k[size:]
	flat := true // every cell has exponent 0, in both rows
	for _, x := range s {
		occ := in(x)
		if occ == nil {
			continue // s_i is not in t: the row stays as it was
		}
		if err := poll.add(n); err != nil {
			return xfloat.F{}, err
		}
		if flat && runSafe(v[n], len(occ)) {
			runRow(occ, v, w, n)
		} else {
			anyRow(occ, v, e, w, ew, n)
			e, ew = ew, e
			flat = e[n] == 0 // exponents grow with j (see anyRow)
		}
		v, w = w, v
	}
	return fromCell(v[n], e[n]), nil
}

// runSafe reports whether a row with m occurrences of its symbol keeps
// every cell below cellMax, given that all cells have exponent 0 and the
// largest is the last (DP(i, j) grows with j, and so do its rounded
// values). The row adds to the last cell at most m cells, so it grows at
// most (m+1)-fold; the factor 2 covers rounding.
func runSafe(last float64, m int) bool {
	return last*float64(m+1) < cellMax/2
}

// expRow is where anyRow has got to in a row: the next occurrence, the
// first column not yet written and P(j−1) at exponent kp.
type expRow struct {
	i, j int
	p    float64
	kp   int32
}

// anyRow writes to (w, ew) the row of a symbol whose positions in t are
// occ, added to the cells (old, eo) of columns 1…n, with their exponents:
// the rows of long texts. anyFast does the runs and occurrences whose
// cells and sums share one exponent and stay below runMax; the others,
// where it stops, are done here cell by cell, by the slow path of cell.go.
//
// In a row, the exponents grow with j: the new cell j has the larger
// exponent of the old cell and of P(j), whose exponent is then that of
// the new cell (alignSum), and P(j+1) is at least P(j) (addCells). So a run
// whose first and last cells have P's exponent has it throughout. The
// values grow with j too, up to rounding, so cells up to one below runMax
// stay below cellMax.
func anyRow(occ []int32, old []float64, eo []int32, w []float64, ew []int32, n int) {
	st := expRow{j: 1}
	for {
		anyFast(occ, old, eo, w, ew, n, &st)
		old, eo, w, ew := old[:n+1], eo[:n+1], w[:n+1], ew[:n+1]
		c := n + 1 // the next occurrence's column, n+1 after the last
		if st.i < len(occ) {
			c = int(occ[st.i]) + 1
		}
		for k := st.j; k < c; k++ {
			w[k], ew[k], st.p, st.kp = alignSum(old[k], eo[k], st.p, st.kp)
		}
		if c > n {
			return
		}
		st.p, st.kp = addCells(st.p, st.kp, old[c-1], eo[c-1])
		w[c], ew[c], st.p, st.kp = alignSum(old[c], eo[c], st.p, st.kp)
		st.i, st.j = st.i+1, c+1
	}
}

// runMax bounds the new cells of a run or occurrence that anyFast does: the
// last, checked, is the largest but perhaps for rounding, well covered by
// a margin of 2^-40.
const runMax = cellMax * (1 - 0x1p-40)

// anyFastGo goes on with the row from st, a run and its occurrence at a
// time, while the old cells from the one before the run to the occurrence
// share P's exponent (the first and the last tell, the exponents growing)
// and the new cell at the occurrence, the largest, stays below runMax:
// then every new cell is old + P, and P at the occurrence c gains
// DP(i−1, c−1), as alignSum and addCells would make them. It stops before
// the first run that needs more.
func anyFastGo(occ []int32, old []float64, eo []int32, w []float64, ew []int32, n int, st *expRow) {
	size := n + 1 + runBlock
	old, eo, w, ew = old[:size], eo[:n+1], w[:size], ew[:size]
	i, j, p, kp := st.i, st.j, st.p, st.kp
	for j <= n {
		c, q, nv := n+1, p, old[n]+p // the run after the last occurrence
		if i < len(occ) {
			c = int(occ[i]) + 1
			q = p + old[c-1]
			nv = old[c] + q
		}
		if eo[j-1] != kp || eo[min(c, n)] != kp || !(nv < runMax) {
			break
		}
		// Most runs are short: four cells are written whatever the run's
		// length (the slack or later cells take the surplus), so that only
		// longer runs loop and mispredict where they end.
		o4, w4, e4 := (*[4]float64)(old[j:j+4]), (*[4]float64)(w[j:j+4]), (*[4]int32)(ew[j:j+4])
		w4[0], w4[1], w4[2], w4[3] = o4[0]+p, o4[1]+p, o4[2]+p, o4[3]+p
		e4[0], e4[1], e4[2], e4[3] = kp, kp, kp, kp
		for k := j + 4; k < c; k++ {
			w[k], ew[k] = old[k]+p, kp
		}
		if c > n {
			j = c
			break
		}
		w[c], ew[c] = nv, kp
		p, i, j = q, i+1, c+1
	}
	st.i, st.j, st.p = i, j, p
}

// runBlock is how many cells runRowAVX2 and anyFastAVX2 write at a time
// (of 4, 8 and 16, 8 was the fastest on Reuters and DNA; anyFastGo needs
// at least 4); the rows have that many cells of slack after column n.
const runBlock = 8

// runRowGo writes to w[1…n] the row of a symbol whose positions in t are
// occ, added to the cells old[1…n], all at exponent 0 and staying below
// cellMax. P changes only at occ: between two occurrences every cell gains
// the same P. Each cell's additions are those of the cell-by-cell loops, in
// the same order (P(j) = P(j−1) + DP(i−1, j−1) at an occurrence, DP(i, j)
// = DP(i−1, j) + P(j) everywhere; the textbook loop adds 0 to P
// elsewhere, which changes nothing).
func runRowGo(occ []int32, old, w []float64, n int) {
	old, w = old[:n+1], w[:n+1]
	var p float64
	j := 1 // the first column not yet written
	for _, o := range occ {
		c := int(o) + 1 // t_o is column c
		addRun(old[j:c], w[j:c], p)
		p += old[c-1]
		w[c] = old[c] + p
		j = c + 1
	}
	addRun(old[j:], w[j:], p)
}

// addRun writes w[k] = old[k] + p.
func addRun(old, w []float64, p float64) {
	w = w[:len(old)]
	for k, x := range old {
		w[k] = x + p
	}
}
