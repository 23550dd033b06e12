package sqltests

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The loadable library (cmd/ksql-ext) runs every .test file too, loaded
// into Debian's /usr/bin/python3 sqlite3 module (the system libsqlite3)
// through testdata/loadable_runner.py. A database/sql driver,
// "ksql_loadable", forwards each statement to that process, so runFile
// needs nothing of its own. The library is built once per test binary,
// with -tags ksqlpanic (test functions that panic, see ext/catalog).

const loadableDriver = "ksql_loadable"

var loadable struct {
	once    sync.Once
	so, vec string
	err     error
}

func init() { sql.Register(loadableDriver, proxyDriver{}) }

// loadableLib builds the library, or says why it cannot run here.
func loadableLib() (string, error) {
	loadable.once.Do(func() {
		if _, err := os.Stat("/usr/bin/python3"); err != nil {
			loadable.err = errors.New("no /usr/bin/python3 (Debian's, whose sqlite3 can load extensions); .ci/run installs it")
			return
		}
		if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || string(out) != "1\n" {
			loadable.err = errors.New("cgo is off: the loadable library needs it")
			return
		}
		dir, err := os.MkdirTemp("", "ksql-loadable")
		if err != nil {
			loadable.err = err
			return
		}
		so := filepath.Join(dir, "ksql.so")
		cmd := exec.Command("go", "build", "-tags", "ksqlpanic", "-buildmode=c-shared", "-o", so, "../cmd/ksql-ext")
		if out, err := cmd.CombinedOutput(); err != nil {
			loadable.err = fmt.Errorf("building the library: %v\n%s", err, out)
			return
		}
		// sqlite-vec, which the Go drivers bundle, from the C source of
		// its Go bindings, with the headers ext/loadable vendors.
		src, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/asg017/sqlite-vec-go-bindings").Output()
		if err != nil {
			loadable.err = fmt.Errorf("finding sqlite-vec's source: %v", err)
			return
		}
		cdir := filepath.Join(strings.TrimSpace(string(src)), "cgo")
		vec := filepath.Join(dir, "vec0.so")
		cmd = exec.Command("gcc", "-O2", "-fPIC", "-shared", "-I../ext/loadable", "-I"+cdir,
			filepath.Join(cdir, "sqlite-vec.c"), "-o", vec, "-lm")
		if out, err := cmd.CombinedOutput(); err != nil {
			loadable.err = fmt.Errorf("building sqlite-vec: %v\n%s", err, out)
			return
		}
		loadable.so, loadable.vec = so, vec
	})
	return loadable.so, loadable.err
}

// withLoadable returns drivers plus the loadable library's when it runs
// here; t fails if it should and cannot be built, and logs why it is absent.
func withLoadable(t *testing.T) []string {
	if runtime.GOOS != "linux" {
		t.Logf("loadable library: not run on %s", runtime.GOOS)
		return drivers
	}
	if _, err := loadableLib(); err != nil {
		t.Logf("loadable library: not run: %v", err)
		return drivers
	}
	return append(append([]string(nil), drivers...), loadableDriver)
}

type proxyDriver struct{}

// proxyConn is one python3 process holding one connection.
type proxyConn struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// Open starts one python3 process; name is the database (":memory:" when
// empty, a "file:" URI as the Go drivers take it).
func (proxyDriver) Open(name string) (driver.Conn, error) {
	so, err := loadableLib()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/usr/bin/python3", "testdata/loadable_runner.py", loadable.vec, so)
	cmd.Env = append(os.Environ(), "KSQL_RUNNER_DB="+name)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &proxyConn{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	var hello struct{ Version string }
	if err := c.read(&hello); err != nil {
		c.Close()
		return nil, fmt.Errorf("loading the library into python3: %v", err)
	}
	return c, nil
}

type answer struct {
	Error *string
	Cols  []string
	Rows  [][]map[string]string
}

func (c *proxyConn) read(v any) error {
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("the python3 process ended (did the library crash it?): %v", err)
	}
	return json.Unmarshal(line, v)
}

func (c *proxyConn) do(op, q string) (*answer, error) {
	req, _ := json.Marshal(map[string]string{"op": op, "sql": q})
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		return nil, err
	}
	var a answer
	if err := c.read(&a); err != nil {
		return nil, err
	}
	if a.Error != nil {
		return nil, errors.New(*a.Error)
	}
	return &a, nil
}

func (c *proxyConn) Prepare(q string) (driver.Stmt, error) { return proxyStmt{c, q}, nil }
func (c *proxyConn) Begin() (driver.Tx, error) {
	return nil, errors.New("ksql_loadable: no transactions")
}
func (c *proxyConn) Close() error {
	c.in.Close()
	return c.cmd.Wait()
}

func (c *proxyConn) ExecContext(_ context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if len(args) > 0 {
		return nil, errors.New("ksql_loadable: no parameters")
	}
	_, err := c.do("exec", q)
	return driver.RowsAffected(0), err
}

func (c *proxyConn) QueryContext(_ context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if len(args) > 0 {
		return nil, errors.New("ksql_loadable: no parameters")
	}
	a, err := c.do("query", q)
	if err != nil {
		return nil, err
	}
	return &proxyRows{a: a}, nil
}

type proxyStmt struct {
	c *proxyConn
	q string
}

func (s proxyStmt) Close() error  { return nil }
func (s proxyStmt) NumInput() int { return -1 }
func (s proxyStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.c.ExecContext(context.Background(), s.q, nil)
}
func (s proxyStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.c.QueryContext(context.Background(), s.q, nil)
}

type proxyRows struct {
	a   *answer
	pos int
}

func (r *proxyRows) Columns() []string { return r.a.Cols }
func (r *proxyRows) Close() error      { return nil }

func (r *proxyRows) Next(dest []driver.Value) error {
	if r.pos >= len(r.a.Rows) {
		return io.EOF
	}
	for i, v := range r.a.Rows[r.pos] {
		var err error
		if dest[i], err = decodeValue(v); err != nil {
			return err
		}
	}
	r.pos++
	return nil
}

func decodeValue(v map[string]string) (driver.Value, error) {
	if v == nil {
		return nil, nil
	}
	for k, s := range v {
		switch k {
		case "i":
			return strconv.ParseInt(s, 10, 64)
		case "f":
			return strconv.ParseFloat(s, 64)
		case "s":
			b, err := hex.DecodeString(s)
			return string(b), err
		case "b":
			return hex.DecodeString(s)
		}
	}
	return nil, fmt.Errorf("ksql_loadable: bad value %v", v)
}

// TestLoadablePanics: a panic in a function or a module callback of the
// library is an error for the statement; python3 and the connection go on.
// Loading the library twice on one connection is harmless.
func TestLoadablePanics(t *testing.T) {
	if _, err := loadableLib(); err != nil {
		t.Skipf("loadable library: %v", err)
	}
	db := OpenDB(t, loadableDriver)
	for _, q := range []string{"SELECT ksql_test_panic()", "SELECT * FROM ksql_test_panic_table"} {
		err := execOrQuery(db, q)
		if err == nil || !strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "ksql_test_panic") {
			t.Errorf("%s: %v", q, err)
		}
		var v float64
		if err := db.QueryRow("SELECT gauss_kernel('[0]', '[1]', 1)").Scan(&v); err != nil || v != math.Exp(-0.5) {
			t.Errorf("after %s: %v, %v", q, v, err)
		}
	}
	so, _ := loadableLib()
	mustExec(t, db, "SELECT ksql_config('max_dp_cells', 77)")
	// Loading it again from SQL, on the connection that has it: SQLite
	// refuses to replace functions while a statement (this one) runs, and
	// says so; the connection keeps its functions and settings.
	err := execOrQuery(db, fmt.Sprintf("SELECT load_extension('%s')", so))
	if err != nil && !strings.Contains(err.Error(), "active statements") {
		t.Errorf("load_extension again: %v", err)
	}
	var cells int64
	if err := db.QueryRow("SELECT ksql_config('max_dp_cells')").Scan(&cells); err != nil || cells != 77 {
		t.Errorf("max_dp_cells = %d, %v", cells, err)
	}
}

// TestLoadableInnocuous: with PRAGMA trusted_schema=OFF a view may call a
// pure ksql function (SQLITE_INNOCUOUS) but not kernel(), which can read a
// table that the spec names (a rational kernel's transducer).
func TestLoadableInnocuous(t *testing.T) {
	if _, err := loadableLib(); err != nil {
		t.Skipf("loadable library: %v", err)
	}
	db := OpenDB(t, loadableDriver)
	mustExec(t, db, `PRAGMA trusted_schema=OFF; CREATE TABLE t(a TEXT, b TEXT); INSERT INTO t VALUES ('ab', 'ab');
		CREATE VIEW pure AS SELECT gauss_kernel('[1]', '[2]', 1) AS g FROM t;
		CREATE VIEW reads AS SELECT kernel('ngram(n=1)', a, b) AS k FROM t`)
	var g float64
	if err := db.QueryRow("SELECT g FROM pure").Scan(&g); err != nil || g != math.Exp(-0.5) {
		t.Errorf("innocuous gauss_kernel in a view: %v, %v", g, err)
	}
	if err := execOrQuery(db, "SELECT k FROM reads"); err == nil || !strings.Contains(err.Error(), "unsafe use of kernel()") {
		t.Errorf("kernel() in a view under trusted_schema=OFF: %v", err)
	}
}
