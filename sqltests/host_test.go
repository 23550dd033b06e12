package sqltests

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
)

// sourceModule is a test module that reads a table of its connection with
// SQL from inside xFilter, the way gram and kpca read their source. It
// checks the driver-neutral interface on both drivers.
type sourceModule struct{}

type sourceTable struct {
	hc    *host.Conn
	table string
}

type sourceCursor struct {
	t    *sourceTable
	rows [][]any
	i    int
}

func (sourceModule) Create(c *host.Conn, args []string) (host.Table, error) {
	if len(args) != 4 {
		return nil, fmt.Errorf("test_source: want one argument, the table")
	}
	return &sourceTable{hc: c, table: strings.TrimSpace(args[3])}, nil
}

func (m sourceModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return m.Create(c, args)
}

func (t *sourceTable) Schema() string { return "CREATE TABLE x(id, val, sleep HIDDEN)" }

func (t *sourceTable) BestIndex(info *host.IndexInfo) error {
	for i, c := range info.Constraints {
		if c.Column == 2 && c.Op == host.OpEQ && c.Usable {
			info.Constraints[i].Use = true
			info.IdxNum = 1
		}
	}
	info.EstimatedCost = 10
	return nil
}

func (t *sourceTable) Open() (host.Cursor, error) { return &sourceCursor{t: t}, nil }
func (t *sourceTable) Disconnect() error          { return nil }
func (t *sourceTable) Destroy() error             { return nil }

func (c *sourceCursor) Filter(idxNum int, _ string, vals []any) error {
	if idxNum == 1 {
		// Busy-wait until the statement is interrupted, polling the
		// host's interrupt check as long fits do.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if err := c.t.hc.Err(); err != nil {
				return err
			}
		}
		return fmt.Errorf("test_source: not interrupted within 10 s")
	}
	c.rows, c.i = nil, 0
	return c.t.hc.Query(`SELECT id, val FROM "`+c.t.table+`" ORDER BY id`, nil, func(v []any) error {
		c.rows = append(c.rows, v)
		return nil
	})
}

func (c *sourceCursor) Next() error { c.i++; return nil }
func (c *sourceCursor) EOF() bool   { return c.i >= len(c.rows) }
func (c *sourceCursor) Column(col int) (any, error) {
	if col >= 2 {
		return nil, nil
	}
	return c.rows[c.i][col], nil
}
func (c *sourceCursor) Rowid() (int64, error) { return int64(c.i), nil }
func (c *sourceCursor) Close() error          { return nil }

var (
	_ host.Module = sourceModule{}
	_ host.Table  = (*sourceTable)(nil)
	_ host.Cursor = (*sourceCursor)(nil)
)

// The test module joins the declared list before any connection opens.
func init() {
	catalog.Extension.Modules = append(catalog.Extension.Modules, host.ModuleEntry{Name: "ksql_test_source", Module: sourceModule{}})
}

// TestModuleReadsItsConnection shows that a module reads its source with SQL
// on the connection it runs on (so :memory: works), sees changes at once,
// and that a cancelled context reaches the module's interrupt check.
func TestModuleReadsItsConnection(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, `CREATE TABLE src(id INTEGER PRIMARY KEY, val TEXT);
				INSERT INTO src VALUES (1, 'a'), (2, 'b');
				CREATE VIRTUAL TABLE v USING ksql_test_source(src)`)
			if got := concat(t, db); got != "1a2b" {
				t.Fatalf("first read = %q, want 1a2b", got)
			}
			mustExec(t, db, `INSERT INTO src VALUES (3, 'c'); UPDATE src SET val = 'B' WHERE id = 2`)
			if got := concat(t, db); got != "1a2B3c" {
				t.Fatalf("read after change = %q, want 1a2B3c", got)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := db.QueryContext(ctx, `SELECT * FROM v WHERE sleep = 1`)
			if err == nil {
				t.Fatal("cancelled statement returned no error")
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Fatalf("cancel took %v", el)
			}
			if got := concat(t, db); got != "1a2B3c" {
				t.Fatalf("connection unusable after cancel: %q", got)
			}
		})
	}
}

func concat(t *testing.T, db *sql.DB) string {
	t.Helper()
	var s string
	if err := db.QueryRow(`SELECT group_concat(id || val, '') FROM (SELECT * FROM v)`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReadOnlySessions: ksql opens on read-only databases and sessions,
// and kpca_eigen is there too.
func TestReadOnlySessions(t *testing.T) {
	path := t.TempDir() + "/ro.db"
	for _, drv := range drivers {
		db, err := sql.Open(drv, "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, `CREATE TABLE IF NOT EXISTS t(x); DELETE FROM t; INSERT INTO t VALUES ('[1,2]')`)
		db.Close()
		for _, dsn := range []string{"file:" + path + "?mode=ro", "file:" + path + "?_pragma=query_only(1)&_query_only=1"} {
			db, err := sql.Open(drv, dsn)
			if err != nil {
				t.Fatal(err)
			}
			var v float64
			if err := db.QueryRow(`SELECT linear_kernel(x, x) FROM t`).Scan(&v); err != nil || v != 5 {
				t.Errorf("%s %s: %v %v", driverLabel(drv), dsn, v, err)
			}
			err = db.QueryRow(`SELECT count(*) FROM kpca_eigen('nothing')`).Scan(&v)
			if err == nil || !strings.Contains(err.Error(), "kpca_eigen") {
				t.Errorf("%s %s: kpca_eigen of a missing table: %v", driverLabel(drv), dsn, err)
			}
			if _, err := db.Exec(`INSERT INTO t VALUES ('[3]')`); err == nil {
				t.Errorf("%s %s: a write went through", driverLabel(drv), dsn)
			}
			db.Close()
		}
	}
}
