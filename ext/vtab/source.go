package vtab

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/transducer"
	"github.com/ksql/ksql/internal/kernels"
)

// sourceKeys are the arguments every module takes.
var sourceKeys = []string{"table", "id", "column", "query", "kernel", "columns", "nulls", "scale"}

// source says where a module reads its objects (a table's id and object
// columns and any extra columns, or a query that returns them in that
// order) and how it compares them.
type source struct {
	module string
	// owner is the virtual table reading this source, for the error of a
	// source that reads its own table; "" for a table-valued function's
	// query=.
	owner string
	table ident
	// from is table as read: an unqualified name is looked up in the
	// virtual table's own schema (see inSchema), as FTS5 reads its content
	// table, so that a TEMP table of the same name, or one in another
	// database, never takes its place.
	from   ident
	id     ident
	column ident
	// features is columns= as written, nil for column= and query=; fcols
	// are the columns it reads, in order, its ranges expanded when read
	// (features.go).
	features []columnItem
	fcols    []ident
	nullSkip bool // nulls=skip: a row with a NULL feature is left out, like a NULL object
	scale    bool // scale=standard
	extra    []extraColumn
	cols     []ident // the extra columns' names in the table
	query    string
	spec     *kernels.Spec
	sql      string // reads (id, object, extra...) ordered by id
	// bound, if set, is the error of a fit on n objects that would pass
	// a memory bound (nil while n fits); read stops keeping rows past it.
	bound func(n int) error
	// home is the schema of the virtual table reading this source.
	home string
	// lean, for fits that stream their objects (stream.go): a read keeps
	// the ids and extra columns but not the objects, which the fit reads
	// again in passes, so that memory does not grow with the objects.
	lean bool
}

// newSource reads the common arguments and those naming the extra
// columns, which are all required. It does not touch the database.
func newSource(module string, opts options, extra ...extraColumn) (*source, error) {
	s := &source{module: module, extra: extra}
	ktext, ok, err := opts.text("kernel")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("missing argument kernel= (a kernel spec such as kernel='gauss(sigma=1)')")
	}
	if s.spec, err = kernels.ParseCached(ktext); err != nil {
		return nil, fmt.Errorf("kernel=: %v", err)
	}
	q, hasQuery, err := opts.text("query")
	if err != nil {
		return nil, err
	}
	_, hasTable := opts["table"]
	_, hasID := opts["id"]
	_, hasCol := opts["column"]
	_, hasCols := opts["columns"]
	if err := s.parseFeatures(opts, hasCol); err != nil {
		return nil, err
	}
	switch {
	case hasQuery && (hasTable || hasID || hasCol || hasCols || s.hasExtraKey(opts)):
		return nil, fmt.Errorf("give either query= or table=, id= and column=%s, not both", s.extraKeys(", "))
	case hasQuery:
		if s.query, err = checkSelect(q); err != nil {
			return nil, err
		}
		// The CTE's column list makes SQLite check that the query returns
		// exactly these columns, and its body admits only a select-stmt.
		cols := strings.Join(s.columnNames(), ", ")
		s.sql = "WITH ksql_source(" + cols + ") AS (\n" + s.query + "\n) SELECT " + cols + " FROM ksql_source" + orderByFirst
		return s, nil
	case !hasTable:
		return nil, fmt.Errorf("missing argument table= (or query='SELECT id, object FROM ...')")
	case !hasID:
		return nil, fmt.Errorf("missing argument id= (the column that identifies a row)")
	case !hasCol && !hasCols:
		return nil, fmt.Errorf("missing argument column= (the column that holds the objects; or columns= for numeric columns read into a vector, such as columns='x1,x2' or columns=x1..x8)")
	}
	if s.table, err = parseIdent("table", opts["table"], true); err != nil {
		return nil, err
	}
	s.from = s.table
	if s.id, err = parseIdent("id", opts["id"], false); err != nil {
		return nil, err
	}
	if hasCol {
		if s.column, err = parseIdent("column", opts["column"], false); err != nil {
			return nil, err
		}
	}
	for _, e := range extra {
		v, ok := opts[e.key]
		if !ok {
			return nil, fmt.Errorf("missing argument %s= (%s)", e.key, e.doc)
		}
		col, err := parseIdent(e.key, v, false)
		if err != nil {
			return nil, err
		}
		s.cols = append(s.cols, col)
	}
	s.buildSQL()
	return s, nil
}

// buildSQL sets the statement that reads a table= source: id, the object
// column or the feature columns, the extra columns.
func (s *source) buildSQL() {
	sel := []string{s.id.sql()}
	if s.features == nil {
		sel = append(sel, s.column.sql())
	}
	for _, f := range s.fcols {
		sel = append(sel, f.sql())
	}
	for _, col := range s.cols {
		sel = append(sel, col.sql())
	}
	s.sql = "SELECT " + strings.Join(sel, ", ") + " FROM " + s.from.sql() + orderByFirst
}

// inSchema makes an unqualified table= name mean the table of the virtual
// table's own schema. A TEMP virtual table keeps SQLite's lookup (temp,
// main, then attached databases), since it is made to read tables of other
// schemas.
func (s *source) inSchema(schema string) {
	s.home = schema
	if s.query != "" || s.table.name == "" {
		return
	}
	s.from = s.table
	if s.from.schema == "" && schema != "" && !strings.EqualFold(schema, "temp") {
		s.from.schema = schema
	}
	s.buildSQL()
}

func (s *source) hasExtraKey(opts options) bool {
	for _, e := range s.extra {
		if _, ok := opts[e.key]; ok {
			return true
		}
	}
	return false
}

// extraKeys lists the extra columns' arguments, each preceded by sep.
func (s *source) extraKeys(sep string) string {
	var b strings.Builder
	for _, e := range s.extra {
		b.WriteString(sep + e.key + "=")
	}
	return b.String()
}

// columnNames are the source's columns as a query= must return them.
func (s *source) columnNames() []string {
	names := []string{"id", "object"}
	for _, e := range s.extra {
		names = append(names, e.key)
	}
	return names
}

// validate checks, when the virtual table is created, that the source can
// be read: the table and its columns exist, the query compiles and has
// two columns.
func (s *source) validate(c *host.Conn) error {
	if s.query == "" {
		if err := s.resolve(c); err != nil {
			return err
		}
		if err := s.checkColumns(c); err != nil {
			return err
		}
	}
	err := c.Query("SELECT * FROM ("+s.sql+") LIMIT 0", nil, func([]any) error { return nil })
	return s.sqlError(err)
}

// checkColumns looks the table up with PRAGMA table_xinfo, so that a typo
// gets an error that lists what is there.
func (s *source) checkColumns(c *host.Conn) error {
	cols, err := s.tableColumns(c)
	if err != nil {
		return err
	}
	want := []struct{ key, name string }{{"id", s.id.name}}
	if s.features == nil {
		want = append(want, struct{ key, name string }{"column", s.column.name})
	}
	for _, f := range s.fcols {
		want = append(want, struct{ key, name string }{"columns", f.name})
	}
	for i, e := range s.extra {
		want = append(want, struct{ key, name string }{e.key, s.cols[i].name})
	}
	for _, col := range want {
		if slices.ContainsFunc(cols, func(c string) bool { return sameName(c, col.name) }) {
			continue
		}
		if isRowidName(col.name) {
			// SQLite resolves rowid on tables that have one; a view's reads
			// NULL and a WITHOUT ROWID table has none.
			kind, err := s.rowidless(c)
			if err != nil {
				return s.sqlError(err)
			}
			if kind == "" {
				continue
			}
			return fmt.Errorf("%s= is %s, but %s is %s, which has no rowid (%s= must be one of: %s)",
				col.key, col.name, s.table, kind, col.key, strings.Join(cols, ", "))
		}
		return fmt.Errorf("table %s has no column %s (%s= must be one of: %s)", s.table, quoteIdent(col.name), col.key, strings.Join(cols, ", "))
	}
	return nil
}

// tableColumns lists the table's columns in table order (hidden and
// generated ones included), with PRAGMA table_xinfo.
func (s *source) tableColumns(c *host.Conn) ([]string, error) {
	var cols []string
	err := c.Query("PRAGMA "+s.pragmaSchema()+"table_xinfo("+sqlIdent(s.from.name)+")", nil, func(v []any) error {
		if name, ok := v[1].(string); ok { // cid, name, type, ...
			cols = append(cols, name)
		}
		return nil
	})
	if err != nil {
		return nil, s.sqlError(err)
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("no such table %s (table= names a table or view to read)", s.table)
	}
	return cols, nil
}

func isRowidName(name string) bool {
	switch strings.ToLower(name) {
	case "rowid", "oid", "_rowid_":
		return true
	}
	return false
}

// rowidless says what kind of object the table is when it has no usable
// rowid ("a view", "a WITHOUT ROWID table"), or "" when it has one.
func (s *source) rowidless(c *host.Conn) (string, error) {
	v, err := tableRead(c, s.pragmaSchema(), s.from.name)
	switch {
	case v == nil:
		return "", err
	case v[2] == "view":
		return "a view", nil
	case v[4] == int64(1):
		return "a WITHOUT ROWID table", nil
	}
	return "", nil
}

// tableRead is PRAGMA table_list's row (schema, name, type, ncol, wr,
// strict) of the table or view that SQL reads as name in the schema
// prefix ("" or "schema."), nil when there is none. Unqualified, that is
// temp's, else the first listed: main's, then attached databases' in the
// order they were attached.
func tableRead(c *host.Conn, prefix, name string) ([]any, error) {
	var row []any
	err := c.Query("PRAGMA "+prefix+"table_list("+sqlIdent(name)+")", nil, func(v []any) error {
		if row == nil || v[0] == "temp" {
			row = slices.Clone(v)
		}
		return nil
	})
	return row, err
}

// pragmaSchema is the schema prefix of a PRAGMA about the source table:
// PRAGMA statements, not the pragma_ tables, since after
// sqlite3_deserialize SQLite 3.40 (Debian 12's) reads a freed schema
// through an eponymous table made before it, and crashes.
func (s *source) pragmaSchema() string {
	if s.from.schema == "" {
		return ""
	}
	return sqlIdent(s.from.schema) + "."
}

// sqlError rewrites SQLite's complaints about the source statement in the
// module's terms.
func (s *source) sqlError(err error) error {
	if err == nil {
		return nil
	}
	msg := sqliteMessage(err)
	if s.query != "" {
		names := s.columnNames()
		count := [...]string{2: "two", 3: "three", 4: "four"}[len(names)]
		if i := strings.Index(msg, fmt.Sprintf("values for %d columns", len(names))); i >= 0 {
			return fmt.Errorf("query= must return exactly %s columns (%s): %s", count, strings.Join(names, ", "), msg)
		}
		last := len(names) - 1
		return fmt.Errorf("query=: %s (it must be one read-only SELECT of %s columns, %s and %s)",
			msg, count, strings.Join(names[:last], ", "), names[last])
	}
	return fmt.Errorf("reading %s: %s", s.table, msg)
}

// readError words a failed read. A column missing from a table= source
// (renamed or dropped since CREATE) is named as checkColumns names it.
func (s *source) readError(c *host.Conn, err error) error {
	var re *host.RecursionError
	if errors.As(err, &re) {
		return s.recursionError(re)
	}
	if s.query == "" && strings.Contains(err.Error(), "no such column") {
		if cerr := s.checkColumns(c); cerr != nil {
			return cerr
		}
	}
	return s.sqlError(err)
}

// recursionError words host's refusal of a read that would never end: the
// source runs, through a view, trigger or function, the very read it is in.
// The first source to meet the refusal is the one that reads itself; it
// words the refusal, and the reads it is nested in report those words.
func (s *source) recursionError(re *host.RecursionError) error {
	switch {
	case !re.Again || re.Words != "":
	case s.owner != "":
		re.Words = fmt.Sprintf("the source of %s reads %s itself (through a view, trigger or function), which would never end", s.owner, s.owner)
	default:
		re.Words = fmt.Sprintf("query= reads itself: running it runs %s on the same query= again (through a view, trigger or function), which would never end", s.module)
	}
	return re
}

// sqliteMessage is SQLite's error text without the decorations one driver
// adds (modernc: "SQL logic error: ... (1)"), so that messages are the same
// on both.
func sqliteMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "SQL logic error: ")
	if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, ")") {
		if _, err := strconv.Atoi(msg[i+2 : len(msg)-1]); err == nil {
			msg = msg[:i]
		}
	}
	return msg
}

// snapshot is the source as read by one query: every row's id in id
// order, the decoded objects of the rows whose object is not NULL, and the
// extra columns' values. It is immutable once built and shared by the
// cursors of that content.
type snapshot struct {
	hash [sha256.Size]byte
	ids  []any // row r's id, unless every id is an INTEGER (intIDs)
	// intIDs holds the ids when every one is an INTEGER, ascending as read
	// (ORDER BY 1): 8 bytes a row instead of an interface and its box, and
	// a lookup by binary search instead of a map of every id.
	intIDs []int64
	extra  [][]any // extra[i][r]: extra column i of row r (extraValues)
	// reals[i] holds extra column i where a lean read found every value
	// REAL (extra[i] is nil until extraValues boxes them).
	reals   [][]float64
	extraMu sync.Mutex
	objs    []kernels.Object // empty in a lean snapshot
	lean    bool             // read by source.lean: the objects are read again by passes
	token   string           // the database's state when read ("": read again every time), fresh.go
	// obj[r] is the index of row r's object, −1 for NULL, and rows[o]
	// the row of object o (objOf, rowOf); both are nil in a lean snapshot
	// where every row has an object, 16 bytes a row saved.
	obj  []int
	rows []int
	// scale is scale=standard's centring and scaling, fitted on objs
	// (which hold the scaled vectors) and applied to new objects; nil
	// without scale=.
	scale *featureScale
	// byID is built on the first lookup by id: a scan or a fit never
	// needs it, and for a million rows it is a tenth of a gigabyte.
	byIDOnce sync.Once
	byID     map[idKey]int
	// landMarks and landBasis are the landmarks last asked of the
	// snapshot, and their objects (landmarks.go).
	landMu    sync.Mutex
	landMarks []int
	landBasis []kernels.Object
	landDim   *vecDim // the vector length the landmarks set (lean)
	// landRead is what landmarksByID read for landBasis, until a pass
	// has found those values at those rows.
	landRead atomic.Pointer[landmarkRead]
}

// idKey identifies an id value with SQLite's equality: 1 and 1.0 are the
// same id, 1 and '1' are not.
type idKey struct {
	kind byte
	i    int64
	f    float64
	s    string
}

func keyOf(v any) (idKey, bool) {
	switch x := v.(type) {
	case int64:
		return idKey{kind: 'i', i: x}, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return idKey{kind: 'i', i: int64(x)}, true
		}
		return idKey{kind: 'f', f: x}, true
	case string:
		return idKey{kind: 's', s: x}, true
	case []byte:
		return idKey{kind: 'b', s: string(x)}, true
	}
	return idKey{}, false
}

// extraValues is extra column i, one value a row.
func (s *snapshot) extraValues(i int) []any {
	s.extraMu.Lock()
	defer s.extraMu.Unlock()
	if s.extra[i] == nil && i < len(s.reals) && s.reals[i] != nil {
		v := make([]any, len(s.reals[i]))
		for r, x := range s.reals[i] {
			v[r] = x
		}
		s.extra[i] = v
	}
	if s.extra[i] == nil {
		s.extra[i] = make([]any, s.nrows()) // no rows kept (every id NULL)
	}
	return s.extra[i]
}

// extraReals is extra column i as float64s, where a lean read found every
// value REAL; nil otherwise.
func (s *snapshot) extraReals(i int) []float64 {
	if i < len(s.reals) {
		return s.reals[i]
	}
	return nil
}

// id returns row r's id.
func (s *snapshot) id(r int) any {
	if s.intIDs != nil {
		return s.intIDs[r]
	}
	return s.ids[r]
}

// objOf is the index of row r's object, −1 for a NULL object.
func (s *snapshot) objOf(r int) int {
	if s.obj == nil {
		return r
	}
	return s.obj[r]
}

// rowOf is the row of object o.
func (s *snapshot) rowOf(o int) int {
	if s.rows == nil {
		return o
	}
	return s.rows[o]
}

// nobj is the number of objects (rows whose object is not NULL).
func (s *snapshot) nobj() int {
	if s.rows == nil {
		return s.nrows()
	}
	return len(s.rows)
}

// nrows is the number of rows, NULL objects included.
func (s *snapshot) nrows() int {
	if s.intIDs != nil {
		return len(s.intIDs)
	}
	return len(s.ids)
}

// row returns the row whose id equals v, if any.
func (s *snapshot) row(v any) (int, bool) {
	k, ok := keyOf(v)
	if !ok {
		return 0, false
	}
	if s.intIDs != nil {
		if k.kind != 'i' {
			return 0, false
		}
		return slices.BinarySearch(s.intIDs, k.i)
	}
	s.byIDOnce.Do(func() {
		s.byID = make(map[idKey]int, len(s.ids))
		for r, id := range s.ids {
			k, _ := keyOf(id)
			s.byID[k] = r
		}
	})
	r, ok := s.byID[k]
	return r, ok
}

// compactIDs moves the ids to intIDs when every one is an INTEGER and they
// ascend as read (a query= whose ORDER BY 1 sorts them so).
func (s *snapshot) compactIDs() {
	ints := make([]int64, len(s.ids))
	for r, v := range s.ids {
		x, ok := v.(int64)
		if !ok || r > 0 && x < ints[r-1] {
			return
		}
		ints[r] = x
	}
	s.intIDs, s.ids = ints, nil
}

// compareKeys orders idKeys (any total order will do: it finds duplicates).
func compareKeys(a, b idKey) int {
	if c := cmp.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.i, b.i); c != 0 {
		return c
	}
	if c := cmp.Compare(a.f, b.f); c != 0 {
		return c
	}
	return strings.Compare(a.s, b.s)
}

// checkUnique returns an error naming two rows with the same id, by
// sorting the rows by id rather than building a map of them all.
func (s *snapshot) checkUnique() error {
	if s.intIDs != nil { // ascending: a repeat is next to its twin
		for r := 1; r < len(s.intIDs); r++ {
			if s.intIDs[r] == s.intIDs[r-1] {
				return fmt.Errorf("id %d appears twice in the source (rows %d and %d); ids must be unique", s.intIDs[r], r, r+1)
			}
		}
		return nil
	}
	order := make([]int32, len(s.ids))
	for r := range order {
		order[r] = int32(r)
	}
	key := func(r int32) idKey { k, _ := keyOf(s.ids[r]); return k }
	slices.SortFunc(order, func(a, b int32) int {
		if c := compareKeys(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for i := 1; i < len(order); i++ {
		if a, b := order[i-1], order[i]; compareKeys(key(a), key(b)) == 0 {
			return fmt.Errorf("id %s appears twice in the source (rows %d and %d); ids must be unique", idText(s.ids[b]), a+1, b+1)
		}
	}
	return nil
}

// idText renders an id for error messages.
func idText(v any) string {
	switch x := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case []byte:
		return fmt.Sprintf("x'%x'", x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "NULL"
	}
	return fmt.Sprint(v)
}

// read runs the source query and returns its snapshot, or prev itself when
// the content (ids and objects) hashes the same, so that nothing derived
// from prev needs recomputing. Rows are read with SQL every time: that is
// cheap next to any kernel computation, and it is the only way to see
// every change, including other connections' and those of non-deterministic
// queries.
//
// Cursors read once, at their first Filter, and later Filters of the same
// cursor reuse that snapshot: per-row lookups (SELECT (SELECT pc1 FROM p
// WHERE id = s.id) FROM s) call Filter once per outer row, and re-reading
// and hashing the whole source each time made 4,000 lookups take seconds.
// A cursor lives within one execution of one statement
// (SQLite closes a statement's cursors when it ends or is reset, and opens
// a correlated subquery's cursor once, not per outer row). Within one
// statement nothing can change what a read returns except the statement's
// own writes: other connections' commits are hidden by its read
// transaction (PRAGMA data_version does not move), the schema cannot
// change (schema_version), and the connection's own changes are counted
// only when a statement ends (total_changes()). Those markers could only
// say "unchanged" there, so none is read: the cursor is the statement.
//
// So a statement sees one snapshot of each source it reads, as of its
// first read: rows the statement itself writes are not seen by its later
// lookups (which also keeps INSERT ... SELECT from a model of the same
// table stable), and a query= that is not deterministic (random(), 'now')
// is evaluated once per cursor. A new statement, or a new execution of a
// prepared one, reads the source again — unless the source's token
// (fresh.go) says that nothing may have changed since the last read.
func (s *source) read(c *host.Conn, prev *snapshot) (*snapshot, error) {
	return s.readBounded(c, prev, s.bound)
}

// readBounded is read with a bound on the number of objects (nil: none):
// once bound(n) is an error, the rows are hashed and counted but no longer
// kept or decoded, and unless the content is prev's the read returns
// bound's error for the total, so a source too large for the work never
// fills memory first.
func (s *source) readBounded(c *host.Conn, prev *snapshot, bound func(n int) error) (*snapshot, error) {
	token, err := s.token(c)
	if err != nil {
		return nil, s.readError(c, err)
	}
	if prev != nil && token != "" && prev.token == token {
		return prev, nil // nothing may have changed (fresh.go)
	}
	if err := s.resolve(c); err != nil {
		return nil, err
	}
	c.Stats.Reads.Add(1)
	h := s.newRowHash()
	defer h.finish()
	var flat []any // the rows one after the other, width columns each
	width := 2 + len(s.extra)
	var feats []float64 // columns= vectors, flat's object column holding their offsets (features.go)
	var lean leanRows   // a lean read's rows, kept column by column
	objects, rows := 0, 0
	var tooMany error
	// count counts a row as read; an error stops the read.
	count := func(hasObject bool) error {
		if rows++; rows%1024 == 0 {
			if err := c.Err(); err != nil {
				return err
			}
		}
		if hasObject {
			objects++
			if bound != nil && tooMany == nil {
				tooMany = bound(objects)
			}
		}
		return nil
	}
	if s.lean { // ids and extras kept, objects not: borrow the rows
		err = c.QueryBorrowed(s.sql, func(row host.Row) error {
			if err := count(s.rowHasObject(row)); err != nil {
				return err
			}
			h.rowFrom(row, s.rowWidth())
			if tooMany == nil {
				return lean.addRow(s, row)
			}
			return nil
		})
	} else {
		err = c.Query(s.sql, nil, func(v []any) error {
			if err := count(s.hasObject(v)); err != nil {
				return err
			}
			h.row(v)
			if tooMany == nil && s.features != nil {
				flat = s.keepFeatures(flat, v, &feats)
			} else if tooMany == nil {
				flat = append(flat, v...) // the values are ours; the slice may be reused
			}
			return nil
		})
	}
	if err != nil {
		if errors.Is(err, host.ErrInterrupted) || c.Err() != nil {
			return nil, host.ErrInterrupted
		}
		return nil, s.readError(c, err)
	}
	sum, err := h.sum(c, s.spec)
	if err != nil {
		return nil, err
	}
	if prev != nil && prev.hash == sum {
		prev.token = token
		return prev, nil // unchanged: what was computed for it stands
	}
	if tooMany != nil {
		return nil, bound(objects)
	}
	var snap *snapshot
	if s.lean {
		snap, err = lean.snapshot(len(s.extra))
	} else {
		snap, err = s.build(flat, width, feats)
	}
	if err != nil {
		return nil, err
	}
	snap.hash, snap.token = sum, token
	return snap, nil
}

// build checks the ids and decodes the objects. NULL and duplicate ids are
// errors (a row could not be named); a NULL object leaves its row out of
// every computation, with NULL results.
func (s *source) build(flat []any, width int, feats []float64) (*snapshot, error) {
	n := len(flat) / width
	row := func(r int) []any { return flat[r*width : (r+1)*width] }
	snap := &snapshot{ids: make([]any, n), obj: make([]int, n), extra: make([][]any, len(s.extra)),
		rows: make([]int, 0, n), objs: make([]kernels.Object, 0, n)} // sized once: a million rows doubled would hold twice the memory
	for i := range snap.extra {
		snap.extra[i] = make([]any, n)
		for r := range n {
			snap.extra[i][r] = row(r)[2+i]
		}
	}
	dim, dimRow := -1, 0
	for r := range n {
		v := row(r)
		id := v[0]
		if _, ok := keyOf(id); !ok {
			return nil, fmt.Errorf("the source has a row whose id is NULL%s; ids must be unique and not NULL", s.objExcerpt(v[1]))
		}
		snap.ids[r] = id
		snap.obj[r] = -1
		if v[1] == nil {
			continue
		}
		o, err := s.rowObject(v[1], feats)
		if err != nil {
			return nil, fmt.Errorf("row id %s: %v", idText(id), err)
		}
		if s.spec.Domain() == kernels.VectorDomain {
			if d := o.Vec.Len(); dim < 0 {
				dim, dimRow = d, r
			} else if d != dim {
				return nil, vecLengthError(id, d, row(dimRow)[0], dim)
			}
		}
		snap.obj[r] = len(snap.objs)
		snap.objs = append(snap.objs, o)
		snap.rows = append(snap.rows, r)
	}
	snap.compactIDs()
	if err := snap.checkUnique(); err != nil {
		return nil, err
	}
	if s.scale && len(snap.objs) > 0 {
		snap.scale = fitScale(snap.objs)
		snap.scale.applyAll(s.spec, snap.objs)
	}
	return snap, nil
}

// vecLengthError is the error of row id's vector of d elements where
// row first's has want: a read, a pass and the landmarks find it.
func vecLengthError(id any, d int, first any, want int) error {
	return fmt.Errorf("row id %s has a vector of %d elements but row id %s has %d; all vectors must have the same length",
		idText(id), d, idText(first), want)
}

// object decodes one object of the spec's domain. Values are owned by the
// caller of Query (copied by the host), so they may be retained.
func (s *source) object(v any) (kernels.Object, error) {
	if s.spec.Domain() == kernels.StringDomain {
		t, ok := v.(string)
		if !ok {
			return kernels.Object{}, fmt.Errorf("the object is %s, but kernel %s compares strings (TEXT)", host.TypeName(v), s.spec)
		}
		return s.spec.PrepareString(t), nil
	}
	var vec kernels.Vec
	_, err := host.DecodeVector(v, &vec)
	if err == nil {
		err = host.CheckFinite(vec)
	}
	if err != nil {
		return kernels.Object{}, fmt.Errorf("kernel %s compares vectors: %v", s.spec, err)
	}
	return s.spec.PrepareVec(vec), nil
}

// input decodes a new object given through a hidden input column, scaled
// as snap's objects are. v may be a view of SQLite's memory, valid only
// during Filter, so the object is built from a copy, which is returned for
// the input column to show.
func (s *source) input(v any, snap *snapshot) (kernels.Object, any, error) {
	switch x := v.(type) {
	case string:
		v = strings.Clone(x)
	case []byte:
		v = slices.Clone(x)
	}
	o, err := s.newObject(v, snap.scale)
	if err != nil {
		return o, nil, fmt.Errorf("input: %v", err)
	}
	return o, v, nil
}

// objExcerpt shows a row's object in an error, as " (object ...)".
func (s *source) objExcerpt(v any) string {
	switch x := v.(type) {
	case string:
		return " (object " + quoteExcerpt(x) + ")"
	case featureRow:
		return ""
	}
	return " (object " + host.TypeName(v) + ")"
}

// gramOptions binds a parallel kernel computation to the connection: its
// interrupt, its string-kernel bound and the transducer tables spec
// names, read now (so every statement sees them as they are).
func gramOptions(c *host.Conn, spec *kernels.Spec) (kernels.GramOptions, error) {
	env := transducer.For(c)
	if err := env.Prepare(spec); err != nil {
		return kernels.GramOptions{}, err
	}
	return kernels.GramOptions{Interrupt: c.Err, MaxCells: host.MaxDPCells.Get(c), Env: env}, nil
}

func asPair(err error) (*kernels.PairError, bool) {
	var pe *kernels.PairError
	ok := errors.As(err, &pe)
	return pe, ok
}

// pairError names the rows of a failed evaluation over the snapshot's
// objects (Gram) by their ids.
func pairError(snap *snapshot, err error) error {
	if pe, ok := asPair(err); ok && pe.Row < snap.nobj() && pe.Col < snap.nobj() {
		return fmt.Errorf("rows id %s and id %s: %w", idText(snap.id(snap.rowOf(pe.Row))), idText(snap.id(snap.rowOf(pe.Col))), pe.Err)
	}
	return err
}

// objectWidth is how many columns of a row as read hold its object.
func (s *source) objectWidth() int {
	if s.features != nil {
		return len(s.fcols)
	}
	return 1
}

// rowWidth is how many values a row of the source statement has: the id,
// the object's columns, the extra columns.
func (s *source) rowWidth() int { return 1 + s.objectWidth() + len(s.extra) }
