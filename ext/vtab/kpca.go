package vtab

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
	"gonum.org/v1/gonum/mat"
)

// kpcaModule is kpca(id, pc1..pck, input HIDDEN): kernel PCA of a source,
// refitted when the source changes.
type kpcaModule struct{}

// maxComponents bounds components=: each is a column of the table.
const maxComponents = 1000

// defaultLandmarks is m for method=nystrom without landmarks=.
const defaultLandmarks = 500

type kpcaTable struct {
	hc        *host.Conn
	name      ident // the virtual table's own schema and name
	src       *source
	k         int
	nystrom   bool
	landmarks int
	seed      uint64

	fits fitCache[*kpcaFit]
}

// kpcaFit is a model and the objects a new object is compared with: all
// objects (exact) or the landmarks (Nyström).
type kpcaFit struct {
	model *kpca.Model
	basis []kernels.Object
}

func (kpcaModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openKPCA(c, args, true)
}

func (kpcaModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openKPCA(c, args, false)
}

var kpcaKeys = append([]string{"components", "method", "landmarks", "seed"}, sourceKeys...)

func openKPCA(c *host.Conn, args []string, create bool) (tab host.Table, err error) {
	defer guard("kpca", &err)
	t, err := newKPCA(c, args)
	if err != nil {
		return nil, prefix("kpca", err)
	}
	if create {
		if err := t.src.validate(c); err != nil {
			return nil, prefix("kpca", err)
		}
	}
	registryOf(c).add(t)
	return t, nil
}

func newKPCA(c *host.Conn, args []string) (*kpcaTable, error) {
	opts, err := parseOptions(args[3:], kpcaKeys)
	if err != nil {
		return nil, err
	}
	t := &kpcaTable{hc: c, name: ident{schema: args[1], name: args[2]}}
	if t.src, err = newSource("kpca", opts); err != nil {
		return nil, err
	}
	if _, ok := opts["components"]; !ok {
		return nil, fmt.Errorf("missing argument components= (the number of principal components, such as components=2)")
	}
	k, err := opts.integer("components", 0, -1<<31, 1<<31)
	if err != nil {
		return nil, err
	}
	if k < 1 || k > maxComponents {
		return nil, fmt.Errorf("components=%d: allowed 1 to %d", k, maxComponents)
	}
	t.k = int(k)
	method, _, err := opts.text("method")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(method) {
	case "", "exact":
	case "nystrom", "nyström":
		t.nystrom = true
	default:
		return nil, fmt.Errorf("method=%s: allowed exact (default) or nystrom", method)
	}
	if !t.nystrom {
		for _, key := range []string{"landmarks", "seed"} {
			if _, ok := opts[key]; ok {
				return nil, fmt.Errorf("%s= applies to method=nystrom only", key)
			}
		}
	}
	m, err := opts.integer("landmarks", defaultLandmarks, 1, 1<<24)
	if err != nil {
		return nil, err
	}
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	t.landmarks, t.seed = int(m), uint64(seed)
	return t, nil
}

func (t *kpcaTable) Schema() string {
	var b strings.Builder
	b.WriteString("CREATE TABLE x(id")
	for j := 1; j <= t.k; j++ {
		b.WriteString(", pc" + strconv.Itoa(j) + " REAL")
	}
	b.WriteString(", input HIDDEN)")
	return b.String()
}

func (t *kpcaTable) inputCol() int { return t.k + 1 }

// BestIndex uses input = ? (one new object) and id = ? (one stored row).
func (t *kpcaTable) BestIndex(info *host.IndexInfo) error {
	return modelBestIndex(info, t.inputCol())
}

// modelBestIndex is the plan of kpca and kernel_map: input = ? projects a
// new object, id = ? picks one stored row; either is one row of output.
func modelBestIndex(info *host.IndexInfo, inputCol int) error {
	in := firstEQ(info, inputCol)
	id := firstEQ(info, 0)
	recordPlan(info)
	if in || id {
		info.EstimatedCost, info.EstimatedRows = 10, 1
	} else {
		info.EstimatedCost, info.EstimatedRows = 1e4, 1e4
	}
	return nil
}

func (t *kpcaTable) Open() (host.Cursor, error) { return &kpcaCursor{t: t}, nil }

func (t *kpcaTable) Disconnect() error {
	registryOf(t.hc).remove(t)
	return nil
}

func (t *kpcaTable) Destroy() error { return t.Disconnect() }

// current reads the source and returns the fit for its content, fitting
// only when the content changed since the last fit.
func (t *kpcaTable) current() (*snapshot, *kpcaFit, error) {
	return t.fits.current(t.name.name, t.hc, t.src, t.fitSnapshot)
}

func (t *kpcaTable) fitSnapshot(snap *snapshot) (*kpcaFit, error) {
	n := len(snap.objs)
	if n == 0 {
		return nil, errEmpty(snap)
	}
	if t.nystrom {
		return t.fitNystrom(snap)
	}
	if need, max := kpca.ExactBytes(n), maxGramBytes(t.hc); need > max {
		return nil, fmt.Errorf("the exact method on %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
			"raise it with SELECT ksql_config('max_gram_bytes', N), or use method=nystrom (with landmarks=m) for an approximation in O(n·m) memory",
			n, n, n, sizeText(need), max)
	}
	K, err := gramMatrix(t.hc, t.src.spec, snap)
	if err != nil {
		return nil, err
	}
	model, err := kpca.Fit(K, kpca.Options{Components: t.k, Interrupt: t.hc.Err})
	if err != nil {
		return nil, fitError(err)
	}
	return &kpcaFit{model: model, basis: snap.objs}, nil
}

// gramMatrix computes the Gram matrix of the snapshot's objects (upper
// triangle, as the kpca package reads it), in storage from kpca.NewGram,
// which the fit recycles.
func gramMatrix(hc *host.Conn, spec *kernels.Spec, snap *snapshot) (*mat.SymDense, error) {
	n := len(snap.objs)
	K := kpca.NewGram(n)
	data := K.RawSymmetric().Data
	if err := spec.Gram(snap.objs, data, gramOptions(hc)); err != nil {
		return nil, pairError(snap, err)
	}
	for i := 0; i < n; i++ {
		for j, v := range data[i*n+i : (i+1)*n] {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, pairError(snap, &kernels.PairError{Row: i, Col: i + j, Err: nonFinite(v)})
			}
		}
	}
	return K, nil
}

// nonFinite explains a kernel value that a fit cannot use.
func nonFinite(v float64) error {
	return fmt.Errorf("the kernel value is %v; a fit needs finite values (raw string kernels overflow on long texts: use normalize(...) or gauss(sigma=..., over=...))", v)
}

func (t *kpcaTable) fitNystrom(snap *snapshot) (*kpcaFit, error) {
	n := len(snap.objs)
	landmarks, err := kpca.SampleLandmarks(n, t.landmarks, t.seed)
	if err != nil {
		return nil, fitError(err)
	}
	m := len(landmarks)
	if need, max := kpca.NystromBytes(n, m, t.k), maxGramBytes(t.hc); need > max {
		return nil, fmt.Errorf("method=nystrom with %d landmarks on %d objects needs %s, more than max_gram_bytes = %d; "+
			"lower landmarks= or raise the setting with SELECT ksql_config('max_gram_bytes', N)", m, n, sizeText(need), max)
	}
	basis := make([]kernels.Object, m)
	for l, i := range landmarks {
		basis[l] = snap.objs[i]
	}
	opt := gramOptions(t.hc)
	workers := runtime.GOMAXPROCS(0)
	wss := make([]kernels.Workspace, workers)
	for w := range wss {
		wss[w] = kernels.Workspace{MaxCells: opt.MaxCells, Check: t.hc.Err}
	}
	objs, marks := t.src.spec.Prepare(snap.objs), t.src.spec.Prepare(basis)
	row := func(w, i int, dst []float64) error {
		for l := range dst {
			v, err := objs.Eval(i, marks, l, &wss[w])
			if err == nil && (math.IsInf(v, 0) || math.IsNaN(v)) {
				err = nonFinite(v)
			}
			if err != nil {
				return pairError(snap, &kernels.PairError{Row: i, Col: landmarks[l], Err: err})
			}
			dst[l] = v
		}
		return nil
	}
	model, err := kpca.FitNystrom(n, landmarks, row, kpca.Options{Components: t.k, Interrupt: t.hc.Err, Workers: workers})
	if err != nil {
		return nil, fitError(err)
	}
	return &kpcaFit{model: model, basis: basis}, nil
}

// errEmpty explains a source with nothing to fit.
func errEmpty(snap *snapshot) error {
	if len(snap.ids) == 0 {
		return errors.New("the source has no rows; there is nothing to fit")
	}
	return fmt.Errorf("all %d rows of the source have a NULL object; there is nothing to fit", len(snap.ids))
}

// fitFailure is an error of the fit itself, a property of the data alone,
// so it is cached with the snapshot like a model. Other errors are not:
// after an interrupt, or a bound the user may raise (max_gram_bytes, the
// string kernels' table limit), the next query tries again.
type fitFailure struct{ error }

func (f fitFailure) Unwrap() error { return f.error }

// cacheable reports whether err may be cached with its snapshot.
func cacheable(err error) bool {
	var f fitFailure
	return errors.As(err, &f)
}

// fitError keeps interrupts recognisable and passes the kpca package's
// messages on, which already say what was wrong and what is allowed.
func fitError(err error) error {
	if errors.Is(err, host.ErrInterrupted) {
		return host.ErrInterrupted
	}
	if errors.Is(err, kpca.ErrNoObjects) {
		return errors.New("the source has no rows; there is nothing to fit")
	}
	return fitFailure{err}
}

// project computes the model's kernel values of a new object against its
// basis objects.
func project(hc *host.Conn, spec *kernels.Spec, basis []kernels.Object, z kernels.Object) ([]float64, error) {
	kz := make([]float64, len(basis))
	if err := spec.Cross(basis, []kernels.Object{z}, kz, gramOptions(hc)); err != nil {
		if pe, ok := asPair(err); ok {
			return nil, fmt.Errorf("input: %w", pe.Err)
		}
		return nil, err
	}
	return kz, nil
}

// modelCursor is the scan shared by kpca and kernel_map: the stored rows
// in id order (or one of them), or one row for a new object given as
// input. values fills the current row's output columns.
type modelCursor struct {
	snap   *snapshot
	rows   []int // snapshot rows to output; nil with an input
	input  any   // the new object as given (a copy), when there is one
	pos    int
	single bool // one output row for the input
}

// start decodes the plan's constraints into the rows to walk. It returns
// the input object when input = ? was given (and not NULL).
func (c *modelCursor) start(snap *snapshot, src *source, idxStr string, vals []any, inputCol int) (*kernels.Object, error) {
	c.snap, c.rows, c.input, c.pos, c.single = snap, nil, nil, 0, false
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return nil, err
	}
	if in, ok := cons[inputCol]; ok {
		if _, hasID := cons[0]; hasID || in == nil {
			return nil, nil // a new object has a NULL id; NULL input gives no row
		}
		z, copied, err := src.input(in)
		if err != nil {
			return nil, err
		}
		c.input, c.single = copied, true
		return &z, nil
	}
	if idv, ok := cons[0]; ok {
		if r, found := snap.row(idv); found {
			c.rows = []int{r}
		} else {
			c.rows = []int{}
		}
		return nil, nil
	}
	c.rows = make([]int, len(snap.ids))
	for r := range c.rows {
		c.rows[r] = r
	}
	return nil, nil
}

func (c *modelCursor) Next() error { c.pos++; return nil }

func (c *modelCursor) EOF() bool {
	if c.single {
		return c.pos > 0
	}
	return c.pos >= len(c.rows)
}

// object returns the current row's object index (−1 for a NULL object or
// the input row) and its id.
func (c *modelCursor) object() (int, any) {
	if c.single {
		return -1, nil
	}
	r := c.rows[c.pos]
	return c.snap.obj[r], c.snap.ids[r]
}

func (c *modelCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *modelCursor) Close() error          { return nil }

type kpcaCursor struct {
	modelCursor
	t       *kpcaTable
	fit     *kpcaFit
	proj    []float64
	projPos int // the row proj holds, −1 for none
}

func (c *kpcaCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("kpca", &err)
	return prefix("kpca", c.filter(idxStr, vals))
}

func (c *kpcaCursor) filter(idxStr string, vals []any) error {
	snap, fit, err := c.t.current()
	if err != nil {
		return err
	}
	c.fit, c.projPos = fit, -1
	c.proj = make([]float64, c.t.k)
	z, err := c.start(snap, c.t.src, idxStr, vals, c.t.inputCol())
	if err != nil || z == nil {
		return err
	}
	kz, err := project(c.t.hc, c.t.src.spec, fit.basis, *z)
	if err != nil {
		return err
	}
	if _, err := fit.model.Project(kz, c.proj); err != nil {
		return fmt.Errorf("input: %v", err)
	}
	c.projPos = 0
	return nil
}

func (c *kpcaCursor) Column(col int) (any, error) {
	if col == c.t.inputCol() {
		return c.input, nil
	}
	o, id := c.object()
	if col == 0 {
		return id, nil
	}
	if !c.single {
		if o < 0 {
			return nil, nil
		}
		if c.projPos != c.pos {
			c.fit.model.Projection(o, c.proj)
			c.projPos = c.pos
		}
	}
	return c.proj[col-1], nil
}
