package kpca

// TopEigen returns the k algebraically largest eigenvalues, descending, of
// the n×n symmetric matrix whose upper triangle is in a (row-major, given
// stride), and their unit eigenvectors as an n×k row-major matrix
// (vecs[i*k+j] is entry i of eigenvector j), signed by the rule of an exact
// fit (fixSigns). It picks the solver as an exact fit does (opt.Solver,
// Auto by default); the dense solver overwrites a, Lanczos only reads it.
// It is the eigensolver of an exact fit without the centring, for
// methods that need the leading eigenvectors of a matrix of their own
// (spectral clustering's normalised affinity).
func TopEigen(a []float64, n, stride, k int, opt Options) (vals, vecs []float64, err error) {
	if n == 0 {
		return nil, nil, ErrNoObjects
	}
	if k < 1 || k > n {
		return nil, nil, &ComponentsError{Requested: k, Objects: n, Rank: -1}
	}
	poll := opt.poll()
	var res *eigResult
	if opt.Solver.resolve(n, k) == Dense || k == n {
		res, err = denseEigen(a, n, stride, k, poll)
	} else {
		res, err = lanczos(newUpperOp(a, n, stride, opt.Workers), n, k, poll)
	}
	if err != nil {
		return nil, nil, err
	}
	fixSigns(res.vecs, n, k)
	return res.vals, res.vecs, nil
}
