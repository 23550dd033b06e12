package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// withLimit lowers the shell's length limit for one test, so that inputs
// over it stay small.
func withLimit(t *testing.T, n int) {
	old := maxLength
	maxLength = n
	t.Cleanup(func() { maxLength = old })
}

// endless is an io.Reader that never ends: c, c, c, … (like /dev/zero).
type endless struct {
	c    byte
	read atomic.Int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.c
	}
	e.read.Add(int64(len(p)))
	return len(p), nil
}

// runBounded runs the shell like runShell, and fails the test rather than
// hang when the shell does not end.
func runBounded(t *testing.T, in io.Reader, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	type result struct {
		out, err string
		status   int
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		st := run(args, stdio{in: in, out: &out, err: &errb, getenv: func(string) string { return "" }})
		done <- result{out.String(), errb.String(), st}
	}()
	select {
	case r := <-done:
		return r.out, r.err, r.status
	case <-time.After(60 * time.Second):
		t.Fatalf("the shell did not end in a minute (args %q)", args)
	}
	return
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestLengthLimit feeds every way the shell reads input something longer
// than the limit (1000 bytes here) and checks for an error that names the
// command, the file and the limit, and that what fits still works.
func TestLengthLimit(t *testing.T) {
	withLimit(t, 1000)
	t.Chdir(t.TempDir())
	long := strings.Repeat("x", 1001)
	fits := "SELECT length('" + strings.Repeat("y", 1000-len("SELECT length('');")) + "');"
	writeFile(t, "fits.sql", fits+"\n")
	writeFile(t, "longline.sql", "SELECT 1;\n-- "+long+"\nSELECT 2;\n")
	writeFile(t, "longstmt.sql", "SELECT 1;\nSELECT\n"+strings.Repeat("  1 +\n", 300)+"1;\nSELECT 3;\n")
	writeFile(t, "longline.csv", "a,b\n1,"+long+"\n")
	writeFile(t, "longrecord.csv", "a,b\n1,\""+strings.Repeat("0123456789\n", 100)+"\"\n")
	writeFile(t, "fits.csv", "a,b\n1,"+strings.Repeat("z", 990)+"\n")
	writeFile(t, "long.txt", "u\x1fv\x1e"+strings.Repeat("w", 1001))
	writeFile(t, "long2.txt", "u\x1fv\x1e"+strings.Repeat("w", 5000)+"\x1ea\x1fb\x1e")
	os.Mkdir("dir", 0o755)
	writeFile(t, "dir/small.txt", "hello")
	writeFile(t, "dir/big.txt", long)
	for _, c := range []struct {
		name    string
		args    []string
		stdin   io.Reader
		out     string   // stdout, exactly
		errs    []string // in stderr
		noErrs  bool     // stderr empty
		wantRun int      // exit status
	}{
		{name: "a line that fits", args: []string{":memory:", ".read fits.sql"}, out: "982\n", noErrs: true},
		{name: ".read line", args: []string{":memory:", ".read longline.sql"}, out: "1\n", wantRun: 1,
			errs: []string{"Error near line 2 of longline.sql: .read: the line is longer than 1000 bytes, SQLite's limit", "the rest of longline.sql is not read"}},
		{name: ".read statement", args: []string{":memory:", ".read longstmt.sql"}, out: "1\n", wantRun: 1,
			errs: []string{"Error near line 2 of longstmt.sql: .read: the statement from line 2 is longer than 1000 bytes"}},
		{name: ".read /dev/zero", args: []string{":memory:", ".read /dev/zero"}, wantRun: 1,
			errs: []string{"of /dev/zero: .read: the line is longer than 1000 bytes", "the rest of /dev/zero is not read"}},
		{name: "-cmd .read /dev/zero", args: []string{"-cmd", ".read /dev/zero", ":memory:", "SELECT 5"}, out: "5\n", wantRun: 1,
			errs: []string{".read: the line is longer than 1000 bytes"}},
		{name: "-init /dev/zero", args: []string{"-init", "/dev/zero", ":memory:", "SELECT 6"}, out: "6\n", wantRun: 1,
			errs: []string{"-init: the line is longer than 1000 bytes"}},
		{name: "stdin endless line", args: []string{":memory:"}, stdin: &endless{c: 'a'}, wantRun: 1,
			errs: []string{"Error near line 1: reading stdin: the line is longer than 1000 bytes", "the rest of stdin is not read"}},
		{name: "stdin endless statement", args: []string{":memory:"}, stdin: io.MultiReader(strings.NewReader("SELECT 7;\nSELECT\n"), &endless{c: '\n'}),
			out: "7\n", wantRun: 1, errs: []string{"Error near line 2: reading stdin: the statement from line 2 is longer than 1000 bytes"}},
		{name: ".import /dev/zero", args: []string{":memory:", ".import /dev/zero t"}, wantRun: 1,
			errs: []string{`.import: "/dev/zero" is not a regular file`}},
		{name: "-cmd .import /dev/zero", args: []string{"-cmd", ".import /dev/zero t", ":memory:"}, stdin: strings.NewReader(""), wantRun: 1,
			errs: []string{`.import: "/dev/zero" is not a regular file`}},
		{name: ".import line", args: []string{":memory:", ".import longline.csv t"}, wantRun: 1,
			errs: []string{".import: longline.csv: line 2 is longer than 1000 bytes, SQLite's limit", "nothing was imported"}},
		{name: ".import record", args: []string{":memory:", ".import longrecord.csv t"}, wantRun: 1,
			errs: []string{".import: longrecord.csv: record 2 is longer than 1000 bytes", "nothing was imported"}},
		{name: ".import --ascii record", args: []string{":memory:", ".import --ascii long.txt t"}, wantRun: 1,
			errs: []string{".import: long.txt: record 2 is longer than 1000 bytes"}},
		{name: ".import --ascii record, separated", args: []string{":memory:", ".import --ascii long2.txt t"}, wantRun: 1,
			errs: []string{".import: long2.txt: record 2 is longer than 1000 bytes"}},
		{name: ".import that fits", args: []string{":memory:", ".import fits.csv t", "SELECT length(b) FROM t"}, out: "990\n", noErrs: true},
		{name: ".import dir", args: []string{":memory:", ".import dir d", "SELECT name FROM d"}, out: "small.txt\n",
			errs: []string{"warning: .import: skipped dir/big.txt: 1001 bytes, more than the 1000 a text file may have"}},
		{name: "readfile /dev/zero", args: []string{":memory:", "SELECT length(readfile('/dev/zero'))"}, wantRun: 1,
			errs: []string{`readfile: "/dev/zero" has more than the 1000 bytes a BLOB may hold`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.stdin
			if in == nil {
				in = strings.NewReader("")
			}
			out, errs, status := runBounded(t, in, c.args...)
			if out != c.out || status != c.wantRun {
				t.Errorf("stdout %q, status %d; want %q, %d (stderr %q)", out, status, c.out, c.wantRun, errs)
			}
			if c.noErrs && errs != "" {
				t.Errorf("stderr %q", errs)
			}
			for _, w := range c.errs {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
		})
	}
}

// TestLengthLimitDefault reads an endless line of zero bytes under the
// real limit, SQLite's 1,000,000,000 bytes: the shell must stop with an
// error, having read little more than the limit and allocated less than
// twice it.
func TestLengthLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a gigabyte")
	}
	if maxLength != 1_000_000_000 {
		t.Fatalf("maxLength is %d, not SQLite's default", maxLength)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	zeros := &endless{}
	_, errs, status := runBounded(t, zeros, ":memory:")
	close(stop)
	<-sampled
	runtime.ReadMemStats(&after)
	if status != 1 || !strings.Contains(errs, "the line is longer than 1000000000 bytes") {
		t.Errorf("status %d, stderr %q", status, errs)
	}
	if n := zeros.read.Load(); n > int64(maxLength)+1<<20 {
		t.Errorf("read %d bytes for a limit of %d", n, maxLength)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("read %d bytes; allocated %d, heap peak %d (sampled)", zeros.read.Load(), alloc, peak.Load())
	if alloc > 2*uint64(maxLength) || peak.Load() > 2*uint64(maxLength) {
		t.Errorf("allocated %d bytes, heap peak %d: more than twice the limit", alloc, peak.Load())
	}
}

// TestConnectionLimit checks that the shell reads the connection's own
// limits: SQLite's defaults, as modernc.org/sqlite reports them on a
// connection of its own, and a lower one set on the shell's connection.
func TestConnectionLimit(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	length, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, -1)
	if err != nil {
		t.Fatal(err)
	}
	sqlLength, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_SQL_LENGTH, -1)
	if err != nil {
		t.Fatal(err)
	}
	if length != maxLength || sqlLength != maxLength {
		t.Errorf("SQLite's limits are %d and %d; the shell assumes %d", length, sqlLength, maxLength)
	}
	o, _ := parseOptions(nil)
	s, err := openShell(o, stdio{out: io.Discard, err: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if got := s.lengthLimit(); got != maxLength {
		t.Errorf("lengthLimit() = %d, want %d", got, maxLength)
	}
	s.conn.Raw(func(dc any) error {
		tls, h, ok := sqliteHandle(driverConn(dc))
		if !ok {
			t.Fatal("the connection's handle is not found: modernc.org/sqlite's fields moved")
		}
		sqlite3.Xsqlite3_limit(tls, h, sqlite3.SQLITE_LIMIT_SQL_LENGTH, 5000)
		return nil
	})
	if got := s.lengthLimit(); got != 5000 {
		t.Errorf("with SQLITE_LIMIT_SQL_LENGTH 5000, lengthLimit() = %d", got)
	}
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "a.sql"), "SELECT '"+strings.Repeat("q", 6000)+"';\n")
	var errb bytes.Buffer
	s.stderr = &errb
	s.processText(".read "+path, false)
	if !strings.Contains(errb.String(), "longer than 5000 bytes") {
		t.Errorf("a 6000-byte line under a limit of 5000: stderr %q", errb.String())
	}
}

func TestReadAllLimited(t *testing.T) {
	for _, c := range []struct {
		n, limit int
		tooLong  bool
	}{{0, 10, false}, {10, 10, false}, {11, 10, true}, {3 << 20, 3 << 20, false}, {3<<20 + 1, 3 << 20, true}} {
		data := bytes.Repeat([]byte{'k'}, c.n)
		got, err := readAllLimited(bytes.NewReader(data), c.limit)
		if c.tooLong != (err == errTooLong) || !c.tooLong && !bytes.Equal(got, data) {
			t.Errorf("%d bytes, limit %d: %d bytes back, error %v", c.n, c.limit, len(got), err)
		}
	}
}

func TestLineReader(t *testing.T) {
	for _, c := range []struct {
		in    string
		size  int // of the bufio buffer: small, so that lines span chunks
		limit int
		lines []string
		err   error
	}{
		{"a\nbb\nccc", 16, 3, []string{"a\n", "bb\n", "ccc"}, io.EOF},
		{"a\n" + strings.Repeat("d", 40) + "\ne", 16, 40, []string{"a\n", strings.Repeat("d", 40) + "\n", "e"}, io.EOF},
		{"a\n" + strings.Repeat("d", 41) + "\ne", 16, 40, []string{"a\n"}, errTooLong},
		{"", 16, 5, nil, io.EOF},
	} {
		lr := &lineReader{br: bufio.NewReaderSize(strings.NewReader(c.in), c.size), limit: c.limit}
		var got []string
		var err error
		for {
			var line string
			if line, err = lr.next(); err != nil {
				break
			}
			got = append(got, line)
		}
		if err != c.err || strings.Join(got, "|") != strings.Join(c.lines, "|") {
			t.Errorf("%q, limit %d: %q, %v; want %q, %v", c.in, c.limit, got, err, c.lines, c.err)
		}
	}
}
