package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	notDB := filepath.Join(dir, "notes.txt")
	initFile := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(initFile, []byte(".print 'from init'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notDB, []byte("just some text, not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantOut    string // exact stdout, unless wantOutRE is set
		wantOutRE  string
		wantErr    string // substring of stderr ("" means stderr must be empty)
		wantStatus int
	}{
		{name: "help", args: []string{"-help"}, wantOutRE: `^Usage: ksql \[OPTIONS\] \[FILE \[SQL\.\.\.\]\]\n(.|\n)*-bail`},
		{name: "version", args: []string{"--version"}, wantOutRE: `^ksql \S+ \(SQLite 3\.\d+\.\d+, driver ksql, go\S+\)\n$`},
		{name: "unknown option", args: []string{"-frobnicate"}, wantErr: "ksql: unknown option -frobnicate\nRun ksql -help", wantStatus: 1},
		{name: "unknown option after file", args: []string{db, "-x"}, wantErr: "unknown option -x", wantStatus: 1},
		{name: "option without value", args: []string{"-cmd"}, wantErr: "option -cmd needs a value", wantStatus: 1},
		{name: "create in file", args: []string{db, "CREATE TABLE t(x, y); INSERT INTO t VALUES (1, 'a'), (2, NULL)"}},
		{name: "file persists", args: []string{"-json", db, "SELECT * FROM t"}, wantOut: "[{\"x\":1,\"y\":\"a\"},\n{\"x\":2,\"y\":null}]\n"},
		{name: "several SQL args", args: []string{"-csv", "-header", db, "SELECT x FROM t LIMIT 1", ".mode list", "SELECT y FROM t LIMIT 1"}, wantOut: "x\n1\ny\na\n"},
		{name: "options after file", args: []string{db, "-line", "SELECT x FROM t LIMIT 1"}, wantOut: "x = 1\n"},
		{name: "table and noheader", args: []string{"-table", "-noheader", db, "SELECT count(*) AS n FROM t"}, wantOut: "+---+\n| n |\n+---+\n| 2 |\n+---+\n"},
		{name: "separator and nullvalue", args: []string{"-separator", `\t`, "-nullvalue", "NULL", db, "SELECT x, y FROM t"}, wantOut: "1\ta\n2\tNULL\n"},
		{name: "error in SQL arg", args: []string{db, "SELECT nosuch FROM t"},
			wantErr: "Error: in prepare, no such column: nosuch\n  SELECT nosuch FROM t\n         ^--- error here\n", wantStatus: 1},
		{name: "SQL args stop at the first failure", args: []string{db, "SELECT 1", "SELEC 2", "SELECT 3"}, wantOut: "1\n",
			wantErr: "Error: in prepare, near \"SELEC\": syntax error\n  SELEC 2\n  ^--- error here\n", wantStatus: 1},
		{name: "runtime error in SQL arg", args: []string{":memory:", "SELECT abs(-9223372036854775808)"},
			wantErr: "Error: stepping, integer overflow\n", wantStatus: 1},
		{name: "cmd then stdin", args: []string{"-cmd", ".mode csv", "-cmd", "SELECT 1, 'a b'"}, stdin: "SELECT 2;\n", wantOut: "1,\"a b\"\r\n2\r\n"},
		{name: "cmd errors go on", args: []string{"-cmd", "SELECT nosuch", "-cmd", "SELECT 2"}, wantOut: "2\n", wantErr: "no such column", wantStatus: 1},
		{name: "bail in cmd", args: []string{"-bail", "-cmd", "SELECT nosuch"}, stdin: "SELECT 'not reached';\n", wantErr: "no such column", wantStatus: 1},
		{name: "quit in cmd", args: []string{"-cmd", ".quit"}, stdin: "SELECT 'not reached';\n"},
		{name: "SQL where the file goes", args: []string{"SELECT 1"}, wantErr: `the database file "SELECT 1" does not exist and looks like SQL; for SQL on an in-memory database, run: ksql :memory: "SELECT 1"`, wantStatus: 1},
		{name: "dot-command where the file goes", args: []string{".tables"}, wantErr: "looks like SQL", wantStatus: 1},
		{name: "in-memory database by name", args: []string{":memory:", "SELECT 1"}, wantOut: "1\n"},
		{name: "directory as database", args: []string{dir, "SELECT 1"}, wantErr: "Error: unable to open database \"" + dir + "\": it is a directory, not a database file\n", wantStatus: 1},
		{name: "text file as database", args: []string{notDB, "SELECT 1"}, wantErr: "Error: unable to open database \"" + notDB + "\": file is not a database\n", wantStatus: 1},
		{name: "non-UTF-8 statement", stdin: "SELECT 'caf\xe9';\nSELECT 'next';\n", wantOut: "next\n",
			wantErr: "Error near line 1: the statement is not valid UTF-8 text", wantStatus: 1},
		{name: "CRLF input", stdin: "SELECT 1;\r\nSELECT\r\n 2;\r\n", wantOut: "1\n2\n"},
		{name: "timer", stdin: ".timer on\nSELECT 1;\n", wantOutRE: `^1\nRun Time: real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}\n$`},
		{name: "init file", args: []string{"-init", initFile, ":memory:", "SELECT 2"}, wantOut: "from init\n2\n"},
		{name: "missing init file", args: []string{"-init", filepath.Join(dir, "nope.sql"), ":memory:", "SELECT 2"},
			wantOut: "2\n", wantErr: "Error: cannot open", wantStatus: 1},
		{name: "readonly", args: []string{"-readonly", db, "INSERT INTO t VALUES (3, 'c')"},
			wantErr: "Error: stepping, attempt to write a readonly database", wantStatus: 1},
		{name: "readonly reads", args: []string{"-readonly", db, "SELECT count(*) FROM t"}, wantOut: "2\n"},
		{name: "readonly missing file", args: []string{"-readonly", filepath.Join(dir, "missing.db"), "SELECT 1"},
			wantErr: "unable to open database", wantStatus: 1},
		{name: "echo", args: []string{"-echo"}, stdin: "SELECT 1;\n.print x\n", wantOut: "SELECT 1;\n1\n.print x\nx\n"},
		{name: "newline and separator", args: []string{"-newline", "|", "-separator", ",", ":memory:", "SELECT 1, 2 UNION ALL SELECT 3, 4"}, wantOut: "1,2|3,4|"},
		{name: "quote", args: []string{"-quote", ":memory:", "SELECT 'a', 1.5, NULL"}, wantOut: "'a',1.5,NULL\n"},
		{name: "markdown", args: []string{"-markdown", ":memory:", "SELECT 'a' AS x, 1 AS n"}, wantOut: "| x | n |\n|---|--:|\n| a | 1 |\n"},
		{name: "column", args: []string{"-column", ":memory:", "SELECT 'a' AS x, 10 AS n"}, wantOut: "a  10\n"},
		{name: "html", args: []string{"-html", "-header", ":memory:", "SELECT '<a>' AS x"}, wantOut: "<TR><TH>x</TH>\n</TR>\n<TR><TD>&lt;a&gt;</TD>\n</TR>\n"},
		{name: "tabs", args: []string{"-tabs", ":memory:", "SELECT 1, 2"}, wantOut: "1\t2\n"},
		{name: "ascii", args: []string{"-ascii", ":memory:", "SELECT 1, 2"}, wantOut: "1\x1f2\x1e"},
		{name: "exit code", stdin: "SELECT 1;\n.exit 3\nSELECT 2;\n", wantOut: "1\n", wantStatus: 3},
		{name: "bad exit code", stdin: ".exit x\n", wantErr: ".exit: the exit status must be a whole number from 0 to 255", wantStatus: 1},
		{name: "readfile and writefile", args: []string{":memory:", "SELECT writefile('" + filepath.Join(dir, "w.txt") + "', 'héllo'), CAST(readfile('" + filepath.Join(dir, "w.txt") + "') AS TEXT)"},
			wantOut: "6|héllo\n"},
		{name: "readfile of a missing file", args: []string{":memory:", "SELECT readfile('" + filepath.Join(dir, "nope") + "')"},
			wantErr: "readfile: cannot read", wantStatus: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := runShell(t, tc.stdin, tc.args...)
			if tc.wantOutRE != "" {
				if !regexp.MustCompile(tc.wantOutRE).MatchString(out) {
					t.Errorf("stdout %q does not match %s", out, tc.wantOutRE)
				}
			} else if out != tc.wantOut {
				t.Errorf("stdout = %q, want %q", out, tc.wantOut)
			}
			if tc.wantErr == "" && errs != "" || !strings.Contains(errs, tc.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", errs, tc.wantErr)
			}
			if status != tc.wantStatus {
				t.Errorf("exit status %d, want %d", status, tc.wantStatus)
			}
		})
	}
	if _, err := os.Stat("SELECT 1"); err == nil {
		t.Error(`ksql "SELECT 1" created a file named "SELECT 1"`)
	}
	if b, err := os.ReadFile(notDB); err != nil || string(b) != "just some text, not a database\n" {
		t.Errorf("opening a text file as a database changed it: %q, %v", b, err)
	}
}

func TestOutputCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "out.txt")
	in := ".output " + file + "\nSELECT 'to the file';\n.output\nSELECT 'to stdout';\n" +
		".output " + dir + "\nSELECT 'still stdout';\n"
	out, errs, status := runShell(t, in)
	if out != "to stdout\nstill stdout\n" {
		t.Errorf("stdout = %q", out)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "to the file\n" {
		t.Errorf("file holds %q, %v", b, err)
	}
	if !strings.Contains(errs, "it is a directory") || status != 1 {
		t.Errorf("stderr %q, status %d: want the directory error and status 1", errs, status)
	}
}

// lockedBuffer is a bytes.Buffer the spinner goroutine may write to while
// the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const longQuery = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c"

// newTestShell opens an in-memory shell whose stderr is errw.
func newTestShell(t *testing.T, errw *lockedBuffer, progress bool) (*Shell, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	o, _ := parseOptions(nil)
	s, err := openShell(o, stdio{out: &out, err: errw, errTTY: progress})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.close)
	return s, &out
}

// TestInterruptAndSpinner cancels a statement that would run for minutes
// and checks that the shell goes on, and that the spinner shows on a
// terminal stderr and is wiped when the statement ends.
func TestInterruptAndSpinner(t *testing.T) {
	for _, progress := range []bool{true, false} {
		var errw lockedBuffer
		s, out := newTestShell(t, &errw, progress)
		s.interactive = true
		s.progressDelay = 50 * time.Millisecond
		done := make(chan error, 1)
		go func() { done <- s.runSQL(&source{}, longQuery) }()
		time.Sleep(400 * time.Millisecond)
		if !s.interrupt() {
			t.Fatal("interrupt found nothing running")
		}
		select {
		case err := <-done:
			if err == nil || cleanError(err) != "interrupted" {
				t.Errorf("the interrupted statement returned %v, want interrupted", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the statement did not stop within 10s of the interrupt")
		}
		spin := errw.String()
		if progress && (!strings.Contains(spin, "running") || !strings.HasSuffix(spin, "\r\x1b[K")) {
			t.Errorf("stderr on a terminal = %q, want a spinner that is wiped at the end", spin)
		}
		if !progress && spin != "" {
			t.Errorf("stderr that is not a terminal got %q, want nothing", spin)
		}
		if err := s.runSQL(&source{}, "SELECT 42"); err != nil || out.String() != "42\n" {
			t.Errorf("after the interrupt: %v, output %q", err, out.String())
		}
	}
}

// TestKernelsCommand checks .kernels without pinning the function list,
// which grows as ksql does.
func TestKernelsCommand(t *testing.T) {
	out, errs, status := runShell(t, ".kernels\n")
	if status != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	for _, want := range []string{"normalize(K)", "ssk(p=3, lambda=0.5)", "unit=word",
		"Functions:\n", "Modules that take a spec (kernel=): ", "gauss_kernel", "kernel_distance"} {
		if !strings.Contains(out, want) {
			t.Errorf(".kernels output lacks %q", want)
		}
	}
}

// TestWhereThingsGo: results go to the .output or .once file; timer lines
// and .plot's path go to standard output, as sqlite3 sends its timer
// lines; errors to standard error.
func TestWhereThingsGo(t *testing.T) {
	dir := t.TempDir()
	csvFile, onceFile, png := filepath.Join(dir, "o.csv"), filepath.Join(dir, "once.txt"), filepath.Join(dir, "p.png")
	in := ".mode csv\n.timer on\n.output " + csvFile + "\nSELECT 1 AS a, 'x y' AS b;\n" +
		".plot --out " + png + " SELECT 1, 2 UNION ALL SELECT 2, 3\nSELECT nosuch;\n.output\n" +
		".once " + onceFile + "\nSELECT 2;\nSELECT 3;\n"
	out, errs, status := runShell(t, in)
	runTime := regexp.MustCompile(`^Run Time: real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}$`)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var rest []string
	timers := 0
	for _, l := range lines {
		if runTime.MatchString(strings.TrimSuffix(l, "\r")) {
			timers++
			continue
		}
		rest = append(rest, l)
	}
	if timers != 4 {
		t.Errorf("stdout has %d timer lines, want one per statement (4):\n%s", timers, out)
	}
	if want := []string{png, "3\r"}; !slices.Equal(rest, want) {
		t.Errorf("stdout without timer lines = %q, want %q", rest, want)
	}
	if b, _ := os.ReadFile(csvFile); string(b) != "1,\"x y\"\r\n" {
		t.Errorf("the .output file holds %q: results only, as CSV", b)
	}
	if b, _ := os.ReadFile(onceFile); string(b) != "2\r\n" {
		t.Errorf("the .once file holds %q, want the next statement's result only", b)
	}
	if !strings.HasPrefix(errs, "Parse error near line 6: no such column: nosuch") || status != 1 {
		t.Errorf("stderr %q, status %d", errs, status)
	}
}

// TestRCFile: ~/.ksqlrc runs before the input (and before SQL arguments);
// -init replaces it; ~/.sqliterc is not read.
func TestRCFile(t *testing.T) {
	home := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(home, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".ksqlrc", ".headers on\n.mode csv\n")
	write(".sqliterc", ".print 'sqliterc ran'\n")
	write("other.sql", ".print 'init ran'\n")
	run1 := func(stdin string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		status := run(args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb,
			getenv: func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}})
		return out.String(), errb.String(), status
	}
	if out, errs, st := run1("SELECT 1 AS a;\n"); out != "a\r\n1\r\n" || errs != "" || st != 0 {
		t.Errorf("with ~/.ksqlrc: stdout %q, stderr %q, status %d", out, errs, st)
	}
	if out, _, _ := run1("", ":memory:", "SELECT 1 AS a"); out != "a\r\n1\r\n" {
		t.Errorf("~/.ksqlrc before SQL arguments: stdout %q", out)
	}
	if out, _, _ := run1("SELECT 1 AS a;\n", "-init", filepath.Join(home, "other.sql")); out != "init ran\n1\n" {
		t.Errorf("-init instead of ~/.ksqlrc: stdout %q", out)
	}
}

// TestCompletion checks Tab completion without a terminal: file paths
// after the commands that take a file and after .plot --out, dot-commands
// at the start of a line, and SQL words elsewhere.
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"data/iris.csv", "data/iris2.csv", "data/.hidden", "script.sql", "sub dir/x.sql"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	t.Chdir(dir)
	var errw lockedBuffer
	s, _ := newTestShell(t, &errw, false)
	if err := s.runSQL(&source{}, "CREATE TABLE documents(id INTEGER, body TEXT)"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line     string
		wantHead string
		want     []string
	}{
		{".read scr", ".read ", []string{"script.sql"}},
		{".import da", ".import ", []string{"data/"}},
		{".import data/ir", ".import ", []string{"data/iris.csv", "data/iris2.csv"}},
		{".import --csv data/iris.", ".import --csv ", []string{"data/iris.csv"}},
		{".import data/.h", ".import ", []string{"data/.hidden"}},
		{".output s", ".output ", []string{"script.sql", "sub dir/"}},
		{".once sc", ".once ", []string{"script.sql"}},
		{".open sc", ".open ", []string{"script.sql"}},
		{".load sc", ".load ", []string{"script.sql"}},
		{".plot --out sc", ".plot --out ", []string{"script.sql"}},
		{".plot SELECT * FROM docu", ".plot SELECT * FROM ", []string{"documents"}},
		{".rea", "", []string{".read"}},
		{".ex", "", []string{".exit"}},
		{"SELECT bo", "SELECT ", []string{"body"}},
		{"SELECT * FROM docu", "SELECT * FROM ", []string{"documents"}},
		{"SEL", "", []string{"SELECT"}},
		{"select gauss_k", "select ", []string{"gauss_kernel"}},
		// inside string literals: every module, its arguments, settings
		{"CREATE VIRTUAL TABLE k USING kkm", "CREATE VIRTUAL TABLE k USING ", []string{"kkmeans"}},
		{"SELECT * FROM model_se", "SELECT * FROM ", []string{"model_search"}},
		{"svm(type=one_c", "svm(type=", []string{"one_class"}},
		{"gp(table=t, noi", "gp(table=t, ", []string{"noise"}},
		{"SELECT ksql_config('max_fst", "SELECT ksql_config('", []string{"max_fst_bytes", "max_fst_rows"}},
	}
	for _, tc := range tests {
		head, got, _ := s.complete(tc.line, len([]rune(tc.line)))
		if head != tc.wantHead || !slices.Equal(got, tc.want) {
			t.Errorf("complete(%q) = %q, %q; want %q, %q", tc.line, head, got, tc.wantHead, tc.want)
		}
	}
}

// TestBigAndOddInput: a 10 MB statement on one line, a statement of
// 100,000 lines (scanned once, not once per line), and a directory whose
// file names are not UTF-8 (skipped with a warning that shows the bytes).
func TestBigAndOddInput(t *testing.T) {
	long := "SELECT length('" + strings.Repeat("x", 10<<20) + "');\n"
	var many strings.Builder
	many.WriteString("SELECT count(*), sum(column1) FROM (VALUES\n")
	for i := 0; i < 100000; i++ {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, "(%d)\n", i)
	}
	many.WriteString(");\n")
	out, errs, status := runShell(t, long+many.String())
	if out != "10485760\n100000|4999950000\n" || errs != "" || status != 0 {
		t.Errorf("stdout %q, stderr %q, status %d", out, errs, status)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "caf\xe9.txt"), []byte("latin-1 name"), 0o644); err != nil {
		t.Skipf("the file system refuses a name that is not UTF-8: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "ok.txt"), []byte("fine"), 0o644)
	out, errs, status = runShell(t, ".import "+dir+" docs\nSELECT name FROM docs;\n")
	if out != "ok.txt\n" || status != 0 || !strings.Contains(errs, `caf\xe9.txt: the file name is not UTF-8 text`) {
		t.Errorf("stdout %q, stderr %q, status %d", out, errs, status)
	}
}
