package sqltests

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/ksql/ksql/ext"
)

// drivers lists the database/sql drivers every file runs on; the mattn
// build adds its own.
var drivers = []string{"ksql"}

func driverLabel(name string) string {
	switch name {
	case "ksql":
		return "modernc"
	case loadableDriver:
		return "loadable"
	}
	return "mattn"
}

// OpenDB opens a one-connection in-memory database on driver.
func OpenDB(t testing.TB, driver string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// mustExec runs q, failing the test on an error.
func mustExec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

type record struct {
	line    int
	kind    string // "statement" or "query"
	arg     string // error text, or query options
	sql     string
	want    []string
	hasRows bool
	only    string
	skip    string
}

func parseFile(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []record
	var cur *record
	var only, skip string
	inRows := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case cur == nil && (strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#")):
		case cur == nil && strings.HasPrefix(line, "onlyif "):
			only = strings.TrimSpace(line[7:])
		case cur == nil && strings.HasPrefix(line, "skipif "):
			skip = strings.TrimSpace(line[7:])
		case cur == nil:
			kind, arg, _ := strings.Cut(line, " ")
			if kind != "statement" && kind != "query" {
				return nil, fmt.Errorf("%s:%d: expected statement or query, got %q", path, n, line)
			}
			cur = &record{line: n, kind: kind, arg: arg, only: only, skip: skip}
			only, skip, inRows = "", "", false
		case strings.TrimSpace(line) == "":
			recs = append(recs, *cur)
			cur = nil
		case line == "----" && cur.kind == "query":
			inRows, cur.hasRows = true, true
		case inRows:
			cur.want = append(cur.want, line)
		default:
			cur.sql += line + "\n"
		}
	}
	if cur != nil {
		recs = append(recs, *cur)
	}
	return recs, sc.Err()
}

func TestSQL(t *testing.T) {
	files, err := filepath.Glob("*.test")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			for _, file := range files {
				t.Run(file, func(t *testing.T) { runFile(t, drv, file) })
			}
		})
	}
}

func runFile(t *testing.T, drv, file string) {
	recs, err := parseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	db := OpenDB(t, drv)
	label := driverLabel(drv)
	for _, r := range recs {
		if (r.only != "" && r.only != label) || r.skip == label {
			continue
		}
		where := fmt.Sprintf("%s:%d", file, r.line)
		switch {
		case r.kind == "statement" && r.arg == "ok":
			if _, err := db.Exec(r.sql); err != nil {
				t.Errorf("%s: unexpected error: %v", where, err)
			}
		case r.kind == "statement":
			want := strings.TrimPrefix(r.arg, "error")
			want = strings.TrimSpace(want)
			err := execOrQuery(db, r.sql)
			if err == nil {
				t.Errorf("%s: expected error containing %q, got none", where, want)
			} else if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not contain %q", where, err, want)
			}
		default:
			checkQuery(t, db, where, r)
		}
	}
}

// execOrQuery runs sql and reads all its rows, so that errors raised while
// stepping (not only while preparing) are seen.
func execOrQuery(db *sql.DB, q string) error {
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

func checkQuery(t *testing.T, db *sql.DB, where string, r record) {
	tol := 1e-9
	for _, opt := range strings.Fields(r.arg) {
		if v, ok := strings.CutPrefix(opt, "tol="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: bad tol %q", where, v)
			}
			tol = f
		}
	}
	got, err := queryRows(db, r.sql)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	if len(got) != len(r.want) {
		t.Errorf("%s: got %d rows, want %d\ngot:\n%s\nwant:\n%s", where, len(got), len(r.want), render(got), strings.Join(r.want, "\n"))
		return
	}
	for i, row := range got {
		want := strings.Split(r.want[i], "|")
		if len(want) != len(row) {
			t.Errorf("%s: row %d has %d columns, want %d: %s", where, i+1, len(row), len(want), r.want[i])
			continue
		}
		for j, v := range row {
			if !match(v, want[j], tol) {
				t.Errorf("%s: row %d column %d = %s, want %s", where, i+1, j+1, format(v), want[j])
			}
		}
	}
}

func queryRows(db *sql.DB, q string) ([][]any, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

func format(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return "x'" + hex.EncodeToString(x) + "'"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func render(rows [][]any) string {
	var b strings.Builder
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				b.WriteByte('|')
			}
			b.WriteString(format(v))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func match(v any, want string, tol float64) bool {
	f, isFloat := v.(float64)
	if !isFloat {
		return format(v) == want
	}
	switch want {
	case "inf":
		return math.IsInf(f, 1)
	case "-inf":
		return math.IsInf(f, -1)
	}
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		return false
	}
	return math.Abs(f-w) <= tol*math.Max(1, math.Abs(w))
}
