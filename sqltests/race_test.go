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

// benign are the errors that concurrent use of one model table may give:
// SQLite's locks, and a table dropped or created by another goroutine.
var benign = []string{"locked", "busy", "no such table", "already exists", "interrupted", "context canceled",
	"not fitted", "no rows", "cannot create", "deadline exceeded", "no table named"}

func isBenign(err error) bool {
	for _, b := range benign {
		if strings.Contains(err.Error(), b) {
			return true
		}
	}
	return false
}

// busyDSN opens path with a busy timeout on either Go driver.
func busyDSN(drv, path string) string {
	if drv == "ksql_mattn" {
		return "file:" + path + "?_busy_timeout=5000"
	}
	return "file:" + path + "?_pragma=busy_timeout(5000)"
}

// TestModelTableRace: 16 goroutines over two connections refit, read,
// drop and re-create one model table (run it with -race). Nothing panics,
// every error is one of locking or of the table's absence, and the stored
// fit left at the end is whole: a new connection restores it and answers
// as a fresh fit does.
func TestModelTableRace(t *testing.T) {
	const create = `CREATE VIRTUAL TABLE IF NOT EXISTS s USING svm(table=pts, id=id, column=v, label=class, kernel='gauss(sigma=1)', C=1)`
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "race.db")
			dbs := [2]*sql.DB{openFile(t, drv, busyDSN(drv, path)), openFile(t, drv, busyDSN(drv, path))}
			mustExec(t, dbs[0], `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, class TEXT)`)
			for i := 0; i < 60; i++ {
				mustExec(t, dbs[0], fmt.Sprintf("INSERT INTO pts VALUES (%d, '[%g, %g]', '%c')", i, float64(i%7)*0.3, float64(i%5)*0.4, 'a'+rune(i%2)))
			}
			mustExec(t, dbs[0], create)
			ops := []string{"SELECT count(prediction) FROM s", "INSERT INTO s(s) VALUES ('refit')", "DROP TABLE IF EXISTS s", create,
				"SELECT value FROM ksql_model('s') WHERE name = 'fit'", "UPDATE pts SET v = json_array(id % 3, id % 4) WHERE id = 7"}
			var wg sync.WaitGroup
			errs := make(chan error, 16)
			for g := 0; g < 16; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					r := rand.New(rand.NewPCG(uint64(g), 1))
					db := dbs[g%2]
					for i := 0; i < 12; i++ {
						q := ops[r.IntN(len(ops))]
						ctx, cancel := context.WithTimeout(context.Background(), time.Duration(r.IntN(40))*time.Millisecond+time.Millisecond)
						_, err := db.ExecContext(ctx, q)
						cancel()
						if err != nil && !isBenign(err) {
							errs <- fmt.Errorf("%s: %v", q, err)
							return
						}
					}
				}(g)
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			mustExec(t, dbs[0], create)
			want, err := queryRows(dbs[0], "SELECT id, prediction, decision FROM s")
			if err != nil {
				t.Fatal(err)
			}
			dbs[0].Close()
			dbs[1].Close()
			fresh := openFile(t, drv, busyDSN(drv, path))
			got, err := queryRows(fresh, "SELECT id, prediction, decision FROM s")
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("the reopened table answers differently:\n got %v\nwant %v", got, want)
			}
			if note := modelValue(t, fresh, "s", "stored_fit"); strings.Contains(note, "checksum") || strings.Contains(note, "does not match") {
				t.Errorf("the stored fit left is not whole: %s", note)
			}
		})
	}
}

// TestRefitInterrupted: a refit cancelled at random points leaves the
// stored fit whole, the previous one or the new one, never a mix.
func TestRefitInterrupted(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "refit.db")
			db := openFile(t, drv, busyDSN(drv, path))
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT)`)
			mustExec(t, db, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700)
				INSERT INTO pts SELECT i, json_array(i % 17 * 0.25, i % 13 * 0.5, i % 11 * 0.1) FROM n`)
			mustExec(t, db, `CREATE VIRTUAL TABLE p USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=2)', components=2)`)
			hashes := map[string]bool{storedHash(t, db, "p"): true}
			r := rand.New(rand.NewPCG(7, 7))
			for i := 0; i < 12; i++ {
				mustExec(t, db, fmt.Sprintf("UPDATE pts SET v = json_array(%d, 1, 2) WHERE id = 1", i))
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(r.IntN(60))*time.Millisecond)
				_, err := db.ExecContext(ctx, "INSERT INTO p(p) VALUES ('refit')")
				cancel()
				if err != nil && !isBenign(err) {
					t.Fatalf("refit: %v", err)
				}
				if err == nil {
					hashes[storedHash(t, db, "p")] = true
				}
				// A refit may finish just as its context ends, and report the
				// cancel: then the new fit is stored, whole, and a new
				// connection restores it (the source has not changed since).
				h := storedHash(t, db, "p")
				check := openFile(t, drv, busyDSN(drv, path))
				note, fit := modelValue(t, check, "p", "stored_fit"), modelValue(t, check, "p", "fit")
				if strings.Contains(note, "checksum") || strings.Contains(note, "does not match") {
					t.Fatalf("after an interrupted refit the stored fit is not whole: %s", note)
				}
				if !hashes[h] && fit != "restored from p_fit" {
					t.Fatalf("after an interrupted refit the stored fit is neither the previous one nor the new one: %s %s", fit, note)
				}
				hashes[h] = true
				check.Close()
			}
		})
	}
}
