package kernels

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"github.com/ksql/ksql/internal/par"
	"github.com/ksql/ksql/internal/strkernel"
)

// GramOptions control a parallel Gram computation.
type GramOptions struct {
	// Workers bounds the goroutines used (0: runtime.GOMAXPROCS(0)).
	// Small problems run on fewer, since starting goroutines would cost
	// more than the kernel values.
	Workers int
	// Interrupt, if not nil, is polled every pollCells kernel values by
	// every worker; its first error stops the computation and is returned
	// as is. Each worker's Workspace polls it too, inside long string
	// kernels.
	Interrupt func() error
	// MaxCells bounds a string kernel's dynamic programme in each worker's
	// Workspace (0: no bound).
	MaxCells int64
	// Env is given to each worker's Workspace: what kernels such as a
	// transducer's need from outside their spec (nil: nothing).
	Env Env
}

// PairError is a kernel evaluation that failed on one pair of objects,
// identified by their indices, so that callers can name the rows.
type PairError struct {
	Row, Col int
	Err      error
}

func (e *PairError) Error() string {
	return fmt.Sprintf("objects %d and %d: %v", e.Row, e.Col, e.Err)
}

// Unwrap returns the evaluation's error.
func (e *PairError) Unwrap() error { return e.Err }

// pollCells is how many kernel values a worker computes between interrupt
// checks: a few microseconds of vector kernels, so polling is free and an
// interrupt is seen within milliseconds.
const pollCells = 256

// minParallelCells is the smallest job worth a second goroutine.
const minParallelCells = 4096

// Gram fills the upper triangle (j ≥ i) of the n×n row-major matrix dst
// (n = len(objs), len(dst) ≥ n·n) with K(objs[i], objs[j]), evaluating each
// unordered pair once, on opt.Workers goroutines with a Workspace each. The
// strict lower triangle is not written: symmetric consumers read the upper
// one, and mirroring it here would make the workers write the same cache
// lines. Values past the float64 range are ±Inf, as EvalFloat gives them.
func (s *Spec) Gram(objs []Object, dst []float64, opt GramOptions) error {
	n := len(objs)
	if len(dst) < n*n {
		return fmt.Errorf("kernels: Gram needs %d cells, dst has %d", n*n, len(dst))
	}
	// Rows are handed out longest first (row i has n−i cells), which
	// balances unequal rows across workers.
	set := s.Prepare(objs).withNorms()
	return s.parallel("kernels.Gram", n, s.cost(objs, objs, n*(n+1)/2), 1, opt, func(i int, p *poller) error {
		return p.row(set, i, set, i, n, dst[i*n:(i+1)*n])
	})
}

// Cross fills the len(a)×len(b) row-major matrix dst with K(a[i], b[j]),
// in parallel over the rows. With b a single object it is one row (or, by
// symmetry, column) of a Gram matrix: dst[i] = K(a[i], b[0]).
func (s *Spec) Cross(a, b []Object, dst []float64, opt GramOptions) error {
	n, m := len(a), len(b)
	if len(dst) < n*m {
		return fmt.Errorf("kernels: Cross needs %d cells, dst has %d", n*m, len(dst))
	}
	// Short rows are handed out several at a time, so that a one-column
	// Cross does not pay an atomic increment per kernel value.
	pa, pb := s.Prepare(a), s.Prepare(b)
	if n >= 8 && m >= 8 {
		pa, pb = pa.withNorms(), pb.withNorms()
	}
	if gaussTiled(pa, pb) {
		return s.crossTiles(pa, pb, packCols(pb), dst, opt)
	}
	return s.parallel("kernels.Cross", n, s.cost(a, b, n*m), max(1, 64/max(m, 1)), opt, func(i int, p *poller) error {
		return p.row(pa, i, pb, 0, m, dst[i*m:(i+1)*m])
	})
}

// row sets row[j] = K(a[i], b[j]) for j in [lo, hi), in runs of about
// pollCells values between interrupt checks. Runs end on multiples of
// dotBlock, so that the blocks of evalRow's matrix–vector products, and
// with them the rounding of every value, do not depend on how many cells
// a worker had computed before.
func (p *poller) row(a *Prepared, i int, b *Prepared, lo, hi int, row []float64) error {
	for lo < hi {
		end := min(hi, (lo+pollCells-p.count+dotBlock-1)/dotBlock*dotBlock)
		if err := a.evalRow(i, b, lo, end, row, p.ws); err != nil {
			return err
		}
		p.count += end - lo
		lo = end
		if p.count >= pollCells {
			p.count = 0
			if p.check != nil {
				if err := p.check(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// poller is one worker's workspace and interrupt counter.
type poller struct {
	ws    *Workspace
	check func() error
	count int
	pack  []float64 // gaussTile's rows, packed
	_     [16]byte  // a cache line of its own
}

// cost converts a count of kernel values between a and b into the units
// of minParallelCells, a vector kernel value: a string kernel value is a
// dynamic programme of about |s|·|t| cells, each a few times cheaper than
// a vector kernel value, so 40 long texts are worth every core although
// they make few values.
func (s *Spec) cost(a, b []Object, values int) int {
	if s.Domain() != StringDomain || len(a) == 0 || len(b) == 0 {
		return values
	}
	la, lb := meanLen(a), meanLen(b)
	return int(min(float64(values)*max(1, la*lb/8), math.MaxInt32))
}

// meanLen is the mean length in symbols of string objects (over the units
// the spec uses, summed), sampled on at most 64 of them.
func meanLen(objs []Object) float64 {
	step := max(1, len(objs)/64)
	total, count := 0, 0
	for i := 0; i < len(objs); i += step {
		for u := range strkernel.Unit(2) {
			total += objs[i].Seq(u).Len()
		}
		count++
	}
	return float64(total) / float64(count)
}

// parallel runs row(i) for i in [0, n) on up to opt.Workers goroutines
// (through par.For, which recovers a worker's panic as an error naming
// name), handing out chunk rows at a time so that expensive rows do not
// leave other workers idle, and returns the first error, preferring the
// interrupt's: once a statement is cancelled, a worker's evaluation error
// may only be a symptom of it.
func (s *Spec) parallel(name string, n, cells, chunk int, opt GramOptions, row func(i int, p *poller) error) error {
	if n == 0 {
		return nil
	}
	w := par.Workers(opt.Workers, n)
	w = min(w, max(1, cells/minParallelCells))
	// One allocation per worker: pollers side by side in a slice would
	// share a cache line, and every row writes its counter.
	pollers := make([]*poller, w)
	for t := range pollers {
		pollers[t] = &poller{ws: &Workspace{MaxCells: opt.MaxCells, Check: opt.Interrupt, Env: opt.Env}, check: opt.Interrupt}
	}
	err := par.For(name, n, w, chunk, func(t, i int) error { return row(i, pollers[t]) })
	if err != nil && opt.Interrupt != nil {
		if ierr := opt.Interrupt(); ierr != nil {
			return ierr
		}
	}
	return err
}

// Prepared is a list of objects ready for many kernel evaluations. When
// the spec is a single vector kernel (linear, poly, gauss or laplace) and
// the objects are vectors, Eval computes it directly: for short vectors
// the general evaluator's extended-range arithmetic and per-call checks
// cost more than the kernel. Otherwise Eval is Spec.EvalFloat.
type Prepared struct {
	spec  *Spec
	objs  []Object
	fast  bool
	kern  vecKernel
	norms []float64 // ‖x‖² of float64 vectors (NaN for others), for gauss; nil when not worth it
	// flat holds the vectors one after the other (dim values each) when
	// norms are set and all objects are float64 vectors of one dimension.
	flat []float64
	dim  int
}

// vecKernel is a spec's root vector kernel and its parameters, for the
// fast paths of the built-in vector kernels.
type vecKernel struct {
	op     vecOp
	degree int
	r      float64
	sigma  float64
}

type vecOp int

const (
	vecLinear vecOp = iota
	vecPoly
	vecGauss
	vecLaplace
)

// Prepare wraps objs (not copied; they must outlive the result).
func (s *Spec) Prepare(objs []Object) *Prepared {
	p := &Prepared{spec: s, objs: objs}
	if s.root.op != opLeaf {
		return p
	}
	switch k := s.root.ev.(type) {
	case linearKernel:
		p.kern = vecKernel{op: vecLinear}
	case *polyKernel:
		p.kern = vecKernel{op: vecPoly, degree: k.degree, r: k.r}
	case *gaussKernel:
		p.kern = vecKernel{op: vecGauss, sigma: k.sigma}
	case *laplaceKernel:
		p.kern = vecKernel{op: vecLaplace, sigma: k.sigma}
	default:
		return p
	}
	if s := p.kern.sigma; p.kern.op >= vecGauss && !(2*s*s >= sigmaLo && 2*s*s <= sigmaHi && s >= sigmaLo) {
		return p // a σ whose square leaves float64: the scaled forms
	}
	for i := range objs {
		if objs[i].isStr {
			return p // the general path reports the error
		}
	}
	p.fast = true
	return p
}

// withNorms computes the squared norms that let gauss use a SIMD dot
// product: worth it when each object meets many others. float32 BLOBs are
// widened to float64 here, once per object (exactly: every float32 is a
// float64), so that they take the same matrix–vector path as JSON vectors
// and give the same values.
func (p *Prepared) withNorms() *Prepared { return p.withNormsIn(nil, nil) }

// withNormsIn is withNorms in the given storage when it is large enough
// (a caller's scratch, reused from call to call).
func (p *Prepared) withNormsIn(norms, flat []float64) *Prepared {
	if !p.fast || p.kern.op != vecGauss || len(p.objs) == 0 {
		return p
	}
	p.norms = grow(norms, len(p.objs))
	d := p.objs[0].Vec.Len()
	same := d > 0
	for i := range p.objs {
		v := p.objs[i].Vec
		if x := v.F64; x != nil {
			p.norms[i] = floats.Dot(x, x)
		} else {
			p.norms[i] = math.NaN()
		}
		same = same && v.Len() == d && (v.F64 != nil || v.F32 != nil)
	}
	if !same {
		return p
	}
	p.flat, p.dim = grow(flat, len(p.objs)*d), d
	for i := range p.objs {
		row := p.flat[i*d : (i+1)*d]
		if v := p.objs[i].Vec; v.F64 != nil {
			copy(row, v.F64)
		} else {
			for k := range row {
				row[k] = v.At(k)
			}
			p.norms[i] = floats.Dot(row, row)
		}
	}
	return p
}

// grow returns buf[:n] when it has room, else a new slice of n.
func grow(buf []float64, n int) []float64 {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]float64, n)
}

// nearFraction is how close two points must be, as a fraction of
// ‖x‖² + ‖y‖², for gauss to compute ‖x − y‖² from the differences rather
// than as ‖x‖² + ‖y‖² − 2⟨x, y⟩. Above it the cancellation costs at most a
// factor 32 on the norm-form's rounding error (≈ 2·d·ε·(‖x‖² + ‖y‖²)), so
// the distance keeps a relative error below 1e-12 for d ≤ 128; nearer
// pairs, where cancellation would take more digits, are a small minority.
const nearFraction = 1.0 / 16

// Len returns the number of objects.
func (p *Prepared) Len() int { return len(p.objs) }

// Eval returns K(p[i], q[j]) as float64 (±Inf past its range). p and q
// must come from the same spec.
func (p *Prepared) Eval(i int, q *Prepared, j int, ws *Workspace) (float64, error) {
	a, b := p.objs[i].Vec, q.objs[j].Vec
	if !p.fast || !q.fast || a.Len() != b.Len() {
		return p.spec.EvalFloat(&p.objs[i], &q.objs[j], ws)
	}
	k := &p.kern
	if a.F32 == nil && b.F32 == nil {
		switch k.op {
		case vecLinear:
			if v := floats.Dot(a.F64, b.F64); v == v {
				return v, nil
			}
			return DotX(a, b).Float64(), nil // Inf − Inf inside: the scaled form
		case vecPoly:
			if v := floats.Dot(a.F64, b.F64); v == v {
				return PolyOf(v, k.degree, k.r), nil
			}
			return PolyX(a, b, k.degree, k.r).Float64(), nil
		case vecGauss:
			var d2 float64
			if p.norms != nil && q.norms != nil {
				s := p.norms[i] + q.norms[j]
				d2 = s - 2*floats.Dot(a.F64, b.F64)
				if !(d2 >= nearFraction*s) { // also NaN: a BLOB on either side
					d2 = sqDist4(a.F64, b.F64)
				}
			} else {
				d2 = sqDist4(a.F64, b.F64)
			}
			return GaussOf(d2, k.sigma), nil
		}
		return Laplace(a, b, k.sigma), nil
	}
	switch k.op {
	case vecLinear:
		return Dot(a, b), nil
	case vecPoly:
		return Poly(a, b, k.degree, k.r), nil
	case vecGauss:
		return Gauss(a, b, k.sigma), nil
	}
	return Laplace(a, b, k.sigma), nil
}

// evalRow sets row[j] = K(p[i], q[j]) for j in [lo, hi). Gauss on float64
// vectors with norms, the common case of a large Gram matrix, runs as one
// tight loop; everything else goes through Eval.
func (p *Prepared) evalRow(i int, q *Prepared, lo, hi int, row []float64, ws *Workspace) error {
	x := p.objs[i].Vec.F64
	if p.norms != nil && q.norms != nil && p.flat != nil && q.flat != nil && p.dim == q.dim {
		p.gaussRow(i, q, lo, hi, row, p.norms[i], 2*p.kern.sigma*p.kern.sigma)
		return nil
	}
	if p.norms == nil || q.norms == nil || x == nil {
		for j := lo; j < hi; j++ {
			v, err := p.Eval(i, q, j, ws)
			if err != nil {
				return &PairError{Row: i, Col: j, Err: err}
			}
			row[j] = v
		}
		return nil
	}
	nx, s2 := p.norms[i], 2*p.kern.sigma*p.kern.sigma
	for j := lo; j < hi; j++ {
		y := q.objs[j].Vec.F64
		if len(y) != len(x) || y == nil {
			v, err := p.Eval(i, q, j, ws)
			if err != nil {
				return &PairError{Row: i, Col: j, Err: err}
			}
			row[j] = v
			continue
		}
		s := nx + q.norms[j]
		d2 := s - 2*floats.Dot(x, y)
		if !(d2 >= nearFraction*s) {
			d2 = sqDist4(x, y)
		}
		row[j] = math.Exp(-d2 / s2)
	}
	return nil
}

// dotBlock is the number of columns of one matrix–vector product in
// gaussRow.
const dotBlock = 32

// gaussRow is evalRow for gauss when both sides are flat: the dot
// products ⟨x_i, y_j⟩ of a block of columns come from one matrix–vector
// product (gonum's assembly kernel reads x once for four columns, twice as
// fast as a dot product per pair), then the distances, then the
// exponentials in a loop without calls. Blocks are aligned to multiples of
// dotBlock (or start at lo), which poller.row keeps fixed.
func (p *Prepared) gaussRow(i int, q *Prepared, lo, hi int, row []float64, nx, s2 float64) {
	d := p.dim
	x := p.flat[i*d : (i+1)*d]
	xv := blas64.Vector{N: d, Inc: 1, Data: x}
	for b := lo; b < hi; {
		e := min(hi, (b/dotBlock+1)*dotBlock)
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: e - b, Cols: d, Stride: d, Data: q.flat[b*d : e*d]},
			xv, 0, blas64.Vector{N: e - b, Inc: 1, Data: row[b:e]})
		b = e
	}
	norms := q.norms[lo:hi]
	seg := row[lo:hi]
	for j, dot := range seg {
		s := nx + norms[j]
		d2 := s - 2*dot
		if !(d2 >= nearFraction*s) {
			d2 = sqDist4(x, q.flat[(lo+j)*d:(lo+j+1)*d])
		}
		seg[j] = d2
	}
	expRow(seg, s2)
}
