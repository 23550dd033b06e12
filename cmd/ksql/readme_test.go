package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
)

// The README's commands, run as written. TestReadmeSQL and TestReadmeShell
// keep README.md and examples/README.md true; their rules:
//
//   - Every fenced block marked sql runs, in the order of the file, in one
//     ksql shell (this package's code, in-process) on one in-memory
//     database, from the repository root: the tables a block uses are made
//     by an earlier block, from the data shipped in examples/. A block is
//     a ksql script: SQL and dot-commands. Any error fails the test and
//     names the file and line, and so does a placeholder in the SQL
//     ([...], [, option=…], exact|nystrom): optional arguments go in
//     comments.
//   - A figure the README quotes is checked: a comment on a statement's
//     lines, or on the comment lines right after a statement that printed
//     something, that starts with a
//     number ("-- 0.896", "-- 4: '', a, b, ab", "-- 1|1.0|-1.0|0.5 2|…",
//     "-- cv_accuracy 0.896 (5 folds)": an optional leading word that the
//     output holds, then numbers separated by spaces, | or /, up to the
//     first other word) must be found in the statement's output, in order,
//     each equal to an output number rounded to as many decimals as the
//     figure has ("≈" before it allows one unit more or less in the last
//     place). Comments that start with words are prose.
//   - Every fenced block marked sh runs with bash -e (TestReadmeShell, not
//     in -short mode), in order, in a copy of the checkout (git's tracked
//     and untracked, not ignored files) under a temporary directory, with
//     HOME, GOBIN, TMPDIR there too, offline (GOPROXY=off, GOSUMDB=off)
//     and the Go build and module caches shared. Lines that install system
//     packages (apt-get) are left out. Left out as blocks: the test
//     command (it is this very suite), the cluster block (it needs rqlited,
//     which the cluster test builds under -tags rqlite; it runs here when
//     KSQL_README_CLUSTER=1) and blocks that need a tool this machine
//     lacks (sqlite3, gcc), which are skipped with the tool named. A
//     "# NUMBER" comment on a line is a figure the block's output must
//     hold, as above. A python block runs in the venv that the README's
//     wheel block made in that copy (not run when it made none), from the
//     temporary HOME.

// block is one fenced code block of a Markdown file.
type block struct {
	file, lang string
	line       int // of the first line inside the fence
	text       string
}

// fencedBlocks returns the ``` blocks of a Markdown file, in order.
func fencedBlocks(t *testing.T, path string) []block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var cur *block
	var body strings.Builder
	indent := "" // a block inside a list item is indented as the item
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		fence := strings.HasPrefix(trimmed, "```")
		switch {
		case cur == nil && fence:
			cur = &block{file: path, lang: strings.TrimSpace(trimmed[3:]), line: i + 2}
			indent = line[:len(line)-len(trimmed)]
			body.Reset()
		case cur != nil && fence:
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(strings.TrimPrefix(line, indent))
			body.WriteByte('\n')
		}
	}
	if cur != nil {
		t.Fatalf("%s: the block at line %d is not closed", path, cur.line)
	}
	return out
}

// repoRoot is the repository's root, from this package's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestReadmeSQL runs the sql blocks of README.md and examples/README.md.
func TestReadmeSQL(t *testing.T) {
	root := repoRoot(t)
	for _, doc := range []string{"README.md", "examples/README.md"} {
		t.Run(doc, func(t *testing.T) {
			blocks := fencedBlocks(t, filepath.Join(root, doc))
			t.Chdir(root)
			t.Setenv("TMPDIR", t.TempDir()) // .plot's pictures
			var out, errb bytes.Buffer
			o, err := parseOptions([]string{"-quote", ":memory:"})
			if err != nil {
				t.Fatal(err)
			}
			s, err := openShell(o, stdio{out: &out, err: &errb})
			if err != nil {
				t.Fatal(err)
			}
			defer s.close()
			ran, figures := 0, 0
			for _, b := range blocks {
				if b.lang == "sql" {
					figures += runSQLBlock(t, s, doc, b, &out, &errb)
					ran++
				}
			}
			t.Logf("%s: %d sql blocks ran, %d quoted figures held", doc, ran, figures)
		})
	}
}

// unit is one statement or dot-command of a block, with its output and
// the figures quoted for it.
type unit struct {
	line    int
	output  string
	figures []string
}

// runSQLBlock feeds a block to the shell line by line, as a script, and
// checks each statement's figures against its output. It returns the
// number of figures checked.
func runSQLBlock(t *testing.T, s *Shell, doc string, b block, out, errb *bytes.Buffer) int {
	t.Helper()
	buf := &lineBuffer{src: &source{name: doc}}
	buf.src.line = b.line - 1
	var units []*unit
	var pending []string // comments of the statement being read
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for i, line := range lines {
		code, comment := splitComment(line)
		if placeholderRE.MatchString(code) {
			t.Errorf("%s:%d: a placeholder in SQL (optional arguments go in a comment): %s", doc, b.line+i, line)
		}
		wasPending := buf.pending()
		ran, err := s.feed(buf, line)
		s.flush()
		if err != nil || errb.Len() > 0 {
			t.Fatalf("%s:%d: %q failed: %v %s", doc, buf.src.line, line, err, errb.String())
		}
		isComment := strings.TrimSpace(code) == "" && comment != ""
		switch {
		case ran != "":
			u := &unit{line: buf.src.line, output: out.String(), figures: append(pending, comment)}
			units = append(units, u)
			pending = nil
			out.Reset()
		case buf.pending() || wasPending:
			pending = append(pending, comment)
		case isComment && len(units) > 0 && units[len(units)-1].output != "":
			last := units[len(units)-1]
			last.figures = append(last.figures, comment)
		}
	}
	if buf.pending() {
		t.Fatalf("%s: the block at line %d ends inside a statement", doc, b.line)
	}
	n := 0
	for _, u := range units {
		for _, c := range u.figures {
			n += len(quotedFigures(c, u.output))
			if err := checkFigure(c, u.output); err != nil {
				t.Errorf("%s:%d: the figure %q does not hold: %v; the output:\n%s", doc, u.line, c, err, u.output)
			}
		}
	}
	return n
}

// placeholderRE finds what a reader cannot paste: [...], [, optional]
// and alternatives such as exact|nystrom.
var placeholderRE = regexp.MustCompile(`\[\.\.\.\]|\[, |[a-z_]\|[a-z_]`)

// splitComment cuts a line of SQL at a -- comment outside quotes.
func splitComment(line string) (code, comment string) {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"' || r == '`':
			quote = r
		case r == '-' && strings.HasPrefix(line[i:], "--"):
			return line[:i], strings.TrimSpace(line[i+2:])
		}
	}
	return line, ""
}

// figure is one number a comment quotes.
type figure struct {
	text   string
	approx bool
}

// quotedFigures reads the numbers a comment quotes, after an optional
// leading word that output must hold; none when it is prose.
func quotedFigures(comment, output string) []figure {
	approx := false
	if rest, ok := strings.CutPrefix(comment, "≈"); ok {
		comment, approx = strings.TrimSpace(rest), true
	}
	fields := strings.FieldsFunc(comment, func(r rune) bool { return unicode.IsSpace(r) || r == '|' })
	if len(fields) > 1 && !isNumber(fields[0]) && isWord(fields[0]) && strings.Contains(output, fields[0]) {
		fields = fields[1:]
	}
	var figs []figure
	for _, f := range fields {
		if f == "/" || f == "≈" {
			continue
		}
		if strings.HasPrefix(f, "(") && strings.HasSuffix(f, ")") {
			f = strings.TrimSuffix(strings.TrimPrefix(f, "("), ")") // a Python tuple, (3.0,)
		}
		f = strings.TrimRight(f, ":,;")
		if !isNumber(f) {
			break
		}
		figs = append(figs, figure{text: strings.ReplaceAll(f, "−", "-"), approx: approx})
	}
	return figs
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	s = strings.ReplaceAll(s, "−", "-")
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return false
	}
	return !strings.ContainsAny(s, "eEnNiI") || strings.ContainsAny(s, "0123456789")
}

// checkFigure finds comment's figures, in order, among output's numbers.
func checkFigure(comment, output string) error {
	figs := quotedFigures(comment, output)
	if len(figs) == 0 {
		return nil
	}
	return matchFigures(figs, outputNumbers(output))
}

// matchFigures finds figs, in order, among nums.
func matchFigures(figs []figure, nums []float64) error {
	i := 0
	for _, f := range figs {
		for i < len(nums) && !figureMatches(f, nums[i]) {
			i++
		}
		if i == len(nums) {
			return fmt.Errorf("no output number rounds to %s (numbers: %v)", f.text, nums)
		}
		i++
	}
	return nil
}

// figureMatches says whether v, rounded as f is written, is f.
func figureMatches(f figure, v float64) bool {
	decimals := 0
	if _, frac, ok := strings.Cut(f.text, "."); ok {
		decimals = len(frac)
	}
	if strings.ContainsAny(f.text, "eE") {
		want, _ := strconv.ParseFloat(f.text, 64)
		return math.Abs(v-want) <= 1e-12*math.Abs(want)
	}
	if strconv.FormatFloat(v, 'f', decimals, 64) == strings.TrimPrefix(f.text, "+") {
		return true
	}
	if v == 0 && strings.TrimLeft(f.text, "-0.") == "" {
		return true // -0 and 0
	}
	if f.approx {
		want, _ := strconv.ParseFloat(f.text, 64)
		return math.Abs(v-want) <= 1.5*math.Pow(10, -float64(decimals))
	}
	return false
}

// outputNumbers returns the numbers of quote-mode output: its unquoted
// fields that parse as numbers (strings and blobs are skipped).
func outputNumbers(out string) []float64 {
	var nums []float64
	var field strings.Builder
	end := func() {
		if v, err := strconv.ParseFloat(strings.TrimSpace(field.String()), 64); err == nil {
			nums = append(nums, v)
		}
		field.Reset()
	}
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '\'':
			for i++; i < len(out); i++ {
				if out[i] == '\'' {
					if i+1 < len(out) && out[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
			field.Reset()
			field.WriteString("'")
		case c == ',' || c == '\n':
			end()
		default:
			field.WriteByte(c)
		}
	}
	end()
	return nums
}

// TestReadmeFigureRule checks the figure rule on hand-made cases, so that
// a rule that accepts everything cannot pass unnoticed.
func TestReadmeFigureRule(t *testing.T) {
	for _, c := range []struct {
		comment, output string
		ok              bool
	}{
		{"0.6065306597126334", "0.6065306597126334\n", true},
		{"0.6065306597126335", "0.6065306597126334\n", false},
		{"0.896 (5 folds)", "'x',0.89622641509434\n", true},
		{"cv_accuracy 0.896 (5 folds)", "'cv_accuracy',0.8962\n", true},
		{"cv_accuracy 0.897", "'cv_accuracy',0.8962\n", false},
		{"4: '', a, b, ab", "4.0\n", true},
		{"−0.104 / 0.104", "'+',-0.1041\n'-',0.1039\n", true},
		{"0.104 / −0.104", "'+',-0.1041\n'-',0.1039\n", false},
		{"1|1.0|-1.0|0.5   2|0.0|-1.0|0.5", "1,1.0,-1.0,0.5\n2,1e-17,-1.0,0.5\n", true},
		{"≈ 0.984", "0.9851,0.985\n", true},
		{"≈ 0.984", "0.9871\n", false},
		{"projections of the stored rows", "1,2\n", true},
		{"0.5", "'0.5'\n", false}, // text is not a number
		{"(0.6065306597126334,)", "0.6065306597126334\n", true},
		{"(5 folds)", "1\n", true}, // prose
	} {
		err := checkFigure(c.comment, c.output)
		if (err == nil) != c.ok {
			t.Errorf("checkFigure(%q, %q) = %v, want ok=%v", c.comment, c.output, err, c.ok)
		}
	}
}

// shellFigures are the "# NUMBER" figures of an sh block's lines.
func shellFigures(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if _, c, ok := strings.Cut(sc.Text(), " # "); ok {
			out = append(out, strings.TrimSpace(c))
		}
	}
	return out
}

// TestReadmeShell runs the sh blocks of README.md, then of
// examples/README.md, in one copy of the checkout (see the rules above).
func TestReadmeShell(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ksql, ksql.so, the wheel and a Go program")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	checkout := filepath.Join(tmp, "ksql")
	copyCheckout(t, root, checkout)
	env := readmeEnv(t, tmp)
	ran := 0
	for _, doc := range []string{"README.md", "examples/README.md"} {
		for _, b := range fencedBlocks(t, filepath.Join(root, doc)) {
			if b.lang == "python" {
				runPythonBlock(t, doc, b, checkout, env)
				continue
			}
			if b.lang != "sh" {
				continue
			}
			if why := skipShellBlock(b.text); why != "" {
				t.Logf("%s:%d: not run: %s", doc, b.line, why)
				continue
			}
			runShellBlock(t, doc, b, checkout, env)
			ran++
		}
	}
	t.Logf("%d sh blocks ran", ran)
}

// skipShellBlock says why a block is not run, or "".
func skipShellBlock(text string) string {
	switch {
	case strings.Contains(text, "go test "):
		return "the test command (this suite)"
	case strings.Contains(text, "rqlited") && os.Getenv("KSQL_README_CLUSTER") != "1":
		return "the cluster needs rqlited (cluster/build-rqlited.sh); KSQL_README_CLUSTER=1 runs it"
	}
	for _, tool := range []string{"sqlite3", "gcc"} {
		if strings.Contains(text, tool+" ") {
			if _, err := exec.LookPath(tool); err != nil {
				return tool + " is not installed"
			}
		}
	}
	if strings.Contains(text, "/usr/bin/python3") {
		if _, err := os.Stat("/usr/bin/python3"); err != nil {
			return "/usr/bin/python3 is not installed"
		}
		if exec.Command("/usr/bin/python3", "-c", "import venv, ensurepip").Run() != nil {
			return "python3-venv is not installed"
		}
	}
	return ""
}

// copyCheckout copies the files git knows and does not ignore.
func copyCheckout(t *testing.T, root, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("no git checkout to copy: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(filepath.Join(root, name))
		path := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeEnv is the environment of the sh blocks: HOME, GOBIN and TMPDIR
// under tmp, offline, with the Go caches of the machine.
func readmeEnv(t *testing.T, tmp string) []string {
	t.Helper()
	caches, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	c := strings.Fields(string(caches))
	bin, home, tdir := filepath.Join(tmp, "bin"), filepath.Join(tmp, "home"), filepath.Join(tmp, "tmp")
	for _, d := range []string{bin, home, tdir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "GOBIN=" + bin, "TMPDIR=" + tdir, "PATH=" + bin + ":" + os.Getenv("PATH"),
		"GOCACHE=" + c[0], "GOMODCACHE=" + c[1], "GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=mod", "KSQL_HISTORY=off"}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains([]string{"HOME", "GOBIN", "TMPDIR", "PATH", "GOCACHE",
			"GOMODCACHE", "GOPROXY", "GOSUMDB", "GOFLAGS", "KSQL_HISTORY", "GOPATH"}, k) {
			env = append(env, kv)
		}
	}
	return env
}

// runShellBlock runs one block with bash -e in the copy of the checkout,
// apt-get lines left out, stdin empty, and kills what it left running.
func runShellBlock(t *testing.T, doc string, b block, checkout string, env []string) {
	t.Helper()
	var script strings.Builder
	for _, line := range strings.Split(b.text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "apt-get ") {
			line = "# " + line
		}
		script.WriteString(line + "\n")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", script.String())
	cmd.Dir, cmd.Env = checkout, env
	runBlockCommand(t, doc, b, cmd)
}

// runPythonBlock runs a python block with the venv that the README's
// wheel block made in the checkout, where that block ran.
func runPythonBlock(t *testing.T, doc string, b block, checkout string, env []string) {
	t.Helper()
	python := filepath.Join(checkout, ".venv", "bin", "python")
	if _, err := os.Stat(python); err != nil {
		t.Logf("%s:%d: not run: no .venv (the wheel block did not run)", doc, b.line)
		return
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", b.text)
	// not in the checkout, where the CLI block left a ksql.so that Python
	// would import as the module (the README says so)
	cmd.Dir, cmd.Env = filepath.Join(filepath.Dir(checkout), "home"), env
	runBlockCommand(t, doc, b, cmd)
}

// runBlockCommand runs a block's command in a process group of its own,
// kills what it leaves running, and checks the block's "# NUMBER" figures
// against its output.
func runBlockCommand(t *testing.T, doc string, b block, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// nodes left in the background keep the output pipe open: stop
	// waiting for it shortly after the block's shell exits
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // background nodes
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // the shell exited well; its background nodes held the pipe
	}
	if err != nil {
		t.Fatalf("%s:%d: the %s block failed: %v\n%s", doc, b.line, b.lang, err, out.String())
	}
	nums := textNumbers(out.String())
	for _, c := range shellFigures(b.text) {
		figs := quotedFigures(c, out.String())
		if err := matchFigures(figs, nums); err != nil {
			t.Errorf("%s:%d: the figure %q does not hold: %v\n%s", doc, b.line, c, err, out.String())
		}
	}
}

// textNumbers are the numbers in free text.
func textNumbers(s string) []float64 {
	var nums []float64
	for _, m := range regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`).FindAllString(s, -1) {
		if v, err := strconv.ParseFloat(m, 64); err == nil {
			nums = append(nums, v)
		}
	}
	return nums
}

// TestReadmeVecVersions holds the README's sqlite-vec versions to the
// ksql driver's vec_version() and to the sqlite-vec-go-bindings version
// in go.mod (which ksql_mattn and the README's vec0.so recipe use).
func TestReadmeVecVersions(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, status := runShell(t, "", ":memory:", "SELECT vec_version();")
	if status != 0 {
		t.Fatal(errs)
	}
	bindings := regexp.MustCompile(`github.com/asg017/sqlite-vec-go-bindings (v[0-9.]+)`).FindSubmatch(gomod)
	if bindings == nil {
		t.Fatal("go.mod names no sqlite-vec-go-bindings version")
	}
	for _, want := range []string{
		"the `ksql` driver (and so the shell) has " + strings.TrimSpace(out) + ",",
		"`ksql_mattn` and this `vec0.so` have " + string(bindings[1]) + ",",
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
