package sqltests

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// interruptCase is a statement whose dense linear algebra runs for many
// seconds on big rows (the Gram matrix of cheap 2-d vectors takes a
// fraction of that), so a cancel lands inside the factorisation.
type interruptCase struct {
	name  string
	big   int    // rows of the long fit
	using string // the module and its options, after USING; "" for a scan
	scan  string // a table-valued scan, for kernel_spectrum
}

// interruptCases are sized so that the uninterrupted statement takes
// seconds on a 2-core machine (measured: see the report of the change that
// added this test), far above the latency asserted. KSQL_INTERRUPT_SIZES
// ("krr=4500,kfda=1200,...") overrides the sizes, to time the issue's.
func interruptCases(t *testing.T) []interruptCase {
	cases := []interruptCase{
		{name: "krr", big: 9000, using: "krr(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=0.05)', alpha=1e-3)"},
		{name: "kfda", big: 4000, using: "kfda(table=pts, id=id, column=v, label=c, kernel='gauss(sigma=0.05)', components=2, reg=1e-3)"},
		{name: "kernel_map", big: 9000, using: "kernel_map(table=pts, id=id, column=v, kernel='gauss(sigma=0.05)')"},
		{name: "kernel_spectrum", big: 3000, scan: "SELECT count(*) FROM kernel_spectrum('gauss(sigma=0.05)', 'SELECT id, v FROM pts')"},
	}
	if s := os.Getenv("KSQL_INTERRUPT_SIZES"); s != "" {
		for _, kv := range strings.Split(s, ",") {
			k, v, _ := strings.Cut(kv, "=")
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("KSQL_INTERRUPT_SIZES: %q", kv)
			}
			for i := range cases {
				if cases[i].name == k {
					cases[i].big = n
				}
			}
		}
	}
	return cases
}

// loadPoints fills pts(id, v, y, c) with n rows of 2-d points in the
// unit square, a real label y and a class c of three.
func loadPoints(t *testing.T, db *sql.DB, from, to int) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(from), 7))
	for i := from; i < to; i++ {
		x, y := r.Float64(), r.Float64()
		if _, err := tx.Exec(`INSERT INTO pts VALUES (?, json_array(?, ?), ?, ?)`, i, x, y, x*y, "c"+strconv.Itoa(i%3)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// cancelled runs q under a context cancelled after delay and returns how
// long after the cancel the statement returned, failing the test unless
// it failed as interrupted.
func cancelled(t *testing.T, db *sql.DB, q string, delay time.Duration) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fired := make(chan time.Time, 1)
	timer := time.AfterFunc(delay, func() { fired <- time.Now(); cancel() })
	defer timer.Stop()
	var err error
	if strings.HasPrefix(q, "SELECT") {
		var n int
		err = db.QueryRowContext(ctx, q).Scan(&n)
	} else {
		_, err = db.ExecContext(ctx, q)
	}
	end := time.Now()
	var at time.Time
	select {
	case at = <-fired:
	default:
	}
	if err == nil {
		t.Fatalf("%s: finished in %v, before the cancel at %v: make the input bigger", q, end.Sub(at), delay)
	}
	if !strings.Contains(err.Error(), "interrupt") && !errors.Is(err, context.Canceled) {
		t.Fatalf("%s: error %q does not say the statement was interrupted", q, err)
	}
	if at.IsZero() {
		t.Fatalf("%s: failed before the cancel: %v", q, err)
	}
	return end.Sub(at)
}

// fitParts reads the shadow table of a model table: the stored fit.
func fitParts(t *testing.T, db *sql.DB, table string) map[string]string {
	t.Helper()
	rows, err := db.Query(`SELECT part, data FROM ` + table + `_fit`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var part string
		var data []byte
		if err := rows.Scan(&part, &data); err != nil {
			t.Fatal(err)
		}
		out[part] = string(data)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDenseFitsInterrupted cancels exact krr, kfda and kernel_map fits and
// kernel_spectrum scans at a random moment inside their dense linear
// algebra (Cholesky, eigensolver, pivoted Cholesky): each statement fails
// as interrupted within a moment of the cancel, a cancelled CREATE leaves
// no table, and a cancelled read or 'refit' leaves the stored fit as it
// was; the connection then answers as before.
func TestDenseFitsInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("fits big inputs")
	}
	const small = 200
	for _, drv := range drivers {
		for _, c := range interruptCases(t) {
			t.Run(driverLabel(drv)+"/"+c.name, func(t *testing.T) {
				db := openFile(t, drv, "file:"+filepath.Join(t.TempDir(), "int.db"))
				mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL, c TEXT)`)
				loadPoints(t, db, 0, small)
				var stored map[string]string
				if c.using != "" {
					mustExec(t, db, `CREATE VIRTUAL TABLE t USING `+c.using)
					stored = fitParts(t, db, "t")
				}
				loadPoints(t, db, small, c.big)
				r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
				// early enough to land inside the fit on a quiet machine too
				delay := func() time.Duration { return time.Duration(150+r.IntN(650)) * time.Millisecond }
				var stmts []string
				if c.using == "" {
					stmts = []string{c.scan}
				} else {
					stmts = []string{`SELECT count(*) FROM t`, `INSERT INTO t(t) VALUES ('refit')`, `CREATE VIRTUAL TABLE t2 USING ` + c.using}
				}
				for _, q := range stmts {
					d := delay()
					late := cancelled(t, db, q, d)
					t.Logf("%s, %d rows: cancelled at %v, returned %v later", q, c.big, d, late)
					if late > 3*time.Second {
						t.Errorf("%s: returned %v after the cancel", q, late)
					}
				}
				if c.using == "" {
					return
				}
				if got := fitParts(t, db, "t"); !reflect.DeepEqual(got, stored) {
					t.Errorf("the stored fit changed after interrupted fits")
				}
				var tables int
				if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('t2', 't2_fit')`).Scan(&tables); err != nil || tables != 0 {
					t.Errorf("after the interrupted CREATE: %d tables named t2 or t2_fit (err %v), want none", tables, err)
				}
				// The connection is usable: back to the small source, the
				// table answers from its stored fit.
				mustExec(t, db, fmt.Sprintf(`DELETE FROM pts WHERE id >= %d`, small))
				var n int
				if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != small {
					t.Fatalf("after the interrupts: %d rows (%v), want %d", n, err, small)
				}
			})
		}
	}
}
