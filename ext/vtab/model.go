package vtab

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
)

// This file is the core every model table shares (kpca, kernel_map, svm,
// krr, klms, kfda, tsne): a virtual table
//
//	name(id, <the model's columns>, input HIDDEN)
//
// fitted on a source (table=/id=/column= or query=, kernel=, plus any
// extra source columns such as label=), refitted only when the source's
// content changes, answering for the stored rows in id order (or one of
// them, WHERE id = ?) and for a new object given as name('...') through
// the hidden input column.
//
// # Adding a model table
//
// Write one file, say svm.go, with:
//
//  1. A modelKind value: the module name, the model's own argument keys,
//     the extra source columns it reads (extraColumn{key: "label"} makes
//     label=class an argument in the table= form and the third column of
//     the query= form), and configure.
//  2. configure(opts) → model: read the model's own arguments from opts
//     (options.integer, options.real, options.text; the shared ones are already parsed
//     and checked), refusing bad values with errors that say what is
//     allowed. It must not touch the database.
//  3. The model: columns() gives the output columns after id, as in
//     CREATE TABLE ("prediction", "decision REAL"); fit(f) fits it on f's
//     snapshot. Use f.objs() (the non-NULL objects, in id order), f.extra
//     ("label") (that column's value for each object), f.gram(...) for the
//     exact Gram matrix within max_gram_bytes, f.cross(...) for kernel
//     values against chosen objects, f.err for interrupts. Wrap an error
//     of the method itself (a property of the data) with fitError so that
//     it is cached with the content; return bound and interrupt errors
//     as they are, so that a retry works.
//  4. The fitted model (immutable, shared by cursors): stored(o, dst)
//     fills the columns of object o; predict(z, dst) those of a new object,
//     with z.kernels(basis) giving k(basis_i, z).
//  5. One exported host.Module, newModelModule(&kind), with an assertion
//     var _ host.Module, and one entry in ext/catalog.
//
// The core does the rest: argument parsing and the source checks, the
// schema, best-index for id = ? and input = ?, the cursor, NULL objects
// (rows listed with NULL columns), the empty-source error, the fit cache
// and ksql_config('fit_count'), error prefixes and panic recovery, and the
// per-connection registry that finds a table by name (kpca_eigen, next
// ksql_model: a lookup asks the fitted model for an interface, such as
// spectrum or reporter below).
//
// # Stored fits
//
// A fit is kept in a shadow table named after the table (stored.go),
// written on CREATE and on INSERT INTO t(t) VALUES ('refit'), read back on
// Connect and used while the arguments and the source's hash are the ones
// stored beside it. A model takes part by making its fitted value a
// fitEncoder and giving its kind a decode function.

// modelKind describes one kind of model table.
type modelKind struct {
	// name is the module name, which prefixes every error.
	name string
	// keys are the model's own arguments, beside the shared ones.
	keys []string
	// extra are source columns read beside (id, object), in this order.
	extra []extraColumn
	// extraFor, when set, picks from the arguments the extra columns a
	// table reads (a subset of extra, in order), so that an argument can
	// make one optional (svm's type=one_class reads no label); nil: all.
	extraFor func(opts options) ([]extraColumn, error)
	// configure reads the model's own arguments from opts.
	configure func(opts options) (model, error)
	// decode rebuilds a fit from its stored parts for the snapshot it was
	// fitted on; nil for a kind that stores no fit.
	decode func(m model, f *fitting, s *storedFit) (fitted, error)
}

// extraColumn is a source column beside (id, object), such as a label.
type extraColumn struct {
	key string // the argument that names it (label=class), and its name in query= results
	doc string // what it holds, for the missing-argument error
}

// model is one table's configuration: its arguments, parsed.
type model interface {
	// columns are the output columns after id, as declared in CREATE TABLE.
	columns() []string
	// fit fits the model on the snapshot in f, which has at least one
	// object.
	fit(f *fitting) (fitted, error)
}

// fitted is a model fitted on one snapshot. It is immutable and shared by
// every cursor reading that content.
type fitted interface {
	// stored fills dst (one value per column) for stored object o, an index
	// into the snapshot's objects. Rows with a NULL object never reach it:
	// their columns are NULL.
	stored(o int, dst []any)
	// predict fills dst for a new object.
	predict(z *newObject, dst []any) error
}

// spectrum is a fitted model with eigenvalues, as kpca_eigen reports them.
type spectrum interface {
	eigen() (values, ratios []float64)
}

// reporter is a fitted model that reports (name, value) pairs of what a
// user needs to judge the fit, for ksql_model.
type reporter interface {
	report() [][2]any
}

// fitEncoder is a fitted model that can be stored in the shadow table:
// its parts, each a named BLOB, are what the kind's decode
// needs, with the snapshot, to rebuild the same fit bit for bit.
type fitEncoder interface {
	encode() ([]fitPart, error)
}

// fitPart is one named piece of a stored fit.
type fitPart struct {
	name string
	data []byte
}

// newModelModule returns the host.Module of a model kind.
func newModelModule(k *modelKind) host.Module {
	searchKinds[k.name] = k // model_search finds the kind by its module's name
	return modelModule{k}
}

type modelModule struct{ kind *modelKind }

func (m modelModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return m.open(c, args, true)
}

func (m modelModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return m.open(c, args, false)
}

func (m modelModule) open(c *host.Conn, args []string, create bool) (tab host.Table, err error) {
	defer guard(m.kind.name, &err)
	t, err := m.newTable(c, args)
	if err == nil && create {
		err = t.create()
	}
	if err != nil {
		return nil, prefix(m.kind.name, err)
	}
	registryOf(c).add(t)
	return t, nil
}

// modelTable is one model table: the core's host.Table for every kind.
type modelTable struct {
	hc        *host.Conn
	kind      *modelKind
	name      ident // the virtual table's own schema and name
	src       *source
	model     model
	cols      []string
	fits      fitCache[fitted]
	saved     *storedFit // the shadow table's fit, once read (stored.go)
	savedNote string     // why saved is nil, for ksql_model
	loaded    bool       // saved has been read
	savedTok  string     // the database's state when it was (fresh.go)
	storing   bool       // the fit now running is to be stored (fitAndStore)
	args      string     // the module arguments as given, for ksql_model
	// last describes the fit in use, for ksql_model. It lives in memory
	// only: a wall-clock time stored with the fit would make the stored
	// bytes differ between the nodes of a cluster.
	last struct {
		restored bool
		seconds  float64
		at       time.Time
		note     string // why the stored fit was not used
	}
}

func (m modelModule) newTable(c *host.Conn, args []string) (*modelTable, error) {
	keys := slices.Clone(m.kind.keys)
	for _, e := range m.kind.extra {
		keys = append(keys, e.key)
	}
	opts, err := parseOptions(args[3:], append(keys, sourceKeys...))
	if err != nil {
		return nil, err
	}
	t := &modelTable{hc: c, kind: m.kind, name: ident{schema: args[1], name: args[2]}, args: strings.Join(args[3:], ", ")}
	extra := m.kind.extra
	if m.kind.extraFor != nil {
		if extra, err = m.kind.extraFor(opts); err != nil {
			return nil, err
		}
	}
	if t.src, err = newSource(m.kind.name, opts, extra...); err != nil {
		return nil, err
	}
	t.src.inSchema(args[1])
	if t.model, err = m.kind.configure(opts); err != nil {
		return nil, err
	}
	t.cols = t.model.columns()
	for _, c := range append([]string{"id", "input"}, t.cols...) {
		if name, _, _ := strings.Cut(c, " "); sameName(name, t.name.name) {
			return nil, fmt.Errorf("a table named %s would clash with its column %s (the hidden column named after the table takes INSERT INTO %s(%s) VALUES ('refit')); choose another name",
				t.name.name, name, t.name.name, t.name.name)
		}
	}
	if l, ok := t.model.(leanModel); ok && l.lean() && !t.src.scale {
		t.src.lean = true // scale=standard would need a pass for the scaling first
	}
	if b, ok := t.model.(boundedModel); ok {
		t.src.bound = func(n int) error { return b.tooMany(n, maxGramBytes(c)) }
	}
	return t, nil
}

// boundedModel is a model whose fit on n objects needs memory that grows
// with n, bounded by max_gram_bytes: tooMany is the error of a fit on n
// objects past the bound, nil within it. The source read stops keeping
// rows once it fails (200,000 rows once gave an out-of-memory crash).
type boundedModel interface {
	tooMany(n int, maxBytes int64) error
}

func (t *modelTable) Schema() string {
	return "CREATE TABLE x(id, " + strings.Join(t.cols, ", ") + ", input HIDDEN, " + quoteIdent(t.name.name) + " HIDDEN)"
}

func (t *modelTable) inputCol() int { return len(t.cols) + 1 }

// commandCol is the hidden column named after the table, which takes
// INSERT INTO t(t) VALUES ('refit'), as FTS5's does.
func (t *modelTable) commandCol() int { return len(t.cols) + 2 }

// create runs at CREATE VIRTUAL TABLE: the shadow table's name must be
// free, and the source is fitted and the fit stored. A source with rows
// that cannot be fitted fails the CREATE, which leaves nothing behind; an
// empty source creates the table with nothing stored yet.
func (t *modelTable) create() error {
	if err := t.src.validate(t.hc); err != nil {
		return err
	}
	if kind, err := t.nameTaken(t.shadow()); err != nil || kind != "" {
		if err != nil {
			return err
		}
		what := "a table"
		if kind == "index" {
			what = "an index"
		}
		return fmt.Errorf("cannot create %s: %s named %s already exists, and %s would keep its fit there; drop or rename %s, or choose another name",
			t.name.name, what, t.shadow().name, t.name.name, t.shadow().name)
	}
	if err := t.fitAndStore(true); err != nil {
		t.exec("DROP TABLE IF EXISTS " + t.shadow().sql())
		return err
	}
	return nil
}

// BestIndex uses input = ? (one new object) and id = ? (one stored row);
// either is one row of output.
func (t *modelTable) BestIndex(info *host.IndexInfo) error {
	in := firstEQ(info, t.inputCol())
	id := firstEQ(info, 0)
	recordPlan(info)
	if in || id {
		info.EstimatedCost, info.EstimatedRows = 10, 1
	} else {
		info.EstimatedCost, info.EstimatedRows = 1e4, 1e4
	}
	return nil
}

func (t *modelTable) Open() (host.Cursor, error) {
	return &modelCursor{t: t, row: make([]any, len(t.cols))}, nil
}

func (t *modelTable) Disconnect() error {
	registryOf(t.hc).remove(t)
	return nil
}

func (t *modelTable) Destroy() error {
	if err := t.dropStored(); err != nil {
		return prefix(t.kind.name, err)
	}
	return t.Disconnect()
}

// current reads the source and returns the fit for its content, fitting
// only when the content changed since the last fit.
func (t *modelTable) current() (*snapshot, fitted, error) {
	snap, fit, err := t.currentFit()
	if p, ok := fit.(piecewise); ok && err == nil && p.pieceSet().in != nil && !t.stillStored(p.pieceSet(), snap.token) {
		// a fit restored from pieces that are gone or changed (a 'refit'
		// rolled back, a write by hand): restore what is stored now
		t.fits.done, t.loaded = false, false
		snap, fit, err = t.currentFit()
	}
	if p, ok := fit.(piecewise); ok {
		p.pieceSet().justRead = false // the next statement checks them again
	}
	return snap, fit, err
}

func (t *modelTable) currentFit() (*snapshot, fitted, error) {
	return t.fits.current(t.name.name, t.hc, t.src, func(snap *snapshot) (fitted, error) {
		if snap.nobj() == 0 {
			return nil, errEmpty(snap)
		}
		f := &fitting{hc: t.hc, src: t.src, snap: snap}
		if t.storing {
			f.pieces = t
		}
		if fit := t.restore(f); fit != nil {
			t.fits.restored = true
			t.last.restored = true
			return fit, nil
		}
		start := time.Now()
		fit, err := t.model.fit(f)
		t.last.restored, t.last.seconds, t.last.at = false, time.Since(start).Seconds(), start
		return fit, err
	})
}

// fitting is what a model's fit works with: the snapshot and the
// connection's kernel computations and bounds.
type fitting struct {
	hc   *host.Conn
	src  *source
	snap *snapshot
	// shared, when set, is the snapshot's Gram matrix computed once for
	// several fits (model_search's grid points share one per kernel):
	// gram returns a copy of it from shared, the same bits it would compute.
	shared func() (*kpca.Gram, error)
	// dim is the vector length every object of a lean snapshot must
	// have, once its landmarks are read (stream.go).
	dim *vecDim
	// pieces is the table whose fit this is, while the fit is being
	// stored: outputs that grow with n go to its shadow table as they are
	// computed (outputs), not to memory.
	pieces *modelTable
}

// objs returns the non-NULL objects in id order.
func (f *fitting) objs() []kernels.Object {
	if f.snap.lean {
		panic("vtab: the objects of a lean snapshot are read by passes")
	}
	return f.snap.objs
}

// n is the number of objects.
func (f *fitting) n() int { return f.snap.nobj() }

// extra returns the values of an extra source column, one per object
// (not to be changed: where every row has an object they are the
// snapshot's own, not a copy of a million values).
func (f *fitting) extra(key string) []any {
	i := f.extraIndex(key)
	all := f.snap.extraValues(i)
	if f.snap.rows == nil && f.snap.obj == nil {
		return all
	}
	out := make([]any, f.n())
	for o := range out {
		out[o] = all[f.snap.rowOf(o)]
	}
	return out
}

// extraReals is extra as float64s, where every value of the column is a
// REAL and every row has an object (nil otherwise; not to be changed).
func (f *fitting) extraReals(key string) []float64 {
	if f.snap.rows != nil || f.snap.obj != nil {
		return nil
	}
	return f.snap.extraReals(f.extraIndex(key))
}

// extraIndex is the index of the extra source column key.
func (f *fitting) extraIndex(key string) int {
	for i, e := range f.src.extra {
		if e.key == key {
			return i
		}
	}
	panic("vtab: no source column " + key)
}

// spec is the table's kernel.
func (f *fitting) spec() *kernels.Spec { return f.src.spec }

// err is the interrupt check for long fits.
func (f *fitting) err() error { return f.hc.Err() }

// maxBytes is max_gram_bytes, the bound on any fit's large matrices.
func (f *fitting) maxBytes() int64 { return maxGramBytes(f.hc) }

// gram returns the exact Gram matrix of the objects (upper triangle), in
// recycled storage that its Fit or FitMap consumes. tooBig words the error
// when the matrix would exceed max_gram_bytes.
func (f *fitting) gram(tooBig func(n int, need, max int64) error) (*kpca.Gram, error) {
	n := len(f.snap.objs)
	if need, max := kpca.ExactBytes(n), f.maxBytes(); need > max {
		return nil, tooBig(n, need, max)
	}
	if f.shared != nil {
		return f.shared()
	}
	opt, err := gramOptions(f.hc, f.src.spec)
	if err != nil {
		return nil, err
	}
	K := kpca.NewGram(n)
	if err := f.src.spec.Gram(f.snap.objs, K.Upper(), opt); err != nil {
		K.Release()
		return nil, pairError(f.snap, err)
	}
	return K, nil
}

// cross returns the n×m kernel values of the objects against basis,
// computed in parallel; cols[l] is the object index of basis[l], to name
// rows in errors.
func (f *fitting) cross(basis []kernels.Object, cols []int) ([]float64, error) {
	opt, err := gramOptions(f.hc, f.src.spec)
	if err != nil {
		return nil, err
	}
	C := make([]float64, len(f.snap.objs)*len(basis))
	if err := f.src.spec.Cross(f.snap.objs, basis, C, opt); err != nil {
		if pe, ok := asPair(err); ok {
			return nil, f.objError(pe.Row, cols[pe.Col], pe.Err)
		}
		return nil, err
	}
	return C, nil
}

// crossBlocks is cross in blocks, for a streaming fit: block(lo, hi, dst)
// fills dst with the kernel values of objects lo..hi−1 against basis.
func (f *fitting) crossBlocks(basis []kernels.Object, cols []int) (func(lo, hi int, dst []float64) error, error) {
	opt, err := gramOptions(f.hc, f.src.spec)
	if err != nil {
		return nil, err
	}
	return func(lo, hi int, dst []float64) error {
		err := f.src.spec.Cross(f.snap.objs[lo:hi], basis, dst[:(hi-lo)*len(basis)], opt)
		if pe, ok := asPair(err); ok {
			return f.objError(lo+pe.Row, cols[pe.Col], pe.Err)
		}
		return err
	}, nil
}

// objError names the rows of a failed evaluation between objects a and b.
func (f *fitting) objError(a, b int, err error) error {
	return pairError(f.snap, &kernels.PairError{Row: a, Col: b, Err: err})
}

// fitError words the error of a fit's internal package for the module:
// interrupts stay recognisable, a non-finite kernel value
// (kpca.NonFiniteError) names its rows, and any other error is one of the
// method itself, cached with the content (fitFailure). A model words its
// own errors first (as kpcaError does) and wraps them in fitFailure.
func (f *fitting) fitError(err error) error {
	var nf *kpca.NonFiniteError
	var nd *kpca.NegativeDiagonalError
	var ff fitFailure
	switch {
	case errors.Is(err, host.ErrInterrupted):
		return host.ErrInterrupted
	case errors.Is(err, kpca.ErrNoObjects):
		return errors.New("the source has no rows; there is nothing to fit")
	case errors.As(err, &nf):
		return f.objError(nf.Row, nf.Col, fmt.Errorf("the kernel value is %v; a fit needs finite values "+
			"(raw string kernels overflow on long texts: use normalize(...) or gauss(sigma=..., over=...))", nf.Value))
	case errors.As(err, &nd) && nd.Object < f.snap.nobj():
		return fitFailure{fmt.Errorf("the kernel is not positive semi-definite on this data (k(x, x) = %.6g for row id %s), "+
			"so no feature map reproduces it", nd.Value, idText(f.snap.id(f.snap.rowOf(nd.Object))))}
	case errors.As(err, &ff):
		return err // already worded by the model
	}
	return fitFailure{err}
}

// newObject is an object given through the hidden input column.
type newObject struct {
	hc   *host.Conn
	spec *kernels.Spec
	z    kernels.Object
}

// kernels returns k(basis_i, z) for each basis object.
func (n *newObject) kernels(basis []kernels.Object) ([]float64, error) {
	opt, err := gramOptions(n.hc, n.spec)
	if err != nil {
		return nil, err
	}
	kz := make([]float64, len(basis))
	if err := n.spec.Cross(basis, []kernels.Object{n.z}, kz, opt); err != nil {
		if pe, ok := asPair(err); ok {
			return nil, fmt.Errorf("input: %w", pe.Err)
		}
		return nil, err
	}
	for _, k := range kz {
		if math.IsNaN(k) || math.IsInf(k, 0) {
			return nil, fmt.Errorf("input: a kernel value against the fitted objects is %v; a model answers only for finite values "+
				"(scale the input, or use normalize(...) or gauss(sigma=..., over=...) for string kernels)", k)
		}
	}
	return kz, nil
}

// modelCursor scans a model table: the stored rows in id order (or one of
// them), or one row for a new object given as input.
type modelCursor struct {
	t      *modelTable
	snap   *snapshot
	fit    fitted
	rows   []int // snapshot rows to output, unless all; nil with an input
	all    bool  // every row of snap, in order (no list of ten million)
	input  any   // the new object as given (a copy), when there is one
	pos    int
	single bool  // one output row for the input
	row    []any // the model's columns of the row at rowPos
	rowPos int   // −1 when row holds nothing yet
}

func (c *modelCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard(c.t.kind.name, &err)
	return prefix(c.t.kind.name, c.filter(idxStr, vals))
}

func (c *modelCursor) filter(idxStr string, vals []any) error {
	if c.snap == nil { // once per cursor, that is per statement (see source.read)
		snap, fit, err := c.t.current()
		if err != nil {
			return err
		}
		c.snap, c.fit = snap, fit
	}
	snap, fit := c.snap, c.fit
	c.rows, c.all, c.input, c.pos, c.single, c.rowPos = nil, false, nil, 0, false, -1
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	if in, ok := cons[c.t.inputCol()]; ok {
		if _, hasID := cons[0]; hasID || in == nil {
			return nil // a new object has a NULL id; NULL input gives no row
		}
		z, copied, err := c.t.src.input(in, snap) // scaled as snap's objects, with scale=
		if err != nil {
			return err
		}
		c.input, c.single = copied, true
		clear(c.row)
		if err := fit.predict(&newObject{hc: c.t.hc, spec: c.t.src.spec, z: z}, c.row); err != nil {
			return err
		}
		c.rowPos = 0
		return nil
	}
	if idv, ok := cons[0]; ok {
		c.rows = []int{}
		if r, found := snap.row(idv); found {
			c.rows = []int{r}
		}
		return nil
	}
	c.all = true
	return nil
}

// at is the snapshot row at the cursor.
func (c *modelCursor) at() int {
	if c.all {
		return c.pos
	}
	return c.rows[c.pos]
}

func (c *modelCursor) Next() error { c.pos++; return nil }

func (c *modelCursor) EOF() bool {
	if c.single {
		return c.pos > 0
	}
	if c.all {
		return c.pos >= c.snap.nrows()
	}
	return c.pos >= len(c.rows)
}

func (c *modelCursor) Column(col int) (v any, err error) {
	defer guard(c.t.kind.name, &err)
	switch {
	case col == c.t.inputCol():
		return c.input, nil
	case col == c.t.commandCol():
		return nil, nil
	case c.single && col == 0:
		return nil, nil
	case col == 0:
		return c.snap.id(c.at()), nil
	}
	if c.rowPos != c.pos {
		clear(c.row)
		if o := c.snap.objOf(c.at()); o >= 0 {
			if r, ok := c.fit.(rowReader); ok {
				if err := r.storedRow(o, c.row); err != nil {
					return nil, prefix(c.t.kind.name, err)
				}
			} else {
				c.fit.stored(o, c.row)
			}
		}
		c.rowPos = c.pos
	}
	return c.row[col-1], nil
}

// Rowid is the stored row's place in the source, the same whichever scan
// reaches it (SQLite's OR optimisation drops rows whose rowid it has
// seen); a new object's is negative, from a hash of the input as given, so
// that two different inputs are two rows and one input once.
func (c *modelCursor) Rowid() (int64, error) {
	if c.single {
		h := fnv.New64a()
		fmt.Fprintf(h, "%T\x00%v", c.input, c.input)
		return -1 - int64(h.Sum64()>>1), nil
	}
	return int64(c.at()), nil
}

func (c *modelCursor) Close() error { return nil }

// emptySource is the error of a source with nothing to fit: CREATE
// accepts it, and reads report it until the source has rows.
type emptySource struct{ error }

func (e emptySource) Unwrap() error { return e.error }

// errEmpty explains a source with nothing to fit.
func errEmpty(snap *snapshot) error {
	if snap.nrows() == 0 {
		return emptySource{errors.New("the source has no rows; there is nothing to fit")}
	}
	return emptySource{fmt.Errorf("all %d rows of the source have a NULL object; there is nothing to fit", snap.nrows())}
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

// fitCache holds the model fitted on a source's content: each query
// re-reads the source (cheap) and refits only when the content changed.
type fitCache[M any] struct {
	snap *snapshot // the content the cached fit or error is for
	fit  M
	err  error // a fit error for snap, cached like a fit (never an interrupt)
	done bool  // fit or err is valid for snap
	busy bool  // a fit is running: its source must not read this table
	// restored is set by fit when it answered from a stored fit, which
	// is not counted as a fit.
	restored bool
}

// current returns the fit for the source's current content, calling fit
// only when the content changed since the last call. name is the virtual
// table's, for the error when its own source reads it.
func (f *fitCache[M]) current(name string, hc *host.Conn, src *source, fit func(*snapshot) (M, error)) (*snapshot, M, error) {
	var zero M
	if f.busy {
		return nil, zero, fmt.Errorf("the source of %s reads %s itself", name, name)
	}
	f.busy = true
	defer func() { f.busy = false }()
	snap, m, err := f.readAndFit(hc, src, fit)
	if errors.Is(err, errSourceChanged) { // written between two passes of a streaming fit: once more
		snap, m, err = f.readAndFit(hc, src, fit)
	}
	return snap, m, err
}

func (f *fitCache[M]) readAndFit(hc *host.Conn, src *source, fit func(*snapshot) (M, error)) (*snapshot, M, error) {
	var zero M
	snap, err := src.read(hc, f.snap)
	if err != nil {
		return nil, zero, err
	}
	if snap == f.snap && f.done {
		return snap, f.fit, f.err
	}
	f.snap, f.fit, f.err, f.done = snap, zero, nil, false
	m, err := fit(snap)
	if err != nil {
		if cacheable(err) {
			f.err, f.done = err, true
		}
		return nil, zero, err
	}
	f.fit, f.done = m, true
	if !f.restored {
		hc.Stats.Fits.Add(1)
	}
	f.restored = false
	return snap, m, nil
}

// registry lists the model tables connected on one connection, so that a
// lookup function (kpca_eigen('docs_pca')) finds the model a table fits.
// It lives in the connection's host.Conn.Value store: models are per
// connection, like the tables SQLite connects.
type registry struct {
	mu     sync.Mutex
	tables map[string]*modelTable // by lower(schema) + "." + lower(name)
}

type registryKey struct{}

func registryOf(c *host.Conn) *registry {
	return c.Value(registryKey{}, func() any { return &registry{tables: map[string]*modelTable{}} }).(*registry)
}

// regKey folds the case of ASCII letters only, as SQLite compares names:
// "Ä" and "ä" are two tables.
func regKey(schema, name string) string {
	return asciiLower(schema) + "." + asciiLower(name)
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func (r *registry) add(t *modelTable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tables[regKey(t.name.schema, t.name.name)] = t
}

func (r *registry) remove(t *modelTable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k := regKey(t.name.schema, t.name.name); r.tables[k] == t {
		delete(r.tables, k)
	}
}

// lookup finds a table by its schema and name.
func (r *registry) lookup(id ident) *modelTable {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tables[regKey(id.schema, id.name)]
}

// findModel returns the model table called name on this connection whose
// kind accept admits; what names the kind for the error ("a kpca virtual
// table"). SQLite connects a virtual table the first time a statement
// names it, so a table not yet used on this connection is connected by
// preparing a statement that names it.
func findModel(hc *host.Conn, name, what string, accept func(*modelTable) bool) (*modelTable, error) {
	id, err := parseIdent("name", name, true)
	if err != nil {
		id = ident{name: name}
	}
	if id.schema == "" {
		if id.schema, err = schemaOf(hc, id.name); err != nil {
			return nil, fmt.Errorf("%s: %s", quoteExcerpt(name), sqliteMessage(err))
		}
	}
	reg := registryOf(hc)
	t := reg.lookup(id)
	if t == nil {
		err = hc.Query("SELECT 1 FROM "+id.sql()+" WHERE 0", nil, func([]any) error { return nil })
		if err != nil {
			if strings.Contains(err.Error(), "no such table") {
				return nil, fmt.Errorf("no table named %s; give the name of %s", quoteExcerpt(name), what)
			}
			return nil, fmt.Errorf("%s: %s", quoteExcerpt(name), sqliteMessage(err))
		}
		t = reg.lookup(id)
	}
	if t == nil || !accept(t) {
		return nil, fmt.Errorf("%s is not %s", quoteExcerpt(name), what)
	}
	return t, nil
}

// schemaOf is the schema whose table SQL's unqualified name reads (temp
// first, then main, then attached databases in the order they were
// attached), "" when there is none. The registry holds only the tables
// this connection has connected, so it cannot say.
func schemaOf(hc *host.Conn, name string) (string, error) {
	v, err := tableRead(hc, "", name)
	if v == nil {
		return "", err
	}
	s, _ := v[0].(string)
	return s, nil
}
