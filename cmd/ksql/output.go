package main

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Output modes (.mode), in the order .help lists them.
var modeNames = []string{"ascii", "box", "column", "csv", "html", "insert", "json", "line",
	"list", "markdown", "quote", "table", "tabs"}

// column is one result column: its name, its declared type and whether
// its BLOBs are float32 vectors (decided before the rows come, see
// Shell.vectorColumns).
type column struct {
	name   string
	decl   string
	vector bool
}

// printer renders one result set. header is called once before any row;
// end once after the last. Write errors surface when the shell flushes.
type printer interface {
	header(cols []column)
	row(vals []any)
	end()
}

// outputOptions are the settings that shape how results print.
type outputOptions struct {
	mode string
	// headers shows column names in the modes that may omit them.
	headers bool
	// headersSet records that .headers, -header or -noheader chose, so that
	// .mode column no longer turns headers on (as in sqlite3).
	headersSet     bool
	colSep, rowSep string
	insertTable    string // table name of insert mode
	maxWidth       int    // columnar cells are cut to this many columns; 0: no limit
	widths         []int  // .width: fixed widths of the first columns; < 0 right-aligns
	fmt            valueFormat
}

// defaultOptions are the settings of a new shell, as in sqlite3.
func defaultOptions() outputOptions {
	return outputOptions{mode: "list", colSep: "|", rowSep: "\n", insertTable: "table", maxWidth: 60,
		fmt: valueFormat{vectors: vecAuto, vecWidth: 6}}
}

// setMode switches the mode the way sqlite3's .mode does, separators
// included: list resets them to | and newline, csv to comma and CRLF, tabs
// to a tab, ascii to the ASCII unit and record separators.
func (o *outputOptions) setMode(m string, args []string) error {
	if m != "insert" && len(args) > 0 {
		return fmt.Errorf(".mode %s takes no options (got %q); .maxwidth N cuts long values in columns", m, args[0])
	}
	switch m {
	case "list":
		o.colSep, o.rowSep = "|", "\n"
	case "csv":
		o.colSep, o.rowSep = ",", "\r\n"
	case "tabs":
		o.colSep, m = "\t", "list"
	case "ascii":
		o.colSep, o.rowSep = "\x1F", "\x1E"
	case "quote":
		o.colSep, o.rowSep = ",", "\n"
	case "insert":
		if len(args) > 1 {
			return fmt.Errorf(".mode insert takes one table name, got %d words", len(args))
		}
		o.insertTable = "table"
		if len(args) == 1 {
			o.insertTable = args[0]
		}
	case "column":
		if !o.headersSet {
			o.headers = true
		}
	}
	o.mode = m
	return nil
}

// modeDescription is what .mode with no argument prints: the mode's
// name (tabs is list with a tab separator, as in sqlite3).
func (o *outputOptions) modeDescription() string { return o.mode }

func newPrinter(w *bufio.Writer, o *outputOptions) printer {
	switch o.mode {
	case "csv":
		return &csvPrinter{w: w, o: o}
	case "json":
		return &jsonPrinter{w: w, o: o}
	case "line":
		return &linePrinter{w: w, o: o}
	case "html":
		return &htmlPrinter{w: w, o: o}
	case "quote", "insert":
		return &sqlPrinter{w: w, o: o, insert: o.mode == "insert"}
	case "box", "table", "markdown", "column":
		return &gridPrinter{w: w, o: o, style: gridStyles[o.mode]}
	}
	return &listPrinter{w: w, o: o} // list, tabs and ascii
}

type listPrinter struct {
	w    *bufio.Writer
	o    *outputOptions
	cols []column
	cell []byte
}

func (p *listPrinter) header(cols []column) {
	p.cols = cols
	if !p.o.headers {
		return
	}
	for i, c := range cols {
		if i > 0 {
			p.w.WriteString(p.o.colSep)
		}
		p.w.WriteString(c.name)
	}
	p.w.WriteString(p.o.rowSep)
}

func (p *listPrinter) row(vals []any) {
	for i, v := range vals {
		if i > 0 {
			p.w.WriteString(p.o.colSep)
		}
		p.cell, _ = p.o.fmt.appendText(p.cell[:0], v, &p.cols[i])
		p.w.Write(p.cell)
	}
	p.w.WriteString(p.o.rowSep)
}

func (p *listPrinter) end() {}

// csvPrinter writes CSV as the sqlite3 shell does: a field is quoted when
// it is empty, holds the separator, or holds a byte that is a control
// character, a space, a quote ("), an apostrophe, DEL or not ASCII. NULL
// is the null text, unquoted, so that it differs from an empty string.
type csvPrinter struct {
	w    *bufio.Writer
	o    *outputOptions
	cols []column
	cell []byte
	sep  []byte
}

func (p *csvPrinter) header(cols []column) {
	p.cols = cols
	if !p.o.headers {
		return
	}
	for i, c := range cols {
		if i > 0 {
			p.w.WriteString(p.o.colSep)
		}
		p.cell = append(p.cell[:0], c.name...)
		p.field()
	}
	p.w.WriteString(p.o.rowSep)
}

func (p *csvPrinter) row(vals []any) {
	for i, v := range vals {
		if i > 0 {
			p.w.WriteString(p.o.colSep)
		}
		p.cell = p.o.fmt.appendCSV(p.cell[:0], v, &p.cols[i])
		if v == nil {
			p.w.Write(p.cell)
			continue
		}
		p.field()
	}
	p.w.WriteString(p.o.rowSep)
}

// field writes p.cell, quoted when it needs to be.
func (p *csvPrinter) field() {
	if p.sep == nil {
		p.sep = []byte(p.o.colSep)
	}
	quote := len(p.cell) == 0 || (len(p.sep) > 0 && bytes.Contains(p.cell, p.sep))
	for _, c := range p.cell {
		if c <= ' ' || c == '"' || c == '\'' || c >= 0x7f {
			quote = true
			break
		}
	}
	if !quote {
		p.w.Write(p.cell)
		return
	}
	p.w.WriteByte('"')
	for _, c := range p.cell {
		if c == '"' {
			p.w.WriteByte('"')
		}
		p.w.WriteByte(c)
	}
	p.w.WriteByte('"')
}

func (p *csvPrinter) end() {}

// sqlPrinter writes quote mode (SQL literals separated by commas) and
// insert mode (one INSERT statement per row).
type sqlPrinter struct {
	w      *bufio.Writer
	o      *outputOptions
	insert bool
	prefix string
	cell   []byte
}

func (p *sqlPrinter) header(cols []column) {
	if p.insert {
		p.prefix = "INSERT INTO " + quoteName(p.o.insertTable)
		if p.o.headers {
			names := make([]string, len(cols))
			for i, c := range cols {
				names[i] = quoteName(c.name)
			}
			p.prefix += "(" + strings.Join(names, ",") + ")"
		}
		p.prefix += " VALUES("
		return
	}
	if !p.o.headers {
		return
	}
	for i, c := range cols {
		if i > 0 {
			p.w.WriteString(p.o.colSep)
		}
		p.w.Write(appendSQLString(p.cell[:0], c.name, false))
	}
	p.w.WriteString(p.o.rowSep)
}

func (p *sqlPrinter) row(vals []any) {
	sep := p.o.colSep
	if p.insert {
		p.w.WriteString(p.prefix)
		sep = ","
	}
	for i, v := range vals {
		if i > 0 {
			p.w.WriteString(sep)
		}
		p.cell = appendSQL(p.cell[:0], v, p.insert)
		p.w.Write(p.cell)
	}
	if p.insert {
		p.w.WriteString(");\n")
		return
	}
	p.w.WriteString(p.o.rowSep)
}

func (p *sqlPrinter) end() {}

type jsonPrinter struct {
	w    *bufio.Writer
	o    *outputOptions
	cols []column
	keys [][]byte
	cell []byte
	n    int
}

func (p *jsonPrinter) header(cols []column) {
	p.cols = cols
	p.keys = make([][]byte, len(cols))
	for i, c := range cols {
		p.keys[i] = append(appendJSONString(nil, c.name), ':')
	}
}

func (p *jsonPrinter) row(vals []any) {
	if p.n == 0 {
		p.w.WriteString("[{")
	} else {
		p.w.WriteString(",\n{")
	}
	p.n++
	for i, v := range vals {
		if i > 0 {
			p.w.WriteByte(',')
		}
		p.w.Write(p.keys[i])
		p.cell = p.o.fmt.appendJSON(p.cell[:0], v, &p.cols[i])
		p.w.Write(p.cell)
	}
	p.w.WriteByte('}')
}

func (p *jsonPrinter) end() {
	if p.n > 0 {
		p.w.WriteString("]\n")
	}
}

type htmlPrinter struct {
	w    *bufio.Writer
	o    *outputOptions
	cols []column
	cell []byte
	esc  []byte
}

func (p *htmlPrinter) header(cols []column) {
	p.cols = cols
	if !p.o.headers {
		return
	}
	p.w.WriteString("<TR>")
	for i, c := range cols {
		if i > 0 {
			p.w.WriteByte('\n')
		}
		p.w.WriteString("<TH>")
		p.w.Write(appendHTML(p.esc[:0], []byte(c.name)))
		p.w.WriteString("</TH>")
	}
	p.w.WriteString("\n</TR>\n")
}

func (p *htmlPrinter) row(vals []any) {
	p.w.WriteString("<TR>")
	for i, v := range vals {
		if i > 0 {
			p.w.WriteByte('\n')
		}
		p.cell, _ = p.o.fmt.appendText(p.cell[:0], v, &p.cols[i])
		p.esc = appendHTML(p.esc[:0], p.cell)
		p.w.WriteString("<TD>")
		p.w.Write(p.esc)
		p.w.WriteString("</TD>")
	}
	p.w.WriteString("\n</TR>\n")
}

func (p *htmlPrinter) end() {}

type linePrinter struct {
	w     *bufio.Writer
	o     *outputOptions
	cols  []column
	width int
	cell  []byte
	n     int
}

func (p *linePrinter) header(cols []column) {
	p.cols = cols
	for _, c := range cols {
		p.width = max(p.width, runewidth.StringWidth(c.name))
	}
}

func (p *linePrinter) row(vals []any) {
	if p.n > 0 {
		p.w.WriteString(p.o.rowSep)
	}
	p.n++
	for i, v := range vals {
		name := p.cols[i].name
		writeSpaces(p.w, p.width-runewidth.StringWidth(name))
		p.w.WriteString(name)
		p.w.WriteString(" = ")
		p.cell, _ = p.o.fmt.appendText(p.cell[:0], v, &p.cols[i])
		p.w.Write(p.cell)
		p.w.WriteString(p.o.rowSep)
	}
}

func (p *linePrinter) end() {}

const spaces = "                                                                "

func writeSpaces(w *bufio.Writer, n int) {
	for ; n > len(spaces); n -= len(spaces) {
		w.WriteString(spaces)
	}
	if n > 0 {
		w.WriteString(spaces[:n])
	}
}

// quoteName quotes an SQL identifier when it needs quotes: when it is not
// a plain name (letters, digits, _ and $, not starting with a digit) or is
// a keyword. This is how sqlite3's insert mode and .dump write names.
func quoteName(s string) string {
	plain := s != "" && !(s[0] >= '0' && s[0] <= '9')
	for _, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain && !slices.Contains(sqliteKeywords, strings.ToUpper(s)) {
		return s
	}
	return quoteIdent(s)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// validUTF8 returns b, or a copy in which bytes that are not UTF-8 are
// U+FFFD, for the places that must not pass invalid text to a terminal
// layout (the columnar modes).
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
}

var (
	_ printer = (*listPrinter)(nil)
	_ printer = (*csvPrinter)(nil)
	_ printer = (*sqlPrinter)(nil)
	_ printer = (*jsonPrinter)(nil)
	_ printer = (*htmlPrinter)(nil)
	_ printer = (*linePrinter)(nil)
	_ printer = (*gridPrinter)(nil)
)
