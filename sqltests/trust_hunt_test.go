package sqltests

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// On a reopened database SQLite connects a model table when a statement
// first names it, so an attached database's p may be connected before
// main's: kpca_eigen('p') must still answer for main.p, the table SQL's p
// reads, not for whichever p this connection met first.
func TestTrustHuntLookupAttachedFirst(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			dir := t.TempDir()
			main, aux := filepath.Join(dir, "main.db"), filepath.Join(dir, "aux.db")
			attach := fmt.Sprintf("ATTACH '%s' AS aux", strings.ReplaceAll(aux, "'", "''"))
			db := openFile(t, drv, "file:"+main)
			mustExec(t, db, `CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
				INSERT INTO t VALUES (1, '[0, 0]'), (2, '[1, 0]'), (3, '[0, 2]'), (4, '[3, 3]');
				CREATE VIRTUAL TABLE p USING kpca(table=t, id=id, column=v, kernel='linear', components=2)`)
			mustExec(t, db, attach)
			mustExec(t, db, `CREATE TABLE aux.t(id INTEGER PRIMARY KEY, v TEXT);
				INSERT INTO aux.t VALUES (1, '[5, 0]'), (2, '[1, 9]'), (3, '[0, 2]'), (4, '[7, 3]');
				CREATE VIRTUAL TABLE aux.p USING kpca(table=t, id=id, column=v, kernel='linear', components=2)`)
			db.Close()

			db = openFile(t, drv, "file:"+main)
			mustExec(t, db, attach)
			if n := rvCount(t, db, "SELECT count(*) FROM aux.p"); n != 4 { // connects aux.p, not main.p
				t.Fatalf("aux.p has %d rows, want 4", n)
			}
			// main.p's largest eigenvalue, that of t's centred Gram matrix
			// (trust_hunt.test checks it against the stored rows); aux.p's is 55.54
			const want = 10.39253966999705
			for _, name := range []string{"p", "main.p"} {
				var got float64
				if err := db.QueryRow("SELECT eigenvalue FROM kpca_eigen('" + name + "') WHERE component = 1").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if d := got - want; d > 1e-9 || d < -1e-9 {
					t.Errorf("kpca_eigen('%s') = %v, want main.p's %v", name, got, want)
				}
			}
			var args string
			if err := db.QueryRow("SELECT value FROM ksql_model('p') WHERE name = 'arguments'").Scan(&args); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(args, "table=t,") {
				t.Errorf("ksql_model('p') reports arguments %q", args)
			}
		})
	}
}
