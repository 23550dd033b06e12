package main

import (
	"bufio"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Output modes (.mode).
var modeNames = []string{"box", "csv", "json", "line", "list", "table"}

// column is one result column: its name and declared type ("" for
// expressions), which the vector rule consults.
type column struct {
	name string
	decl string
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
	mode      string
	headers   bool
	separator string
	maxWidth  int // box/table cells are cut to this many columns; 0: no limit
	fmt       valueFormat
}

func newPrinter(w *bufio.Writer, o *outputOptions) printer {
	switch o.mode {
	case "csv":
		return &csvPrinter{w: w, o: o}
	case "json":
		return &jsonPrinter{w: w, o: o}
	case "line":
		return &linePrinter{w: w, o: o}
	case "box", "table":
		return &gridPrinter{w: w, o: o, box: o.mode == "box"}
	}
	return &listPrinter{w: w, o: o}
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
			p.w.WriteString(p.o.separator)
		}
		p.w.WriteString(c.name)
	}
	p.w.WriteByte('\n')
}

func (p *listPrinter) row(vals []any) {
	for i, v := range vals {
		if i > 0 {
			p.w.WriteString(p.o.separator)
		}
		p.cell, _ = p.o.fmt.appendHuman(p.cell[:0], v, p.cols[i].decl)
		p.w.Write(p.cell)
	}
	p.w.WriteByte('\n')
}

func (p *listPrinter) end() {}

// csvPrinter writes RFC 4180 CSV, quoting as encoding/csv does: a field
// with a comma, a quote or a line break, or that starts with a space.
type csvPrinter struct {
	w    *bufio.Writer
	o    *outputOptions
	cols []column
	cell []byte
}

func (p *csvPrinter) header(cols []column) {
	p.cols = cols
	if !p.o.headers {
		return
	}
	for i, c := range cols {
		if i > 0 {
			p.w.WriteByte(',')
		}
		p.cell = append(p.cell[:0], c.name...)
		p.field()
	}
	p.w.WriteByte('\n')
}

func (p *csvPrinter) row(vals []any) {
	for i, v := range vals {
		if i > 0 {
			p.w.WriteByte(',')
		}
		p.cell = p.o.fmt.appendExact(p.cell[:0], v, p.cols[i].decl)
		p.field()
	}
	p.w.WriteByte('\n')
}

// field writes p.cell, quoted when it needs to be.
func (p *csvPrinter) field() {
	quote := false
	for _, c := range p.cell {
		if c == ',' || c == '"' || c == '\r' || c == '\n' {
			quote = true
			break
		}
	}
	if len(p.cell) > 0 {
		r, _ := utf8.DecodeRune(p.cell)
		quote = quote || unicode.IsSpace(r)
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
		p.cell = p.o.fmt.appendJSON(p.cell[:0], v, p.cols[i].decl)
		p.w.Write(p.cell)
	}
	p.w.WriteByte('}')
}

func (p *jsonPrinter) end() {
	if p.n > 0 {
		p.w.WriteString("]\n")
	}
}

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
		p.w.WriteByte('\n')
	}
	p.n++
	for i, v := range vals {
		name := p.cols[i].name
		writeSpaces(p.w, p.width-runewidth.StringWidth(name))
		p.w.WriteString(name)
		p.w.WriteString(" = ")
		p.cell, _ = p.o.fmt.appendHuman(p.cell[:0], v, p.cols[i].decl)
		if !utf8.Valid(p.cell) {
			p.cell = []byte(string([]rune(string(p.cell)))) // invalid bytes become U+FFFD
		}
		p.w.Write(p.cell)
		p.w.WriteByte('\n')
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
