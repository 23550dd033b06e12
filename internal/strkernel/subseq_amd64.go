//go:build amd64 && !purego

package strkernel

import "golang.org/x/sys/cpu"

// useRowAVX2 selects runRowAVX2 over runRowGo; both give the same bits
// (every cell is one addition of the same two numbers), and the tests run
// both.
var useRowAVX2 = cpu.X86.HasAVX2

// runRowAVX2 is runRowGo's loop with the runs written in blocks of
// runBlock cells, four float64 additions an instruction. old and w hold
// n+1+runBlock cells; occ holds m positions.
//
//go:noescape
func runRowAVX2(occ *int32, m int, old, w *float64, n int)

// runRow writes the row, see runRowGo.
func runRow(occ []int32, old, w []float64, n int) {
	if !useRowAVX2 {
		runRowGo(occ, old, w, n)
		return
	}
	old, w = old[:n+1+runBlock], w[:n+1+runBlock]
	if len(occ) == 0 {
		runRowAVX2(nil, 0, &old[0], &w[0], n)
		return
	}
	// The occurrences increase (see occurrences): the first and the last
	// bound the cells the loop touches.
	if occ[0] < 0 || int(occ[len(occ)-1]) >= n {
		panic("strkernel: occurrence outside t")
	}
	runRowAVX2(&occ[0], len(occ), &old[0], &w[0], n)
}

// anyFastAVX2 is anyFastGo's loop with the runs written in blocks of
// runBlock cells and exponents. old, eo, w and ew hold n+1+runBlock cells;
// occ holds m positions, st.i ≤ m.
//
//go:noescape
func anyFastAVX2(occ *int32, m int, old *float64, eo *int32, w *float64, ew *int32, n int, st *expRow)

// anyFast goes on with a row, see anyFastGo.
func anyFast(occ []int32, old []float64, eo []int32, w []float64, ew []int32, n int, st *expRow) {
	if !useRowAVX2 || len(occ) == 0 {
		anyFastGo(occ, old, eo, w, ew, n, st)
		return
	}
	size := n + 1 + runBlock
	old, eo, w, ew = old[:size], eo[:size], w[:size], ew[:size]
	if occ[0] < 0 || int(occ[len(occ)-1]) >= n || st.i > len(occ) || st.j < 1 {
		panic("strkernel: occurrence outside t")
	}
	anyFastAVX2(&occ[0], len(occ), &old[0], &eo[0], &w[0], &ew[0], n, st)
}
