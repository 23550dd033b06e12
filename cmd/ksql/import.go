package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxImportFile bounds one file of a directory import, so that a stray
// disk image in a corpus directory is skipped rather than loaded (as is
// anything over SQLite's length limit, where that is lower).
const maxImportFile = 256 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// importOptions are .import's options, as sqlite3's.
type importOptions struct {
	comma   rune   // field separator
	ascii   bool   // ASCII unit/record separators, no quoting
	rowSep  string // record separator in ascii mode
	skip    int    // input rows to skip first
	schema  string // where a new table goes ("" main)
	verbose bool
}

func cmdImport(s *Shell, src *source, args []string, _ string) error {
	o, rest, err := s.importOptions(args[1:])
	if err != nil {
		return fmt.Errorf(".import: %v; usage: %s", err, dotCommands["import"].usage)
	}
	if len(rest) != 2 {
		return fmt.Errorf(".import takes a FILE or DIR and a TABLE; usage: %s", dotCommands["import"].usage)
	}
	path, table := src.resolve(rest[0]), rest[1]
	if s.opts.mode == "csv" && s.opts.rowSep == "\r\n" {
		// sqlite3 does this: after an import in csv mode, rows end in \n.
		s.opts.rowSep = "\n"
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf(".import: cannot read %q: %v", path, unwrapPath(err))
	}
	ctx, end := s.begin()
	defer end()
	spin := s.startSpinner()
	defer spin.stop()
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		// A device such as /dev/zero never ends, and a pipe cannot be
		// read again: .import reads a file twice (see importFile).
		return fmt.Errorf(".import: %q is not a regular file (a device, pipe or socket); .import reads its file twice, so copy the data to a file first", path)
	}
	if fi.IsDir() {
		err = s.withSavepoint(ctx, func() error { return s.importDir(ctx, path, o.schema, table) })
	} else {
		err = s.importFile(ctx, path, table, o)
	}
	if err != nil {
		return fmt.Errorf(".import: %s; nothing was imported", cleanError(err))
	}
	return nil
}

// importSeparator is the separator the mode gives .import (see
// importOptions).
func (s *Shell) importSeparator() (*importOptions, error) {
	o := &importOptions{comma: ','}
	sep := s.opts.colSep
	switch {
	case s.opts.mode == "ascii":
		o.ascii, o.rowSep = true, s.opts.rowSep
	case s.opts.mode == "csv" || s.opts.mode == "list" && sep != "|":
		if utf8.RuneCountInString(sep) != 1 {
			return nil, fmt.Errorf("the separator %q is not one character; give --csv, or set one with .separator", sep)
		}
		o.comma, _ = utf8.DecodeRuneInString(sep)
	}
	return o, nil
}

// importOptions reads the options before FILE and TABLE. The separator is
// sqlite3's: --csv a comma, --ascii the ASCII unit and record separators,
// else the one of csv, ascii and list mode (.mode tabs, .separator ;). But
// where sqlite3 would split at |, the default separator of list mode that
// no CSV file uses, and in the other modes, ksql splits at commas.
func (s *Shell) importOptions(args []string) (*importOptions, []string, error) {
	o, err := s.importSeparator()
	if err != nil {
		return nil, nil, err
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || len(rest) > 0 {
			rest = append(rest, a)
			continue
		}
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", a)
			}
			i++
			return args[i], nil
		}
		switch strings.TrimLeft(a, "-") {
		case "csv":
			o.comma, o.ascii = ',', false
		case "ascii":
			o.ascii, o.rowSep = true, "\x1E"
		case "skip":
			var v string
			if v, err = value(); err == nil {
				o.skip, err = strconv.Atoi(v)
				if err != nil || o.skip < 0 {
					err = fmt.Errorf("--skip needs a whole number ≥ 0, got %q", v)
				}
			}
		case "schema":
			o.schema, err = value()
		case "v":
			o.verbose = true
		default:
			err = fmt.Errorf("unknown option %q (options: --csv, --ascii, --skip N, --schema S, -v)", a)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if o.ascii && utf8.RuneCountInString(s.opts.colSep) != 1 && s.opts.mode == "ascii" {
		return nil, nil, fmt.Errorf("the separator %q is not one character", s.opts.colSep)
	}
	if o.ascii {
		o.comma = '\x1F'
		if s.opts.mode == "ascii" {
			o.comma, _ = utf8.DecodeRuneInString(s.opts.colSep)
		}
	}
	return o, rest, nil
}

func deleteArg(args []string, flag string) []string {
	out := args[:0:0]
	for _, a := range args {
		if a != flag {
			out = append(out, a)
		}
	}
	return out
}

// withSavepoint runs fn so that either all of its changes stay or none do.
// A savepoint, unlike BEGIN, also works inside a transaction the user opened.
func (s *Shell) withSavepoint(ctx context.Context, fn func() error) error {
	if _, err := s.conn.ExecContext(ctx, "SAVEPOINT ksql_import"); err != nil {
		return err
	}
	if err := fn(); err != nil {
		// ctx may be cancelled (Ctrl-C): the rollback must run regardless.
		bg := context.Background()
		s.conn.ExecContext(bg, "ROLLBACK TO ksql_import")
		s.conn.ExecContext(bg, "RELEASE ksql_import")
		return err
	}
	_, err := s.conn.ExecContext(ctx, "RELEASE ksql_import")
	return err
}

// colKind is the type a CSV column gets when .import creates the table.
type colKind int

const (
	kindInt colKind = iota
	kindReal
	kindText
)

var kindSQL = [...]string{"INTEGER", "REAL", "TEXT"}

// recordReader reads the records of a CSV (or ASCII-separated) file with
// their line numbers; read returns io.EOF at the end.
type recordReader struct {
	path  string
	f     *os.File
	bound *boundedReader
	limit int
	bom   int64 // bytes of a byte order mark, which csv does not count
	start int64 // csv's offset of the record being read
	csv   *csv.Reader
	ascii *bufio.Scanner
	comma string
	n     int // records read
}

// importBuffer is the read buffer of .import, which the bound on a
// record's length allows for.
const importBuffer = 256 * 1024

// openRecords opens a file of records of at most limit bytes each.
func openRecords(path string, o *importOptions, limit int) (*recordReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	}
	// The buffer reads ahead of the record that encoding/csv is at.
	bound := &boundedReader{r: f, limit: int64(limit) + 2*importBuffer}
	br := bufio.NewReaderSize(bound, importBuffer)
	if b, _ := br.Peek(3); bytes.Equal(b, utf8BOM) {
		br.Discard(3)
		bound.mark = 3
	}
	r := &recordReader{path: path, f: f, bound: bound, limit: limit, bom: bound.mark}
	if o.ascii {
		r.ascii = bufio.NewScanner(br)
		max := limit + len(o.rowSep)
		r.ascii.Buffer(make([]byte, min(64*1024, max)), max)
		sep := o.rowSep
		r.ascii.Split(func(data []byte, atEOF bool) (int, []byte, error) {
			if i := bytes.Index(data, []byte(sep)); i >= 0 {
				return i + len(sep), data[:i], nil
			}
			if atEOF && len(data) > 0 {
				return len(data), bytes.TrimRight(data, "\n"), nil
			}
			return 0, nil, nil
		})
		r.comma = string(o.comma)
		return r, nil
	}
	r.csv = csv.NewReader(br)
	r.csv.Comma = o.comma
	r.csv.FieldsPerRecord = -1
	r.csv.ReuseRecord = true
	return r, nil
}

func (r *recordReader) close() { r.f.Close() }

// tooLong is the error for record r.n+1, which is over the limit.
func (r *recordReader) tooLong() error {
	return tooLong(fmt.Sprintf("%s: record %d", r.path, r.n+1), r.limit)
}

// read returns the next record and the line it starts on; its fields are
// checked to be UTF-8.
func (r *recordReader) read() ([]string, int, error) {
	var rec []string
	line := 0
	if r.ascii != nil {
		if !r.ascii.Scan() {
			err := r.ascii.Err()
			if err == bufio.ErrTooLong || errors.Is(err, errTooLong) {
				return nil, 0, r.tooLong()
			}
			if err != nil {
				return nil, 0, fmt.Errorf("reading %s: %v", r.path, err)
			}
			return nil, 0, io.EOF
		}
		if len(r.ascii.Bytes()) > r.limit { // the last, without a separator
			return nil, 0, r.tooLong()
		}
		r.n++
		rec, line = strings.Split(r.ascii.Text(), r.comma), r.n
	} else {
		var err error
		rec, err = r.csv.Read()
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		var pe *csv.ParseError
		if errors.Is(err, errTooLong) {
			return nil, 0, r.tooLong()
		}
		if errors.As(err, &pe) {
			return nil, 0, fmt.Errorf("%s:%d: malformed CSV: %v (quote a field that holds a quote, and double the quotes inside)", r.path, pe.Line, pe.Err)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("reading %s: %v", r.path, err)
		}
		r.n++
		line, _ = r.csv.FieldPos(0)
		end := r.csv.InputOffset()
		if end-r.start > int64(r.limit)+1 { // +1: the record's newline
			r.n--
			return nil, 0, r.tooLong()
		}
		r.start = end
		r.bound.mark = r.bom + end
	}
	for i, v := range rec {
		if !utf8.ValidString(v) {
			return nil, 0, fmt.Errorf("%s:%d: field %d is not valid UTF-8 text; convert the file to UTF-8 (e.g. with iconv)", r.path, line, i+1)
		}
	}
	return rec, line, nil
}

// importFile loads a CSV file into table in two passes over the file, so
// that memory stays small whatever its size: the first checks every
// record (and types the columns of a new table) before anything touches
// the database, the second inserts, all in one savepoint.
func (s *Shell) importFile(ctx context.Context, path, table string, o *importOptions) error {
	existing, err := s.tableColumns(ctx, o.schema, table)
	if err != nil {
		return err
	}
	if !o.ascii { // (the ASCII reader's buffer has a bound of its own)
		if err := checkFileLines(path, s.lengthLimit()); err != nil {
			return err
		}
	}
	scan, err := s.scanRecords(ctx, path, o, len(existing))
	if err != nil {
		return err
	}
	return s.withSavepoint(ctx, func() error {
		names := existing
		var kinds []colKind
		if len(existing) == 0 {
			if names, err = headerNames(scan.header); err != nil {
				return fmt.Errorf("%s:%d: %v", path, scan.headerLine, err)
			}
			kinds = scan.kinds
			if err := s.createTable(ctx, o.schema, table, names, kinds); err != nil {
				return err
			}
		}
		return s.insertRecords(ctx, path, o, table, names, kinds, scan)
	})
}

// checkFileLines fails on a line over the limit in a file large enough to
// hold one, before encoding/csv, which holds a line whole and grows its
// buffer in steps that leave garbage of several times the line, meets it.
// (A record of many lines, the csv reader's bound stops.)
func checkFileLines(path string, limit int) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() <= int64(limit) {
		return nil
	}
	line, err := checkLines(f, limit)
	if err == errTooLong {
		return tooLong(fmt.Sprintf("%s: line %d", path, line), limit)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %v", path, err)
	}
	return nil
}

// recordScan is what the first pass learns.
type recordScan struct {
	header     []string // the first record, for a new table
	headerLine int
	kinds      []colKind
	rows       int
	warnings   []string
}

// scanRecords is the first pass: ncols is the column count of an existing
// table, 0 when the first record names the columns of a new one.
func (s *Shell) scanRecords(ctx context.Context, path string, o *importOptions, ncols int) (*recordScan, error) {
	r, err := openRecords(path, o, s.lengthLimit())
	if err != nil {
		return nil, err
	}
	defer r.close()
	sc := &recordScan{}
	var kinds kindInference
	for skipped := 0; ; {
		rec, line, err := r.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if skipped < o.skip {
			skipped++
			continue
		}
		if ncols == 0 {
			sc.header, sc.headerLine, ncols = slices.Clone(rec), line, len(rec)
			kinds = make(kindInference, ncols)
			continue
		}
		sc.rows++
		if w := raggedWarning(path, line, ncols, len(rec)); w != "" {
			sc.warnings = append(sc.warnings, w)
		}
		if sc.header != nil {
			kinds.add(rec)
		}
	}
	if ncols == 0 {
		return nil, fmt.Errorf("%s has no records; a CSV file for a new table needs a header line", path)
	}
	if sc.header != nil {
		sc.kinds = kinds.kinds()
	}
	return sc, nil
}

// raggedWarning is sqlite3's word for a record of the wrong length, which
// it imports anyway: missing fields are NULL, extra ones are dropped.
func raggedWarning(path string, line, want, got int) string {
	switch {
	case got < want:
		return fmt.Sprintf("%s:%d: expected %d columns but found %d - filling the rest with NULL", path, line, want, got)
	case got > want:
		return fmt.Sprintf("%s:%d: expected %d columns but found %d - extras ignored", path, line, want, got)
	}
	return ""
}

// kindInference types each column of a new table by its non-empty values.
type kindInference []struct {
	kind colKind
	seen bool
}

func (k kindInference) add(rec []string) {
	for j := range k {
		if j >= len(rec) || rec[j] == "" || k[j].kind == kindText {
			continue
		}
		v := rec[j]
		k[j].seen = true
		switch {
		case k[j].kind == kindInt && looksInt(v):
		case looksReal(v):
			k[j].kind = kindReal
		default:
			k[j].kind = kindText
		}
	}
}

func (k kindInference) kinds() []colKind {
	out := make([]colKind, len(k))
	for j, c := range k {
		out[j] = c.kind
		if !c.seen {
			out[j] = kindText
		}
	}
	return out
}

// inferKinds types the columns of records (the test's entry point).
func inferKinds(recs [][]string, n int) []colKind {
	k := make(kindInference, n)
	for _, r := range recs {
		k.add(r)
	}
	return k.kinds()
}

// headerNames checks the header: empty names become c1, c2, …; a name used
// twice (SQL names ignore case) is an error.
func headerNames(header []string) ([]string, error) {
	seen := map[string]bool{}
	names := make([]string, len(header))
	for i, h := range header {
		h = strings.TrimSpace(h)
		if h == "" {
			h = "c" + strconv.Itoa(i+1)
		}
		if seen[strings.ToLower(h)] {
			return nil, fmt.Errorf("the header names column %q twice", h)
		}
		seen[strings.ToLower(h)] = true
		names[i] = h
	}
	return names, nil
}

// looksInt accepts what SQLite would store as an INTEGER without changing
// its text: no leading zeros (so codes like 007 stay text), no spaces.
func looksInt(v string) bool {
	d := strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	if d == "" || (len(d) > 1 && d[0] == '0') || strings.TrimLeft(d, "0123456789") != "" {
		return false
	}
	_, err := strconv.ParseInt(v, 10, 64)
	return err == nil
}

// looksReal accepts decimal numbers only (not inf, nan or hex floats), and,
// like looksInt, none with leading zeros.
func looksReal(v string) bool {
	if strings.Trim(v, "0123456789+-.eE") != "" || strings.Trim(v, "+-.eE") == "" {
		return false
	}
	digits := strings.TrimLeft(v, "+-")
	if i := strings.IndexAny(digits, ".eE"); i >= 0 {
		digits = digits[:i]
	}
	if len(digits) > 1 && digits[0] == '0' {
		return false
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}

// qualified is [schema.]table, quoted.
func qualified(schema, table string) string {
	if schema == "" {
		return quoteIdent(table)
	}
	return quoteIdent(schema) + "." + quoteIdent(table)
}

func (s *Shell) createTable(ctx context.Context, schema, table string, names []string, kinds []colKind) error {
	defs := make([]string, len(names))
	for i, n := range names {
		defs[i] = quoteIdent(n) + " " + kindSQL[kinds[i]]
	}
	_, err := s.conn.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %s(%s)", qualified(schema, table), strings.Join(defs, ", ")))
	return err
}

// insertRecords is the second pass. Into a new table values go typed (an
// empty field of a numeric column is NULL); into an existing one as text,
// for the column's affinity to convert, as sqlite3 does. Rows go in
// batches, one INSERT of many rows per call: a call through database/sql
// costs more than SQLite's work for a row.
func (s *Shell) insertRecords(ctx context.Context, path string, o *importOptions, table string, names []string, kinds []colKind, sc *recordScan) error {
	batch := max(1, min(256, 30000/len(names)))
	ins, err := s.newBatchInsert(ctx, qualified(o.schema, table), names, batch)
	if err != nil {
		return err
	}
	defer ins.close()
	r, err := openRecords(path, o, s.lengthLimit())
	if err != nil {
		return err
	}
	defer r.close()
	skip := o.skip
	if sc.header != nil {
		skip++
	}
	for n := 0; ; n++ {
		rec, line, err := r.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if n < skip {
			continue
		}
		vals := ins.next(line)
		for j := range vals {
			switch {
			case j >= len(rec):
				vals[j] = nil
			case kinds == nil:
				vals[j] = strings.Clone(rec[j]) // the reader reuses its record
			default:
				vals[j] = fieldValue(rec[j], kinds[j])
			}
		}
		if err := ins.flushIfFull(ctx, path); err != nil {
			return err
		}
	}
	if err := ins.flush(ctx, path); err != nil {
		return err
	}
	s.importWarnings(sc.warnings)
	if o.verbose {
		fmt.Fprintf(s.out, "Added %d rows with 0 errors using %d lines of input\n", sc.rows, r.n)
	}
	return nil
}

// batchInsert inserts rows into a table many at a time.
type batchInsert struct {
	s     *Shell
	table string
	cols  string
	ncol  int
	full  *sql.Stmt
	vals  []any
	lines []int // input line of each pending row
	rows  int
}

func (s *Shell) newBatchInsert(ctx context.Context, table string, names []string, batch int) (*batchInsert, error) {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = quoteIdent(n)
	}
	b := &batchInsert{s: s, table: table, cols: strings.Join(quoted, ", "), ncol: len(names),
		vals: make([]any, 0, batch*len(names)), lines: make([]int, 0, batch)}
	var err error
	b.full, err = s.conn.PrepareContext(ctx, b.sql(batch))
	return b, err
}

func (b *batchInsert) sql(rows int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", b.ncol), ", ") + ")"
	return fmt.Sprintf("INSERT INTO %s(%s) VALUES %s", b.table, b.cols, strings.TrimSuffix(strings.Repeat(one+", ", rows), ", "))
}

// next returns the values of a new pending row, to be filled in.
func (b *batchInsert) next(line int) []any {
	n := len(b.vals)
	b.vals = b.vals[:n+b.ncol]
	b.lines = append(b.lines, line)
	return b.vals[n:]
}

func (b *batchInsert) flushIfFull(ctx context.Context, path string) error {
	if len(b.vals) < cap(b.vals) {
		return nil
	}
	return b.exec(ctx, path, b.full)
}

// flush inserts what is pending, with a statement of the right size.
func (b *batchInsert) flush(ctx context.Context, path string) error {
	if len(b.lines) == 0 {
		return nil
	}
	stmt, err := b.s.conn.PrepareContext(ctx, b.sql(len(b.lines)))
	if err != nil {
		return err
	}
	defer stmt.Close()
	return b.exec(ctx, path, stmt)
}

// exec runs one batch. When it fails, the rows go again one at a time, so
// that the error names the line of the row SQLite refused (the savepoint
// around the import undoes the rows that went in).
func (b *batchInsert) exec(ctx context.Context, path string, stmt *sql.Stmt) error {
	defer func() { b.vals, b.lines = b.vals[:0], b.lines[:0] }()
	if _, err := stmt.ExecContext(ctx, b.vals...); err == nil || ctx.Err() != nil {
		return err
	}
	one, err := b.s.conn.PrepareContext(ctx, b.sql(1))
	if err != nil {
		return err
	}
	defer one.Close()
	for i, line := range b.lines {
		if _, err := one.ExecContext(ctx, b.vals[i*b.ncol:(i+1)*b.ncol]...); err != nil {
			return fmt.Errorf("%s:%d: %s", path, line, cleanError(err))
		}
	}
	return nil
}

func (b *batchInsert) close() { b.full.Close() }

// importWarnings reports ragged records, at most 10 of them.
func (s *Shell) importWarnings(ws []string) {
	for i, w := range ws {
		if i == 10 {
			s.warnRaw(fmt.Sprintf("%s: %d more records of the wrong length", filepathBase(w), len(ws)-10))
			break
		}
		s.warnRaw(w)
	}
}

func filepathBase(w string) string {
	p, _, _ := strings.Cut(w, ":")
	return p
}

func fieldValue(v string, k colKind) any {
	if k == kindText {
		return v
	}
	if v == "" {
		return nil
	}
	if k == kindInt {
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	}
	f, _ := strconv.ParseFloat(v, 64)
	return f
}

// importDir loads every text file under dir as a row (name, body).
func (s *Shell) importDir(ctx context.Context, dir, schema, table string) error {
	cols, err := s.tableColumns(ctx, schema, table)
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		_, err := s.conn.ExecContext(ctx, fmt.Sprintf(
			"CREATE TABLE %s(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body TEXT NOT NULL)", qualified(schema, table)))
		if err != nil {
			return err
		}
	}
	stmt, err := s.conn.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %s(name, body) VALUES (?, ?)", qualified(schema, table)))
	if err != nil {
		return err
	}
	defer stmt.Close()
	limit := min(maxImportFile, s.lengthLimit())
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			s.warn("skipped %s: %v", p, unwrapPath(err))
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		return s.importTextFile(ctx, stmt, dir, p, limit)
	})
}

// importTextFile inserts one file, or warns and skips it when it is not
// text or its name is not UTF-8.
func (s *Shell) importTextFile(ctx context.Context, stmt *sql.Stmt, dir, p string, limit int) error {
	fi, err := os.Stat(p) // follows symlinks to files
	switch {
	case err != nil:
		s.warn("skipped %s: %v", p, unwrapPath(err))
		return nil
	case !fi.Mode().IsRegular():
		s.warn("skipped %s: not a regular file", p)
		return nil
	case fi.Size() > int64(limit):
		s.warn("skipped %s: %d bytes, more than the %d a text file may have", p, fi.Size(), limit)
		return nil
	}
	data, err := readFileLimited(p, limit)
	if err == errTooLong {
		s.warn("skipped %s: more than the %d bytes a text file may have", p, limit)
		return nil
	}
	if err != nil {
		s.warn("skipped %s: %v", p, unwrapPath(err))
		return nil
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		s.warn("skipped %s: not UTF-8 text", p)
		return nil
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		rel = p
	}
	if !utf8.ValidString(rel) {
		s.warn("skipped %s: the file name is not UTF-8 text; rename the file", p)
		return nil
	}
	if _, err := stmt.ExecContext(ctx, filepath.ToSlash(rel), string(data)); err != nil {
		return fmt.Errorf("%s: %s", p, cleanError(err))
	}
	return nil
}

// warn reports a problem that does not stop the command. Paths that are
// not UTF-8 show their bytes escaped.
func (s *Shell) warn(format string, args ...any) {
	for i, a := range args {
		if str, ok := a.(string); ok && !utf8.ValidString(str) {
			args[i] = strings.Trim(strconv.Quote(str), `"`)
		}
	}
	s.warnRaw("warning: .import: " + fmt.Sprintf(format, args...))
}

// warnRaw writes one line to stderr, over a spinner that may be showing.
func (s *Shell) warnRaw(line string) {
	s.flush()
	if s.progress {
		fmt.Fprint(s.stderr, "\r\x1b[K")
	}
	fmt.Fprintln(s.stderr, line)
}
