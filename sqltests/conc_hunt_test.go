package sqltests

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// concDefs are the two definitions one model name takes in the pool tests.
var concDefs = []string{
	`CREATE VIRTUAL TABLE IF NOT EXISTS m USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=1)', components=2)`,
	`CREATE VIRTUAL TABLE IF NOT EXISTS m USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=3)', components=2)`,
}

// concStates are the source's two contents, switched by one UPDATE each.
var concStates = []string{
	`UPDATE pts SET gen = 0, v = json_array(id % 7 * 0.3, id % 5 * 0.4)`,
	`UPDATE pts SET gen = 1, v = json_array(id % 5 * 0.2, id % 3 * 0.7 + id % 4 * 0.1)`,
}

// concRead reads the source's generation and the model's projections in one
// statement, so in one read transaction: the answer must be the fit of
// that generation.
const concRead = `SELECT (SELECT gen FROM pts WHERE id = 1),
	(SELECT group_concat(printf('%.6f', abs(pc1)), ' ') FROM (SELECT pc1 FROM m ORDER BY id))`

func concSource(t *testing.T, db *sql.DB) {
	mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, gen INTEGER)`)
	mustExec(t, db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 80)
		INSERT INTO pts(id) SELECT i FROM n`)
	mustExec(t, db, concStates[0])
}

// concAnswers fits every definition on every generation on a database of
// its own: the answers a concurrent read may give.
func concAnswers(t *testing.T, drv string) map[string]map[int64]bool {
	db := openFile(t, drv, filepath.Join(t.TempDir(), "key.db"))
	concSource(t, db)
	ok := map[string]map[int64]bool{}
	for gen, state := range concStates {
		mustExec(t, db, state)
		for _, def := range concDefs {
			mustExec(t, db, "DROP TABLE IF EXISTS m")
			mustExec(t, db, def)
			var g int64
			var ans string
			if err := db.QueryRow(concRead).Scan(&g, &ans); err != nil {
				t.Fatal(err)
			}
			if g != int64(gen) {
				t.Fatalf("generation %d read as %d", gen, g)
			}
			if ok[ans] == nil {
				ok[ans] = map[int64]bool{}
			}
			ok[ans][g] = true
		}
	}
	if len(ok) != len(concStates)*len(concDefs) {
		t.Fatalf("the %d fits are not all different: %d answers", len(concStates)*len(concDefs), len(ok))
	}
	return ok
}

// concPool is a pool of eight connections on a new WAL database file
// holding the source, closed with the test.
func concPool(t *testing.T, drv, file string) *sql.DB {
	t.Helper()
	db, err := sql.Open(drv, busyDSN(drv, filepath.Join(t.TempDir(), file)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(8)
	mustExec(t, db, "PRAGMA journal_mode=WAL")
	concSource(t, db)
	return db
}

// TestPoolWALModelRace: a pool of eight connections on one WAL database;
// goroutines drop and create one model name with two definitions, refit
// it, switch its source between two contents and read it. Every read
// answers the fit of one definition on the source as that same statement
// sees it (never a stale fit after another connection's commit, nor a
// mix), and every error is one of locking or of the table's absence.
func TestPoolWALModelRace(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			answers := concAnswers(t, drv)
			db := concPool(t, drv, "pool.db")
			db.SetMaxIdleConns(8)
			mustExec(t, db, concDefs[0])
			ops := []string{"DROP TABLE IF EXISTS m", concDefs[0], concDefs[1], "INSERT INTO m(m) VALUES ('refit')",
				concStates[0], concStates[1]}
			var wg sync.WaitGroup
			var mu sync.Mutex
			var failures []string
			reads := 0
			fail := func(f string, a ...any) {
				mu.Lock()
				failures = append(failures, fmt.Sprintf(f, a...))
				mu.Unlock()
			}
			// Rounds until a read has answered during one (under load every
			// read of a round can meet a lock): the test is not vacuous.
			for round := 0; round < 8 && reads == 0; round++ {
				for g := 0; g < 12; g++ {
					wg.Add(1)
					go func(g int) {
						defer wg.Done()
						r := rand.New(rand.NewPCG(uint64(g), uint64(2+round)))
						// No deadlines: an interrupted DROP is TestDropWhileReading's
						// matter, and here a CREATE refused for a name taken is a
						// failure (the definitions say IF NOT EXISTS).
						ctx := context.Background()
						for i := 0; i < 25; i++ {
							if g%2 == 0 { // readers
								var gen int64
								var ans string
								err := db.QueryRowContext(ctx, concRead).Scan(&gen, &ans)
								switch {
								case err != nil && !isBenign(err):
									fail("read: %v", err)
								case err == nil && !answers[ans][gen]:
									fail("read on generation %d answers a fit of no definition on that source: %.60s (known for %v)", gen, ans, answers[ans])
								case err == nil:
									mu.Lock()
									reads++
									mu.Unlock()
								}
								continue
							}
							q := ops[r.IntN(len(ops))]
							_, err := db.ExecContext(ctx, q)
							if err != nil && (!isBenign(err) || strings.Contains(err.Error(), "cannot create")) {
								fail("%.50s: %v", q, err)
							}
						}
					}(g)
				}
				wg.Wait()
			}
			for _, f := range failures {
				t.Error(f)
			}
			var left int
			if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'm_fit' AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'm')").Scan(&left); err != nil || left != 0 {
				t.Errorf("m_fit left without m (%v)", err)
			}
			if reads == 0 {
				t.Error("no read succeeded")
			}
			t.Logf("%d reads answered", reads)
		})
	}
}

// TestPoolWALSameNameCreate: goroutines of one pool create the same model
// name at once; one CREATE wins, the others say it exists, and the table
// left answers as a fit made alone does.
func TestPoolWALSameNameCreate(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			answers := concAnswers(t, drv)
			db := concPool(t, drv, "same.db")
			for round := 0; round < 4; round++ {
				mustExec(t, db, "DROP TABLE IF EXISTS m")
				var wg sync.WaitGroup
				errs := make([]error, 8)
				for g := range errs {
					wg.Add(1)
					go func(g int) {
						defer wg.Done()
						_, errs[g] = db.Exec(strings.Replace(concDefs[g%2], " IF NOT EXISTS", "", 1))
					}(g)
				}
				wg.Wait()
				won := 0
				for _, err := range errs {
					if err == nil {
						won++
					} else if !isBenign(err) {
						t.Errorf("round %d: %v", round, err)
					}
				}
				if won != 1 {
					t.Errorf("round %d: %d CREATEs of one name succeeded", round, won)
				}
				var gen int64
				var ans string
				if err := db.QueryRow(concRead).Scan(&gen, &ans); err != nil {
					t.Fatal(err)
				}
				if !answers[ans][gen] {
					t.Errorf("round %d: the table left answers a fit of no definition: %.60s", round, ans)
				}
			}
		})
	}
}

// concConn is a connection of a new database file holding the source and
// the model m, closed with the test.
func concConn(t *testing.T, drv, file string) *sql.Conn {
	t.Helper()
	db := openFile(t, drv, busyDSN(drv, filepath.Join(t.TempDir(), file)))
	concSource(t, db)
	mustExec(t, db, concDefs[0])
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestRefitMidCursor: on one connection, a statement reading a model is
// half read when the source switches or a 'refit' runs; the statement
// answers one fit to its end (the one of the source it first read), and
// the next statement the fit of the source now.
func TestRefitMidCursor(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			answers := concAnswers(t, drv)
			conn := concConn(t, drv, "mid.db")
			ctx := context.Background()
			refit := "INSERT INTO m(m) VALUES ('refit')"
			for _, write := range []string{concStates[1], refit, concStates[0], refit, concStates[1]} {
				var gen int64
				if err := conn.QueryRowContext(ctx, "SELECT gen FROM pts WHERE id = 1").Scan(&gen); err != nil {
					t.Fatal(err)
				}
				rows, err := conn.QueryContext(ctx, "SELECT printf('%.6f', abs(pc1)) FROM m ORDER BY id")
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for rows.Next() {
					var v string
					if err := rows.Scan(&v); err != nil {
						t.Fatal(err)
					}
					if got = append(got, v); len(got) == 10 {
						if _, err := conn.ExecContext(ctx, write); err != nil {
							t.Fatalf("%s while a statement reads the model: %v", write, err)
						}
					}
				}
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
				if ans := strings.Join(got, " "); !answers[ans][gen] {
					t.Errorf("%s in the middle of a read: the read answered no one fit of generation %d: %.60s", write, gen, ans)
				}
				var ans string
				if err := conn.QueryRowContext(ctx, concRead).Scan(&gen, &ans); err != nil {
					t.Fatal(err)
				}
				if !answers[ans][gen] {
					t.Errorf("after %s: the next read answers no fit of generation %d: %.60s", write, gen, ans)
				}
			}
		})
	}
}

// TestDropWhileReading: DROP TABLE of a model while another statement of
// the connection is reading. SQLite refuses to drop the model's shadow
// table then, so the DROP fails and the model stays whole (modernc's
// xDestroy reported success, and m_fit was left behind, its name taken:
// CREATE of m failed after). Once the reader is done, the DROP removes
// both.
func TestDropWhileReading(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			conn := concConn(t, drv, "drop.db")
			ctx := context.Background()
			names := func() string {
				var s string
				if err := conn.QueryRowContext(ctx, "SELECT coalesce(group_concat(name, ','), '') FROM (SELECT name FROM sqlite_master WHERE name IN ('m', 'm_fit') ORDER BY name)").Scan(&s); err != nil {
					t.Fatal(err)
				}
				return s
			}
			rows, err := conn.QueryContext(ctx, "SELECT id FROM pts")
			if err != nil {
				t.Fatal(err)
			}
			if !rows.Next() {
				t.Fatal("no row")
			}
			if _, err := conn.ExecContext(ctx, "DROP TABLE m"); err == nil {
				t.Error("DROP TABLE m succeeded while its shadow table could not be dropped")
			}
			if got := names(); got != "m,m_fit" {
				t.Errorf("after the refused DROP: %q left, want m,m_fit", got)
			}
			var n int
			if err := conn.QueryRowContext(ctx, "SELECT count(pc1) FROM m").Scan(&n); err != nil || n != 80 {
				t.Errorf("the model after the refused DROP: %d rows, %v", n, err)
			}
			rows.Close()
			mustExecConn(t, conn, "DROP TABLE m")
			if got := names(); got != "" {
				t.Errorf("after DROP TABLE m: %q left", got)
			}
			mustExecConn(t, conn, concDefs[0])
		})
	}
}

func mustExecConn(t *testing.T, c *sql.Conn, q string) {
	t.Helper()
	if _, err := c.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestSharedCacheLockedSource: two connections to one shared-cache
// database; one holds a write transaction on a model's source while the
// other reads the model. The read fails at once with the lock, as a read of
// the source itself would (modernc waited, nested in a statement holding
// the shared cache's mutex, and the writer's COMMIT then hung for ever
// behind it); after the COMMIT the model answers the source committed.
func TestSharedCacheLockedSource(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			dsn := "file:conchuntlocked" + driverLabel(drv) + "?mode=memory&cache=shared"
			x, y := openFile(t, drv, dsn), openFile(t, drv, dsn)
			answers := concAnswers(t, drv)
			concSource(t, x)
			mustExec(t, x, concDefs[0])
			tx, err := x.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(concStates[1]); err != nil {
				t.Fatal(err)
			}
			read := make(chan error, 1)
			go func() {
				var n int
				read <- y.QueryRow("SELECT count(pc1) FROM m").Scan(&n)
			}()
			select {
			case err := <-read:
				if err == nil || !strings.Contains(err.Error(), "locked") {
					t.Errorf("reading the model while its source is locked: %v, want a lock error", err)
				}
			case <-time.After(10 * time.Second):
				commit := make(chan error, 1)
				go func() { commit <- tx.Commit() }()
				select {
				case <-commit:
					t.Fatal("the model read waited for the other connection's COMMIT")
				case <-time.After(2 * time.Second):
					t.Fatal("the model read waits for the other connection, whose COMMIT waits for it")
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			var gen int64
			var ans string
			if err := y.QueryRow(concRead).Scan(&gen, &ans); err != nil {
				t.Fatal(err)
			}
			if gen != 1 || !answers[ans][gen] {
				t.Errorf("after the COMMIT: generation %d, fit %.60s (known for %v)", gen, ans, answers[ans])
			}
		})
	}
}
