// Command ksql is an SQLite shell with ksql's kernel functions and modules
// loaded: the sqlite3 command line, plus .import of text directories,
// .plot, .kernels and readable vector BLOBs.
//
//	ksql [options] [FILE [SQL...]]
//
// Run ksql -help for the options and .help inside for the dot-commands.
package main

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"golang.org/x/term"
)

// stdio is the shell's view of its process: streams, whether they are
// terminals, and the environment. Tests run the shell in-process with
// buffers; main passes the real ones.
type stdio struct {
	in                    io.Reader
	out, err              io.Writer
	inTTY, outTTY, errTTY bool
	// signals makes Ctrl-C (SIGINT) interrupt the running statement.
	signals bool
	getenv  func(string) string
}

func main() {
	tty := func(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
	os.Exit(run(os.Args[1:], stdio{
		in: os.Stdin, out: os.Stdout, err: os.Stderr,
		inTTY: tty(os.Stdin), outTTY: tty(os.Stdout), errTTY: tty(os.Stderr),
		signals: true, getenv: os.Getenv,
	}))
}

// options are the parsed command line.
type options struct {
	file        string
	sql         []string
	mode        string
	headers     *bool
	cmds        []string
	bail        bool
	version     bool
	help        bool
	batch       bool
	interactive bool
	separator   string
	nullValue   string
}

const usageText = `Usage: ksql [OPTIONS] [FILE [SQL...]]
FILE is an SQLite database, created when missing; without it the database
is in memory. SQL (statements or dot-commands) runs and ksql exits; without
SQL, ksql reads standard input: interactively on a terminal, else as a script.

Options (one or two leading dashes):
   -box               output in a box drawn with line characters
   -csv               output as CSV
   -json              output as a JSON array of objects
   -line              one "name = value" line per column
   -list              values separated by "|" (the default)
   -table             output in an ASCII table
   -header            show column names in list and csv modes
   -noheader          do not
   -separator SEP     column separator of list mode
   -nullvalue TEXT    print NULL as TEXT
   -cmd COMMAND       run COMMAND (SQL or a dot-command) before the rest
   -bail              stop at the first error
   -batch             read standard input as a script even on a terminal
   -interactive       read standard input interactively
   -version           print the version and exit
   -help              print this text and exit
`

// parseOptions reads the command line the way sqlite3 does: options may
// come before or after FILE, and "--" ends them.
func parseOptions(args []string) (*options, error) {
	o := &options{mode: "list", separator: "|"}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("option %s needs a value", a)
			}
			i++
			return args[i], nil
		}
		var err error
		switch name {
		case "box", "csv", "json", "line", "list", "table":
			o.mode = name
		case "header", "headers":
			o.headers = ptr(true)
		case "noheader", "noheaders":
			o.headers = ptr(false)
		case "cmd":
			var c string
			c, err = value()
			o.cmds = append(o.cmds, c)
		case "separator":
			o.separator, err = value()
			o.separator = unescape(o.separator)
		case "nullvalue":
			o.nullValue, err = value()
		case "bail":
			o.bail = true
		case "batch":
			o.batch = true
		case "interactive":
			o.interactive = true
		case "version":
			o.version = true
		case "help", "h":
			o.help = true
		default:
			return nil, fmt.Errorf("unknown option %s", a)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pos) > 0 {
		o.file, o.sql = pos[0], pos[1:]
	}
	return o, nil
}

func ptr[T any](v T) *T { return &v }

// run is the whole program; it returns the exit status: 0, 1 after any
// error, 130 when Ctrl-C stopped a script.
func run(args []string, sio stdio) int {
	o, err := parseOptions(args)
	if err != nil {
		fmt.Fprintf(sio.err, "ksql: %v\nRun ksql -help for the options.\n", err)
		return 1
	}
	if o.help {
		fmt.Fprint(sio.out, usageText)
		return 0
	}
	s, err := openShell(o, sio)
	if err != nil {
		fmt.Fprintf(sio.err, "ksql: %v\n", err)
		return 1
	}
	defer s.close()
	if o.version {
		fmt.Fprintln(sio.out, s.versionText())
		return 0
	}
	if sio.signals {
		stop := s.handleSignals()
		defer stop()
	}
	for _, c := range o.cmds {
		if err := s.processText(c); err != nil {
			return s.status(err)
		}
	}
	if len(o.sql) > 0 {
		for _, q := range o.sql {
			if err := s.processText(q); err != nil {
				return s.status(err)
			}
		}
		return s.status(nil)
	}
	if o.interactive || (!o.batch && sio.inTTY && sio.outTTY) {
		s.interactive = true
		return s.repl(o, sio)
	}
	return s.status(s.processReader(sio.in, "stdin"))
}

// status turns how input processing ended into an exit status.
func (s *Shell) status(err error) int {
	s.out.Flush()
	switch {
	case !s.interactive && (err == errStopped || s.isStopped()):
		return 130
	case err == errQuit && s.errors == 0:
		return 0
	case s.errors > 0 || err == errBail:
		return 1
	}
	return 0
}

// openShell opens the database and applies the options.
func openShell(o *options, sio stdio) (*Shell, error) {
	name := o.file
	if name == "" {
		name = ":memory:"
	}
	fi, err := os.Stat(name)
	if err == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot open %q: it is a directory, not a database file", name)
	}
	if err != nil && looksLikeSQL(name) {
		return nil, fmt.Errorf("the database file %q does not exist and looks like SQL; "+
			"for SQL on an in-memory database, run: ksql :memory: %q", name, name)
	}
	db, err := sql.Open(driverName, name)
	if err != nil {
		return nil, fmt.Errorf("cannot open %q: %v", name, err)
	}
	conn, err := db.Conn(context.Background())
	if err == nil {
		// Reading the schema makes SQLite check that the file is a database.
		_, err = conn.ExecContext(context.Background(), "SELECT count(*) FROM sqlite_schema")
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot open %q: %s", name, cleanError(err))
	}
	s := &Shell{
		db: db, conn: conn, stdout: sio.out, stderr: sio.err,
		out:  bufio.NewWriter(sio.out),
		bail: o.bail, progress: sio.errTTY, progressDelay: time.Second,
		opts: outputOptions{mode: o.mode, separator: o.separator, maxWidth: 60,
			fmt: valueFormat{null: o.nullValue, vectors: vecAuto, vecWidth: 6}},
	}
	if o.headers != nil {
		s.opts.headers = *o.headers
	}
	return s, nil
}

// looksLikeSQL spots a statement or dot-command given where the database
// file goes (ksql "SELECT 1"), which sqlite3 would take as the name of a new
// database file to create.
func looksLikeSQL(arg string) bool {
	word, _, found := strings.Cut(strings.TrimSpace(arg), " ")
	if strings.HasPrefix(word, ".") {
		_, ok := dotCommands[strings.ToLower(word[1:])]
		return ok
	}
	switch strings.ToUpper(word) {
	case "SELECT", "WITH", "VALUES", "CREATE", "INSERT", "REPLACE", "UPDATE", "DELETE",
		"DROP", "ALTER", "PRAGMA", "EXPLAIN", "BEGIN", "ATTACH", "VACUUM":
		return found
	}
	return false
}

func (s *Shell) close() {
	s.closeOutput()
	s.conn.Close()
	s.db.Close()
}

// handleSignals makes Ctrl-C cancel the running statement. In a script
// with nothing running it ends the process, as it would without ksql.
func (s *Shell) handleSignals() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				if !s.interrupt() && !s.interactive {
					os.Exit(130)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

func (s *Shell) versionText() string {
	var v, sqliteVersion string
	s.conn.QueryRowContext(context.Background(), "SELECT ksql_version(), sqlite_version()").Scan(&v, &sqliteVersion)
	return fmt.Sprintf("ksql %s (SQLite %s, driver %s)", v, sqliteVersion, driverName)
}
