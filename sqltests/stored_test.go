package sqltests

import (
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// openFile opens a one-connection database file on driver.
func openFile(t *testing.T, drv, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(drv, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// storedAnswers reads every model table of TestStoredFits: stored rows and
// a new object each.
func storedAnswers(t *testing.T, db *sql.DB) [][]any {
	t.Helper()
	var out [][]any
	for _, q := range []string{
		"SELECT id, pc1, pc2 FROM p",
		"SELECT pc1, pc2 FROM p('[0.5, 1.5]')",
		"SELECT id, vector FROM m",
		"SELECT vector FROM m('[0.5, 1.5]')",
		"SELECT id, label, prediction, decision, cv_prediction FROM s",
		"SELECT prediction, decision FROM s('[0.5, 1.5]')",
		"SELECT id, x1, x2 FROM ts",
		"SELECT x1, x2 FROM ts('[0.5, 1.5]')",
		"SELECT id, prediction FROM r",
	} {
		rows, err := queryRows(db, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, r := range rows {
			out = append(out, r)
		}
	}
	return out
}

func storedHash(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	var h []byte
	if err := db.QueryRow("SELECT data FROM " + table + "_fit WHERE part = 'source_sha256'").Scan(&h); err != nil {
		t.Fatal(err)
	}
	return string(h)
}

// TestStoredFits: a fit made at CREATE answers a reopened database (a new
// connection, as a new process would open) with the same bits and no
// refit; a changed source refits in memory without writing; 'refit'
// stores the new fit; a hand-edited shadow table is never trusted; a
// read-only database answers from the stored fit; DROP TABLE removes it.
func TestStoredFits(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fits.db")
			db := openFile(t, drv, "file:"+path)
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, class TEXT)`)
			for i := 0; i < 12; i++ {
				class := "a"
				if i%3 == 0 {
					class = "b"
				}
				mustExec(t, db, "INSERT INTO pts VALUES (?, json_array(?, ?), ?)", i, float64(i%4)+0.1*float64(i), float64(i%5), class)
			}
			mustExec(t, db, `CREATE VIRTUAL TABLE p USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=2)', components=2)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE m USING kernel_map(table=pts, id=id, column=v, kernel='poly(degree=2)')`)
			mustExec(t, db, `CREATE VIRTUAL TABLE s USING svm(table=pts, id=id, column=v, label=class, kernel='gauss(sigma=1)', C=3, folds=2)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE ts USING tsne(table=pts, id=id, column=v, kernel='gauss(sigma=2)', perplexity=3, iterations=300)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE r USING krr(query='SELECT id, v, id * 0.5 FROM pts', kernel='gauss(sigma=2)', alpha=0.5, folds=3)`)
			if got := fitCount(t, db); got != 5 {
				t.Fatalf("fit_count after five CREATEs = %d, want 5", got)
			}
			want := storedAnswers(t, db)
			db.Close()

			db = openFile(t, drv, "file:"+path)
			if got := storedAnswers(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			if got := fitCount(t, db); got != 0 {
				t.Fatalf("fit_count after reopen + queries = %d, want 0 (answered from the stored fits)", got)
			}
			var how string
			if err := db.QueryRow("SELECT value FROM ksql_model('s') WHERE name = 'fit'").Scan(&how); err != nil || how != "restored from s_fit" {
				t.Fatalf("ksql_model fit = %q (%v), want restored from s_fit", how, err)
			}

			ro := openFile(t, drv, "file:"+path+"?mode=ro")
			if got := storedAnswers(t, ro); !reflect.DeepEqual(got, want) || fitCount(t, ro) != 0 {
				t.Fatalf("read-only database: answers differ or refitted")
			}

			qo := openFile(t, drv, "file:"+path+"?_pragma=query_only(1)&_query_only=1")
			tx, err := qo.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec("SELECT count(*) FROM s"); err != nil {
				t.Fatalf("query_only session in a read transaction: %v", err)
			}
			tx.Rollback()

			// A changed source: answers follow it, refitted in memory; the
			// shadow table keeps the old fit until 'refit'.
			before := storedHash(t, db, "p")
			mustExec(t, db, "INSERT INTO pts VALUES (100, '[9, 9]', 'a')")
			var n int
			if err := db.QueryRow("SELECT count(*) FROM p").Scan(&n); err != nil || n != 13 {
				t.Fatalf("after the insert: %d rows (%v), want 13", n, err)
			}
			if fitCount(t, db) != 1 || storedHash(t, db, "p") != before {
				t.Fatalf("a read after a source change must refit in memory and write nothing")
			}
			mustExec(t, db, "INSERT INTO p(p) VALUES ('refit')")
			if storedHash(t, db, "p") == before {
				t.Fatalf("'refit' did not store the new fit")
			}
			mustExec(t, db, "DELETE FROM pts WHERE id = 100")
			mustExec(t, db, "INSERT INTO p(p) VALUES ('refit')")

			// A hand-edited shadow table is detected and never trusted.
			mustExec(t, db, "UPDATE s_fit SET data = substr(data, 1, length(data) - 8) || zeroblob(8) WHERE part = 'svm'")
			mustExec(t, db, "DELETE FROM p_fit WHERE part = 'kpca'")
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := storedAnswers(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after damaging the shadow tables: answers differ")
			}
			if got := fitCount(t, db); got != 2 {
				t.Fatalf("fit_count = %d with two damaged shadow tables, want 2 (refitted, not trusted)", got)
			}

			for _, c := range []struct{ sql, err string }{
				{"INSERT INTO p(p) VALUES ('nonsense')", "kpca: unknown command \"nonsense\"; allowed: INSERT INTO p(p) VALUES ('refit')"},
				{"UPDATE s SET label = 'x'", "svm: s is read-only"},
				{"DELETE FROM m", "kernel_map: m is read-only"},
			} {
				if _, err := db.Exec(c.sql); err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("%s: error %v, want one containing %q", c.sql, err, c.err)
				}
			}
			mustExec(t, db, "DROP TABLE pts")
			if _, err := db.Exec("INSERT INTO s(s) VALUES ('refit')"); err == nil || !strings.Contains(err.Error(), "pts") {
				t.Fatalf("'refit' with the source dropped: %v", err)
			}
			var sh []byte
			if err := db.QueryRow("SELECT data FROM s_fit WHERE part = 'module'").Scan(&sh); err != nil || string(sh) != "svm" {
				t.Fatalf("a failed 'refit' must leave the stored fit: %q %v", sh, err)
			}
			for _, tab := range []string{"p", "m", "s", "ts", "r"} {
				mustExec(t, db, "DROP TABLE "+tab)
			}
			var left int
			if err := db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name LIKE '%_fit'").Scan(&left); err != nil || left != 0 {
				t.Fatalf("DROP TABLE left %d shadow tables (%v)", left, err)
			}
		})
	}
}
