package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/peterh/liner"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/internal/kernels"
)

const (
	prompt     = "ksql> "
	contPrompt = "   ...> "
)

// historyPath is where the interactive history lives: $KSQL_HISTORY if set
// (KSQL_HISTORY=off keeps no history), else ksql/history in the XDG state
// directory ($XDG_STATE_HOME or ~/.local/state) on Unix, and in the user's
// config directory on macOS and Windows.
func historyPath(getenv func(string) string) string {
	if p := getenv("KSQL_HISTORY"); p != "" {
		if p == "off" {
			return ""
		}
		return p
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "ksql", "history")
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, ".local", "state", "ksql", "history")
		}
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "ksql", "history")
	}
	return ""
}

// repl is the interactive loop: line editing, history and completion.
func (s *Shell) repl(o *options, sio stdio) int {
	name := o.file
	if name == "" {
		name = "a transient in-memory database"
	}
	fmt.Fprintf(s.con, "%s\nEnter \".help\" for usage hints, \".kernels\" for the kernel specs.\nConnected to %s.\n",
		s.versionText(), name)
	ln := liner.NewLiner()
	defer ln.Close()
	ln.SetCtrlCAborts(true)
	ln.SetMultiLineMode(true)
	ln.SetTabCompletionStyle(liner.TabPrints)
	ln.SetWordCompleter(s.complete)
	hist := historyPath(sio.getenv)
	s.loadHistory(ln, hist)

	b := &lineBuffer{src: &source{interactive: true}}
	for {
		p := s.prompts[0]
		if b.pending() {
			p = s.prompts[1]
		}
		s.resume()
		s.flush()
		line, err := ln.Prompt(p)
		if errors.Is(err, liner.ErrPromptAborted) {
			b.reset() // Ctrl-C at the prompt drops the pending statement
			continue
		}
		if err == io.EOF {
			fmt.Fprintln(s.con)
			s.flush()
			if b.pending() {
				fmt.Fprintf(s.stderr, "Ctrl-D: this unfinished statement was not run:\n%s\n", strings.TrimRight(b.text.String(), "\n"))
			}
			break
		}
		if err != nil {
			fmt.Fprintf(s.stderr, "Error: reading input: %v\n", err)
			break
		}
		ran, err := s.feed(b, line)
		if ran != "" {
			ln.AppendHistory(historyEntry(ran))
			s.saveHistory(ln, hist)
		}
		if err == errQuit {
			break
		}
	}
	s.flush()
	if s.quitCode {
		return s.exitCode
	}
	return 0
}

// historyEntry puts a statement of several lines on one history line, since
// the history file holds one entry per line.
func historyEntry(text string) string {
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " ")
}

func (s *Shell) loadHistory(ln *liner.State, path string) {
	if path == "" {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		if !os.IsNotExist(err) {
			fmt.Fprintf(s.stderr, "warning: cannot read history %s: %v\n", path, unwrapPath(err))
		}
		return
	}
	defer f.Close()
	ln.ReadHistory(f)
}

// saveHistory writes the history after every statement, so a killed shell
// loses nothing; a failure is reported once and then history is off.
func (s *Shell) saveHistory(ln *liner.State, path string) {
	if path == "" {
		return
	}
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	}
	if err == nil {
		_, err = ln.WriteHistory(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "warning: cannot write history %s: %v\n", path, unwrapPath(err))
	}
}

// sqlKeywords are offered by Tab completion: SQLite's keywords and the
// type names.
var sqlKeywords = append(strings.Fields("INTEGER REAL TEXT BLOB NUMERIC"), sqliteKeywords...)

// specWords are the words that appear inside string literals: the kernel
// spec language, every module's name and argument keys (from the catalogue
// and from the help that TestHelpDocs holds to the modules themselves),
// the settings' names and the options' word values.
var specWords = func() []string {
	w := append(kernels.Words(), strings.Fields(`exact nystrom balanced c_svc nu_svc one_class eps_svr nu_svr
		standard skip error true false barnes_hut`)...)
	for _, m := range catalog.Extension.Modules {
		w = append(w, m.Name)
	}
	for _, a := range sourceDocs {
		w = append(w, a.key)
	}
	for _, d := range helpDocs {
		for _, a := range d.args {
			w = append(w, a.key)
		}
	}
	for _, s := range catalog.Extension.Settings {
		w = append(w, s.Name)
	}
	slices.Sort(w)
	return slices.Compact(w)
}()

// complete is liner's word completer: the word before the cursor is
// completed from SQL keywords, table and column names, function names and
// spec words; at the start of a line, from the dot-commands.
func (s *Shell) complete(line string, pos int) (string, []string, string) {
	r := []rune(line)
	if pos > len(r) {
		pos = len(r)
	}
	head, tail := string(r[:pos]), string(r[pos:])
	start := len(head)
	for start > 0 {
		c, n := utf8.DecodeLastRuneInString(head[:start])
		if c != '_' && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			break
		}
		start -= n
	}
	word := head[start:]
	trimmed := strings.TrimLeft(head, " \t")
	if strings.HasPrefix(trimmed, ".") && !strings.ContainsAny(trimmed, " \t") {
		return head[:len(head)-len(trimmed)], s.dotCandidates(trimmed), tail
	}
	if at, ok := pathArgument(trimmed); ok {
		at += len(head) - len(trimmed)
		return head[:at], pathCandidates(head[at:]), tail
	}
	if word == "" {
		return head, nil, tail
	}
	return head[:start], s.wordCandidates(word), tail
}

func (s *Shell) dotCandidates(prefix string) []string {
	var out []string
	add := func(name string) {
		if strings.HasPrefix("."+name, strings.ToLower(prefix)) {
			out = append(out, "."+name)
		}
	}
	for name := range dotCommands {
		add(name)
	}
	for alias := range dotAliases {
		add(alias)
	}
	slices.Sort(out)
	return out
}

func (s *Shell) wordCandidates(word string) []string {
	lw := strings.ToLower(word)
	upper := strings.ToUpper(word) == word && strings.ToLower(word) != word
	seen := map[string]bool{}
	var out []string
	add := func(c string) {
		if strings.HasPrefix(strings.ToLower(c), lw) && !seen[strings.ToLower(c)] {
			seen[strings.ToLower(c)] = true
			out = append(out, c)
		}
	}
	ctx := context.Background()
	tables, _ := s.queryStrings(ctx, userTablesSQL, "")
	for _, t := range tables {
		add(t)
	}
	for _, t := range tables {
		cols, _ := s.tableColumns(ctx, "", t)
		for _, c := range cols {
			add(c)
		}
	}
	for _, f := range s.functionNames() {
		add(f)
	}
	for _, w := range specWords {
		add(w)
	}
	for _, k := range sqlKeywords {
		if upper {
			add(k)
		} else {
			add(strings.ToLower(k))
		}
	}
	slices.Sort(out)
	return out
}

// pathCommands take a file name; their arguments complete as paths.
var pathCommands = map[string]bool{".read": true, ".import": true, ".output": true, ".once": true,
	".open": true, ".load": true, ".backup": true, ".save": true, ".restore": true, ".cd": true}

// pathArgument reports whether the word being typed at the end of line is
// a file name: any argument of the path commands, and the value of .plot's
// --out. It returns where that word starts.
func pathArgument(line string) (int, bool) {
	cmd, _, found := strings.Cut(line, " ")
	if !found {
		return 0, false
	}
	at := strings.LastIndexAny(line, " \t") + 1
	if pathCommands[strings.ToLower(cmd)] {
		return at, !strings.HasPrefix(line[at:], "-")
	}
	if strings.EqualFold(cmd, ".plot") {
		before := strings.Fields(line[:at])
		if len(before) > 0 && (before[len(before)-1] == "--out" || before[len(before)-1] == "-o") {
			return at, true
		}
	}
	return 0, false
}

// pathCandidates lists the files and directories (with a trailing /) whose
// path starts with prefix; hidden ones only when prefix names a dot.
func pathCandidates(prefix string) []string {
	dir, base := filepath.Split(prefix)
	read := dir
	if strings.HasPrefix(read, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			read = filepath.Join(home, read[2:])
		}
	}
	if read == "" {
		read = "."
	}
	entries, err := os.ReadDir(read)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(read, name)); err == nil {
				isDir = fi.IsDir()
			}
		}
		if isDir {
			name += "/"
		}
		out = append(out, dir+name)
	}
	slices.Sort(out)
	return out
}
