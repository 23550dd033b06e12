package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
//     names the file and line.
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
//     hold, as above.

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
	for i, line := range strings.Split(string(data), "\n") {
		fence := strings.HasPrefix(line, "```")
		switch {
		case cur == nil && fence:
			cur = &block{file: path, lang: strings.TrimSpace(line[3:]), line: i + 2}
			body.Reset()
		case cur != nil && fence:
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
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
	for _, line := range lines {
		code, comment := splitComment(line)
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
	nums := outputNumbers(output)
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
