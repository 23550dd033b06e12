package main

import (
	"bufio"
	"context"
	"fmt"
	"strings"
)

// dumpOptions are the options of .dump, as sqlite3's.
type dumpOptions struct {
	dataOnly bool // no CREATE statements, no transaction
	noSys    bool // leave out sqlite_sequence and sqlite_stat*
	newlines bool // write line breaks in text as they are, not as replace(...)
	likes    []string
}

// cmdDump writes the database as SQL that rebuilds it, as sqlite3's .dump
// does, statement for statement: tables with their rows, then indexes,
// triggers and views; a virtual table as a row written into sqlite_schema
// (so that loading the dump does not run the module's constructor) and its
// shadow tables, which hold its data (ksql's fitted models among them), as
// ordinary tables.
func cmdDump(s *Shell, _ *source, args []string, _ string) error {
	var o dumpOptions
	for _, a := range args[1:] {
		switch strings.TrimLeft(a, "-") {
		case "data-only":
			o.dataOnly = true
		case "nosys":
			o.noSys = true
		case "newlines":
			o.newlines = true
		default:
			if strings.HasPrefix(a, "-") {
				return fmt.Errorf(".dump: unknown option %q; the options are --data-only, --newlines and --nosys", a)
			}
			o.likes = append(o.likes, a)
		}
	}
	ctx, end := s.begin()
	defer end()
	if err := s.dump(ctx, s.out, &o); err != nil {
		return fmt.Errorf(".dump: %s", cleanError(err))
	}
	return nil
}

// likeFilter is the WHERE condition on sqlite_schema AS o for .dump's
// patterns, with the arguments it binds.
func likeFilter(likes []string) (string, []any) {
	if len(likes) == 0 {
		return "true", nil
	}
	var conds []string
	var args []any
	for _, l := range likes {
		n := len(args) + 1
		conds = append(conds, fmt.Sprintf(`(o.name LIKE ?%d ESCAPE '\' OR EXISTS (
  SELECT 1 FROM sqlite_schema AS v WHERE v.name LIKE ?%d ESCAPE '\'
   AND v.sql LIKE 'CREATE VIRTUAL TABLE%%' AND substr(o.name, 1, length(v.name) + 1) = v.name || '_'))`, n, n))
		args = append(args, l)
	}
	return strings.Join(conds, " OR "), args
}

func (s *Shell) dump(ctx context.Context, w *bufio.Writer, o *dumpOptions) error {
	where, args := likeFilter(o.likes)
	if !o.dataOnly {
		w.WriteString("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
	}
	tables, err := s.queryRows(ctx, `SELECT o.name, o.sql FROM sqlite_schema AS o
WHERE (`+where+`) AND o.type = 'table' AND o.sql NOT NULL
ORDER BY o.tbl_name = 'sqlite_sequence', o.rowid`, args...)
	if err != nil {
		return err
	}
	writable := false
	for _, t := range tables {
		data, err := s.dumpTable(w, t[0], t[1], o, &writable)
		if err == nil && data {
			err = s.dumpRows(ctx, w, t[0], o)
		}
		if err != nil {
			return err
		}
	}
	if !o.dataOnly {
		others, err := s.queryRows(ctx, `SELECT o.sql FROM sqlite_schema AS o
WHERE (`+where+`) AND o.sql NOT NULL AND o.type IN ('index', 'trigger', 'view') ORDER BY o.rowid`, args...)
		if err != nil {
			return err
		}
		for _, q := range others {
			w.WriteString(schemaLine(q[0]))
		}
	}
	if writable {
		w.WriteString("PRAGMA writable_schema=OFF;\n")
	}
	if !o.dataOnly {
		w.WriteString("COMMIT;\n")
	}
	return nil
}

// dumpTable writes the statement that makes one table (sqlite3's
// dump_callback) and reports whether its rows are to be dumped too.
func (s *Shell) dumpTable(w *bufio.Writer, name, ddl string, o *dumpOptions, writable *bool) (bool, error) {
	switch {
	case name == "sqlite_sequence" && !o.noSys:
		if !o.dataOnly {
			w.WriteString("DELETE FROM sqlite_sequence;\n")
		}
	case strings.HasPrefix(name, "sqlite_stat") && !o.noSys:
		if !o.dataOnly {
			w.WriteString("ANALYZE sqlite_schema;\n")
		}
	case strings.HasPrefix(name, "sqlite_"):
		return false, nil
	case o.dataOnly:
	case strings.HasPrefix(ddl, "CREATE VIRTUAL TABLE"):
		if !*writable {
			w.WriteString("PRAGMA writable_schema=ON;\n")
			*writable = true
		}
		q := func(v string) []byte { return appendSQLString(nil, v, false) }
		fmt.Fprintf(w, "INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table',%s,%s,0,%s);\n",
			q(name), q(name), q(ddl))
		return false, nil
	case strings.HasPrefix(ddl, `CREATE TABLE "`) || strings.HasPrefix(ddl, `CREATE TABLE '`):
		// A quoted name may be a shadow table that the module's
		// constructor has already made when the dump is loaded.
		fmt.Fprintf(w, "CREATE TABLE IF NOT EXISTS %s;\n", ddl[len("CREATE TABLE "):])
	default:
		w.WriteString(schemaLine(ddl))
	}
	return true, nil
}

// queryRows runs a query whose columns are all text and keeps its rows.
func (s *Shell) queryRows(ctx context.Context, q string, args ...any) ([][]string, error) {
	rows, err := s.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		r := make([]string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range r {
			ptrs[i] = &r[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// schemaLine ends a CREATE statement with ";", on a line of its own when
// its last line is a comment.
func schemaLine(q string) string {
	last := q[strings.LastIndexByte(q, '\n')+1:]
	if strings.Contains(last, "--") {
		return q + "\n;\n"
	}
	return q + ";\n"
}

// dumpRows writes the rows of one table as INSERT statements.
func (s *Shell) dumpRows(ctx context.Context, w *bufio.Writer, table string, o *dumpOptions) error {
	cols, err := s.queryStrings(ctx, "SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		return nil
	}
	// +col is the value itself, but with no declared type, so the driver
	// does not read the text of a DATE column as a time.
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = "+" + quoteName(c)
	}
	rows, err := s.conn.QueryContext(ctx, "SELECT "+strings.Join(quoted, ",")+" FROM "+quoteName(table))
	if err != nil {
		return err
	}
	defer rows.Close()
	prefix := "INSERT INTO " + quoteName(table) + " VALUES("
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var buf []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		buf = append(buf[:0], prefix...)
		for i, v := range vals {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendSQL(buf, v, !o.newlines)
		}
		buf = append(buf, ");\n"...)
		w.Write(buf)
	}
	return rows.Err()
}
