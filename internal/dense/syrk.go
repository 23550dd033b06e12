package dense

// SyrkSub subtracts PᵀP from the upper triangle of the m×m matrix C
// (row-major, stride ldc), P being k×m (stride ldp): the trailing update
// of a blocked Cholesky, pivoted or not, by the 4×8 tile kernel, in groups
// of 32 rows of C shared among workers with poll (nil: none) before each
// (a few milliseconds of work). The strict lower triangle of C is neither
// read nor written. Every entry is the same sum in the same order whatever
// the number of workers.
func (w *CholWork) SyrkSub(P []float64, k, m, ldp int, C []float64, ldc int, poll func() error) error {
	if poll == nil {
		poll = noPoll
	}
	if k == 0 || m == 0 {
		return nil
	}
	return w.syrkSub(w.Team, P, k, m, ldp, C, ldc, poll)
}
