package main

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"

	"github.com/ksql/ksql/ext/catalog"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// driverConn returns the driver's own connection under ksql's wrapper.
func driverConn(dc any) any {
	if w, ok := dc.(interface{ Raw() driver.Conn }); ok {
		return w.Raw()
	}
	return dc
}

// columnInfoer is modernc.org/sqlite's connection: ColumnInfo prepares a
// statement without running it and describes its result columns, with the
// table and column each comes from.
type columnInfoer interface {
	ColumnInfo(query string) ([]sqlite.ColumnInfo, error)
}

// prepare checks that text compiles, the way sqlite3 separates "Parse
// error" (the statement is refused) from "Runtime error", and describes its
// result columns, vector columns marked (see vectorColumns).
func (s *Shell) prepare(text string) ([]column, error) {
	var info []sqlite.ColumnInfo
	var perr error
	offset := -1
	err := s.conn.Raw(func(dc any) error {
		raw := driverConn(dc)
		ci, ok := raw.(columnInfoer)
		if !ok {
			return errors.New("the driver cannot describe statements")
		}
		info, perr = ci.ColumnInfo(text)
		if perr != nil {
			offset = errorOffset(raw)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if perr != nil {
		return nil, &sqlError{parse: true, msg: cleanError(perr), sql: text, offset: offset}
	}
	cols := make([]column, len(info))
	for i, c := range info {
		cols[i] = column{name: c.Name, decl: c.DeclType}
	}
	s.vectorColumns(text, info, cols)
	return cols, nil
}

// errorOffset returns sqlite3_error_offset of the connection: the byte in
// the statement where the last error was found, or -1. modernc.org/sqlite
// does not export it, nor the handle it needs, so this reads the handle
// from the connection's fields; TestErrorContext fails if they move, and
// then errors simply lose their excerpt.
func errorOffset(raw any) int {
	tls, db, ok := sqliteHandle(raw)
	if !ok {
		return -1
	}
	return int(sqlite3.Xsqlite3_error_offset(tls, db))
}

// vectorFunctions return float32 vector BLOBs: ksql's and sqlite-vec's.
var vectorFunctions = map[string]bool{
	"rff_embed": true, "vec_f32": true, "vec_normalize": true, "vec_slice": true,
	"vec_add": true, "vec_sub": true,
}

// vectorColumns marks the result columns whose BLOBs are float32 vectors:
// a column declared as a vector (float[N], f32…, vector), a float[N]
// column of a vec0 table (vec0 declares no types to SQLite), a BLOB column
// of one of ksql's virtual tables (kernel_map's vector), and a result
// computed by a function that returns vectors (rff_embed, vec_f32, …).
// Other BLOBs print as the sqlite3 shell prints them.
func (s *Shell) vectorColumns(text string, info []sqlite.ColumnInfo, cols []column) {
	var exprs []string
	for i, c := range info {
		switch {
		case vectorDecl(c.DeclType):
			cols[i].vector = true
		case c.TableName != "" && (c.DeclType == "" || strings.EqualFold(c.DeclType, "BLOB")):
			cols[i].vector = s.isVectorTableColumn(c.DatabaseName, c.TableName, c.OriginName, c.DeclType)
		case c.TableName == "":
			if exprs == nil {
				exprs = resultExprs(text, len(info))
			}
			cols[i].vector = isVectorCall(exprs[i]) || isVectorCall(c.Name)
		}
	}
}

// isVectorTableColumn reports whether column col of schema.table holds
// vectors because of the virtual table module it belongs to.
func (s *Shell) isVectorTableColumn(schema, table, col, decl string) bool {
	if schema == "" {
		schema = "main"
	}
	var ddl string
	q := "SELECT sql FROM " + quoteIdent(schema) + ".sqlite_schema WHERE type = 'table' AND name = ?"
	if s.conn.QueryRowContext(context.Background(), q, table).Scan(&ddl) != nil {
		return false
	}
	mod, args := virtualModule(ddl)
	switch mod = strings.ToLower(mod); {
	case mod == "vec0":
		return vectorDecl(moduleColumnType(args, col))
	case strings.EqualFold(decl, "BLOB"):
		for _, m := range catalog.Extension.Modules {
			if m.Name == mod {
				return true
			}
		}
	}
	return false
}

// moduleColumnType finds the type that the arguments of CREATE VIRTUAL
// TABLE … USING module(args) give to column col ("emb float[3]").
func moduleColumnType(args, col string) string {
	toks := sqlTokens(args)
	if len(toks) == 0 || toks[0].text != "(" {
		return ""
	}
	depth, start := 0, 1
	for i, t := range toks {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth == 1 && t.text == "," || depth == 0 {
			def := toks[start:i]
			if len(def) >= 2 && strings.EqualFold(unquoteIdent(def[0].text), col) {
				return exprText(args, def[1:])
			}
			start = i + 1
		}
		if depth == 0 {
			break
		}
	}
	return ""
}

// virtualModule returns the module of a CREATE VIRTUAL TABLE statement and
// the text of its arguments, or "" for other statements.
func virtualModule(ddl string) (module, args string) {
	toks := sqlTokens(ddl)
	// CREATE VIRTUAL TABLE [IF NOT EXISTS] [schema.]name USING module(...)
	if len(toks) < 6 || !strings.EqualFold(toks[0].text, "CREATE") || !strings.EqualFold(toks[1].text, "VIRTUAL") {
		return "", ""
	}
	for i, t := range toks {
		if strings.EqualFold(t.text, "USING") && i+1 < len(toks) {
			m := toks[i+1]
			rest := ""
			if i+2 < len(toks) {
				rest = ddl[toks[i+2].pos:]
			}
			return unquoteIdent(m.text), rest
		}
	}
	return "", ""
}

// isVectorCall reports whether expr is a call of a function that returns
// vectors, possibly in parentheses.
func isVectorCall(expr string) bool {
	toks := sqlTokens(expr)
	for len(toks) >= 2 && toks[0].text == "(" && toks[len(toks)-1].text == ")" && matching(toks) == len(toks)-1 {
		toks = toks[1 : len(toks)-1]
	}
	if len(toks) < 3 || toks[1].text != "(" || !vectorFunctions[strings.ToLower(toks[0].text)] {
		return false
	}
	return matching(toks[1:]) == len(toks)-2
}

// matching returns the index of the parenthesis that closes toks[0].
func matching(toks []token) int {
	depth := 0
	for i, t := range toks {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
