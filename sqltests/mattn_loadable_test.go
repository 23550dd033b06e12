//go:build sqlite_vtable && cgo

package sqltests

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

var registerSoHost sync.Once

// TestLoadableInGoHost loads the library into a Go program's SQLite
// (mattn's, 3.54: a second Go runtime in the process, and a SQLite with
// sqlite3_is_interrupted), where a cancelled statement stops ksql's work
// at once, not only between rows, and leaves the connection free.
func TestLoadableInGoHost(t *testing.T) {
	so, err := loadableLib()
	if err != nil {
		t.Skipf("loadable library: %v", err)
	}
	registerSoHost.Do(func() {
		sql.Register("sqlite3_ksql_so", &sqlite3.SQLiteDriver{Extensions: []string{so}})
	})
	db := OpenDB(t, "sqlite3_ksql_so")
	var v float64
	if err := db.QueryRow("SELECT gauss_kernel('[0]', '[1]', 1)").Scan(&v); err != nil || v != 0.6065306597126334 {
		t.Fatalf("gauss_kernel = %v, %v", v, err)
	}
	mustExec(t, db, "CREATE TABLE long(body TEXT); INSERT INTO long VALUES (replace(hex(zeroblob(30000)), '0', 'ab'))")
	mustExec(t, db, "SELECT ksql_config('max_dp_cells', 4000000000000)")
	// 3.6·10^9 cells: minutes of work unless the interrupt reaches it.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = db.QueryRowContext(ctx, "SELECT subseq_kernel(body, body) FROM long").Scan(&v)
	if err == nil {
		t.Fatalf("finished (%v) before the interrupt", v)
	}
	start = time.Now()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM long").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after the interrupt: %v, %v", n, err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("the connection was busy for %v after the interrupt: the work did not stop", el)
	}
}
