package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// dotCmd is one dot-command: its usage line, a one-line summary, and the
// function that runs it with the arguments (args[0] is the command) and the
// raw text after the command name (for .plot, whose query is free text).
type dotCmd struct {
	usage string
	help  string
	run   func(s *Shell, src *source, args []string, rest string) error
}

var dotCommands map[string]dotCmd

func init() {
	// Assigned in init because .help and .read refer back to the table.
	dotCommands = map[string]dotCmd{
		"help":      {".help [COMMAND]", "show the commands, or the details of one", cmdHelp},
		"tables":    {".tables [PATTERN]", "list tables and views (PATTERN as in LIKE)", cmdTables},
		"schema":    {".schema [PATTERN]", "show the CREATE statements", cmdSchema},
		"mode":      {".mode [MODE]", "set the output mode: " + strings.Join(modeNames, ", "), cmdMode},
		"headers":   {".headers on|off", "show column names in list and csv modes", cmdHeaders},
		"import":    {".import FILE|DIR TABLE", "load a CSV file, or a directory of text files, into TABLE", cmdImport},
		"read":      {".read FILE", "run the SQL and dot-commands in FILE", cmdRead},
		"output":    {".output [FILE]", "send results to FILE, or back to the screen", cmdOutput},
		"timer":     {".timer on|off", "print the time each statement takes", cmdTimer},
		"quit":      {".quit", "leave ksql (also .exit, or Ctrl-D)", cmdQuit},
		"exit":      {".exit", "leave ksql", cmdQuit},
		"kernels":   {".kernels", "the kernel spec language and ksql's functions", cmdKernels},
		"plot":      {".plot [--out FILE.png|.svg] QUERY", "scatter plot of the first two numeric columns", cmdPlot},
		"vectors":   {".vectors auto|on|off [N]", "how BLOBs show as float32 vectors; N elements before …", cmdVectors},
		"maxwidth":  {".maxwidth N", "cut box/table cells to N columns (0: never)", cmdMaxWidth},
		"nullvalue": {".nullvalue TEXT", "print NULL as TEXT", cmdNullValue},
		"separator": {".separator SEP", "column separator in list mode", cmdSeparator},
		"bail":      {".bail on|off", "stop at the first error", cmdBail},
		"show":      {".show", "show the current settings", cmdShow},
	}
	dotCommands["header"] = dotCommands["headers"]
}

// dotCommand runs one dot-command line.
func (s *Shell) dotCommand(src *source, line string) error {
	name, rest, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
	rest = strings.TrimSpace(rest)
	cmd, ok := dotCommands[strings.ToLower(name)]
	if !ok {
		return fmt.Errorf("unknown command \".%s\"; .help lists the commands", name)
	}
	// .plot's query is free SQL text, with quotes of its own.
	var args []string
	if !strings.EqualFold(name, "plot") {
		var err error
		if args, err = splitArgs(rest); err != nil {
			return fmt.Errorf(".%s: %v", name, err)
		}
	}
	return cmd.run(s, src, append([]string{"." + strings.ToLower(name)}, args...), rest)
}

// splitArgs splits a dot-command's arguments at spaces; '...' and "..."
// quote an argument that holds spaces.
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
	if q := s[0]; q == '\'' || q == '"' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", fmt.Errorf("unterminated %c quote", q)
		}
		return s[1 : 1+end], s[end+2:], nil
	}
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:], nil
	}
	return s, "", nil
}

// wantArgs checks the argument count of a dot-command.
func wantArgs(args []string, lo, hi int) error {
	if n := len(args) - 1; n < lo || n > hi {
		return fmt.Errorf("%s takes %s; usage: %s", args[0], countWord(lo, hi), dotCommands[args[0][1:]].usage)
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

func cmdHelp(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	if len(args) == 2 {
		name := strings.TrimPrefix(strings.ToLower(args[1]), ".")
		if topic, ok := helpTopics[name]; ok {
			fmt.Fprint(s.out, topic)
			return nil
		}
		c, ok := dotCommands[name]
		if !ok {
			return fmt.Errorf(".help: no command %q; .help lists them", args[1])
		}
		fmt.Fprintf(s.out, "%s\n    %s\n", c.usage, c.help)
		return nil
	}
	var names []string
	for n := range dotCommands {
		if n != "header" && n != "exit" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		c := dotCommands[n]
		fmt.Fprintf(s.out, "%-36s %s\n", c.usage, c.help)
	}
	fmt.Fprint(s.out, "\nEnd SQL statements with \";\". Ctrl-C interrupts a running statement.\n"+
		"Input must be UTF-8: a statement that is not is refused with its line number.\n"+
		".help vectors, .help import and .help plot tell more.\n")
	return nil
}

func cmdMode(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	if len(args) == 1 {
		fmt.Fprintf(s.out, "current output mode: %s\n", s.opts.mode)
		return nil
	}
	m := strings.ToLower(args[1])
	if !slices.Contains(modeNames, m) {
		return fmt.Errorf(".mode: unknown mode %q; choose one of %s", args[1], strings.Join(modeNames, ", "))
	}
	s.opts.mode = m
	return nil
}

func cmdHeaders(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	v, err := parseOnOff(args[0], args[1])
	if err == nil {
		s.opts.headers = v
	}
	return err
}

func cmdTimer(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	v, err := parseOnOff(args[0], args[1])
	if err == nil {
		s.timer = v
	}
	return err
}

func cmdBail(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	v, err := parseOnOff(args[0], args[1])
	if err == nil {
		s.bail = v
	}
	return err
}

func cmdQuit(_ *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 0); err != nil {
		return err
	}
	return errQuit
}

// maxReadDepth bounds .read nesting, so a file that reads itself stops.
const maxReadDepth = 16

func cmdRead(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	if s.readDepth >= maxReadDepth {
		return fmt.Errorf(".read: files nested more than %d deep (does %s read itself?)", maxReadDepth, args[1])
	}
	f, err := os.Open(args[1])
	if err != nil {
		return fmt.Errorf(".read: cannot read %q: %v", args[1], unwrapPath(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return fmt.Errorf(".read: %q is a directory; give a file of SQL", args[1])
	}
	s.readDepth++
	defer func() { s.readDepth-- }()
	return s.processReader(f, args[1])
}

func cmdOutput(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	name := ""
	if len(args) == 2 && args[1] != "stdout" {
		name = args[1]
	}
	if err := s.setOutput(name); err != nil {
		return fmt.Errorf(".output: %v", err)
	}
	return nil
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

func cmdNullValue(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	s.opts.fmt.null = args[1]
	return nil
}

func cmdSeparator(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 1); err != nil {
		return err
	}
	s.opts.separator = unescape(args[1])
	return nil
}

// unescape turns \t and \n in a separator into the characters.
func unescape(s string) string {
	return strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\\`, `\`).Replace(s)
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
	fmt.Fprintf(s.out, "     mode: %s\n  headers: %s\nseparator: %q\nnullvalue: %q\n"+
		"  vectors: %s, %d elements\n maxwidth: %d\n    timer: %s\n     bail: %s\n   output: %s\n",
		s.opts.mode, onOff[s.opts.headers], s.opts.separator, s.opts.fmt.null,
		s.opts.fmt.vectors, s.opts.fmt.vecWidth, s.opts.maxWidth, onOff[s.timer], onOff[s.bail], out)
	return nil
}
