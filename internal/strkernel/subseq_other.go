//go:build !amd64 || purego

package strkernel

// useRowAVX2 is false where there is no assembly loop.
var useRowAVX2 = false

// runRow writes the row, see runRowGo.
func runRow(occ []int32, old, w []float64, n int) { runRowGo(occ, old, w, n) }

// anyFast goes on with a row, see anyFastGo.
func anyFast(occ []int32, old []float64, eo []int32, w []float64, ew []int32, n int, st *expRow) {
	anyFastGo(occ, old, eo, w, ew, n, st)
}
