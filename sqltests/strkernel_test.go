package sqltests

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// randomText returns n code points drawn from a Cyrillic alphabet with
// spaces, as a stand-in for Russian text.
func randomText(r *rand.Rand, n int) string {
	alpha := []rune("абвгдеёжзийклмнопрстуфхцчшщъыьэюя    ")
	out := make([]rune, n)
	for i := range out {
		out[i] = alpha[r.IntN(len(alpha))]
	}
	return string(out)
}

// TestStringKernelInterrupted cancels statements of string kernels: a
// self-join of many calls, and single calls each far longer than the
// time allowed to stop. Each must stop within a second of the cancel, say
// that it was interrupted, and leave the connection usable.
func TestStringKernelInterrupted(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	docs := make([]string, 60)
	for i := range docs {
		docs[i] = randomText(r, 2000)
	}
	long := randomText(r, 60000)
	queries := []struct{ name, sql string }{
		// 3,600 calls of 2,000×2,000 cells each
		{"self-join subseq", `SELECT sum(subseq_kernel(a.body, b.body)) FROM docs a, docs b`},
		{"self-join ssk", `SELECT sum(ssk_kernel(a.body, b.body, 4, 0.5)) FROM docs a, docs b`},
		{"self-join kernel()", `SELECT sum(kernel('normalize(subseq(p=3))', a.body, b.body)) FROM docs a, docs b`},
		// one call of 3.6·10^9 cells
		{"one long subseq", `SELECT subseq_kernel(body, body) FROM long`},
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, `CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE long(body TEXT)`)
			for _, d := range docs {
				if _, err := db.Exec(`INSERT INTO docs(body) VALUES (?)`, d); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Exec(`INSERT INTO long VALUES (?)`, long); err != nil {
				t.Fatal(err)
			}
			mustExec(t, db, `SELECT ksql_config('max_dp_cells', 4000000000000)`)
			for _, q := range queries {
				ctx, cancel := context.WithCancel(context.Background())
				go func() {
					time.Sleep(300 * time.Millisecond)
					cancel()
				}()
				start := time.Now()
				var v sql.NullFloat64
				err := db.QueryRowContext(ctx, q.sql).Scan(&v)
				stopped := time.Since(start) - 300*time.Millisecond
				cancel()
				if err == nil {
					t.Errorf("%s: finished (%v) before the cancel could stop it", q.name, v)
					continue
				}
				if !strings.Contains(err.Error(), "interrupt") && !errors.Is(err, context.Canceled) {
					t.Errorf("%s: error %q does not say the statement was interrupted", q.name, err)
				}
				if stopped > time.Second {
					t.Errorf("%s: stopped %v after the cancel, want under a second", q.name, stopped)
				}
				t.Logf("%s: stopped %v after the cancel: %v", q.name, stopped.Round(time.Millisecond), err)
				// The same connection (its in-memory tables are there) is
				// free at once: the statement really stopped, it was not
				// left running behind the error.
				start = time.Now()
				var n int
				if err := db.QueryRow(`SELECT count(*) + subseq_kernel('ab', 'ab') FROM docs`).Scan(&n); err != nil || n != len(docs)+4 {
					t.Fatalf("%s: the connection is not usable after the cancel: %v, %v", q.name, n, err)
				}
				if el := time.Since(start); el > time.Second {
					t.Errorf("%s: the connection was busy for %v after the cancel", q.name, el)
				}
			}
		})
	}
}
