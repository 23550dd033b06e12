package kpca

import (
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/dense"
	"github.com/ksql/ksql/internal/par"
)

// Solver selects the eigensolver of an exact fit.
type Solver int

const (
	// Auto picks the dense solver when it is cheaper (n ≤ 200, or the
	// components are at least a third of n) and Lanczos otherwise.
	Auto Solver = iota
	// Dense is LAPACK's full symmetric eigendecomposition (gonum's Dsyev):
	// O(n³), about 16 s at n = 2,000 on a 2-core machine.
	Dense
	// Lanczos is thick-restart Lanczos with full reorthogonalisation:
	// O(n²) per iteration, a few dozen to a few hundred iterations.
	Lanczos
)

// String names the solver as it is reported in Model.Solver.
func (s Solver) String() string {
	switch s {
	case Dense:
		return "dense"
	case Lanczos:
		return "lanczos"
	}
	return "auto"
}

func (s Solver) resolve(n, k int) Solver {
	if s != Auto {
		return s
	}
	if n <= 200 || 3*k >= n {
		return Dense
	}
	return Lanczos
}

// eigResult holds the top k eigenpairs of a symmetric matrix.
type eigResult struct {
	vals    []float64 // k values, descending
	vecs    []float64 // n×k row-major: vecs[i*k+j] is entry i of eigenvector j
	minEig  float64   // the smallest eigenvalue (dense) or Ritz value (Lanczos)
	matvecs int
}

// symOp is a symmetric linear operator: mul sets dst = A·x.
type symOp interface {
	mul(dst, x []float64) error
}

// upperOp multiplies by a symmetric matrix of which only the upper
// triangle is stored (row-major, with a stride). Each stored row segment
// a[i, i:] is read once for both of its uses, y_i += a[i, i:]·x[i:] and
// y[i+1:] += x_i·a[i, i+1:], which halves the memory traffic of a full
// matrix–vector product (the matrix does not fit in cache, so traffic is
// what the product costs).
//
// The rows are split into a fixed number of tasks (interleaved blocks),
// each accumulating into its own vector; the vectors are summed in task
// order, so the result does not depend on the number of workers or their
// timing. A team runs the tasks.
type upperOp struct {
	a      []float64
	n      int
	stride int
	tasks  int
	team   *par.Team
	acc    []float64 // rows t−1 < 8: the vectors of tasks t ≥ 1 (row 7 stays zero)
}

// upperTasks is the number of tasks of a parallel product: 8, so that the
// vectors of tasks 1 to 7 and a zero row are summed by two four-row kernels.
const upperTasks = 8

// newUpperOp prepares products with a on up to workers goroutines (0:
// GOMAXPROCS).
func newUpperOp(a []float64, n, stride, workers int) *upperOp {
	workers = workerCount(workers)
	o := &upperOp{a: a, n: n, stride: stride, tasks: upperTasks}
	if n < 512 {
		workers, o.tasks = 1, 1
	}
	o.team = par.NewTeam("kpca: symmetric matrix product", min(workers, o.tasks))
	if o.tasks > 1 {
		o.acc = make([]float64, 8*n)
	}
	return o
}

func (o *upperOp) mul(dst, x []float64) error {
	if o.tasks == 1 {
		o.rows(0, dst, x)
		return nil
	}
	n := o.n
	err := o.team.Do(o.tasks, func(t int) {
		y := dst
		if t > 0 {
			y = o.acc[(t-1)*n : t*n]
		}
		o.rows(t, y, x)
	})
	if err != nil {
		return err
	}
	one := [4]float64{1, 1, 1, 1}
	axpy4(o.acc, n, &one, dst)
	axpy4(o.acc[4*n:], n, &one, dst)
	return nil
}

// rows accumulates the contribution of task t's rows into y: blocks of
// 16 rows dealt round-robin, which balances the triangle's uneven rows.
// Within a block, rows go four at a time through symv4 (one sweep of the
// four row segments serves both y_i += a[i, j]·x_j and y_j += a[i, j]·x_i);
// the 4×4 triangle on the diagonal and the last n mod 4 rows are done here.
func (o *upperOp) rows(t int, y, x []float64) {
	clear(y)
	const block = 16
	n, s := o.n, o.stride
	var xr, out [4]float64
	for lo := t * block; lo < n; lo += o.tasks * block {
		hi := min(lo+block, n)
		i := lo
		for ; i+4 <= hi; i += 4 {
			for r := 0; r < 4; r++ {
				row := o.a[(i+r)*s:]
				y[i+r] += row[i+r] * x[i+r]
				for c := r + 1; c < 4; c++ {
					y[i+r] += row[i+c] * x[i+c]
					y[i+c] += row[i+c] * x[i+r]
				}
			}
			if j := i + 4; j < n {
				xr = [4]float64{x[i], x[i+1], x[i+2], x[i+3]}
				symv4(o.a[i*s+j:], s, x[j:], y[j:], &xr, &out)
				y[i] += out[0]
				y[i+1] += out[1]
				y[i+2] += out[2]
				y[i+3] += out[3]
			}
		}
		for ; i < hi; i++ {
			seg := o.a[i*s+i : i*s+n]
			y[i] += blas64.Dot(vec(seg), vec(x[i:]))
			if i+1 < n {
				blas64.Axpy(x[i], vec(seg[1:]), vec(y[i+1:]))
			}
		}
	}
}

func vec(x []float64) blas64.Vector { return blas64.Vector{N: len(x), Inc: 1, Data: x} }

func workerCount(w int) int {
	if w > 0 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// Lanczos parameters. The residual tolerance is relative to ‖A‖; for a
// Ritz pair with residual r the eigenvalue error is at most r²/gap and the
// vector's angle error r/gap, so 1e-12 gives eigenvalues to ~1e-12 and
// eigenvectors to ~1e-10 relative unless eigenvalues nearly coincide.
//
// Convergence is checked every lanczosCheckEvery steps (and at every
// breakdown and restart): a check costs O(j²), a tenth of a product at
// n = 2,000, and checking every other step costs at most one product more.
const (
	lanczosCheckEvery = 2
	lanczosTol        = 1e-12
	lanczosBreakTol   = 1e-14
	lanczosSeed       = 0x6b706361 // "kpca": start vectors are reproducible
)

// lanczos returns the k algebraically largest eigenpairs of the n×n
// symmetric operator a, by Lanczos with full reorthogonalisation (classical
// Gram–Schmidt, twice) and thick restarts (Wu & Simon 2000): the basis grows
// to mmax vectors, then restarts from the best Ritz vectors. The projected
// matrix H = VᵀAV is kept in full, so the restarted (arrowhead) form needs
// no special case. poll is called before every product with a.
//
// When the Krylov space becomes invariant (a breakdown: the matrix has few
// distinct eigenvalues, like I − 11ᵀ/n), its Ritz pairs are exact but
// repeated eigenvalues appear once only; the missing copies live in the
// complement. The solver then probes the complement with fresh random
// vectors, and stops only when a probe's own Krylov block breaks down
// without finding anything above the k-th Ritz value.
func lanczos(a symOp, n, k int, poll func() error) (*eigResult, error) {
	l := newLanczosState(n, k)
	res := &eigResult{minEig: math.Inf(1)}
	for {
		if err := poll(); err != nil {
			return nil, err
		}
		if res.matvecs >= l.maxMatvecs {
			return nil, fmt.Errorf("the Lanczos eigensolver did not converge in %d matrix products (eigenvalues %d and %d may nearly coincide); use the dense solver", res.matvecs, k, k+1)
		}
		beta, err := l.step(a)
		if err != nil {
			return nil, err
		}
		res.matvecs++
		if l.j < k || (l.j < l.mmax && l.j < n && !l.brokeNow && l.sinceCheck < l.checkEvery) {
			continue
		}
		l.sinceCheck = 0
		// The test needs only the Ritz values and the last components of
		// the Ritz vectors (cheap); the vectors themselves are needed only
		// to finish or to restart.
		var S *mat.Dense
		theta, last, ok := l.ritz.check(l.H, l.mmax, l.j)
		if !ok {
			if theta, S, err = smallEigen(l.H, l.mmax, 0, l.j); err != nil {
				return nil, err
			}
			last = mat.Row(nil, l.j-1, S)
		}
		l.anorm = math.Max(l.anorm, math.Max(math.Abs(theta[0]), math.Abs(theta[l.j-1])))
		res.minEig = math.Min(res.minEig, theta[0])
		done := l.converged(beta, theta, last)
		if !done && l.j < l.mmax {
			continue
		}
		if S == nil {
			if theta, S, err = smallEigen(l.H, l.mmax, 0, l.j); err != nil {
				return nil, err
			}
		}
		if done {
			res.vals, res.vecs = ritzPairs(l.V, S, theta, n, l.j, k)
			return res, nil
		}
		restart(l.V, l.H, S, theta, n, l.mmax, l.keep)
		l.ritz.restarted(l.keep)
		l.j, l.blockStart, l.probing = l.keep, 0, false
	}
}

// lanczosState is the working set of lanczos.
type lanczosState struct {
	n, k, mmax, keep       int
	maxMatvecs, checkEvery int
	V                      []float64 // (mmax+1)×n: basis vectors, one per row
	H                      []float64 // mmax×mmax: H[i*mmax+j] = v_iᵀ A v_j
	h1, h2, w              []float64
	ritz                   *ritzWork
	rng                    splitMix64
	anorm                  float64 // running estimate of ‖A‖
	j, sinceCheck          int     // basis vectors multiplied; steps since the last check
	blockStart             int     // where the current Krylov block began
	probing                bool    // a breakdown happened since the last restart
	brokeNow               bool    // the last step broke down
	completedProbe         bool    // ... and the block it closed was a probe
	probeTop               float64 // the top Ritz value of that probe block
}

func newLanczosState(n, k int) *lanczosState {
	mmax := min(n, max(2*k+20, k+40))
	l := &lanczosState{
		n: n, k: k, mmax: mmax, keep: k + (mmax-k)/2,
		maxMatvecs: max(2000, 30*mmax), checkEvery: lanczosCheckEvery,
		V: make([]float64, (mmax+1)*n), H: make([]float64, mmax*mmax),
		h1: make([]float64, mmax), h2: make([]float64, mmax), w: make([]float64, n),
		ritz: newRitzWork(mmax), rng: splitMix64{lanczosSeed},
	}
	randomOrthonormal(l.V, 0, n, &l.rng)
	return l
}

// step multiplies the newest basis vector, orthogonalises the product
// against the basis (recording the coefficients in H) and appends the
// normalised remainder, or a fresh random direction after a breakdown. It
// returns the coupling β to the appended vector (0 after a breakdown).
func (l *lanczosState) step(a symOp) (float64, error) {
	n, j, w := l.n, l.j, l.w
	if err := a.mul(w, l.V[j*n:(j+1)*n]); err != nil {
		return 0, err
	}
	basisDots(l.V, j+1, w, l.h1)
	basisAxpy(l.V, j+1, -1, l.h1, w)
	basisDots(l.V, j+1, w, l.h2)
	basisAxpy(l.V, j+1, -1, l.h2, w)
	var hn float64
	for i := 0; i <= j; i++ {
		v := l.h1[i] + l.h2[i]
		l.H[i*l.mmax+j], l.H[j*l.mmax+i] = v, v
		hn += v * v
	}
	beta := blas64.Nrm2(vec(w))
	l.anorm = math.Max(l.anorm, math.Sqrt(hn+beta*beta))
	l.j++
	l.sinceCheck++
	l.brokeNow = l.j == n || beta <= lanczosBreakTol*l.anorm
	if !l.brokeNow {
		blas64.Scal(1/beta, vec(w))
		copy(l.V[l.j*n:(l.j+1)*n], w)
		return beta, nil
	}
	l.completedProbe = l.probing
	if l.probing {
		top, _, err := smallEigen(l.H, l.mmax, l.blockStart, l.j)
		if err != nil {
			return 0, err
		}
		l.probeTop = top[len(top)-1]
	}
	if l.j < n {
		l.probing, l.blockStart = true, l.j
		randomOrthonormal(l.V, l.j, n, &l.rng)
	}
	return 0, nil
}

// converged reports, from the Ritz values θ (ascending) and the last
// components of the Ritz vectors, whether the top k Ritz pairs are eigenpairs to within
// lanczosTol·‖A‖ and, after a breakdown, whether the complement has been
// probed without finding anything above the k-th Ritz value.
func (l *lanczosState) converged(beta float64, theta, last []float64) bool {
	j := l.j
	if j == l.n {
		return true
	}
	for t := 0; t < l.k; t++ {
		if beta*math.Abs(last[j-1-t]) > lanczosTol*l.anorm {
			return false
		}
	}
	if !l.probing {
		return true
	}
	return l.brokeNow && l.completedProbe && l.probeTop <= theta[j-l.k]+lanczosTol*l.anorm
}

// smallEigen diagonalises the diagonal block [lo, hi) of the projected
// matrix; eigenvalues come in ascending order.
func smallEigen(H []float64, stride, lo, hi int) ([]float64, *mat.Dense, error) {
	j := hi - lo
	h := mat.NewSymDense(j, nil)
	for r := 0; r < j; r++ {
		for c := r; c < j; c++ {
			h.SetSym(r, c, H[(lo+r)*stride+lo+c])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(h, true) {
		return nil, nil, fmt.Errorf("the eigendecomposition of the %d×%d Lanczos matrix failed", j, j)
	}
	var S mat.Dense
	es.VectorsTo(&S)
	return es.Values(nil), &S, nil
}

// ritzPairs returns the top k Ritz values (descending) and vectors.
func ritzPairs(V []float64, S *mat.Dense, theta []float64, n, j, k int) ([]float64, []float64) {
	vals := make([]float64, k)
	vecs := make([]float64, n*k)
	c, u := make([]float64, j), make([]float64, n)
	for t := 0; t < k; t++ {
		vals[t] = theta[j-1-t]
		mat.Col(c, j-1-t, S)
		clear(u)
		basisAxpy(V, j, 1, c, u)
		for i, v := range u {
			vecs[i*k+t] = v
		}
	}
	return vals, vecs
}

// restart replaces the basis by its keep best Ritz vectors followed by the
// last Lanczos vector (orthogonal to all of them), and H by the matching
// diagonal; the couplings to the last vector are recomputed by the next
// product.
func restart(V, H []float64, S *mat.Dense, theta []float64, n, mmax, keep int) {
	ritz := make([]float64, keep*n)
	c := make([]float64, mmax)
	for t := 0; t < keep; t++ {
		mat.Col(c, mmax-1-t, S)
		basisAxpy(V, mmax, 1, c, ritz[t*n:(t+1)*n])
	}
	copy(V, ritz)
	copy(V[keep*n:(keep+1)*n], V[mmax*n:(mmax+1)*n])
	clear(H)
	for t := 0; t < keep; t++ {
		H[t*mmax+t] = theta[mmax-1-t]
	}
}

// randomOrthonormal fills row j of V with a pseudo-random unit vector
// orthogonal to rows 0..j-1.
func randomOrthonormal(V []float64, j, n int, rng *splitMix64) {
	x := V[j*n : (j+1)*n]
	for attempt := 0; ; attempt++ {
		for i := range x {
			x[i] = rng.symmetric()
		}
		if j > 0 {
			basis := blas64.General{Rows: j, Cols: n, Stride: n, Data: V[:j*n]}
			h := make([]float64, j)
			for pass := 0; pass < 2; pass++ {
				blas64.Gemv(blas.NoTrans, 1, basis, vec(x), 0, vec(h))
				blas64.Gemv(blas.Trans, -1, basis, vec(h), 1, vec(x))
			}
		}
		if nrm := blas64.Nrm2(vec(x)); nrm > 1e-8 || attempt == 10 {
			blas64.Scal(1/nrm, vec(x))
			return
		}
	}
}

// denseEigen returns the top k eigenpairs of the full symmetric matrix
// stored in a (row-major, given stride; the upper triangle is read), which
// it overwrites with eigenvectors. After an interrupt, the last stage
// (LAPACK's QL/QR iteration, which cannot be stopped) may still be writing
// to a in the background (see dense.EigenSym).
func denseEigen(a []float64, n, stride, k int, poll func() error) (*eigResult, error) {
	w, err := dense.EigenSym(a, n, stride, poll)
	if err != nil {
		return nil, err
	}
	res := &eigResult{vals: make([]float64, k), vecs: make([]float64, n*k), minEig: w[0]}
	for t := 0; t < k; t++ {
		res.vals[t] = w[n-1-t]
		for i := 0; i < n; i++ {
			res.vecs[i*k+t] = a[i*stride+n-1-t]
		}
	}
	return res, nil
}

// fixSigns applies the sign rule to the columns of the n×k row-major
// matrix v: each column is negated if needed so that its entry of largest
// absolute value is positive; among entries of equal absolute value the
// lowest index decides. This is scikit-learn's svd_flip rule. It reports
// which columns it negated.
func fixSigns(v []float64, n, k int) []bool {
	flipped := make([]bool, k)
	for j := 0; j < k; j++ {
		best, arg := -1.0, 0
		for i := 0; i < n; i++ {
			if a := math.Abs(v[i*k+j]); a > best {
				best, arg = a, i
			}
		}
		if v[arg*k+j] < 0 {
			flipped[j] = true
			for i := 0; i < n; i++ {
				v[i*k+j] = -v[i*k+j]
			}
		}
	}
	return flipped
}

func noPoll() error { return nil }
