package sqltests

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// FuzzSourceQuery gives random text as a query= source (properly quoted
// into the CREATE statement, as a user would) and checks that reading the
// table can never change the database's data or schema, or a setting.
// Errors are expected for most inputs.
func FuzzSourceQuery(f *testing.F) {
	for _, q := range []string{
		"SELECT id, v FROM t",
		"SELECT id, v FROM t WHERE ksql_config('max_gram_bytes', 1099511627776) > 0",
		"SELECT 1, '[1]' UNION ALL SELECT ksql_config('max_dp_cells', 5), '[2]'",
		"DELETE FROM t RETURNING id, v",
		"SELECT id, v FROM t); DELETE FROM t; SELECT (1",
		"SELECT id, v FROM t) , x AS (DELETE FROM t",
		"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
		"SELECT id, v FROM t; DROP TABLE t",
		"SELECT id, v FROM t -- ) DELETE FROM t",
		"SELECT id, v FROM t /* ) ; */",
		"VALUES (1, '[1]'), (2, ksql_config('max_rff_dim', 4))",
		"SELECT id, v FROM t WHERE (SELECT count(*) FROM pragma_query_only(1)) >= 0",
		"SELECT id, v FROM t, (SELECT ksql_config('max_rff_map_bytes', 2048))",
	} {
		f.Add(q)
	}
	db := openFuzzDB(f)
	before := dbState(f, db)
	f.Fuzz(func(t *testing.T, q string) {
		lit := "'" + strings.ReplaceAll(q, "'", "''") + "'"
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range []string{
			"CREATE VIRTUAL TABLE temp.f USING gram(query=" + lit + ", kernel='linear')",
			"SELECT * FROM temp.f",
			"SELECT value FROM temp.f WHERE row_id = 1 AND col_id = 2",
			"CREATE VIRTUAL TABLE temp.p USING kpca(query=" + lit + ", kernel='linear', components=1)",
			"SELECT * FROM temp.p",
		} {
			if rows, err := conn.QueryContext(ctx, stmt); err == nil {
				for rows.Next() {
				}
				rows.Close()
			}
		}
		conn.ExecContext(ctx, "DROP TABLE IF EXISTS temp.f")
		conn.ExecContext(ctx, "DROP TABLE IF EXISTS temp.p")
		conn.Close() // the pool has one connection, which dbState needs
		if after := dbState(t, db); after != before {
			t.Fatalf("query= %q changed the database or a setting:\n%s\nwas\n%s", q, after, before)
		}
	})
}

func openFuzzDB(t testing.TB) *sql.DB {
	db := OpenDB(t, drivers[len(drivers)-1])
	mustExec(t, db, `CREATE TABLE t(id INTEGER PRIMARY KEY, v); INSERT INTO t VALUES (1, '[0, 1]'), (2, '[1, 0]'), (3, '[2, 2]');
		CREATE TABLE u(x); INSERT INTO u VALUES ('keep')`)
	return db
}

// dbState renders the data, the schema and the settings.
func dbState(t testing.TB, db *sql.DB) string {
	var b strings.Builder
	for _, q := range []string{
		"SELECT group_concat(id || ':' || v, ';') FROM t",
		"SELECT group_concat(x) FROM u",
		"SELECT group_concat(type || ' ' || name || ' ' || coalesce(sql, ''), ';') FROM sqlite_schema",
		"SELECT group_concat(type || ' ' || name, ';') FROM sqlite_temp_schema",
		"SELECT json_remove(ksql_config(), '$.fit_count', '$.source_reads')",
		"PRAGMA query_only",
	} {
		var s sql.NullString
		if err := db.QueryRow(q).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		b.WriteString(s.String + "\n")
	}
	return b.String()
}
