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
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
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
	// inDir is the directory of the file standard input comes from, if
	// it is a file the OS can name (see stdinDir).
	inDir string
}

func main() {
	tty := func(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
	os.Exit(run(os.Args[1:], stdio{
		in: os.Stdin, out: os.Stdout, err: os.Stderr,
		inTTY: tty(os.Stdin), outTTY: tty(os.Stdout), errTTY: tty(os.Stderr),
		signals: true, getenv: os.Getenv, inDir: stdinDir(),
	}))
}

// options are the parsed command line.
type options struct {
	file        string
	sql         []string
	opts        outputOptions
	cmds        []string
	init        string // -init FILE, instead of ~/.ksqlrc
	bail        bool
	echo        bool
	readonly    bool
	version     bool
	help        bool
	batch       bool
	interactive bool
}

const usageText = `Usage: ksql [OPTIONS] [FILE [SQL...]]
FILE is an SQLite database, created when missing; without it the database
is in memory. SQL (statements or dot-commands) runs and ksql exits; without
SQL, ksql reads standard input: interactively on a terminal, else as a script.
Before that it runs ~/.ksqlrc, if there is one (-init FILE runs FILE instead).

Options (one or two leading dashes):
   -ascii               output mode ascii (ASCII unit and record separators)
   -box                 output mode box (a box drawn with line characters)
   -column              output mode column (aligned columns)
   -csv                 output mode csv
   -html                output mode html (rows of an HTML table)
   -json                output mode json (an array of objects)
   -line                output mode line (one "name = value" line per column)
   -list                output mode list (values separated by "|", the default)
   -markdown            output mode markdown (a Markdown table)
   -quote               output mode quote (SQL literals)
   -table               output mode table (an ASCII table)
   -tabs                output mode tabs (values separated by tabs)
   -header              show column names in list and csv modes
   -noheader            do not
   -separator SEP       column separator of list and csv modes
   -newline SEP         row separator of list mode (default: a newline)
   -nullvalue TEXT      print NULL as TEXT
   -cmd COMMAND         run COMMAND (SQL or a dot-command) before the rest
   -init FILE           run FILE first, instead of ~/.ksqlrc
   -bail                stop at the first error
   -echo                print each command before running it
   -readonly            open FILE read-only
   -batch               read standard input as a script even on a terminal
   -interactive         read standard input interactively
   -version             print the version and exit
   -help                print this text and exit
`

// modeOptions are the options that choose an output mode, with sqlite3's
// separators: -csv keeps the newline row separator (.mode csv uses CRLF).
var modeOptions = map[string]func(o *outputOptions){
	"box": setMode("box"), "column": setMode("column"), "json": setMode("json"), "line": setMode("line"),
	"list": setMode("list"), "table": setMode("table"), "markdown": setMode("markdown"), "html": setMode("html"),
	"csv":   func(o *outputOptions) { o.mode, o.colSep = "csv", "," },
	"quote": func(o *outputOptions) { o.mode, o.colSep, o.rowSep = "quote", ",", "\n" },
	"tabs":  func(o *outputOptions) { o.mode, o.colSep = "list", "\t" },
	"ascii": func(o *outputOptions) { o.mode, o.colSep, o.rowSep = "ascii", "\x1F", "\x1E" },
}

func setMode(m string) func(o *outputOptions) { return func(o *outputOptions) { o.mode = m } }

// parseOptions reads the command line the way sqlite3 does: options may
// come before or after FILE, and "--" ends them.
func parseOptions(args []string) (*options, error) {
	o := &options{opts: defaultOptions()}
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
		if set, ok := modeOptions[name]; ok {
			set(&o.opts)
			continue
		}
		switch name {
		case "header", "headers":
			o.opts.headers, o.opts.headersSet = true, true
		case "noheader", "noheaders":
			o.opts.headers, o.opts.headersSet = false, true
		case "cmd":
			var c string
			c, err = value()
			o.cmds = append(o.cmds, c)
		case "init":
			o.init, err = value()
		case "separator":
			o.opts.colSep, err = value()
			o.opts.colSep = unescape(o.opts.colSep)
		case "newline":
			o.opts.rowSep, err = value()
			o.opts.rowSep = unescape(o.opts.rowSep)
		case "nullvalue":
			o.opts.fmt.null, err = value()
		case "bail":
			o.bail = true
		case "echo":
			o.echo = true
		case "readonly":
			o.readonly = true
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

// run is the whole program; it returns the exit status: 0, 1 after any
// error, 130 when Ctrl-C stopped a script, N after .exit N.
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
		fmt.Fprintf(sio.err, "Error: %v\n", err)
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
	interactive := o.interactive || (!o.batch && len(o.sql) == 0 && sio.inTTY && sio.outTTY)
	if err := s.runStartup(o, interactive); err != nil {
		return s.status(err)
	}
	for _, c := range o.cmds {
		if err := s.processText(c, false); err != nil {
			return s.status(err)
		}
	}
	if len(o.sql) > 0 {
		for _, q := range o.sql {
			if err := s.processText(q, true); err != nil {
				return s.status(err)
			}
		}
		return s.status(nil)
	}
	if interactive {
		s.interactive = true
		return s.repl(o, sio)
	}
	return s.status(s.processReader(sio.in, &source{name: "stdin", dir: sio.inDir}))
}

// runStartup runs -init FILE, or else ~/.ksqlrc when it exists. sqlite3's
// ~/.sqliterc is not read: it may hold what only sqlite3 understands.
func (s *Shell) runStartup(o *options, interactive bool) error {
	path, via := o.init, "-init"
	if path == "" {
		via = "~/.ksqlrc"
		home := s.getenv("HOME")
		if home == "" {
			return nil
		}
		path = filepath.Join(home, ".ksqlrc")
		if _, err := os.Stat(path); err != nil {
			return nil
		}
	}
	if interactive {
		fmt.Fprintf(s.stderr, "-- Loading resources from %s\n", path)
	}
	err := s.processFile(path, via)
	if err != nil && err != errQuit && err != errBail && err != errStopped {
		return s.fail(&source{}, 0, err)
	}
	return err
}

// stdinDir is the directory of the script file that standard input was
// redirected from (ksql < dir/script.sql), where the OS tells it; relative
// paths the script names are looked up there too.
func stdinDir() string {
	fi, err := os.Stdin.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	p, err := os.Readlink("/proc/self/fd/0")
	if err != nil || !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Dir(p)
}

// status turns how input processing ended into an exit status.
func (s *Shell) status(err error) int {
	s.flush()
	switch {
	case !s.interactive && (err == errStopped || s.isStopped()):
		return 130
	case s.quitCode:
		return s.exitCode
	case s.errors > 0 || err == errBail:
		return 1
	}
	return 0
}

// openShell opens the database and applies the options.
func openShell(o *options, sio stdio) (*Shell, error) {
	name := o.file
	if name == ":memory:" {
		name = ""
	}
	if _, err := os.Stat(name); err != nil && name != "" && looksLikeSQL(name) {
		return nil, fmt.Errorf("the database file %q does not exist and looks like SQL; "+
			"for SQL on an in-memory database, run: ksql :memory: %q", name, name)
	}
	db, conn, err := openDB(name, o.readonly)
	if err != nil {
		return nil, err
	}
	con := bufio.NewWriter(sio.out)
	getenv := sio.getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	s := &Shell{
		db: db, conn: conn, dbName: name, readonly: o.readonly, stdout: sio.out, stderr: sio.err,
		con: con, out: con, getenv: getenv,
		bail: o.bail, echo: o.echo, progress: sio.errTTY, progressDelay: time.Second,
		opts: o.opts, prompts: [2]string{prompt, contPrompt},
	}
	return s, nil
}

// looksLikeSQL spots a statement or dot-command given where the database
// file goes (ksql "SELECT 1"), which sqlite3 would take as the name of a new
// database file to create.
func looksLikeSQL(arg string) bool {
	word, _, found := strings.Cut(strings.TrimSpace(arg), " ")
	if strings.HasPrefix(word, ".") {
		_, _, ok := lookupDot(word[1:])
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
	s.resetOutput()
	s.flush()
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
	return fmt.Sprintf("ksql %s (SQLite %s, driver %s, %s)", v, sqliteVersion, driverName, runtime.Version())
}
