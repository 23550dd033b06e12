//go:build !amd64 || purego

package strkernel

// useRowAVX2 is false where there is no assembly loop.
var useRowAVX2 = false

// runRow writes the row, see runRowGo.
func runRow(occ []int32, old, w []float64, n int) { runRowGo(occ, old, w, n) }
