package dense

// SubMatrix copies the rows × cols block of the row-major matrix K with n
// columns, as a fold's training or test block of a Gram matrix.
func SubMatrix(K []float64, n int, rows, cols []int) []float64 {
	out := make([]float64, 0, len(rows)*len(cols))
	for _, i := range rows {
		for _, j := range cols {
			out = append(out, K[i*n+j])
		}
	}
	return out
}
