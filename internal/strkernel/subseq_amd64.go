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
