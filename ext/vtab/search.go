package vtab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/kpca"
	"github.com/ksql/ksql/internal/par"
)

// ModelSearch is the table-valued function model_search(module,
// arguments, grid): a cross-validated grid search. Each grid point's
// arguments (the base arguments plus one value of every grid key) are
// parsed and fitted exactly as CREATE VIRTUAL TABLE … USING
// module(arguments) would, so its cv_score is the cv score ksql_model
// reports for such a table; one Gram matrix per kernel is shared by every
// point and fold.
var ModelSearch host.Eponymous = searchModule{}

// MaxSearchPoints bounds the number of grid points of one model_search.
var MaxSearchPoints = &host.Setting{Name: "max_search_points", Default: 1000, Min: 1, Max: 1 << 30,
	Doc: "most grid points (the product of the grid's array lengths) one model_search may fit"}

// searchKinds are the model kinds by module name (newModelModule adds
// each), so that a module that takes folds= is searchable as it lands.
var searchKinds = map[string]*modelKind{}

var (
	_ host.Eponymous = searchModule{}
	_ host.Table     = (*searchTable)(nil)
	_ host.Cursor    = (*searchCursor)(nil)
)

const (
	searchModuleCol = 6 // the hidden columns, after the output columns
	searchArgsCol   = 7
	searchGridCol   = 8
	searchUsage     = `SELECT * FROM model_search('svm', 'table=t, id=id, column=v, label=y, folds=5', '{"C": [0.1, 1, 10]}')`
)

type searchModule struct{}

// EponymousOnly marks model_search as usable only by its own name.
func (searchModule) EponymousOnly() {}

type searchTable struct{ hc *host.Conn }

func (searchModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openSearch(c, args)
}

func (searchModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openSearch(c, args)
}

func openSearch(c *host.Conn, args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("model_search: takes no module arguments; use it as %s", searchUsage)
	}
	return &searchTable{hc: c}, nil
}

func (t *searchTable) Schema() string {
	return "CREATE TABLE x(arguments TEXT, cv_score REAL, cv_std REAL, fit_seconds REAL, rank INTEGER, error TEXT, " +
		"module HIDDEN, options HIDDEN, grid HIDDEN)"
}

func (t *searchTable) BestIndex(info *host.IndexInfo) error {
	m, a, g := firstEQ(info, searchModuleCol), firstEQ(info, searchArgsCol), firstEQ(info, searchGridCol)
	if m && a && g {
		info.EstimatedCost, info.EstimatedRows = 1e3, 10
	} else {
		info.EstimatedCost, info.EstimatedRows = 1e15, 10
	}
	recordPlan(info)
	return nil
}

func (t *searchTable) Open() (host.Cursor, error) { return &searchCursor{t: t}, nil }
func (t *searchTable) Disconnect() error          { return nil }
func (t *searchTable) Destroy() error             { return nil }

// searchRow is one grid point's result.
type searchRow struct {
	args    string
	score   float64
	std     float64 // NaN: not known
	seconds float64
	rank    int64
	err     string // the fit's own failure; the other fields are then NULL
}

type searchCursor struct {
	t            *searchTable
	rows         []searchRow
	pos          int
	module, opts any
	grid         any
}

func (c *searchCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("model_search", &err)
	return prefix("model_search", c.filter(idxStr, vals))
}

func (c *searchCursor) filter(idxStr string, vals []any) error {
	c.pos, c.rows = 0, nil
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	module, hasM := cons[searchModuleCol]
	opts, hasA := cons[searchArgsCol]
	grid, hasG := cons[searchGridCol]
	if !hasM || !hasA || !hasG {
		return fmt.Errorf("needs a module, its arguments and a grid, as in %s", searchUsage)
	}
	c.module, c.opts, c.grid = cloneText(module), cloneText(opts), cloneText(grid)
	var text [3]string
	for i, v := range []any{module, opts, grid} {
		s, ok := v.(string)
		if !ok {
			what := [3]string{"the module", "the arguments", "the grid"}[i]
			return fmt.Errorf("%s must be TEXT, got %s; use it as %s", what, host.TypeName(v), searchUsage)
		}
		text[i] = s
	}
	s, err := newSearch(c.t.hc, text[0], text[1], text[2])
	if err != nil {
		return err
	}
	if c.rows, err = s.run(); err != nil {
		return err
	}
	return s.createBest(c.rows)
}

func (c *searchCursor) Next() error { c.pos++; return nil }
func (c *searchCursor) EOF() bool   { return c.pos >= len(c.rows) }

func (c *searchCursor) Column(col int) (any, error) {
	r := &c.rows[c.pos]
	failed := r.err != ""
	switch col {
	case 0:
		return r.args, nil
	case 1:
		if !failed {
			return r.score, nil
		}
	case 2:
		if !failed && !math.IsNaN(r.std) {
			return r.std, nil
		}
	case 3:
		return r.seconds, nil
	case 4:
		if !failed {
			return r.rank, nil
		}
	case 5:
		if failed {
			return r.err, nil
		}
	case searchModuleCol:
		return c.module, nil
	case searchArgsCol:
		return c.opts, nil
	case searchGridCol:
		return c.grid, nil
	}
	return nil, nil
}

func (c *searchCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *searchCursor) Close() error          { return nil }

// search is one model_search call: its grid points, each a table as
// CREATE would make it, grouped by source.
type search struct {
	hc     *host.Conn
	kind   *modelKind
	create *ident // create=NAME; nil without
	points []*searchPoint
	groups []*searchGroup
}

// searchPoint is one grid point.
type searchPoint struct {
	args  string // the module arguments, as CREATE takes them
	grid  string // the grid's part of them, for errors
	t     *modelTable
	opts  options
	group *searchGroup
}

// searchGroup is the points that read one source the same way (same
// table, kernel, scaling …): one snapshot, and one Gram matrix computed
// for the first point that asks and copied for each.
type searchGroup struct {
	src    *source
	snap   *snapshot
	once   sync.Once
	gram   *kpca.Gram
	err    error
	left   atomic.Int64 // points not yet fitted; the last releases gram
	onStmt bool         // its kernel reads tables: fitted on the statement's goroutine
	bound  []boundedModel
}

// shared returns a copy of the group's Gram matrix, computing it once.
func (g *searchGroup) shared(hc *host.Conn) func() (*kpca.Gram, error) {
	return func() (*kpca.Gram, error) {
		g.once.Do(func() {
			f := &fitting{hc: hc, src: g.src, snap: g.snap}
			g.gram, g.err = f.gram(func(n int, need, max int64) error {
				return fmt.Errorf("a %d×%d Gram matrix needs %s, more than max_gram_bytes = %d", n, n, sizeText(need), max)
			})
		})
		if g.err != nil {
			return nil, g.err
		}
		K := kpca.NewGram(g.gram.N())
		copy(K.Upper(), g.gram.Upper())
		return K, nil
	}
}

// done is called once per fitted point; the last one frees the Gram matrix.
func (g *searchGroup) done() {
	if g.left.Add(-1) == 0 && g.gram != nil {
		g.gram.Release()
		g.gram = nil
	}
}

func newSearch(hc *host.Conn, module, arguments, gridText string) (*search, error) {
	kind := searchKinds[strings.ToLower(strings.TrimSpace(module))]
	if kind == nil || !slices.Contains(kind.keys, "folds") {
		what := fmt.Sprintf("no model module is named %s", quoteExcerpt(module))
		if kind != nil {
			what = fmt.Sprintf("%s does not cross-validate (it takes no folds=)", kind.name)
		}
		return nil, fmt.Errorf("%s; allowed: %s (the modules that take folds=)", what, strings.Join(searchableModules(), ", "))
	}
	s := &search{hc: hc, kind: kind}
	base, err := s.baseArguments(arguments)
	if err != nil {
		return nil, err
	}
	axes, err := parseGrid(gridText, kind, base)
	if err != nil {
		return nil, err
	}
	if err := s.makePoints(base, axes); err != nil {
		return nil, err
	}
	return s, nil
}

// searchableModules lists the modules that take folds=, sorted.
func searchableModules() []string {
	var out []string
	for name, k := range searchKinds {
		if slices.Contains(k.keys, "folds") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// baseArguments splits the arguments as SQLite splits a module's, and
// takes create=NAME out of them.
func (s *search) baseArguments(arguments string) ([]string, error) {
	var base []string
	for _, a := range splitArguments(arguments) {
		k, v, _ := strings.Cut(a, "=")
		if strings.EqualFold(strings.TrimSpace(k), "create") {
			if s.create != nil {
				return nil, errors.New("create= is given twice")
			}
			id, err := parseIdent("create", v, true)
			if err != nil {
				return nil, err
			}
			s.create = &id
			continue
		}
		base = append(base, a)
	}
	return base, nil
}

// splitArguments splits text at the commas outside quotes and brackets,
// as SQLite splits the text between USING module( and ).
func splitArguments(text string) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"' || ch == '`':
			quote = ch
		case ch == '[':
			quote = ']'
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == ',' && depth == 0:
			out = append(out, strings.TrimSpace(text[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(text[start:]))
}

// gridAxis is one grid key and its values, each as it is written into
// the module arguments.
type gridAxis struct {
	key    string
	values []string
}

const gridShape = `the grid must be a JSON object of arrays, such as '{"C": [0.1, 1, 10], "kernel": ["gauss(sigma=1)", "gauss(sigma=2)"]}'`

// parseGrid reads the grid, keys in the order written, and checks each
// key is an argument of kind that the base arguments do not give.
func parseGrid(text string, kind *modelKind, base []string) ([]gridAxis, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New(gridShape)
	}
	known := searchKeys(kind)
	var axes []gridAxis
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s (%v)", gridShape, err)
		}
		key := tok.(string) // object keys are strings
		lower := strings.ToLower(strings.TrimSpace(key))
		name, ok := knownKey(known, key)
		if !ok {
			return nil, fmt.Errorf("grid key %s is not an argument of %s (known: %s)", quoteExcerpt(key), kind.name, strings.Join(known, ", "))
		}
		if slices.ContainsFunc(axes, func(a gridAxis) bool { return strings.EqualFold(a.key, lower) }) {
			return nil, fmt.Errorf("grid key %s is given twice", quoteExcerpt(key))
		}
		for _, a := range base {
			if k, _, _ := strings.Cut(a, "="); strings.EqualFold(strings.TrimSpace(k), lower) {
				return nil, fmt.Errorf("%s= is both in the arguments and in the grid; give it in one of them", name)
			}
		}
		var vals []any
		if err := dec.Decode(&vals); err != nil || len(vals) == 0 {
			return nil, fmt.Errorf("grid key %s: its value must be a non-empty array, such as \"%s\": [1, 2]; %s", quoteExcerpt(key), key, gridShape)
		}
		axis := gridAxis{key: strings.TrimSpace(key)}
		for _, v := range vals {
			w, err := gridValue(key, v)
			if err != nil {
				return nil, err
			}
			axis.values = append(axis.values, w)
		}
		axes = append(axes, axis)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s (%v)", gridShape, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s (text after the object)", gridShape)
	}
	return axes, nil
}

// gridValue writes one grid value as a module argument's value: a string
// quoted as a SQL literal, a number as written, true or false bare.
func gridValue(key string, v any) (string, error) {
	switch x := v.(type) {
	case string:
		// SQLite's messages and module arguments end at a NUL: the
		// point's error would be cut off there.
		if strings.ContainsRune(x, 0) {
			return "", fmt.Errorf("grid key %s: a string value holds a NUL character (\\u0000), which no module argument can", quoteExcerpt(key))
		}
		return sqlQuote(x), nil
	case json.Number:
		return x.String(), nil
	case bool:
		return fmt.Sprint(x), nil
	}
	return "", fmt.Errorf("grid key %s: each value must be a string, a number, true or false, not %s", quoteExcerpt(key), jsonTypeName(v))
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	}
	return "an object"
}

// searchKeys are the arguments of kind, with the source's.
func searchKeys(kind *modelKind) []string {
	keys := slices.Clone(kind.keys)
	for _, e := range kind.extra {
		keys = append(keys, e.key)
	}
	return append(keys, sourceKeys...)
}

// makePoints builds every grid point's table, the last grid key varying
// fastest, and groups them by source.
func (s *search) makePoints(base []string, axes []gridAxis) error {
	total, max := int64(1), MaxSearchPoints.Get(s.hc)
	for _, a := range axes {
		if total *= int64(len(a.values)); total > max {
			return fmt.Errorf("the grid has more than max_search_points = %d points; raise it with SELECT ksql_config('max_search_points', N), or search a smaller grid", max)
		}
	}
	groups := map[string]*searchGroup{}
	idx := make([]int, len(axes))
	var first *searchPoint
	for p := 0; p < int(total); p++ {
		rest := p
		for a := len(axes) - 1; a >= 0; a-- {
			idx[a], rest = rest%len(axes[a].values), rest/len(axes[a].values)
		}
		pt, err := s.point(base, axes, idx)
		if err != nil {
			return err
		}
		if first == nil {
			first = pt
		} else if err := comparable(first, pt); err != nil {
			return err
		}
		key := s.sourceKey(pt)
		g := groups[key]
		if g == nil {
			g = &searchGroup{src: pt.t.src, onStmt: len(pt.t.src.spec.References()) > 0}
			groups[key] = g
			s.groups = append(s.groups, g)
		}
		if b, ok := pt.t.model.(boundedModel); ok {
			g.bound = append(g.bound, b)
		}
		g.left.Add(1)
		pt.group = g
		s.points = append(s.points, pt)
	}
	return nil
}

// scoredBy is a model whose cv score is one of several figures (svm's
// type picks accuracy, MSE or the outlier fraction).
type scoredBy interface{ cvKey() string }

// comparable refuses two points whose scores are different figures: an
// accuracy and a negated MSE ranked in one list would crown either.
func comparable(a, b *searchPoint) error {
	ka, okA := a.t.model.(scoredBy)
	kb, okB := b.t.model.(scoredBy)
	if !okA || !okB || ka.cvKey() == kb.cvKey() {
		return nil
	}
	return fmt.Errorf("grid points %s (scored by %s) and %s (scored by %s) are not comparable; search each kind of model in its own model_search",
		a.grid, ka.cvKey(), b.grid, kb.cvKey())
}

// point makes the table of one grid point, as CREATE would.
func (s *search) point(base []string, axes []gridAxis, idx []int) (*searchPoint, error) {
	args := slices.Clone(base)
	var grid []string
	for a, axis := range axes {
		grid = append(grid, axis.key+"="+axis.values[idx[a]])
	}
	args = append(args, grid...)
	pt := &searchPoint{args: strings.Join(args, ", "), grid: strings.Join(grid, ", ")}
	where := "the arguments"
	if pt.grid != "" {
		where = "grid point " + pt.grid
	}
	var err error
	if pt.opts, err = parseOptions(args, searchKeys(s.kind)); err != nil {
		return nil, fmt.Errorf("%s with %s: %w", s.kind.name, where, err)
	}
	if _, ok := pt.opts["folds"]; !ok {
		return nil, fmt.Errorf("needs folds= (in the arguments or the grid): the number of cross-validation folds, such as folds=5")
	}
	if pt.t, err = (modelModule{s.kind}).newTable(s.hc, append([]string{s.kind.name, "main", "model_search"}, args...)); err != nil {
		return nil, fmt.Errorf("%s with %s: %w", s.kind.name, where, err)
	}
	// Points are fitted side by side, off the statement's goroutine, on
	// one snapshot of their group: a source read in passes (stream.go)
	// would need the statement for every pass.
	pt.t.src.lean = false
	return pt, nil
}

// sourceKey identifies what a point's source reads: its source
// arguments and the extra columns it reads.
func (s *search) sourceKey(pt *searchPoint) string {
	var b strings.Builder
	for _, k := range sourceKeys {
		fmt.Fprintf(&b, "%s=%s\x00", k, pt.opts[k])
	}
	for _, e := range pt.t.src.extra {
		fmt.Fprintf(&b, "%s=%s\x00", e.key, pt.opts[e.key])
	}
	return b.String()
}

// run reads each group's source once and fits every point: in parallel,
// except points whose kernel reads tables (rational(fst=...)), which must
// be prepared on the statement's goroutine.
func (s *search) run() ([]searchRow, error) {
	var most int64
	for _, g := range s.groups {
		if err := s.read(g); err != nil {
			return nil, err
		}
		most = max(most, kpca.ExactBytes(len(g.snap.objs)))
	}
	rows := make([]searchRow, len(s.points))
	// Points are fitted group by group (the rows stay in grid order), so
	// that a group's Gram matrix is freed before most of the next are made.
	var parallel, serial []int
	for _, g := range s.groups {
		for i, pt := range s.points {
			switch {
			case pt.group != g:
			case g.onStmt:
				serial = append(serial, i)
			default:
				parallel = append(parallel, i)
			}
		}
	}
	// Each running fit holds a copy of a Gram matrix, and each group being
	// fitted its original: as many pairs at once as max_gram_bytes holds,
	// at least one.
	workers := int(min(int64(runtime.GOMAXPROCS(0)), max(1, maxGramBytes(s.hc)/max(2*most, 1))))
	fitOne := func(i int) error { return s.fit(s.points[i], &rows[i]) }
	if err := par.For("model_search", len(parallel), workers, 1, func(_, j int) error { return fitOne(parallel[j]) }); err != nil {
		return nil, err
	}
	for _, i := range serial {
		if err := fitOne(i); err != nil {
			return nil, err
		}
	}
	rankRows(rows)
	return rows, nil
}

// read reads a group's source as a table's first query would, with the
// memory bound of every point's model.
func (s *search) read(g *searchGroup) error {
	if err := g.src.validate(s.hc); err != nil {
		return err
	}
	bound := func(n int) error {
		for _, b := range g.bound {
			if err := b.tooMany(n, maxGramBytes(s.hc)); err != nil {
				return err
			}
		}
		return nil
	}
	snap, err := g.src.readBounded(s.hc, nil, bound)
	if err != nil {
		return err
	}
	if len(snap.objs) == 0 {
		return errEmpty(snap)
	}
	g.snap = snap
	return nil
}

// fit fits one point as a table's query would and scores it. A failure
// of the fit itself (a property of the data and the point's arguments)
// becomes the row's error; any other error (an interrupt, a bound) ends
// the search.
func (s *search) fit(pt *searchPoint, row *searchRow) error {
	defer pt.group.done()
	row.args, row.std = pt.args, math.NaN()
	if err := s.hc.Err(); err != nil {
		return err
	}
	f := &fitting{hc: s.hc, src: pt.group.src, snap: pt.group.snap, shared: pt.group.shared(s.hc)}
	start := time.Now()
	fit, err := pt.t.model.fit(f)
	row.seconds = time.Since(start).Seconds()
	if err != nil {
		if !cacheable(err) {
			return fmt.Errorf("%s with %s: %w", s.kind.name, pt.grid, err)
		}
		row.err = prefix(s.kind.name, err).Error()
		return nil
	}
	s.hc.Stats.Fits.Add(1)
	key, score, why, ok := cvScore(fit)
	if !ok && why != "" {
		row.err = s.kind.name + ": " + why
		return nil
	}
	if !ok {
		return fmt.Errorf("%s with %s: its fit reports no cv score (cv_accuracy, cv_mse or cv_outlier_fraction)", s.kind.name, pt.grid)
	}
	row.score = score
	row.std, err = foldSpread(pt, f, fit, key)
	return err
}

// cvScores are the cv figures a fit may report, and the score each gives
// (higher is better): accuracy as it is, MSE negated, and for one_class
// the share of held-out rows it accepts.
var cvScores = []struct {
	key   string
	score func(float64) float64
}{
	{"cv_accuracy", func(x float64) float64 { return x }},
	{"cv_mse", func(x float64) float64 { return -x }},
	{"cv_outlier_fraction", func(x float64) float64 { return 1 - x }},
}

// cvScore finds the fit's cv figure in what it reports to ksql_model,
// read once: a number gives the score; words (an MSE past float64's
// range) give why, the reason the fit has none.
func cvScore(fit fitted) (key string, score float64, why string, ok bool) {
	r, isReporter := fit.(reporter)
	if !isReporter {
		return "", 0, "", false
	}
	for _, kv := range r.report() {
		for _, c := range cvScores {
			if kv[0] != c.key {
				continue
			}
			switch v := kv[1].(type) {
			case float64:
				return c.key, c.score(v), "", true
			case string:
				if why == "" {
					why = c.key + " " + v
				}
			}
		}
	}
	return "", 0, why, false
}

// foldSpread is the population standard deviation of the score over the
// folds, from each stored row's label and cv_prediction. The folds are
// the modules' (internal/cv's rule): stratified by class for accuracy,
// plain otherwise.
func foldSpread(pt *searchPoint, f *fitting, fit fitted, key string) (float64, error) {
	label, cvp := columnIndex(pt.t.cols, "label"), columnIndex(pt.t.cols, "cv_prediction")
	k, err := pt.opts.integer("folds", 0, 2, 1<<20)
	if err != nil || cvp < 0 || (label < 0 && key != "cv_outlier_fraction") {
		return math.NaN(), err
	}
	seed, err := pt.opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return math.NaN(), err
	}
	n := len(f.objs())
	var fold []int
	if key == "cv_accuracy" {
		labels := f.extra("label")
		classes := sortDistinct(slices.Clone(labels))
		y := make([]int, n)
		for o, v := range labels {
			y[o] = searchValue(classes, v)
		}
		fold, err = cv.Stratified(y, len(classes), int(k), uint64(seed))
	} else {
		fold, err = cv.Folds(n, int(k), uint64(seed))
	}
	if err != nil {
		return math.NaN(), nil // the fit would have failed first
	}
	sum, count := make([]float64, k), make([]float64, k)
	dst := make([]any, len(pt.t.cols))
	for o := 0; o < n; o++ {
		clear(dst)
		fit.stored(o, dst)
		g := fold[o]
		count[g]++
		switch key {
		case "cv_accuracy":
			if compareValues(dst[cvp], dst[label]) == 0 {
				sum[g]++
			}
		case "cv_outlier_fraction":
			if compareValues(dst[cvp], int64(1)) == 0 {
				sum[g]++
			}
		default:
			d := realValue(dst[cvp]) - realValue(dst[label])
			sum[g] -= d * d
		}
	}
	var mean, sq float64
	for g := range sum {
		sum[g] /= count[g]
		mean += sum[g]
	}
	mean /= float64(k)
	for _, v := range sum {
		sq += (v - mean) * (v - mean)
	}
	return math.Sqrt(sq / float64(k)), nil
}

func realValue(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// columnIndex finds a column by name in a model's declared columns.
func columnIndex(cols []string, name string) int {
	for i, c := range cols {
		if n, _, _ := strings.Cut(c, " "); n == name {
			return i
		}
	}
	return -1
}

// rankRows ranks the fitted rows by score, 1 the best; equal scores share
// the lower rank (scikit-learn's rank_test_score).
func rankRows(rows []searchRow) {
	var scores []float64
	for _, r := range rows {
		if r.err == "" {
			scores = append(scores, r.score)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(scores)))
	for i := range rows {
		if rows[i].err == "" {
			s := rows[i].score
			rows[i].rank = int64(sort.Search(len(scores), func(j int) bool { return scores[j] <= s })) + 1
		}
	}
}

// createBest runs CREATE VIRTUAL TABLE for create=NAME with the first
// best point's arguments.
func (s *search) createBest(rows []searchRow) error {
	if s.create == nil {
		return nil
	}
	best := -1
	for i, r := range rows {
		if r.err == "" && r.rank == 1 {
			best = i
			break
		}
	}
	if best < 0 {
		return fmt.Errorf("create=%s: no grid point could be fitted, so there is no best model to create", s.create)
	}
	q := "CREATE VIRTUAL TABLE " + s.create.sql() + " USING " + s.kind.name + "(" + rows[best].args + ")"
	if err := s.hc.Query(q, nil, func([]any) error { return nil }); err != nil {
		return fmt.Errorf("create=%s: %s", s.create, sqliteMessage(err))
	}
	return nil
}
