package main

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parameters are kept where sqlite3 keeps them, in a temp table a user may
// also read and write with SQL.
const (
	paramTable     = "temp.sqlite_parameters"
	paramTableDDL  = "CREATE TABLE IF NOT EXISTS temp.sqlite_parameters(key TEXT PRIMARY KEY, value) WITHOUT ROWID"
	parameterUsage = `.parameter CMD ...
   (values are bound to the :name, @name, $name and ?N parameters of every
   statement; parameters without a value are NULL)
   clear                   erase all bindings
   init                    create the TEMP table that holds bindings
   list                    list the current bindings
   set PARAMETER VALUE     give PARAMETER the VALUE: an SQL literal or expression
                           (42, 2.5, 'text', x'00ff', 1+2), else the text as typed;
                           PARAMETER starts with one of $ : @ ?
   unset PARAMETER         remove PARAMETER
`
)

// sqlParam is one parameter of a statement: its index and its name as
// written (:a, @a, $a, ?3), "" for an anonymous ?.
type sqlParam struct {
	index int
	name  string
}

// statementParams lists the parameters of a statement with the indexes
// SQLite gives them: ?NNN takes index NNN, a bare ? the next index, a name
// the next index the first time it appears and the same index after that.
// The result has one entry per index, 1 to the largest.
func statementParams(text string) []sqlParam {
	var params []sqlParam
	byName := map[string]int{}
	n := 0
	for i := 0; i < len(text); {
		kind, l := nextToken(text[i:])
		name, ok := paramAt(text[i:])
		if !ok || kind == tkWS {
			i += l
			continue
		}
		i += max(len(name), 1)
		idx := 0
		switch {
		case name == "?":
			n++
			idx, name = n, ""
		case name[0] == '?':
			idx, _ = strconv.Atoi(name[1:])
			n = max(n, idx)
		default:
			if k, seen := byName[name]; seen {
				idx = k
			} else {
				n++
				idx = n
				byName[name] = idx
			}
		}
		for len(params) < idx {
			params = append(params, sqlParam{index: len(params) + 1})
		}
		if params[idx-1].name == "" {
			params[idx-1].name = name
		}
	}
	return params
}

// paramAt returns the parameter that s starts with, if it does.
func paramAt(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	switch s[0] {
	case '?':
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return s[:j], true
	case ':', '@', '$':
		j := 1
		for j < len(s) && (isIdentByte(s[j]) || s[0] == '$' && s[j] == ':' && j+1 < len(s) && s[j+1] == ':') {
			if s[j] == ':' {
				j++
			}
			j++
		}
		if j == 1 {
			return "", false
		}
		return s[:j], true
	}
	return "", false
}

// bindArgs returns the arguments for a statement's parameters: the values
// set with .parameter, NULL for the others (as sqlite3 binds them).
func (s *Shell) bindArgs(ctx context.Context, text string) ([]any, error) {
	params := statementParams(text)
	if len(params) == 0 {
		return nil, nil
	}
	values := s.paramValues(ctx)
	args := make([]any, len(params))
	for i, p := range params {
		key := p.name
		if key == "" {
			key = "?" + strconv.Itoa(p.index)
		}
		v := values[key]
		if p.name == "" || p.name[0] == '?' {
			args[i] = v
			continue
		}
		if r, _ := utf8.DecodeRuneInString(p.name[1:]); !unicode.IsLetter(r) {
			return nil, fmt.Errorf("parameter %s: the shell binds only names that start with a letter", p.name)
		}
		args[i] = sql.Named(p.name[1:], v)
	}
	return args, nil
}

// paramValues reads the parameter table, which may not exist.
func (s *Shell) paramValues(ctx context.Context) map[string]any {
	out := map[string]any{}
	rows, err := s.conn.QueryContext(ctx, "SELECT key, value FROM "+paramTable)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var v any
		if rows.Scan(&k, &v) == nil {
			out[k] = v
		}
	}
	return out
}

func cmdParameter(s *Shell, _ *source, args []string, _ string) error {
	if len(args) < 2 {
		return fmt.Errorf(".parameter needs a command: clear, init, list, set or unset; .help parameter tells more")
	}
	ctx := context.Background()
	sub := strings.ToLower(args[1])
	switch {
	case sub == "init" && len(args) == 2:
		return s.initParams(ctx, ".parameter init")
	case sub == "clear" && len(args) == 2:
		return s.execQuiet(ctx, ".parameter clear", "DROP TABLE IF EXISTS "+paramTable)
	case sub == "list" && len(args) == 2:
		return s.listParams(ctx)
	case sub == "unset" && len(args) == 3:
		_, err := s.conn.ExecContext(ctx, "DELETE FROM "+paramTable+" WHERE key = ?", args[2])
		if err != nil && !strings.Contains(err.Error(), "no such table") {
			return fmt.Errorf(".parameter unset: %s", cleanError(err))
		}
		return nil
	case sub == "set" && len(args) == 4:
		return s.setParam(ctx, args[2], args[3])
	case sub == "set":
		return fmt.Errorf(".parameter set takes a name and one value (quote a value with spaces: 'two words')")
	}
	return fmt.Errorf(".parameter: unknown command or wrong arguments %q; .help parameter tells more", strings.Join(args[1:], " "))
}

// initParams creates the parameter table. SQLite reserves names that start
// with sqlite_ for itself, so, as sqlite3 does, the shell lifts the guard
// (writable_schema) for this one statement.
func (s *Shell) initParams(ctx context.Context, cmd string) error {
	var was int64
	s.conn.QueryRowContext(ctx, "PRAGMA writable_schema").Scan(&was)
	if err := s.execQuiet(ctx, cmd, "PRAGMA writable_schema = ON"); err != nil {
		return err
	}
	err := s.execQuiet(ctx, cmd, paramTableDDL)
	if was == 0 {
		s.conn.ExecContext(ctx, "PRAGMA writable_schema = OFF")
	}
	return err
}

func (s *Shell) execQuiet(ctx context.Context, cmd, stmt string) error {
	if _, err := s.conn.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %s", cmd, cleanError(err))
	}
	return nil
}

// setParam stores VALUE under KEY. VALUE is SQL, evaluated once; as in
// sqlite3, a VALUE that is not valid SQL is stored as the text typed
// (.parameter set :name Alice), unless it holds parentheses or a
// semicolon: then it was meant as SQL, and its error is reported.
func (s *Shell) setParam(ctx context.Context, key, value string) error {
	if key == "" || !strings.ContainsRune("$:@?", rune(key[0])) || len(key) < 2 {
		return fmt.Errorf(".parameter set: %q is not a parameter name; names start with $, :, @ or ? (:name, ?1)", key)
	}
	if _, ok := paramAt(key); !ok || func() bool { p, _ := paramAt(key); return p != key }() {
		return fmt.Errorf(".parameter set: %q is not a parameter name: after $, : or @ come letters, digits and _; after ? digits", key)
	}
	if err := s.initParams(ctx, ".parameter set"); err != nil {
		return err
	}
	var v any
	stmt := "SELECT " + value
	stmts, rest, _ := splitSQL(stmt)
	err := fmt.Errorf("more than one statement")
	if len(stmts)+btoi(rest.text != "") == 1 {
		err = s.conn.QueryRowContext(ctx, stmt).Scan(&v)
	}
	if err != nil {
		if strings.ContainsAny(value, "();") {
			return fmt.Errorf(".parameter set %s: the value %q is not a valid SQL value: %s; quote text as '...'", key, value, cleanError(err))
		}
		v = value
	}
	_, err = s.conn.ExecContext(ctx, "REPLACE INTO "+paramTable+"(key, value) VALUES (?, ?)", key, v)
	if err != nil {
		return fmt.Errorf(".parameter set: %s", cleanError(err))
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// listParams prints "key value" lines, values as SQL literals, as sqlite3.
func (s *Shell) listParams(ctx context.Context) error {
	rows, err := s.conn.QueryContext(ctx, "SELECT key, value FROM "+paramTable+" ORDER BY key")
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil
		}
		return fmt.Errorf(".parameter list: %s", cleanError(err))
	}
	defer rows.Close()
	var keys []string
	var vals []any
	w := 0
	for rows.Next() {
		var k string
		var v any
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		keys, vals = append(keys, k), append(vals, v)
		w = max(w, utf8.RuneCountInString(k))
	}
	for i, k := range keys {
		fmt.Fprintf(s.out, "%-*s %s\n", w, k, appendSQL(nil, vals[i], false))
	}
	return rows.Err()
}
