package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// dotCmd is one dot-command: its usage line, a one-line summary, and the
// function that runs it with the arguments (args[0] is the command) and the
// raw text after the command name (for .plot and .print, whose text is
// free).
type dotCmd struct {
	usage string
	help  string
	run   func(s *Shell, src *source, args []string, rest string) error
}

var dotCommands map[string]dotCmd

// dotAliases are other names of commands, as in sqlite3.
var dotAliases = map[string]string{"header": "headers", "indices": "indexes", "exit": "quit"}

func init() {
	// Assigned in init because .help and .read refer back to the table.
	dotCommands = map[string]dotCmd{
		"backup":    {".backup ?DB? FILE", "write the database DB (default main) to FILE", cmdBackup},
		"bail":      {".bail on|off", "stop at the first error", cmdBail},
		"cd":        {".cd DIRECTORY", "change the working directory", cmdCd},
		"changes":   {".changes on|off", "print the number of rows each statement changed", cmdChanges},
		"databases": {".databases", "list the names and files of attached databases", cmdDatabases},
		"dump":      {".dump ?OBJECTS?", "write the database (or the tables LIKE OBJECTS) as SQL", cmdDump},
		"echo":      {".echo on|off", "print each command before running it", cmdEcho},
		"headers":   {".headers on|off", "show column names", cmdHeaders},
		"help":      {".help ?COMMAND?", "show the commands, or the details of one", cmdHelp},
		"import":    {".import ?OPTIONS? FILE|DIR TABLE", "load a CSV file, or a directory of text files, into TABLE", cmdImport},
		"indexes":   {".indexes ?TABLE?", "list the indexes (of tables LIKE TABLE)", cmdIndexes},
		"kernels":   {".kernels", "the kernel spec language and ksql's functions", cmdKernels},
		"load":      {".load FILE ?ENTRY?", "load an SQLite extension library", cmdLoad},
		"maxwidth":  {".maxwidth N", "cut values in columnar modes to N columns (0: never)", cmdMaxWidth},
		"mode":      {".mode ?MODE? ?TABLE?", "set the output mode (.help mode lists them)", cmdMode},
		"nullvalue": {".nullvalue STRING", "print NULL as STRING", cmdNullValue},
		"once":      {".once FILE", "send the output of the next command only to FILE", cmdOnce},
		"open":      {".open ?--new|--readonly? ?FILE?", "close this database and open FILE (in memory without FILE)", cmdOpen},
		"output":    {".output ?FILE?", "send output to FILE, or back to the screen", cmdOutput},
		"parameter": {".parameter CMD ...", "set, list, unset or clear the values of :name parameters", cmdParameter},
		"plot":      {".plot ?OPTIONS? QUERY", "scatter plot of a query's first two numeric columns", cmdPlot},
		"print":     {".print STRING...", "print the STRINGs", cmdPrint},
		"prompt":    {".prompt MAIN ?CONTINUE?", "replace the prompts", cmdPrompt},
		"quit":      {".quit, .exit ?CODE?", "leave ksql (also Ctrl-D), with exit status CODE", cmdQuit},
		"read":      {".read FILE", "run the SQL and dot-commands in FILE", cmdRead},
		"restore":   {".restore ?DB? FILE", "replace the database DB (default main) by the one in FILE", cmdRestore},
		"save":      {".save FILE", "write the database to FILE (as .backup)", cmdBackup},
		"schema":    {".schema ?PATTERN?", "show the CREATE statements (of objects LIKE PATTERN)", cmdSchema},
		"separator": {".separator COL ?ROW?", "set the column (and row) separators", cmdSeparator},
		"show":      {".show", "show the current settings", cmdShow},
		"tables":    {".tables ?PATTERN?", "list tables and views (LIKE PATTERN)", cmdTables},
		"timeout":   {".timeout MS", "wait up to MS milliseconds for a locked database", cmdTimeout},
		"timer":     {".timer on|off", "print the time each statement takes", cmdTimer},
		"vectors":   {".vectors auto|on|off ?N?", "which BLOBs show as float32 vectors; N elements before …", cmdVectors},
		"version":   {".version", "show the versions of ksql, SQLite and Go", cmdVersion},
		"width":     {".width NUM1 NUM2 ...", "set column widths in columnar modes (negative: right-aligned)", cmdWidth},
	}
}

// lookupDot finds a command by name or alias.
func lookupDot(name string) (string, dotCmd, bool) {
	name = strings.ToLower(name)
	if a, ok := dotAliases[name]; ok {
		name = a
	}
	c, ok := dotCommands[name]
	return name, c, ok
}

// dotCommand runs one dot-command line.
func (s *Shell) dotCommand(src *source, line string) error {
	word, rest, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
	rest = strings.TrimSpace(rest)
	name, cmd, ok := lookupDot(word)
	if !ok {
		return fmt.Errorf("unknown command \".%s\"; .help lists the commands", word)
	}
	if s.readonlyBlocked(name) {
		return fmt.Errorf(".%s is not allowed here", name)
	}
	var args []string
	if name != "plot" {
		var err error
		if args, err = splitArgs(rest); err != nil {
			return fmt.Errorf(".%s: %v", name, err)
		}
	}
	return cmd.run(s, src, append([]string{"." + strings.ToLower(word)}, args...), rest)
}

// readonlyBlocked is a hook for commands a session may not run; none today.
func (s *Shell) readonlyBlocked(string) bool { return false }

// splitArgs splits a dot-command's arguments as sqlite3 does: at spaces;
// '...' quotes an argument taken as typed, "..." one in which backslash
// escapes (\t, \n, \\, \", \x41, \101) are resolved, as they are in an
// unquoted argument.
func splitArgs(s string) ([]string, error) {
	var args []string
	for strings.TrimSpace(s) != "" {
		a, rest, err := nextArg(s)
		if err != nil {
			return nil, err
		}
		args, s = append(args, a), rest
	}
	return args, nil
}

// nextArg cuts the first argument off s.
func nextArg(s string) (arg, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return "", "", nil
	}
	switch q := s[0]; q {
	case '\'':
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", fmt.Errorf("unterminated %c quote", q)
		}
		return s[1 : 1+end], s[end+2:], nil
	case '"':
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return unescape(s[1:i]), s[i+1:], nil
			}
		}
		return "", "", fmt.Errorf("unterminated %c quote", q)
	}
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return unescape(s[:i]), s[i:], nil
	}
	return unescape(s), "", nil
}

// unescape resolves the backslash escapes of sqlite3's dot-command
// arguments: \a \b \e \f \n \r \t \v \\ \" \', \xHH and octal \NNN.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		if e := strings.IndexByte(`abefnrtv`, s[i]); e >= 0 {
			b.WriteByte("\a\b\x1b\f\n\r\t\v"[e])
			continue
		}
		switch c = s[i]; {
		case c == 'x' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
		case c >= '0' && c <= '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte(c) // \\ \" \' and unknown escapes give the character
		}
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// wantArgs checks the argument count of a dot-command.
func wantArgs(args []string, lo, hi int) error {
	if n := len(args) - 1; n < lo || n > hi {
		_, c, _ := lookupDot(args[0][1:])
		return fmt.Errorf("%s takes %s; usage: %s", args[0], countWord(lo, hi), c.usage)
	}
	return nil
}

func countWord(lo, hi int) string {
	switch {
	case lo == hi && lo == 0:
		return "no arguments"
	case lo == hi && lo == 1:
		return "1 argument"
	case lo == hi:
		return fmt.Sprintf("%d arguments", lo)
	}
	return fmt.Sprintf("%d to %d arguments", lo, hi)
}

func parseOnOff(cmd, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return true, nil
	case "off", "no", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s: expected on or off, got %q", cmd, v)
}

// onOffCommand makes a command that sets a flag of the shell.
func onOffCommand(flag func(s *Shell) *bool) func(*Shell, *source, []string, string) error {
	return func(s *Shell, _ *source, args []string, _ string) error {
		if err := wantArgs(args, 1, 1); err != nil {
			return err
		}
		v, err := parseOnOff(args[0], args[1])
		if err == nil {
			*flag(s) = v
		}
		return err
	}
}

var (
	cmdTimer   = onOffCommand(func(s *Shell) *bool { return &s.timer })
	cmdBail    = onOffCommand(func(s *Shell) *bool { return &s.bail })
	cmdEcho    = onOffCommand(func(s *Shell) *bool { return &s.echo })
	cmdChanges = onOffCommand(func(s *Shell) *bool { return &s.changes })
)

func cmdHeaders(s *Shell, src *source, args []string, rest string) error {
	err := onOffCommand(func(s *Shell) *bool { return &s.opts.headers })(s, src, args, rest)
	if err == nil {
		s.opts.headersSet = true
	}
	return err
}

func cmdMode(s *Shell, _ *source, args []string, _ string) error {
	if len(args) == 1 {
		fmt.Fprintf(s.out, "current output mode: %s\n", s.opts.modeDescription())
		return nil
	}
	m := strings.ToLower(args[1])
	if !slices.Contains(modeNames, m) {
		return fmt.Errorf(".mode: unknown mode %q; choose one of %s", args[1], strings.Join(modeNames, ", "))
	}
	return s.opts.setMode(m, args[2:])
}

func cmdQuit(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	if len(args) == 2 {
		code, err := strconv.Atoi(args[1])
		if err != nil || code < 0 || code > 255 {
			return fmt.Errorf("%s: the exit status must be a whole number from 0 to 255, got %q", args[0], args[1])
		}
		s.exitCode = code
		s.quitCode = true
	}
	return errQuit
}

// maxReadDepth bounds .read nesting, so a file that reads itself stops.
const maxReadDepth = 16

func cmdRead(s *Shell, src *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	if s.readDepth >= maxReadDepth {
		return fmt.Errorf(".read: files nested more than %d deep (does %s read itself?)", maxReadDepth, args[1])
	}
	if err := s.processFile(src.resolve(args[1]), ".read"); err != nil && err != errQuit && err != errBail && err != errStopped {
		return fmt.Errorf(".read: %v", err)
	} else {
		return err
	}
}

// resolve finds a file a script names: relative to the current directory
// (as sqlite3 does), and, when it is not there, relative to the script.
// So a script and its data can be run from any directory.
func (src *source) resolve(path string) string {
	if src.dir == "" || path == "" || filepath.IsAbs(path) {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	alt := filepath.Join(src.dir, path)
	if _, err := os.Stat(alt); err == nil {
		return alt
	}
	return path
}

func cmdOutput(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	if len(args) == 1 || args[1] == "stdout" {
		s.resetOutput()
		return nil
	}
	if err := s.outputTarget(args[1]); err != nil {
		return fmt.Errorf(".output: %v", err)
	}
	return nil
}

func cmdOnce(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	if err := s.outputTarget(args[1]); err != nil {
		return fmt.Errorf(".once: %v", err)
	}
	s.onceLeft = 2
	return nil
}

// outputTarget opens the file of .output or .once.
func (s *Shell) outputTarget(name string) error {
	if strings.HasPrefix(name, "|") || strings.HasPrefix(name, "-") {
		return fmt.Errorf("%q: ksql writes only to files (no pipes, no options)", name)
	}
	return s.setOutput(name)
}

func cmdVectors(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 2); err != nil {
		return err
	}
	if len(args) == 1 {
		fmt.Fprintf(s.out, "vectors: %s, %d elements shown\n", s.opts.fmt.vectors, s.opts.fmt.vecWidth)
		return nil
	}
	m := strings.ToLower(args[1])
	if m != vecAuto && m != vecOn && m != vecOff {
		return fmt.Errorf(".vectors: expected auto, on or off, got %q", args[1])
	}
	n := s.opts.fmt.vecWidth
	if len(args) == 3 {
		var err error
		if n, err = strconv.Atoi(args[2]); err != nil || n < 1 {
			return fmt.Errorf(".vectors: the element count must be a whole number ≥ 1, got %q", args[2])
		}
	}
	s.opts.fmt.vectors, s.opts.fmt.vecWidth = m, n
	return nil
}

func cmdMaxWidth(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 || (n > 0 && n < 2) {
		return fmt.Errorf(".maxwidth: expected 0 (no limit) or a width ≥ 2, got %q", args[1])
	}
	s.opts.maxWidth = n
	return nil
}

func cmdWidth(s *Shell, _ *source, args []string, _ string) error {
	widths := make([]int, 0, len(args)-1)
	for _, a := range args[1:] {
		n, err := strconv.Atoi(a)
		if err != nil || n > 10000 || n < -10000 {
			return fmt.Errorf(".width: %q is not a width; give whole numbers (negative: right-aligned, 0: automatic)", a)
		}
		widths = append(widths, n)
	}
	s.opts.widths = widths
	return nil
}

func cmdNullValue(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	s.opts.fmt.null = args[1]
	return nil
}

func cmdSeparator(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 2); err != nil {
		return err
	}
	s.opts.colSep = args[1]
	if len(args) == 3 {
		s.opts.rowSep = args[2]
	}
	return nil
}

func cmdPrint(s *Shell, _ *source, args []string, _ string) error {
	fmt.Fprintln(s.out, strings.Join(args[1:], " "))
	return nil
}

func cmdPrompt(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 2); err != nil {
		return err
	}
	s.prompts[0] = args[1]
	if len(args) == 3 {
		s.prompts[1] = args[2]
	}
	return nil
}

func cmdCd(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	if err := os.Chdir(args[1]); err != nil {
		return fmt.Errorf(".cd: cannot change to %q: %v", args[1], unwrapPath(err))
	}
	return nil
}

func cmdTimeout(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	ms, err := strconv.Atoi(args[1])
	if err != nil || ms < 0 {
		return fmt.Errorf(".timeout: expected milliseconds, a whole number ≥ 0, got %q", args[1])
	}
	return s.execQuiet(context.Background(), ".timeout", fmt.Sprintf("PRAGMA busy_timeout = %d", ms))
}

func cmdVersion(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 0); err != nil {
		return err
	}
	fmt.Fprintln(s.out, s.versionText())
	return nil
}

func cmdShow(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 0); err != nil {
		return err
	}
	out := "stdout"
	if s.outFile != nil {
		out = s.outFile.Name()
	}
	onOff := map[bool]string{true: "on", false: "off"}
	widths := make([]string, len(s.opts.widths))
	for i, w := range s.opts.widths {
		widths[i] = strconv.Itoa(w)
	}
	file := s.dbName
	if file == "" {
		file = ":memory:"
	}
	for _, kv := range [][2]string{
		{"echo", onOff[s.echo]},
		{"headers", onOff[s.opts.headers]},
		{"mode", s.opts.modeDescription()},
		{"nullvalue", strconv.Quote(s.opts.fmt.null)},
		{"output", out},
		{"colseparator", strconv.Quote(s.opts.colSep)},
		{"rowseparator", strconv.Quote(s.opts.rowSep)},
		{"width", strings.Join(widths, " ")},
		{"filename", file},
		{"vectors", fmt.Sprintf("%s, %d elements", s.opts.fmt.vectors, s.opts.fmt.vecWidth)},
		{"maxwidth", strconv.Itoa(s.opts.maxWidth)},
		{"timer", onOff[s.timer]},
		{"changes", onOff[s.changes]},
		{"bail", onOff[s.bail]},
	} {
		fmt.Fprintf(s.out, "%12s: %s\n", kv[0], kv[1])
	}
	return nil
}
