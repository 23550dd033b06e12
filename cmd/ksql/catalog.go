package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"
)

// queryStrings runs a query whose first column is text and collects it.
func (s *Shell) queryStrings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []byte:
			out = append(out, string(x))
		}
	}
	return out, rows.Err()
}

// userTablesSQL lists the tables and views a user made (no sqlite_ internals
// and no shadow tables of virtual tables), temp ones as temp.NAME.
const userTablesSQL = `SELECT CASE schema WHEN 'main' THEN name ELSE schema || '.' || name END
FROM pragma_table_list
WHERE type IN ('table', 'view', 'virtual') AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND (?1 = '' OR name LIKE ?1)
ORDER BY schema <> 'main', 1`

func cmdTables(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	pattern := ""
	if len(args) == 2 {
		pattern = args[1]
	}
	ctx, end := s.begin()
	defer end()
	names, err := s.queryStrings(ctx, userTablesSQL, pattern)
	if err != nil {
		return fmt.Errorf(".tables: %s", cleanError(err))
	}
	printColumns(s, names, 80)
	return nil
}

// printColumns lays names out in columns across width, top to bottom, as
// sqlite3's .tables does.
func printColumns(s *Shell, names []string, width int) {
	if len(names) == 0 {
		return
	}
	w := 0
	for _, n := range names {
		w = max(w, runewidth.StringWidth(n))
	}
	perRow := max(1, (width+2)/(w+2))
	rows := (len(names) + perRow - 1) / perRow
	for r := 0; r < rows; r++ {
		var line strings.Builder
		for c := 0; c < perRow; c++ {
			i := c*rows + r
			if i >= len(names) {
				break
			}
			if c > 0 {
				line.WriteString("  ")
			}
			line.WriteString(runewidth.FillRight(names[i], w))
		}
		fmt.Fprintln(s.out, strings.TrimRight(line.String(), " "))
	}
}

// schemaSQL returns the CREATE statements, leaving out internals and the
// shadow tables that virtual tables (vec0, fts5) keep for themselves.
const schemaSQL = `SELECT s.sql FROM (
    SELECT 'main' AS db, type, name, tbl_name, sql FROM sqlite_schema
    UNION ALL SELECT 'temp', type, name, tbl_name, sql FROM sqlite_temp_schema) AS s
WHERE s.sql IS NOT NULL AND s.name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND (?1 = '' OR s.name LIKE ?1 OR s.tbl_name LIKE ?1)
  AND NOT EXISTS (SELECT 1 FROM pragma_table_list AS t
                  WHERE t.schema = s.db AND t.name = s.tbl_name AND t.type = 'shadow')
ORDER BY s.db <> 'main', s.tbl_name, s.type DESC, s.name`

func cmdSchema(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	pattern := ""
	if len(args) == 2 {
		pattern = args[1]
	}
	ctx, end := s.begin()
	defer end()
	stmts, err := s.queryStrings(ctx, schemaSQL, pattern)
	if err != nil {
		return fmt.Errorf(".schema: %s", cleanError(err))
	}
	for _, st := range stmts {
		fmt.Fprintf(s.out, "%s;\n", st)
	}
	return nil
}

// tableColumns returns the column names of a table, in order.
func (s *Shell) tableColumns(ctx context.Context, table string) ([]string, error) {
	return s.queryStrings(ctx, "SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
}

// functionNames lists the SQL functions of the connection (built in, ksql
// and sqlite-vec), once per session since they never change.
func (s *Shell) functionNames() []string {
	if s.funcNames == nil {
		names, _ := s.queryStrings(context.Background(),
			"SELECT DISTINCT name FROM pragma_function_list ORDER BY name")
		s.funcNames = append([]string{}, names...)
	}
	return s.funcNames
}
