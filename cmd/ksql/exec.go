package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// sqlError is an error of one SQL statement: parse is true when SQLite
// refused to prepare it (sqlite3's "Parse error"), false when it failed
// while running ("Runtime error"); offset is where in sql SQLite found the
// problem, -1 when it does not say.
type sqlError struct {
	parse  bool
	msg    string
	sql    string
	offset int
}

func (e *sqlError) Error() string { return e.msg }

// runSQL runs one statement and prints its rows.
func (s *Shell) runSQL(src *source, text string) error {
	if !utf8.ValidString(text) {
		return fmt.Errorf("the statement is not valid UTF-8 text; convert the input to UTF-8")
	}
	text = strings.TrimSpace(text)
	ctx, end := s.begin()
	defer end()
	spin := s.startSpinner()
	defer spin.stop()
	t0, ru0 := time.Now(), cpuTimes()
	cols, err := s.prepare(text)
	var args []any
	if err == nil {
		args, err = s.bindArgs(ctx, text)
	}
	if err == nil {
		err = s.query(ctx, spin, text, cols, args)
	}
	spin.stop()
	if s.timer {
		s.printTimer(t0, ru0)
	}
	if s.changes && err == nil {
		s.printChanges()
	}
	if ferr := s.flush(); ferr != nil && err == nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// query runs a prepared statement and prints its rows.
func (s *Shell) query(ctx context.Context, spin *spinner, text string, cols []column, args []any) error {
	rows, err := s.conn.QueryContext(ctx, text, args...)
	if err != nil {
		return s.runtimeError(ctx, text, err)
	}
	defer rows.Close()
	if n, err := rows.Columns(); err == nil && len(n) != len(cols) {
		// The schema changed between prepare and run; go by the names.
		cols = make([]column, len(n))
		for i := range n {
			cols[i] = column{name: n[i]}
		}
	}
	var p printer
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return s.runtimeError(ctx, text, err)
		}
		if p == nil {
			if gridStyles[s.opts.mode] == nil {
				spin.stop() // rows stream to the terminal from now on
			}
			p = newPrinter(s.out, &s.opts)
			p.header(cols)
		}
		p.row(vals)
	}
	err = rows.Err()
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	spin.stop()
	if p != nil {
		p.end()
	}
	if err != nil {
		return s.runtimeError(ctx, text, err)
	}
	return nil
}

func (s *Shell) runtimeError(ctx context.Context, text string, err error) error {
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return &sqlError{msg: cleanError(err), sql: text, offset: -1}
}

// errorContext is sqlite3's excerpt under an error message: up to 78
// columns of the statement, on one line, with a mark under the place SQLite
// names. It is "" when SQLite names no place.
func errorContext(stmt string, offset int) string {
	if offset < 0 || offset > len(stmt) {
		return ""
	}
	// Show from at most 50 bytes before the error, cut at a rune boundary.
	from := max(0, offset-50)
	for from > 0 && !utf8.RuneStart(stmt[from]) {
		from++
	}
	code := []rune(stmt[from:])
	before := runewidth.StringWidth(strings.Map(oneLine, stmt[from:offset]))
	if len(code) > 78 {
		code = code[:78]
	}
	line := strings.Map(oneLine, string(code))
	if before < 25 {
		return fmt.Sprintf("  %s\n  %s^--- error here\n", line, strings.Repeat(" ", before))
	}
	return fmt.Sprintf("  %s\n  %serror here ---^\n", line, strings.Repeat(" ", before-14))
}

// oneLine turns white space into spaces, so an excerpt stays on one line.
func oneLine(r rune) rune {
	if r == '\n' || r == '\r' || r == '\t' || r == '\f' || r == '\v' {
		return ' '
	}
	return r
}

// printChanges prints the counts of .changes on, as sqlite3 does.
func (s *Shell) printChanges() {
	var n, total int64
	s.conn.QueryRowContext(context.Background(), "SELECT changes(), total_changes()").Scan(&n, &total)
	fmt.Fprintf(s.out, "changes: %d   total_changes: %d\n", n, total)
}

// errTooManyRows is collect's error for a result of more than maxRows.
var errTooManyRows = errors.New("too many rows")

// collect runs a query and keeps all its rows, for .plot, failing when
// there are more than maxRows.
func (s *Shell) collect(ctx context.Context, query string, maxRows int) ([]column, [][]any, error) {
	cols, err := s.prepare(query)
	if err != nil {
		return nil, nil, err
	}
	args, err := s.bindArgs(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	rows, err := s.conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, s.runtimeError(ctx, query, err)
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		if len(out) == maxRows {
			return nil, nil, errTooManyRows
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, s.runtimeError(ctx, query, err)
	}
	return cols, out, ctx.Err()
}
