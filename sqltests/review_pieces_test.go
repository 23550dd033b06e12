package sqltests

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Review of a Nyström kpca stored in pieces (chunks.go): every test makes
// p, whose projections are stored in pieces of 4,096 rows, and q, its twin
// whose stored fit is made unusable so that it fits in memory; p must
// answer q's bits wherever it is read from, and must restore its stored
// fit whenever that fit is the source's.

// rpSource fills schema's big with n rows of three-element vectors.
func rpSource(t *testing.T, db *sql.DB, schema string, n int) {
	t.Helper()
	mustExec(t, db, fmt.Sprintf(`CREATE TABLE %[1]sbig(id INTEGER PRIMARY KEY, v TEXT);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %[2]d)
INSERT INTO %[1]sbig SELECT i, '[' || (((i * 37) %% 101) / 10.0) || ',' || (((i * 53) %% 97) / 10.0) || ',' || (i %% 13) || ']' FROM c`, schema, n))
}

const rpArgs = `table=big, id=id, column=v, kernel='gauss(sigma=4)', components=3, method=nystrom, landmarks=60, seed=7`

// rpTables makes p and its in-memory twin q in schema.
func rpTables(t *testing.T, db *sql.DB, schema string) {
	t.Helper()
	mustExec(t, db, "CREATE VIRTUAL TABLE "+schema+"p USING kpca("+rpArgs+")")
	mustExec(t, db, "CREATE VIRTUAL TABLE "+schema+"q USING kpca("+rpArgs+")")
	mustExec(t, db, "DELETE FROM "+schema+"q_fit WHERE part = 'checksum'")
}

type rpQuerier interface {
	QueryRow(string, ...any) *sql.Row
}

func rpRow(t *testing.T, db rpQuerier, q string) string {
	t.Helper()
	var s sql.NullString
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s.String
}

// rpSame is "rows|rows whose three projections are a's and b's bit for bit".
func rpSame(a, b string) string {
	return fmt.Sprintf("SELECT count(*) || '|' || sum(a.pc1 = b.pc1 AND a.pc2 = b.pc2 AND a.pc3 = b.pc3) FROM %s a JOIN %s b USING (id)", a, b)
}

// rpFit is ksql_model's account of the fit in use.
func rpFit(t *testing.T, db rpQuerier, tbl string) string {
	t.Helper()
	return rpRow(t, db, "SELECT value FROM ksql_model('"+tbl+"') WHERE name = 'fit'")
}

// rpWant checks that a and b answer the same n rows, and what ksql_model
// says of a's fit.
func rpWant(t *testing.T, db rpQuerier, step, a, b string, n int, fit string) {
	t.Helper()
	if got, want := rpRow(t, db, rpSame(a, b)), fmt.Sprintf("%d|%d", n, n); got != want {
		t.Errorf("%s: %s and %s agree on %s rows, want %s", step, a, b, got, want)
	}
	if tbl := a[strings.LastIndex(a, ".")+1:]; fit != "" {
		if got := rpFit(t, db, tbl); got != fit {
			t.Errorf("%s: %s's fit is %q, want %q", step, a, got, fit)
		}
	}
}

// A 'refit' that a transaction (or savepoint) takes back leaves the fit
// stored before it, which is the source's again: the table restores it,
// as it did before its projections were kept in pieces, instead of fitting
// anew in memory (55 s and the projections' 400 MB on ten million rows).
func TestReviewPiecesRollbackRestores(t *testing.T) {
	for _, drv := range drivers { // explicit transactions: not through the loadable runner
		for _, mode := range []string{"rollback", "savepoint"} {
			t.Run(driverLabel(drv)+"/"+mode, func(t *testing.T) {
				db := OpenDB(t, drv)
				rpSource(t, db, "", 9000)
				rpTables(t, db, "")
				rpWant(t, db, "created", "p", "q", 9000, "restored from p_fit")
				begin, end := "BEGIN", "ROLLBACK"
				if mode == "savepoint" {
					begin, end = "SAVEPOINT a", "ROLLBACK TO a; RELEASE a"
				}
				mustExec(t, db, begin)
				mustExec(t, db, "UPDATE big SET v = '[0, 0, 0]' WHERE id = 17")
				mustExec(t, db, "INSERT INTO p(p) VALUES ('refit')")
				rpWant(t, db, "refit inside", "p", "q", 9000, "restored from p_fit")
				mustExec(t, db, end)
				rpWant(t, db, "after "+mode, "p", "q", 9000, "restored from p_fit")
			})
		}
	}
}

// A 'refit' that fails after its pieces were written (here a trigger on
// the shadow table refuses the checksum; a full disk or an interrupt in
// the last writes does the same) leaves the stored fit as it was, and
// the table keeps answering from it.
func TestReviewPiecesFailedRefit(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			rpSource(t, db, "", 9000)
			rpTables(t, db, "")
			rpWant(t, db, "created", "p", "q", 9000, "restored from p_fit")
			before := rpRow(t, db, "SELECT group_concat(part || hex(data), ',') FROM (SELECT * FROM p_fit ORDER BY part)")
			mustExec(t, db, `CREATE TRIGGER nock BEFORE INSERT ON p_fit WHEN NEW.part = 'checksum' BEGIN SELECT RAISE(ABORT, 'no checksum'); END`)
			mustExec(t, db, "UPDATE big SET v = '[0, 0, 0]' WHERE id = 17")
			if _, err := db.Exec("INSERT INTO p(p) VALUES ('refit')"); err == nil || !strings.Contains(err.Error(), "no checksum") {
				t.Fatalf("refit past the trigger: %v", err)
			}
			mustExec(t, db, "DROP TRIGGER nock")
			if after := rpRow(t, db, "SELECT group_concat(part || hex(data), ',') FROM (SELECT * FROM p_fit ORDER BY part)"); after != before {
				t.Errorf("the failed refit changed p_fit")
			}
			var got string
			if err := db.QueryRow(rpSame("p", "q")).Scan(&got); err != nil || got != "9000|9000" {
				t.Errorf("after the failed refit: p and q agree on %q rows (%v), want 9000|9000", got, err)
			}
		})
	}
}

// Cursors on p in different pieces, interleaved (joins, correlated
// subqueries, a model over p, a 'refit' run by a statement scanning p),
// each read a row's values before the shared reader reads another piece.
func TestReviewPiecesCursors(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			rpSource(t, db, "", 10000)
			rpTables(t, db, "")
			checks := []struct{ q, want string }{
				{`SELECT count(*) || '|' || sum(a.pc1 = qa.pc1 AND a.pc3 = qa.pc3 AND b.pc2 = qb.pc2 AND c.pc3 = qc.pc3)
					FROM p a JOIN p b ON b.id = 10001 - a.id JOIN p c ON c.id = (a.id + 4095) % 10000 + 1
					JOIN q qa ON qa.id = a.id JOIN q qb ON qb.id = b.id JOIN q qc ON qc.id = c.id`, "10000|10000"},
				{`SELECT count(*) || '|' || sum((SELECT pc1 FROM p x WHERE x.id = 10001 - p.id) = (SELECT pc1 FROM q WHERE q.id = 10001 - p.id)
					AND pc2 = (SELECT pc2 FROM q WHERE q.id = p.id)) FROM p`, "10000|10000"},
				{`SELECT count(*) || '|' || sum(a.pc1 = b.pc1) FROM (SELECT id, pc1 FROM p ORDER BY id DESC) a JOIN q b USING (id)`, "10000|10000"},
				{`SELECT (SELECT pc1 FROM p('[1, 2, 3]')) = (SELECT pc1 FROM q('[1, 2, 3]'))`, "1"},
				{`SELECT (SELECT group_concat(eigenvalue) FROM kpca_eigen('p')) = (SELECT group_concat(eigenvalue) FROM kpca_eigen('q'))`, "1"},
			}
			for _, c := range checks {
				if got := rpRow(t, db, c.q); got != c.want {
					t.Errorf("%s: %s, want %s", c.q, got, c.want)
				}
			}
			mustExec(t, db, `CREATE VIRTUAL TABLE pp USING kpca(table=p, id=id, columns=pc1..pc3, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=30, seed=3);
				CREATE VIRTUAL TABLE qq USING kpca(table=q, id=id, columns=pc1..pc3, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=30, seed=3);
				DELETE FROM qq_fit WHERE part = 'checksum'`)
			if got := rpRow(t, db, "SELECT count(*) || '|' || sum(a.pc1 = b.pc1 AND a.pc2 = b.pc2) FROM pp a JOIN qq b USING (id)"); got != "10000|10000" {
				t.Errorf("a model over p and one over q agree on %s rows", got)
			}
			mustExec(t, db, "INSERT INTO p(p) SELECT 'refit' FROM p WHERE id < 3")
			rpWant(t, db, "refit from a scan of p", "p", "q", 10000, "restored from p_fit")
		})
	}
}

// A kpca in an attached database keeps its pieces in that database's
// shadow table, beside a main table of the shadow table's name that it
// must neither read nor change; refit, rename and drop act there only.
func TestReviewPiecesAttached(t *testing.T) {
	for _, drv := range drivers { // ATTACH: not inside the loadable runner's transaction
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, "ATTACH ':memory:' AS aux")
			rpSource(t, db, "aux.", 9000)
			decoy := "SELECT group_concat(part || ':' || hex(data)) FROM main.p_fit"
			mustExec(t, db, `CREATE TABLE main.p_fit(part TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID;
				INSERT INTO main.p_fit VALUES ('~kpca_projections/00000000', x'00'), ('checksum', x'01')`)
			rpTables(t, db, "aux.")
			rpWant(t, db, "created", "aux.p", "aux.q", 9000, "restored from p_fit")
			if got := rpRow(t, db, "SELECT count(*) FROM aux.p_fit WHERE part LIKE '~%'"); got != "3" {
				t.Errorf("aux.p_fit holds %s pieces, want 3", got)
			}
			mustExec(t, db, "UPDATE aux.big SET v = '[1, 1, 1]' WHERE id = 9")
			mustExec(t, db, "INSERT INTO aux.p(p) VALUES ('refit')")
			rpWant(t, db, "refit", "aux.p", "aux.q", 9000, "restored from p_fit")
			mustExec(t, db, "ALTER TABLE aux.p RENAME TO p3")
			rpWant(t, db, "renamed", "aux.p3", "aux.q", 9000, "restored from p3_fit")
			mustExec(t, db, "DROP TABLE aux.p3")
			if got := rpRow(t, db, "SELECT count(*) FROM aux.sqlite_master WHERE name LIKE 'p3%'"); got != "0" {
				t.Errorf("after DROP, aux holds %s tables named p3...", got)
			}
			if got := rpRow(t, db, decoy); got != "checksum:01,~kpca_projections/00000000:00" {
				t.Errorf("main.p_fit changed: %s", got)
			}
		})
	}
}

// Pieces deleted, added or unlisted by hand are never read as the fit: the
// table fits in memory and answers the same bits, and 'refit' stores it
// again. A connection with query_only reads another's pieces, and its
// 'refit' fails without changing them.
func TestReviewPiecesByHand(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			dsn := "file:" + filepath.Join(t.TempDir(), "rp.db")
			db := openFile(t, drv, dsn)
			rpSource(t, db, "", 9000)
			rpTables(t, db, "")
			ro := openFile(t, drv, dsn)
			mustExec(t, ro, "PRAGMA query_only = 1")
			rpWant(t, ro, "query_only", "p", "q", 9000, "restored from p_fit")
			parts := "SELECT group_concat(part || hex(data), ',') FROM (SELECT * FROM p_fit ORDER BY part)"
			before := rpRow(t, db, parts)
			if _, err := ro.Exec("INSERT INTO p(p) VALUES ('refit')"); err == nil || !strings.Contains(err.Error(), "readonly") {
				t.Errorf("refit with query_only: %v", err)
			}
			if rpRow(t, db, parts) != before {
				t.Errorf("a refit refused by query_only changed p_fit")
			}
			// fit "": the index's part is checked by the checksum at a
			// restore, not at each statement; a fit already restored holds
			// the index, and its pieces are still the ones it lists
			for _, c := range []struct{ edit, fit string }{
				{"DELETE FROM p_fit WHERE part LIKE '~%'", "fitted on this connection"},
				{"INSERT INTO p_fit VALUES ('~kpca_projections/00000003', zeroblob(8))", "fitted on this connection"},
				{"UPDATE p_fit SET part = '~kpca_projections/00000009' WHERE part = '~kpca_projections/00000002'", "fitted on this connection"},
				{"DELETE FROM p_fit WHERE part = 'kpca_projections.chunks'", ""},
			} {
				mustExec(t, db, "INSERT INTO p(p) VALUES ('refit')")
				rpWant(t, db, "refit before "+c.edit, "p", "q", 9000, "restored from p_fit")
				rpWant(t, ro, "the other connection before "+c.edit, "p", "q", 9000, "")
				mustExec(t, db, c.edit)
				rpWant(t, db, c.edit, "p", "q", 9000, c.fit)
				rpWant(t, ro, "the other connection after "+c.edit, "p", "q", 9000, c.fit)
			}
			fresh := openFile(t, drv, dsn) // restores nothing from a fit that fails its checksum
			rpWant(t, fresh, "a new connection", "p", "q", 9000, "fitted on this connection")
		})
	}
}
