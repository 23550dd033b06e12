package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// errQuit stops input processing after .quit or .exit; errBail after an
// error under -bail; errStopped after Ctrl-C in batch mode.
var (
	errQuit    = errors.New("quit")
	errBail    = errors.New("bail")
	errStopped = errors.New("interrupted")
)

// Shell is one ksql session: a single database connection (so that temp
// tables and :memory: data live as long as the session) and the settings
// that the dot-commands change.
type Shell struct {
	db       *sql.DB
	conn     *sql.Conn
	dbName   string // as the user named it; "" for the in-memory database
	readonly bool

	stdout io.Writer
	stderr io.Writer
	// con is standard output; out is where results go: con, or the file of
	// .output or .once. Timer lines and .plot's path always go to con.
	con     *bufio.Writer
	out     *bufio.Writer
	outFile *os.File
	// onceLeft counts the commands until a .once file is closed: .once
	// sets 2, and every command (the .once itself included) takes one.
	onceLeft int

	opts        outputOptions
	timer       bool
	bail        bool
	echo        bool
	changes     bool
	interactive bool
	prompts     [2]string
	// progress is true when stderr is a terminal, so a spinner may show.
	progress      bool
	progressDelay time.Duration

	errors    int
	exitCode  int  // of .exit N
	quitCode  bool // .exit N was given
	readDepth int
	funcNames []string
	getenv    func(string) string

	mu      sync.Mutex
	cancel  context.CancelFunc // of the running statement or command
	stopped bool               // Ctrl-C seen in batch mode
}

// source is where input lines come from, for error messages and for
// resolving the relative paths that a script names.
type source struct {
	name string // "" for command-line arguments, "stdin", or a file's path
	dir  string // the directory of a script file, "" otherwise
	line int    // the line number reached
	// interactive input: errors name no line, as in sqlite3
	interactive bool
	// stopOnError: the SQL arguments after FILE stop at the first failure.
	stopOnError bool
	// via is what reads a file, for errors: ".read", "-init", "~/.ksqlrc".
	via string
}

// where names a line of the source for error messages: "" for the
// prompt and command-line arguments, " near line N" on standard input and
// " near line N of FILE" in files.
func (src *source) where(line int) string {
	switch {
	case src.interactive || src.name == "":
		return ""
	case src.name == "stdin":
		return fmt.Sprintf(" near line %d", line)
	}
	return fmt.Sprintf(" near line %d of %s", line, src.name)
}

// lineBuffer accumulates the lines of a statement until it is complete.
type lineBuffer struct {
	src   *source
	text  strings.Builder
	scan  completeScanner
	start int // line where the pending text starts
}

func (b *lineBuffer) pending() bool { return b.text.Len() > 0 }

func (b *lineBuffer) reset() { b.text.Reset(); b.scan = completeScanner{}; b.start = 0 }

// feed handles one input line: a dot-command when no statement is pending,
// otherwise part of SQL that runs once a statement is complete. It returns
// the text that ran (for history), or "" while a statement is incomplete.
func (s *Shell) feed(b *lineBuffer, line string) (ran string, err error) {
	b.src.line++
	if !b.pending() && strings.HasPrefix(strings.TrimLeft(line, " \t"), ".") {
		cmd := strings.TrimLeft(line, " \t")
		if s.echo {
			fmt.Fprintf(s.out, "%s\n", cmd)
		}
		err = s.fail(b.src, b.src.line, s.dotCommand(b.src, cmd))
		s.commandDone()
		return line, err
	}
	if !b.pending() {
		if isBlankSQL(line) {
			return "", nil
		}
		b.start = b.src.line
	}
	b.text.WriteString(line)
	b.text.WriteByte('\n')
	if !b.scan.feed(b.text.String()) {
		return "", nil
	}
	stmts, _, _ := splitSQL(b.text.String())
	ran = strings.TrimSpace(b.text.String())
	start := b.start
	b.reset()
	err = s.runStatements(b.src, start, stmts)
	s.commandDone()
	return ran, err
}

// flushPending runs what is left in b at the end of input, the way sqlite3
// runs a last statement that lacks its semicolon.
func (s *Shell) flushPending(b *lineBuffer) error {
	if !b.pending() {
		return nil
	}
	stmts, rest, _ := splitSQL(b.text.String())
	if rest.text != "" {
		stmts = append(stmts, rest)
	}
	start := b.start
	b.reset()
	err := s.runStatements(b.src, start, stmts)
	s.commandDone()
	return err
}

// runStatements runs statements cut from text that began at line start.
func (s *Shell) runStatements(src *source, start int, stmts []statement) error {
	for _, st := range stmts {
		line := start + st.line - 1
		if s.echo {
			fmt.Fprintf(s.out, "%s\n", strings.TrimSpace(st.text))
		}
		if err := s.fail(src, line, s.runSQL(src, st.text)); err != nil {
			return err
		}
	}
	return nil
}

// commandDone counts down a .once: its file closes after the command that
// follows it.
func (s *Shell) commandDone() {
	if s.onceLeft == 0 {
		return
	}
	s.onceLeft--
	if s.onceLeft == 0 {
		s.resetOutput()
	}
}

// fail reports err (if any) on stderr, in the sqlite3 shell's words, and
// decides whether input goes on.
func (s *Shell) fail(src *source, line int, err error) error {
	if err == nil || err == errQuit || err == errBail || err == errStopped {
		return err
	}
	s.flush()
	s.errors++
	fmt.Fprint(s.stderr, errorText(src, line, err))
	if s.isStopped() {
		return errStopped
	}
	if s.bail || src.stopOnError {
		return errBail
	}
	return nil
}

// errorText is the message for err, ending in a newline: for SQL errors
// "Parse error near line N: …" (or "Runtime error"), with an excerpt that
// points at the error when SQLite knows where it is; for the rest
// "Error: …".
func errorText(src *source, line int, err error) string {
	var se *sqlError
	if !errors.As(err, &se) {
		if w := src.where(line); w != "" {
			return fmt.Sprintf("Error%s: %s\n", w, cleanError(err))
		}
		return fmt.Sprintf("Error: %s\n", cleanError(err))
	}
	var head string
	switch {
	case src.name == "" && !src.interactive && se.parse:
		head = "Error: in prepare, "
	case src.name == "" && !src.interactive:
		head = "Error: stepping, "
	case se.parse:
		head = "Parse error" + src.where(line) + ": "
	default:
		head = "Runtime error" + src.where(line) + ": "
	}
	return head + se.msg + "\n" + errorContext(se.sql, se.offset)
}

var sqliteCode = regexp.MustCompile(` \(\d+\)$`)

// cleanError drops the driver's generic prefix and numeric code, which say
// nothing the message itself does not.
func cleanError(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	msg := sqliteCode.ReplaceAllString(err.Error(), "")
	for _, p := range []string{"SQL logic error: ", "constraint failed: ", "SQLITE_ERROR: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if strings.HasPrefix(msg, "interrupted") {
		return "interrupted"
	}
	// "file is not a database: file is not a database" and the like.
	if a, b, ok := strings.Cut(msg, ": "); ok && a == b {
		msg = a
	}
	return msg
}

// begin returns the context for one statement or command, which Ctrl-C
// cancels, and the function that ends it.
func (s *Shell) begin() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}
}

// interrupt cancels whatever runs now (Ctrl-C) and stops reading the
// current input: the rest of a script, or of a .read file typed at the
// prompt (the prompt itself goes on). It reports whether anything was running.
func (s *Shell) interrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.cancel != nil {
		s.cancel()
		return true
	}
	return false
}

// resume clears an interrupt once the prompt is back.
func (s *Shell) resume() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = false
}

func (s *Shell) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// processReader runs every line of r (a script, stdin or a .read file).
// A line or statement longer than SQLite takes stops the reading: what
// follows it would be read out of context.
func (s *Shell) processReader(r io.Reader, src *source) error {
	b := &lineBuffer{src: src}
	limit := s.lengthLimit()
	lr := newLineReader(r, limit)
	for {
		line, rerr := lr.next()
		if rerr == io.EOF {
			break
		}
		if rerr == errTooLong {
			return s.fail(src, src.line+1, src.tooLong("the line", limit))
		}
		if rerr != nil {
			return s.fail(src, src.line, fmt.Errorf("reading %s: %w", src.name, rerr))
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if b.pending() && b.text.Len()+len(line)+1 > limit {
			return s.fail(src, b.start, src.tooLong(fmt.Sprintf("the statement from line %d", b.start), limit))
		}
		if _, err := s.feed(b, line); err != nil {
			return err
		}
		if s.isStopped() {
			return errStopped
		}
	}
	return s.flushPending(b)
}

// tooLong is the error for a line or statement of src over the limit.
func (src *source) tooLong(what string, limit int) error {
	via := src.via
	if via == "" {
		via = "reading " + src.name
	}
	return fmt.Errorf("%s: %v; the rest of %s is not read", via, tooLong(what, limit), src.name)
}

// processFile runs a script file for via: .read, -init or ~/.ksqlrc.
func (s *Shell) processFile(path, via string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot open %q: %v", path, unwrapPath(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return fmt.Errorf("%q is a directory; give a file of SQL", path)
	}
	s.readDepth++
	defer func() { s.readDepth-- }()
	return s.processReader(f, &source{name: path, dir: filepath.Dir(path), via: via})
}

// processText runs one command-line argument (SQL or a dot-command);
// stopOnError for the arguments after FILE, not for -cmd.
func (s *Shell) processText(text string, stopOnError bool) error {
	b := &lineBuffer{src: &source{stopOnError: stopOnError}}
	for _, line := range strings.Split(text, "\n") {
		if _, err := s.feed(b, line); err != nil {
			return err
		}
	}
	return s.flushPending(b)
}

// flush writes out what is buffered for standard output and the output
// file; it runs before every prompt and before anything goes to stderr.
func (s *Shell) flush() error {
	err := s.out.Flush()
	if cerr := s.con.Flush(); err == nil {
		err = cerr
	}
	return err
}

// setOutput sends results to a file. On error the output stays where it was.
func (s *Shell) setOutput(name string) error {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write to %q: it is a directory; give a file name", name)
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("cannot write to %q: %v", name, unwrapPath(err))
	}
	s.resetOutput()
	s.outFile, s.out = f, bufio.NewWriter(f)
	return nil
}

// resetOutput sends results back to standard output, closing the file.
func (s *Shell) resetOutput() {
	s.onceLeft = 0
	if s.outFile == nil {
		return
	}
	if err := s.out.Flush(); err != nil {
		fmt.Fprintf(s.stderr, "Error: writing %s: %v\n", s.outFile.Name(), err)
	}
	if err := s.outFile.Close(); err != nil {
		fmt.Fprintf(s.stderr, "Error: closing %s: %v\n", s.outFile.Name(), err)
	}
	s.outFile = nil
	s.out = s.con
}

// unwrapPath drops the "open NAME:" part of a *PathError when the message
// already names the file.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
