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
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxImportFile bounds one file of a directory import, so that a stray
// disk image in a corpus directory is skipped rather than loaded.
const maxImportFile = 256 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func cmdImport(s *Shell, _ *source, args []string, _ string) error {
	// sqlite3 takes --csv; CSV is the only format for files, so accept it.
	args = deleteArg(args, "--csv")
	if err := wantArgs(args, 2, 2); err != nil {
		return err
	}
	path, table := args[1], args[2]
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf(".import: cannot read %q: %v", path, unwrapPath(err))
	}
	ctx, end := s.begin()
	defer end()
	spin := s.startSpinner()
	defer spin.stop()
	if fi.IsDir() {
		err = s.withSavepoint(ctx, func() error { return s.importDir(ctx, path, table) })
	} else {
		err = s.importCSV(ctx, path, table)
	}
	if err != nil {
		return fmt.Errorf(".import: %s; nothing was imported", cleanError(err))
	}
	return nil
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

// readCSV reads and checks the whole file before anything touches the
// database, so that a bad row leaves the database as it was.
func readCSV(path string) (header []string, recs [][]string, lines []int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64*1024)
	if b, _ := br.Peek(3); bytes.Equal(b, utf8BOM) {
		br.Discard(3)
	}
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, nil, nil, fmt.Errorf("%s:%d: malformed CSV: %v", path, pe.Line, pe.Err)
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading %s: %v", path, err)
		}
		line, _ := r.FieldPos(0)
		for i, v := range rec {
			if !utf8.ValidString(v) {
				l, _ := r.FieldPos(i)
				return nil, nil, nil, fmt.Errorf("%s:%d: field %d is not valid UTF-8 text; convert the file to UTF-8 (e.g. with iconv)", path, l, i+1)
			}
		}
		if header == nil {
			header = rec
			continue
		}
		if len(rec) != len(header) {
			return nil, nil, nil, fmt.Errorf("%s:%d: %d fields, but the header has %d", path, line, len(rec), len(header))
		}
		recs = append(recs, rec)
		lines = append(lines, line)
	}
	if header == nil {
		return nil, nil, nil, fmt.Errorf("%s is empty; a CSV file needs a header line", path)
	}
	return header, recs, lines, nil
}

func (s *Shell) importCSV(ctx context.Context, path, table string) error {
	header, recs, lines, err := readCSV(path)
	if err != nil {
		return err
	}
	names, err := headerNames(header)
	if err != nil {
		return fmt.Errorf("%s:1: %v", path, err)
	}
	kinds := inferKinds(recs, len(names))
	return s.withSavepoint(ctx, func() error {
		existing, err := s.tableColumns(ctx, table)
		if err != nil {
			return err
		}
		if len(existing) == 0 {
			if err := s.createTable(ctx, table, names, kinds); err != nil {
				return err
			}
		} else if err := matchHeader(names, existing, table, path); err != nil {
			return err
		}
		return s.insertRows(ctx, table, names, kinds, recs, lines, path)
	})
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

func matchHeader(names, existing []string, table, path string) error {
	have := map[string]bool{}
	for _, c := range existing {
		have[strings.ToLower(c)] = true
	}
	for _, n := range names {
		if !have[strings.ToLower(n)] {
			return fmt.Errorf("%s:1: the header names column %q, which table %s does not have (its columns: %s)",
				path, n, table, strings.Join(existing, ", "))
		}
	}
	return nil
}

// inferKinds types each column by its non-empty values.
func inferKinds(recs [][]string, n int) []colKind {
	kinds := make([]colKind, n)
	for j := range kinds {
		seen := false
		for _, r := range recs {
			v := r[j]
			if v == "" {
				continue
			}
			seen = true
			switch {
			case kinds[j] == kindInt && looksInt(v):
			case kinds[j] <= kindReal && looksReal(v):
				kinds[j] = kindReal
			default:
				kinds[j] = kindText
			}
			if kinds[j] == kindText {
				break
			}
		}
		if !seen {
			kinds[j] = kindText
		}
	}
	return kinds
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

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func (s *Shell) createTable(ctx context.Context, table string, names []string, kinds []colKind) error {
	defs := make([]string, len(names))
	for i, n := range names {
		defs[i] = quoteIdent(n) + " " + kindSQL[kinds[i]]
	}
	_, err := s.conn.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %s(%s)", quoteIdent(table), strings.Join(defs, ", ")))
	return err
}

func (s *Shell) insertRows(ctx context.Context, table string, names []string, kinds []colKind, recs [][]string, lines []int, path string) error {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = quoteIdent(n)
	}
	q := fmt.Sprintf("INSERT INTO %s(%s) VALUES (%s)", quoteIdent(table), strings.Join(quoted, ", "),
		strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", "))
	stmt, err := s.conn.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	defer stmt.Close()
	vals := make([]any, len(names))
	for i, r := range recs {
		for j, v := range r {
			vals[j] = fieldValue(v, kinds[j])
		}
		if _, err := stmt.ExecContext(ctx, vals...); err != nil {
			return fmt.Errorf("%s:%d: %s", path, lines[i], cleanError(err))
		}
	}
	return nil
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
func (s *Shell) importDir(ctx context.Context, dir, table string) error {
	cols, err := s.tableColumns(ctx, table)
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		_, err := s.conn.ExecContext(ctx, fmt.Sprintf(
			"CREATE TABLE %s(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body TEXT NOT NULL)", quoteIdent(table)))
		if err != nil {
			return err
		}
	}
	stmt, err := s.conn.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %s(name, body) VALUES (?, ?)", quoteIdent(table)))
	if err != nil {
		return err
	}
	defer stmt.Close()
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
		return s.importFile(ctx, stmt, dir, p)
	})
}

// importFile inserts one file, or warns and skips it when it is not text.
func (s *Shell) importFile(ctx context.Context, stmt *sql.Stmt, dir, p string) error {
	fi, err := os.Stat(p) // follows symlinks to files
	switch {
	case err != nil:
		s.warn("skipped %s: %v", p, unwrapPath(err))
		return nil
	case !fi.Mode().IsRegular():
		s.warn("skipped %s: not a regular file", p)
		return nil
	case fi.Size() > maxImportFile:
		s.warn("skipped %s: %d bytes, more than the %d a text file may have", p, fi.Size(), maxImportFile)
		return nil
	}
	data, err := os.ReadFile(p)
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
	if _, err := stmt.ExecContext(ctx, filepath.ToSlash(rel), string(data)); err != nil {
		return fmt.Errorf("%s: %s", p, cleanError(err))
	}
	return nil
}

// warn reports a problem that does not stop the command.
func (s *Shell) warn(format string, args ...any) {
	s.out.Flush()
	if s.progress {
		fmt.Fprint(s.stderr, "\r\x1b[K") // over a spinner that may be showing
	}
	fmt.Fprintf(s.stderr, "warning: .import: "+format+"\n", args...)
}
