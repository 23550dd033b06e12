//go:build linux || darwin

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// buildShell compiles the ksql binary, once per test run, for the tests
// that need a real process (signals, a pseudo-terminal).
func buildShell(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build the shell")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "ksql-test-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "ksql")
		built.out, built.err = exec.Command(goTool, "build", "-o", built.bin, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("building the shell: %v\n%s", built.err, built.out)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestSignalInScript sends SIGINT (Ctrl-C) to a shell running a script
// from a pipe: the running statement is interrupted, the rest of the script
// does not run, and the exit status is 130, as for sqlite3.
func TestSignalInScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildShell(t)
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader("SELECT 'before';\n" + longQuery + ";\nSELECT 'after';\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // well into the long statement
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the shell did not stop within 20s of SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit status %d, want 130", code)
	}
	if out.String() != "before\n" {
		t.Errorf("stdout %q, want only the statement before the interrupt", out.String())
	}
	if errb.String() != "Runtime error near line 2: interrupted\n" {
		t.Errorf("stderr %q", errb.String())
	}
}

// ptyTerm drives one shell process through a pseudo-terminal: what the
// process writes is collected, and expect waits for text after the last match.
type ptyTerm struct {
	t    *testing.T
	f    *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	buf  bytes.Buffer
	seen int
}

func startPTY(t *testing.T, bin string, env []string, args ...string) *ptyTerm {
	t.Helper()
	return startPTYIn(t, bin, "", env, args...)
}

// startPTYIn is startPTY in the working directory dir.
func startPTYIn(t *testing.T, bin, dir string, env []string, args ...string) *ptyTerm {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = dir
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Fatalf("starting the shell on a pty: %v", err)
	}
	tm := &ptyTerm{t: t, f: f, cmd: cmd}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			tm.mu.Lock()
			tm.buf.Write(b[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
	return tm
}

// expect waits for s to appear after the previous match.
func (tm *ptyTerm) expect(s string) {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		out := tm.buf.String()
		tm.mu.Unlock()
		if i := strings.Index(out[tm.seen:], s); i >= 0 {
			tm.seen += i + len(s)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tail := tm.buf.String()[tm.seen:]
	tm.t.Fatalf("waited 20s for %q; the terminal shows after the last match:\n%q", s, tail)
}

// since returns what the terminal got after the given offset.
func (tm *ptyTerm) since(off int) string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.buf.String()[off:]
}

func (tm *ptyTerm) send(s string) {
	tm.t.Helper()
	if _, err := tm.f.WriteString(s); err != nil {
		tm.t.Fatalf("typing %q: %v", s, err)
	}
}

func (tm *ptyTerm) wait() int {
	tm.t.Helper()
	done := make(chan error, 1)
	go func() { done <- tm.cmd.Wait() }()
	select {
	case <-done:
		return tm.cmd.ProcessState.ExitCode()
	case <-time.After(20 * time.Second):
		tm.t.Fatal("the shell did not exit")
	}
	return -1
}

// TestInteractive runs the shell on a pseudo-terminal the way a person
// would: statements over several lines, tab completion, Ctrl-C at the prompt
// and during a long statement (the shell must survive), Ctrl-D to leave,
// and the history file read back by a second session.
func TestInteractive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it on a pty")
	}
	bin := buildShell(t)
	dir := t.TempDir()
	hist := filepath.Join(dir, "state", "ksql", "history")
	env := []string{"TERM=xterm", "HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "PATH=" + os.Getenv("PATH")}

	tm := startPTY(t, bin, env)
	tm.expect("Connected to a transient in-memory database.")
	tm.expect(prompt)
	tm.send("CREATE TABLE documents(id INTEGER, body TEXT);\r")
	tm.expect(prompt)
	tm.send("INSERT INTO documents VALUES (1, 'a'), (2, 'b');\r")
	tm.expect(prompt)

	// A statement over two lines runs once it is complete.
	tm.send("SELECT 40 +\r")
	tm.expect(contPrompt)
	tm.send("2 AS answer;\r")
	tm.expect("\r\n42\r\n")
	tm.expect(prompt)

	// Tab completes the table name.
	tm.send("SELECT count(*) FROM docu\t")
	tm.expect("FROM documents")
	tm.send(";\r")
	tm.expect("\r\n2\r\n")
	tm.expect(prompt)

	// Ctrl-C at the prompt drops the unfinished statement.
	mark := tm.seen
	tm.send("SELECT 'dropped'\r")
	tm.expect(contPrompt)
	tm.send("\x03")
	tm.expect(prompt)
	tm.send("SELECT 'kept';\r")
	tm.expect("\r\nkept\r\n")
	tm.expect(prompt)
	if out := tm.since(mark); strings.Contains(out, "Error") {
		t.Errorf("Ctrl-C at the prompt did not drop the pending text:\n%q", out)
	}

	// Ctrl-C during a statement that would run for minutes interrupts it;
	// the spinner shows on the terminal's stderr after a second.
	tm.send(longQuery + ";\r")
	tm.expect("running")
	tm.send("\x03")
	tm.expect("Runtime error: interrupted")
	tm.expect(prompt)
	tm.send("SELECT 6 * 7 AS survived;\r")
	tm.expect("\r\n42\r\n")
	tm.expect(prompt)

	// Tab completes a file name after .read.
	tm.send(".read /dev/nul\t")
	tm.expect(".read /dev/null")
	tm.send("\r")
	tm.expect(prompt)

	// Ctrl-D with a statement unfinished says what was dropped, and leaves.
	tm.send("SELECT 'never run',\r")
	tm.expect(contPrompt)
	tm.send("  2\r")
	tm.expect(contPrompt)
	tm.send("\x04") // Ctrl-D leaves
	tm.expect("Ctrl-D: this unfinished statement was not run:\r\nSELECT 'never run',\r\n  2\r\n")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status after Ctrl-D: %d, want 0", code)
	}

	b, err := os.ReadFile(hist)
	if err != nil {
		t.Fatalf("no history file: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, want := range []string{"SELECT 40 + 2 AS answer;", "SELECT count(*) FROM documents;", longQuery + ";"} {
		found := false
		for _, l := range lines {
			found = found || l == want
		}
		if !found {
			t.Errorf("history lacks %q; it holds %q", want, lines)
		}
	}
	if last := lines[len(lines)-1]; last != ".read /dev/null" {
		t.Errorf("last history entry %q", last)
	}

	// A new session recalls the history with the up arrow.
	tm = startPTY(t, bin, env)
	tm.expect(prompt)
	tm.send("\x1b[A\x1b[A")
	tm.expect("SELECT 6 * 7 AS survived;")
	tm.send("\r")
	tm.expect("\r\n42\r\n")
	tm.send(".quit\r")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status after .quit: %d, want 0", code)
	}
}

// dotCase is one step of TestDotCommandsOnTerminal: lines typed at the
// prompt, and texts that must show before the prompt that follows.
type dotCase struct {
	cmd   string // the command this case covers
	lines []string
	want  []string
}

// dotCases cover every dot-command on a terminal. Each case's output must
// show before the next prompt, with nothing else typed: that is what a
// person sees (output held in a buffer would show only later).
var dotCases = []dotCase{
	{"help", []string{".help"}, []string{".backup ?DB? FILE", ".width NUM1"}},
	{"tables", []string{".tables"}, []string{"t1"}},
	{"schema", []string{".schema t1"}, []string{"CREATE TABLE t1(x INTEGER);"}},
	{"indexes", []string{"CREATE INDEX i1 ON t1(x);", ".indexes"}, []string{"i1"}},
	{"databases", []string{".databases"}, []string{"main: "}},
	{"show", []string{".show"}, []string{"filename: "}},
	{"kernels", []string{".kernels"}, []string{"normalize(K)"}},
	{"version", []string{".version"}, []string{"(SQLite 3."}},
	{"mode", []string{".mode"}, []string{"current output mode: list"}},
	{"print", []string{".print hello there"}, []string{"hello there"}},
	{"vectors", []string{".vectors"}, []string{"vectors: auto, 6 elements shown"}},
	{"headers", []string{".headers on", "SELECT 1 AS hdr;", ".headers off"}, []string{"hdr\r\n1"}},
	{"separator", []string{".separator ;", "SELECT 1, 2;", ".separator |"}, []string{"1;2"}},
	{"nullvalue", []string{".nullvalue NIL", "SELECT NULL;", ".nullvalue ''"}, []string{"NIL"}},
	{"maxwidth", []string{".maxwidth 5", ".mode box", "SELECT 'abcdefghij' AS w;", ".mode list", ".maxwidth 60"}, []string{"abcd…"}},
	{"width", []string{".width 6", ".mode column", ".headers on", "SELECT 'w' AS w;", ".headers off", ".mode list", ".width"}, []string{"------"}},
	{"timer", []string{".timer on", "SELECT 1;", ".timer off"}, []string{"Run Time: real"}},
	{"changes", []string{".changes on", "INSERT INTO t1 VALUES (5);", ".changes off"}, []string{"changes: 1   total_changes: "}},
	{"echo", []string{".echo on", "SELECT 'echoed';", ".echo off"}, []string{"SELECT 'echoed';\r\nechoed"}},
	{"bail", []string{".bail on", ".show", ".bail off"}, []string{"bail: on"}},
	{"timeout", []string{".timeout 150", "PRAGMA busy_timeout;"}, []string{"150"}},
	{"parameter", []string{".parameter set :p 42", ".parameter list", "SELECT :p + 1;"}, []string{":p 42", "43"}},
	{"dump", []string{".dump t1"}, []string{"CREATE TABLE t1(x INTEGER);", "INSERT INTO t1 VALUES(5);", "COMMIT;"}},
	{"read", []string{".read script.sql"}, []string{"from the script"}},
	{"cd", []string{".cd sub", ".read inner.sql", ".cd .."}, []string{"in sub"}},
	{"import", []string{".import data.csv imp", "SELECT 'rows=' || count(*) FROM imp;"}, []string{"rows=2"}},
	{"output", []string{".output out.txt", "SELECT 'in the file';", ".output", "SELECT 'on the screen';"}, []string{"on the screen"}},
	{"once", []string{".once once.txt", "SELECT 'once';", "SELECT 'after once';"}, []string{"after once"}},
	{"plot", []string{".plot --out p.png SELECT x, x * x FROM t1"}, []string{"p.png"}},
	{"save", []string{".save saved.db"}, nil},
	{"backup", []string{".backup main backup.db", "DROP TABLE imp;"}, nil},
	{"restore", []string{".restore backup.db", ".tables imp"}, []string{"imp"}},
	{"load", []string{".load no-such-library"}, []string{"Error: .load: no such file"}},
	{"prompt", []string{".prompt 'new> ' 'more> '", "SELECT", "'p';", ".prompt 'ksql> ' '   ...> '"}, []string{"more> ", "p\r\nnew> "}},
	{"open", []string{".open opened.db", "CREATE TABLE opened(x);", ".tables"}, []string{"opened"}},
	{"quit", []string{".quit"}, nil},
}

// TestDotCommandsOnTerminal runs every dot-command on a pseudo-terminal.
func TestDotCommandsOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it on a pty")
	}
	covered := map[string]bool{}
	for _, c := range dotCases {
		covered[c.cmd] = true
	}
	for name := range dotCommands {
		if !covered[name] {
			t.Errorf(".%s has no case in dotCases", name)
		}
	}
	bin := buildShell(t)
	dir := t.TempDir()
	files := map[string]string{
		"script.sql":    "SELECT 'from the script';\n",
		"sub/inner.sql": "SELECT 'in sub';\n",
		"data.csv":      "a,b\n1,2\n3,4\n",
	}
	for name, body := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"TERM=xterm", "HOME=" + dir, "KSQL_HISTORY=off", "PATH=" + os.Getenv("PATH")}
	tm := startPTYIn(t, bin, dir, env)
	tm.expect(prompt)
	tm.send("CREATE TABLE t1(x INTEGER);\r")
	tm.expect(prompt)
	for _, c := range dotCases {
		for _, l := range c.lines {
			tm.send(l + "\r")
		}
		for _, w := range c.want {
			tm.expect(w)
		}
		if c.cmd != "quit" {
			tm.expect(prompt)
		}
	}
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d after .quit", code)
	}
	for name, want := range map[string]string{"out.txt": "in the file\n", "once.txt": "once\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != want {
			t.Errorf("%s holds %q (%v), want %q", name, b, err, want)
		}
	}
	for _, name := range []string{"saved.db", "backup.db", "p.png", "opened.db"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s was not written: %v", name, err)
		}
	}
	if strings.Contains(tm.since(0), "Error") && !strings.Contains(tm.since(0), "Error: .load: no such file") {
		t.Errorf("an unexpected error showed:\n%s", tm.since(0))
	}
}
