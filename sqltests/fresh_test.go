package sqltests

// The freshness token (ext/vtab/fresh.go) must never serve a snapshot that
// the database has since moved past: reproductions found in review.

import (
	"fmt"
	"path/filepath"
	"testing"
)

// A statement that fails (ABORT) after a trigger read the model mid-way.
func TestReviewAbortFresh(t *testing.T) {
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 300)
		mustExec(t, db, rvTables)
		mustExec(t, db, "CREATE TABLE log(n); CREATE TRIGGER tr AFTER INSERT ON s BEGIN SELECT CASE WHEN (SELECT count(pc1) FROM e) > 100000 THEN RAISE(ABORT, 'big') END; END")
		before := rvCount(t, db, "SELECT count(pc1) FROM e")
		mustExec(t, db, "INSERT INTO log VALUES (0)")                                                           // moves total_changes, so the trigger's read reads
		_, err := db.Exec("INSERT INTO s VALUES (1000, '[1,2,3]', 1), (1001, '[1,2,4]', 1), (1, '[0,0,0]', 0)") // third row: PK conflict, aborts
		if err == nil {
			t.Fatal("want a constraint error")
		}
		if got := rvCount(t, db, "SELECT count(pc1) FROM e"); got != before {
			t.Errorf("%s: after an aborted INSERT, e has %d rows, want %d", driverLabel(drv), got, before)
		}
	}
}

// Triggers inside one multi-row statement: each sees the rows so far?
func TestReviewTriggerFresh(t *testing.T) {
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 300)
		mustExec(t, db, rvTables)
		mustExec(t, db, "CREATE TABLE log(n, m); CREATE TRIGGER tr AFTER INSERT ON s BEGIN INSERT INTO log SELECT (SELECT count(pc1) FROM e), (SELECT count(v) FROM s); END")
		rvCount(t, db, "SELECT count(pc1) FROM e")
		mustExec(t, db, "INSERT INTO s VALUES (1000, '[1,2,3]', 1), (1001, '[1,2,4]', 1), (1002, '[1,2,5]', 0)")
		rows, err := queryRows(db, "SELECT n, m FROM log")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r[0] != r[1] {
				t.Errorf("%s: trigger saw %v model rows, source has %v objects", driverLabel(drv), r[0], r[1])
			}
		}
	}
}

// DETACH, another connection writes the file, ATTACH again.
func TestReviewDetachWriteAttach(t *testing.T) {
	for _, drv := range withLoadable(t) {
		dir := t.TempDir()
		aux := filepath.Join(dir, "aux.db")
		a := openFile(t, drv, "file:"+filepath.Join(dir, "main.db"))
		b := openFile(t, drv, "file:"+aux)
		streamSource(t, func(q string, args ...any) { mustExec(t, b, q, args...) }, 300)
		mustExec(t, a, fmt.Sprintf("ATTACH '%s' AS aux", aux))
		mustExec(t, a, `CREATE VIRTUAL TABLE e USING kpca(table=aux.s, id=id, column=v, kernel='gauss(sigma=2)', components=2)`)
		before := rvCount(t, a, "SELECT count(pc1) FROM e")
		mustExec(t, a, "DETACH aux")
		mustExec(t, b, "INSERT INTO s VALUES (1000, '[1,2,3]', 1)")
		mustExec(t, a, fmt.Sprintf("ATTACH '%s' AS aux", aux))
		real := rvCount(t, a, "SELECT count(v) FROM aux.s")
		if got := rvCount(t, a, "SELECT count(pc1) FROM e"); got != real {
			t.Errorf("%s: after DETACH, another connection's write, ATTACH: e has %d rows, source %d objects (before %d)", driverLabel(drv), got, real, before)
		}
	}
}
