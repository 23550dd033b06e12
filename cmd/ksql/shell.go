package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// errQuit stops input processing after .quit; errBail after an error under
// -bail; errStopped after Ctrl-C in batch mode.
var (
	errQuit    = errors.New("quit")
	errBail    = errors.New("bail")
	errStopped = errors.New("interrupted")
)

// Shell is one ksql session: a single database connection (so that temp
// tables and :memory: data live as long as the session) and the settings
// that the dot-commands change.
type Shell struct {
	db   *sql.DB
	conn *sql.Conn

	stdout  io.Writer
	stderr  io.Writer
	out     *bufio.Writer // where results go: stdout or the .output file
	outFile *os.File

	opts        outputOptions
	timer       bool
	bail        bool
	interactive bool
	// progress is true when stderr is a terminal, so a spinner may show.
	progress      bool
	progressDelay time.Duration

	errors    int
	readDepth int
	funcNames []string

	mu      sync.Mutex
	cancel  context.CancelFunc // of the running statement or command
	stopped bool               // Ctrl-C seen in batch mode
}

// source is where input lines come from: a name for error messages and the
// line number reached.
type source struct {
	name string
	line int
}

// lineBuffer accumulates the lines of a statement until it is complete.
type lineBuffer struct {
	src   *source
	text  strings.Builder
	start int // line where the pending text starts
}

func (b *lineBuffer) pending() bool { return b.text.Len() > 0 }

func (b *lineBuffer) reset() { b.text.Reset(); b.start = 0 }

// feed handles one input line: a dot-command when no statement is pending,
// otherwise part of SQL that runs once a statement is complete. It returns
// the text that ran (for history), or "" while a statement is incomplete.
func (s *Shell) feed(b *lineBuffer, line string) (ran string, err error) {
	b.src.line++
	if !b.pending() && strings.HasPrefix(strings.TrimLeft(line, " \t"), ".") {
		return line, s.fail(b.src.at(b.src.line), s.dotCommand(b.src, strings.TrimLeft(line, " \t")))
	}
	if !b.pending() {
		if isBlankSQL(line) {
			return "", nil
		}
		b.start = b.src.line
	}
	b.text.WriteString(line)
	b.text.WriteByte('\n')
	stmts, _, complete := splitSQL(b.text.String())
	if !complete {
		return "", nil
	}
	ran = strings.TrimSpace(b.text.String())
	start := b.start
	b.reset()
	return ran, s.runStatements(b.src, start, stmts)
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
	return s.runStatements(b.src, start, stmts)
}

// runStatements runs statements cut from text that began at line start.
func (s *Shell) runStatements(src *source, start int, stmts []statement) error {
	for _, st := range stmts {
		where := src.at(start + st.line - 1)
		if !utf8.ValidString(st.text) {
			if err := s.fail(where, errors.New("the statement is not valid UTF-8 text; convert the input to UTF-8")); err != nil {
				return err
			}
			continue
		}
		if err := s.fail(where, s.runSQL(st.text)); err != nil {
			return err
		}
	}
	return nil
}

// at names a line of the source for error messages; interactive input and
// command-line arguments need no line number.
func (src *source) at(line int) string {
	if src.name == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", src.name, line)
}

// fail reports err (if any) on stderr and decides whether input goes on.
func (s *Shell) fail(where string, err error) error {
	if err == nil || err == errQuit || err == errBail || err == errStopped {
		return err
	}
	s.out.Flush()
	s.errors++
	fmt.Fprintf(s.stderr, "Error: %s%s\n", where, cleanError(err))
	if s.isStopped() {
		return errStopped
	}
	if s.bail {
		return errBail
	}
	return nil
}

var sqliteCode = regexp.MustCompile(` \(\d+\)$`)

// cleanError drops the driver's generic prefix and numeric code, which say
// nothing the message itself does not.
func cleanError(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	msg := sqliteCode.ReplaceAllString(err.Error(), "")
	msg = strings.TrimPrefix(msg, "SQL logic error: ")
	msg = strings.TrimPrefix(msg, "constraint failed: ")
	if strings.HasPrefix(msg, "interrupted") {
		return "interrupted"
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

// runSQL runs one statement and prints its rows.
func (s *Shell) runSQL(text string) error {
	ctx, end := s.begin()
	defer end()
	spin := s.startSpinner()
	defer spin.stop()
	t0, ru0 := time.Now(), cpuTimes()
	rows, err := s.conn.QueryContext(ctx, text)
	if err != nil {
		return err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	cols := make([]column, len(types))
	for i, t := range types {
		cols[i] = column{name: t.Name(), decl: t.DatabaseTypeName()}
	}
	var p printer
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if p == nil {
			if s.opts.mode != "box" && s.opts.mode != "table" {
				spin.stop() // rows stream to the terminal from now on
			}
			p = newPrinter(s.out, &s.opts)
			p.header(cols)
		}
		p.row(vals)
	}
	err = rows.Err()
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	spin.stop()
	if p != nil {
		p.end()
	}
	if s.timer {
		s.printTimer(t0, ru0)
	}
	if ferr := s.out.Flush(); ferr != nil && err == nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// processReader runs every line of r (a script, stdin or a .read file).
func (s *Shell) processReader(r io.Reader, name string) error {
	b := &lineBuffer{src: &source{name: name}}
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		line, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return s.fail("", fmt.Errorf("reading %s: %w", name, rerr))
		}
		if line == "" && rerr == io.EOF {
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if _, err := s.feed(b, line); err != nil {
			return err
		}
		if s.isStopped() {
			return errStopped
		}
		if rerr == io.EOF {
			break
		}
	}
	return s.flushPending(b)
}

// processText runs one command-line argument (SQL or a dot-command).
func (s *Shell) processText(text string) error {
	b := &lineBuffer{src: &source{}}
	for _, line := range strings.Split(text, "\n") {
		if _, err := s.feed(b, line); err != nil {
			return err
		}
	}
	return s.flushPending(b)
}

// setOutput sends results to a file (or back to stdout when name is "").
// On error the output stays where it was.
func (s *Shell) setOutput(name string) error {
	if name != "" {
		if fi, err := os.Stat(name); err == nil && fi.IsDir() {
			return fmt.Errorf("cannot write to %q: it is a directory; give a file name", name)
		}
		f, err := os.Create(name)
		if err != nil {
			return fmt.Errorf("cannot write to %q: %v", name, unwrapPath(err))
		}
		s.closeOutput()
		s.outFile, s.out = f, bufio.NewWriter(f)
		return nil
	}
	s.closeOutput()
	s.out = bufio.NewWriter(s.stdout)
	return nil
}

func (s *Shell) closeOutput() {
	s.out.Flush()
	if s.outFile != nil {
		s.outFile.Close()
		s.outFile = nil
	}
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
