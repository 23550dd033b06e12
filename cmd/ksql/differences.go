package main

import (
	"fmt"
	"strings"
)

// difference is one deliberate way in which ksql's shell differs from the
// sqlite3 shell (3.40). The README's section "Differences from the sqlite3
// shell" and .help differences are made from this list (TestDifferences
// checks the README), and each entry that can be shown carries a script
// whose ksql output must contain want, so that the list and the shell
// cannot drift apart.
type difference struct {
	topic  string
	text   string
	script string // run by TestDifferences, "" when it cannot be shown in a script
	want   string // a substring of its stdout and stderr
}

var differences = []difference{
	{"Vectors", "A BLOB of float32 values from a vector column (declared `float[N]`, `f32…` or `vector`; a vec0 " +
		"table's `float[N]` column; kernel_map's `vector`) or from a function that returns vectors (`rff_embed`, " +
		"`vec_f32`, …) prints as `[0.12, -0.5, …]`; `.vectors on|off|auto` changes the rule. Other BLOBs print as in sqlite3.",
		"SELECT vec_f32('[0.5, 2]') AS v, CAST('abcd' AS BLOB) AS b;", "[0.5, 2]|abcd"},
	{".import of a new table", "The columns are typed by their values (INTEGER, REAL, else TEXT; an empty field in a " +
		"numeric column is NULL); sqlite3 makes every column TEXT.",
		".import iris.csv iris\nSELECT typeof(id), typeof(sepal_length), typeof(species) FROM iris LIMIT 1;", "integer|real|text"},
	{".import separator", "Without `--csv`, in list mode with its default separator `|`, and in the modes other than " +
		"csv, ascii and tabs, `.import` splits at commas; sqlite3 splits at `|`.",
		".import iris.csv iris\nSELECT count(*) FROM pragma_table_info('iris');", "6"},
	{".import checks first", "The file is read through before anything is inserted, and loaded in one transaction: CSV " +
		"that does not parse (a stray `\"`) or text that is not UTF-8 is an error with the line number and nothing " +
		"is kept; sqlite3 reads such fields leniently and inserts what it got.",
		".import bad_quote.csv t", "malformed CSV"},
	{".import DIR", "`.import DIR TABLE` loads a directory of text files, one row (id, name, body) per file.",
		".import corpus docs\nSELECT count(*) FROM docs;", "4"},
	{"Columnar modes", "box, table, column and markdown right-align numbers, keep each row on one line (a line break " +
		"shows as `\\n`), measure text by its width on screen, and cut values longer than `.maxwidth` (default 60) " +
		"with `…`; sqlite3 left-aligns and wraps long values onto more lines.",
		".mode box\nSELECT 7 AS n, 'two\nlines' AS s;", "│ 7 │ two\\nlines │"},
	{"Exact REALs", "quote, insert and json modes and `.dump` write a REAL as the shortest text that reads back as " +
		"the same number (`0.30000000000000004`; sqlite3: `0.3000000000000000444`), and infinity as `1e999` " +
		"(sqlite3's quote mode: `Inf`). list, csv and the columnar modes show 15 digits, as sqlite3 does.",
		".mode quote\nSELECT 0.1 + 0.2, 1e999;", "0.30000000000000004,1e999"},
	{"Error lines", "In a script, an error of a dot-command names its line (`Error near line 4: …`), and an error in " +
		"a file run by `.read`, `-init` or `~/.ksqlrc` names the file (`Parse error near line 2 of f.sql: …`); " +
		"runtime errors leave out SQLite's numeric code (sqlite3: `… (19)`).",
		".mode sideways", "Error near line 1: .mode: unknown mode"},
	{"Start-up file", "ksql reads `~/.ksqlrc` (or the `-init` file); it does not read `~/.sqliterc`, which may hold " +
		"what only sqlite3 understands. A missing `-init` file makes the exit status 1.", "", ""},
	{"readfile and writefile", "`readfile(path)` of a file that cannot be read is an error that says why (sqlite3: " +
		"NULL); `writefile(path, data)` takes no mode or time and makes no directories.",
		"SELECT readfile('no/such/file');", "readfile: cannot read"},
	{".load", "ksql runs on modernc.org/sqlite, SQLite translated to Go, which cannot load native extension " +
		"libraries: `.load` says so. ksql's functions and modules and sqlite-vec are built in.",
		".load iris.csv", "cannot load native extensions"},
	{".backup, .save, .restore", "Only the main database can be copied.",
		".backup temp x.db", "only the main database can be copied"},
	{".open", "When the file cannot be opened, ksql stays on the database it had (sqlite3 goes on with an empty " +
		"in-memory one). The options are `--new` and `--readonly`.",
		".open iris.csv", "still on the in-memory database"},
	{".output and .once", "Results go to files only: no `|command` pipes, no `-x`/`-e` (spreadsheet, editor).",
		".output |cat", "ksql writes only to files"},
	{".parameter set", "A value that is not valid SQL is kept as the text typed, as in sqlite3, unless it holds `(`, " +
		"`)` or `;`: then it was meant as SQL, and its error is reported.",
		".parameter set :x abs(-9223372036854775808)", "is not a valid SQL value: integer overflow"},
	{"Paths in scripts", "A relative path in a script (`.read`, `.import`) that does not exist in the current " +
		"directory is looked for next to the script, so that a script and its data run from any directory.",
		"", ""},
	{"Ctrl-D", "Ctrl-D with an unfinished statement at the prompt drops it and says what was dropped; sqlite3 runs " +
		"it. (At the end of a script, ksql runs a last statement that lacks its `;`, as sqlite3 does.)", "", ""},
	{"Spinner", "A statement that runs for more than a second shows a spinner on standard error, when that is a " +
		"terminal; Ctrl-C stops the statement.", "", ""},
	{"DATE columns", "TEXT in a column declared DATE, DATETIME or TIMESTAMP is read by the driver as a time and " +
		"shown in ISO form (`2024-03-01 10:00:00`); `.dump` writes the text as stored.",
		"CREATE TABLE d(t DATE); INSERT INTO d VALUES ('2024-03-01T10:00:00Z');\nSELECT t FROM d;", "2024-03-01 10:00:00"},
	{"Commands ksql adds", "`.plot` (scatter plots to PNG, SVG or PDF), `.kernels` (the kernel spec language), " +
		"`.vectors`, `.maxwidth`, `.help differences`.", ".help differences", "Commands ksql adds"},
	{"Commands ksql lacks", "`.archive .auth .binary .check .clone .connection .dbconfig .dbinfo .eqp .excel " +
		".expert .explain .filectrl .fullschema .imposter .limit .lint .log .nonce .progress .recover .scanstats " +
		".selftest .session .sha3sum .shell .stats .system .testcase .testctrl .trace .vfsinfo .vfslist .vfsname`; " +
		"`.mode` takes no `--wrap`/`--wordwrap`/`--quote` options and has no qbox or tcl mode; the command-line " +
		"options of sqlite3 not listed by `ksql -help`.", ".shell ls", `unknown command ".shell"`},
	{".show and .version", "`.show` lists ksql's settings too (vectors, maxwidth, timer, changes, bail); `.version` " +
		"prints the versions of ksql, SQLite and Go.", ".version", "(SQLite 3."},
}

// differencesMarkdown is the README section's body.
func differencesMarkdown() string {
	var b strings.Builder
	b.WriteString("The shell follows the sqlite3 shell (3.40): its modes, dot-commands, options and messages. " +
		"These are the deliberate differences; `.help differences` lists them too.\n\n")
	for _, d := range differences {
		fmt.Fprintf(&b, "- **%s.** %s\n", d.topic, d.text)
	}
	b.WriteString("\n")
	return b.String()
}

// differencesHelp is .help differences: the list, wrapped for a terminal.
func differencesHelp() string {
	var b strings.Builder
	b.WriteString("Differences from the sqlite3 shell (3.40)\n")
	for _, d := range differences {
		text := strings.ReplaceAll(d.topic+": "+d.text, "`", "")
		b.WriteString(wrap(text, 76, "  - ", "    "))
	}
	return b.String()
}

// wrap breaks text into lines of at most width columns, the first
// starting with first, the others with rest.
func wrap(text string, width int, first, rest string) string {
	var b strings.Builder
	line := first
	for _, w := range strings.Fields(text) {
		if len(line)+len(w)+1 > width && strings.TrimSpace(line) != strings.TrimSpace(first) {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = rest
		}
		line += w + " "
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}
