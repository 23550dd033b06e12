package sqltests

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os/exec"
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

// deserializeScript, run by Debian's /usr/bin/python3 with the loadable
// library (argv[1]), reads models over a source whose database is replaced
// by sqlite3_deserialize (Python's Connection.deserialize), each image
// twice in a row: SQLite 3.40 (Debian 12's) keeps an eponymous table's
// schema pointer past a deserialize, and a statement that names one
// (json_each, the pragma_ tables) then reads freed memory and crashes. A
// model read names none. Each statement's text is new, so that Python's
// statement cache (which SQLite 3.40 does not expire on a deserialize)
// prepares it afresh; every answer must be that of the image in place.
const deserializeScript = `
import sqlite3, sys
c = sqlite3.connect(":memory:", isolation_level=None)
c.enable_load_extension(True)
c.load_extension(sys.argv[1])
c.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x1 REAL, x2 REAL, v TEXT)")
c.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", [(1, 0, 0, '[0,0]'), (2, 1, 0, '[1,0]'), (3, 0, 2, '[0,2]'), (4, 3, 3, '[3,3]'), (5, 1, 1, '[1,1]')])
c.execute("CREATE VIRTUAL TABLE m USING kpca(table=t, id=id, column=v, kernel='linear', components=2)")
c.execute("CREATE VIRTUAL TABLE r USING kpca(table=t, id=id, columns=x1..x2, kernel='linear', components=2)")
c.execute("CREATE VIRTUAL TABLE g USING gram(table=t, id=id, column=v, kernel='linear')")
a = c.serialize()
c.execute("UPDATE t SET x1 = 50, x2 = -3, v = '[50,-3]' WHERE id = 1")
b = c.serialize()
n = 0
def one(q):
    global n
    n += 1
    return c.execute(q + " -- %d" % n).fetchone()[0]
for img, want in [(a, '[0,0]'), (b, '[50,-3]')] * 3:
    c.deserialize(img)
    c.deserialize(img)
    got = one("SELECT v FROM t WHERE id = 1")
    assert got == want, (got, want)
    # the projections of row 1 on a model of its source as it is now
    pm, pr = one("SELECT pc1 FROM m WHERE id = 1"), one("SELECT pc1 FROM r WHERE id = 1")
    g = one("SELECT value FROM g WHERE row_id = 1 AND col_id = 1")
    one("SELECT count(*) FROM (SELECT 1 FROM m)")
    c.execute("INSERT INTO m(m) VALUES ('refit')")
    print(want, pm == pr, g, flush=True)
`

// A model read after sqlite3_deserialize answers the image in place, and
// never crashes the host.
func TestTrustHuntDeserialize(t *testing.T) {
	so, err := loadableLib()
	if err != nil {
		t.Skipf("loadable library: %v", err)
	}
	out, err := exec.Command("/usr/bin/python3", "-c", "import sqlite3; sqlite3.Connection.deserialize").CombinedOutput()
	if err != nil {
		t.Skipf("this python3's sqlite3 has no deserialize (3.11 and later): %s", out)
	}
	out, err = exec.Command("/usr/bin/python3", "-c", deserializeScript, so).CombinedOutput()
	if err != nil {
		if len(out) > 2000 {
			out = out[:2000]
		}
		t.Fatalf("python3: %v\n%s", err, out)
	}
	want := strings.Repeat("[0,0] True 0.0\n[50,-3] True 2509.0\n", 3)
	if string(out) != want {
		t.Errorf("answers after each deserialize:\n%s\nwant:\n%s", out, want)
	}
}

// The Go drivers' deserialize (modernc's Deserialize(buf), mattn's
// Deserialize(buf, schema)): a model read, by a statement prepared before
// the deserialize too, answers the image in place.
func TestTrustHuntDeserializeGo(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			ctx := context.Background()
			c, err := OpenDB(t, drv).Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var deserialize func([]byte) error
			var serialize func() ([]byte, error)
			c.Raw(func(dc any) error {
				switch raw := dc.(interface{ Raw() driver.Conn }).Raw().(type) {
				case interface {
					Serialize() ([]byte, error)
					Deserialize([]byte) error
				}:
					serialize, deserialize = raw.Serialize, raw.Deserialize
				case interface {
					Serialize(string) ([]byte, error)
					Deserialize([]byte, string) error
				}:
					serialize = func() ([]byte, error) { return raw.Serialize("main") }
					deserialize = func(b []byte) error { return raw.Deserialize(b, "main") }
				}
				return nil
			})
			if deserialize == nil {
				t.Skip("no deserialize on this driver")
			}
			for _, q := range []string{`CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)`,
				`INSERT INTO t VALUES (1, '[0,0]'), (2, '[1,0]'), (3, '[0,2]'), (4, '[3,3]'), (5, '[1,1]')`,
				`CREATE VIRTUAL TABLE m USING kpca(table=t, id=id, column=v, kernel='linear', components=2)`} {
				if _, err := c.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			a, err := serialize()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ExecContext(ctx, "UPDATE t SET v = '[50,-3]' WHERE id = 1"); err != nil {
				t.Fatal(err)
			}
			b, _ := serialize()
			st, err := c.PrepareContext(ctx, "SELECT pc1 * pc1 + pc2 * pc2 FROM m WHERE id = 1")
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// row 1's squared distance from the centre of the objects, in the
			// plane of both components (all of it: two dimensions)
			for i, img := range [][]byte{a, b, a, b} {
				want := 1*1 + 1.2*1.2 // [0,0] from the mean [1, 1.2]
				if i%2 == 1 {
					want = 39*39 + 3.6*3.6 // [50,-3] from the mean [11, 0.6]
				}
				if err := deserialize(img); err != nil {
					t.Fatal(err)
				}
				var got float64
				if err := st.QueryRowContext(ctx).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if d := got - want; d > 1e-9*want || d < -1e-9*want {
					t.Errorf("after deserialize %d: |row 1 - mean|² = %v, want %v", i, got, want)
				}
			}
		})
	}
}

// With a shared cache and PRAGMA read_uncommitted, a connection reads
// another's uncommitted rows, and sees them go at its ROLLBACK, while no
// counter moves (data_version counts commits): a model read there must
// read its source as the connection's SQL does, every statement.
func TestTrustHuntReadUncommitted(t *testing.T) {
	for _, drv := range drivers { // one process's shared cache: the loadable runner's connections are processes

		t.Run(driverLabel(drv), func(t *testing.T) {
			dsn := "file:trust_hunt_ru_" + driverLabel(drv) + "?mode=memory&cache=shared"
			a, b := openFile(t, drv, dsn), openFile(t, drv, dsn)
			mustExec(t, a, `CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
				INSERT INTO t VALUES (1, '[0,0]'), (2, '[1,0]'), (3, '[0,2]'), (4, '[3,3]'), (5, '[1,1]');
				CREATE VIRTUAL TABLE m USING kpca(table=t, id=id, column=v, kernel='linear', components=2)`)
			mustExec(t, a, "PRAGMA read_uncommitted = 1")
			check := func(step string, db *sql.DB, want int) {
				t.Helper()
				rows, objs := rvCount(t, db, "SELECT count(*) FROM m"), rvCount(t, db, "SELECT count(v) FROM t")
				if rows != want || objs != want {
					t.Errorf("%s: m has %d rows, t %d, want %d", step, rows, objs, want)
				}
			}
			check("before", a, 5)
			mustExec(t, b, "BEGIN")
			mustExec(t, b, "INSERT INTO t VALUES (6, '[7,7]')")
			check("during b's transaction", a, 6)
			c := openFile(t, drv, dsn) // its first read is of the uncommitted row
			mustExec(t, c, "PRAGMA read_uncommitted = 1")
			check("c, during b's transaction", c, 6)
			mustExec(t, b, "ROLLBACK")
			check("after b's rollback", a, 5)
			check("c, after b's rollback", c, 5)
		})
	}
}
