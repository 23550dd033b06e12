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

// isShadow is an SQL condition, true for the shadow tables that virtual
// tables keep for themselves. SQLite marks them only when the module says
// so, and sqlite-vec does not for all of its tables (vec0's
// NAME_vector_chunks00), so a table named VTAB_SUFFIX next to a virtual
// table VTAB counts as shadow too: SQLite's own rule names shadow tables so.
func isShadow(schema, name string) string {
	return fmt.Sprintf(`EXISTS (SELECT 1 FROM pragma_table_list AS v WHERE v.schema = %[1]s
    AND (v.name = %[2]s AND v.type = 'shadow' OR v.type = 'virtual'
         AND substr(%[2]s, 1, length(v.name) + 1) = v.name || '_'))`, schema, name)
}

// isModuleStandIn is an SQL condition, true for a temp virtual table named
// after its own module (temp.kpca_eigen USING kpca_eigen): ksql makes such
// tables on every connection to stand in for eponymous table-valued
// functions, so nobody should see them as their own tables.
func isModuleStandIn(schema, name string) string {
	return fmt.Sprintf(`(%[1]s = 'temp' AND %[2]s IN (SELECT name FROM pragma_module_list)
    AND EXISTS (SELECT 1 FROM sqlite_temp_schema AS m WHERE m.name = %[2]s
                AND m.sql LIKE 'CREATE VIRTUAL TABLE%%'))`, schema, name)
}

// userTablesSQL lists the tables and views a user made (no sqlite_ internals,
// no shadow tables), temp ones as temp.NAME.
var userTablesSQL = `SELECT CASE t.schema WHEN 'main' THEN t.name ELSE t.schema || '.' || t.name END
FROM pragma_table_list AS t
WHERE t.type IN ('table', 'view', 'virtual') AND t.name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND (?1 = '' OR t.name LIKE ?1) AND NOT ` + isShadow("t.schema", "t.name") + `
  AND NOT ` + isModuleStandIn("t.schema", "t.name") + `
ORDER BY t.schema <> 'main', 1`

func cmdTables(s *Shell, _ *source, args []string, _ string) error {
	names, err := catalogNames(s, ".tables", userTablesSQL, args)
	if err == nil {
		printColumns(s, names, 80)
	}
	return err
}

// catalogNames runs one of the catalog queries with the optional LIKE pattern
// of a .tables or .schema command.
func catalogNames(s *Shell, cmd, query string, args []string) ([]string, error) {
	if err := wantArgs(args, 0, 1); err != nil {
		return nil, err
	}
	pattern := ""
	if len(args) == 2 {
		pattern = args[1]
	}
	ctx, end := s.begin()
	defer end()
	out, err := s.queryStrings(ctx, query, pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", cmd, cleanError(err))
	}
	return out, nil
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
	perRow := max(1, width/(w+2))
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
		fmt.Fprintln(s.out, line.String())
	}
}

// schemaSQL returns the CREATE statements in the order they were made,
// leaving out internals and shadow tables.
var schemaSQL = `SELECT s.sql FROM (
    SELECT 'main' AS db, rowid AS seq, type, name, tbl_name, sql FROM sqlite_schema
    UNION ALL SELECT 'temp', rowid, type, name, tbl_name, sql FROM sqlite_temp_schema) AS s
WHERE s.sql IS NOT NULL AND s.name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND (?1 = '' OR s.name LIKE ?1 OR s.tbl_name LIKE ?1)
  AND NOT ` + isShadow("s.db", "s.tbl_name") + `
  AND NOT ` + isModuleStandIn("s.db", "s.name") + `
ORDER BY s.db <> 'main', s.seq`

func cmdSchema(s *Shell, _ *source, args []string, _ string) error {
	stmts, err := catalogNames(s, ".schema", schemaSQL, args)
	if err != nil {
		return err
	}
	for _, st := range stmts {
		fmt.Fprintf(s.out, "%s;\n", st)
	}
	return nil
}

// tableColumns returns the column names of a table (in schema, "" for
// the search order), in order; none when it does not exist.
func (s *Shell) tableColumns(ctx context.Context, schema, table string) ([]string, error) {
	if schema == "" {
		return s.queryStrings(ctx, "SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
	}
	return s.queryStrings(ctx, "SELECT name FROM pragma_table_info(?, ?) ORDER BY cid", table, schema)
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

// indexesSQL lists the indexes a user made (of tables LIKE ?1), one per
// line as sqlite3 prints them; SQLite's own sqlite_autoindex_* are left out.
var indexesSQL = `SELECT name FROM (
    SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'
    UNION ALL SELECT name, tbl_name FROM sqlite_temp_schema WHERE type = 'index')
WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' AND (?1 = '' OR tbl_name LIKE ?1)
ORDER BY 1`

func cmdIndexes(s *Shell, _ *source, args []string, _ string) error {
	names, err := catalogNames(s, args[0], indexesSQL, args)
	for _, n := range names {
		fmt.Fprintln(s.out, n)
	}
	return err
}
