package main

import (
	"bufio"
	"encoding/csv"
	"strings"

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
		return &csvPrinter{w: csv.NewWriter(w), o: o}
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
		s, _ := p.o.fmt.human(v, p.cols[i].decl)
		p.w.WriteString(s)
	}
	p.w.WriteByte('\n')
}

func (p *listPrinter) end() {}

type csvPrinter struct {
	w    *csv.Writer
	o    *outputOptions
	cols []column
	rec  []string
}

func (p *csvPrinter) header(cols []column) {
	p.cols = cols
	p.rec = make([]string, len(cols))
	if p.o.headers {
		for i, c := range cols {
			p.rec[i] = c.name
		}
		p.w.Write(p.rec)
	}
}

func (p *csvPrinter) row(vals []any) {
	for i, v := range vals {
		p.rec[i] = p.o.fmt.exact(v, p.cols[i].decl)
	}
	p.w.Write(p.rec)
}

func (p *csvPrinter) end() { p.w.Flush() }

type jsonPrinter struct {
	w    *bufio.Writer
	o    *outputOptions
	cols []column
	keys []string
	n    int
}

func (p *jsonPrinter) header(cols []column) {
	p.cols = cols
	p.keys = make([]string, len(cols))
	for i, c := range cols {
		p.keys[i] = jsonString(c.name)
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
		p.w.WriteString(p.keys[i])
		p.w.WriteByte(':')
		p.w.WriteString(p.o.fmt.jsonValue(v, p.cols[i].decl))
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
		p.w.WriteString(strings.Repeat(" ", p.width-runewidth.StringWidth(name)))
		p.w.WriteString(name)
		p.w.WriteString(" = ")
		s, _ := p.o.fmt.human(v, p.cols[i].decl)
		p.w.WriteString(strings.ToValidUTF8(s, "\uFFFD"))
		p.w.WriteByte('\n')
	}
}

func (p *linePrinter) end() {}

// gridGlyphs are the joints (left, middle, right) of the top border, the
// rule under the header and the bottom border, and the line characters.
type gridGlyphs struct {
	top, mid, bot [3]string
	h, v          string
}

var (
	boxGlyphs   = gridGlyphs{[3]string{"┌", "┬", "┐"}, [3]string{"├", "┼", "┤"}, [3]string{"└", "┴", "┘"}, "─", "│"}
	asciiGlyphs = gridGlyphs{[3]string{"+", "+", "+"}, [3]string{"+", "+", "+"}, [3]string{"+", "+", "+"}, "-", "|"}
)

// gridPrinter draws box and table modes. It must see every row before it
// knows the column widths, so it keeps the (already truncated) cells.
type gridPrinter struct {
	w      *bufio.Writer
	o      *outputOptions
	box    bool
	cols   []column
	names  []string
	widths []int
	cells  [][]gridCell
}

type gridCell struct {
	text  string
	width int
	right bool
}

func (p *gridPrinter) header(cols []column) {
	p.cols = cols
	p.widths = make([]int, len(cols))
	p.names = make([]string, len(cols))
	for i, c := range cols {
		p.names[i] = p.cellText(c.name)
		p.widths[i] = runewidth.StringWidth(p.names[i])
	}
}

// cellText makes s fit on one line of a grid: control characters become
// visible escapes and long text is cut to maxWidth with "…".
func (p *gridPrinter) cellText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.ContainsAny(s, "\n\r\t\x00\x1b") {
		s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`, "\x00", `\0`, "\x1b", `\e`).Replace(s)
	}
	if p.o.maxWidth > 0 && runewidth.StringWidth(s) > p.o.maxWidth {
		s = runewidth.Truncate(s, p.o.maxWidth, "…")
	}
	return s
}

func (p *gridPrinter) row(vals []any) {
	r := make([]gridCell, len(vals))
	for i, v := range vals {
		s, num := p.o.fmt.human(v, p.cols[i].decl)
		s = p.cellText(s)
		r[i] = gridCell{text: s, width: runewidth.StringWidth(s), right: num}
		p.widths[i] = max(p.widths[i], r[i].width)
	}
	p.cells = append(p.cells, r)
}

func (p *gridPrinter) end() {
	if len(p.cells) == 0 {
		return
	}
	g := &boxGlyphs
	if !p.box {
		g = &asciiGlyphs
	}
	top, mid, bot, h, v := g.top, g.mid, g.bot, g.h, g.v
	p.rule(top, h)
	p.w.WriteString(v)
	for i, name := range p.names {
		pad := p.widths[i] - runewidth.StringWidth(name)
		p.w.WriteString(" " + strings.Repeat(" ", pad/2) + name + strings.Repeat(" ", pad-pad/2) + " " + v)
	}
	p.w.WriteByte('\n')
	p.rule(mid, h)
	for _, r := range p.cells {
		p.w.WriteString(v)
		for i, c := range r {
			pad := strings.Repeat(" ", p.widths[i]-c.width)
			if c.right {
				p.w.WriteString(" " + pad + c.text + " " + v)
			} else {
				p.w.WriteString(" " + c.text + pad + " " + v)
			}
		}
		p.w.WriteByte('\n')
	}
	p.rule(bot, h)
}

func (p *gridPrinter) rule(j [3]string, h string) {
	p.w.WriteString(j[0])
	for i, w := range p.widths {
		if i > 0 {
			p.w.WriteString(j[1])
		}
		p.w.WriteString(strings.Repeat(h, w+2))
	}
	p.w.WriteString(j[2])
	p.w.WriteByte('\n')
}
