package main

import (
	"bufio"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

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
// knows the column widths, so it keeps the cells, already made fit for one
// line, in one growing arena (no allocation per cell).
type gridPrinter struct {
	w      *bufio.Writer
	o      *outputOptions
	box    bool
	cols   []column
	names  [][]byte
	widths []int
	arena  []byte
	cells  []gridCell // row-major
	tmp    []byte
}

type gridCell struct {
	start, end, width int
	right             bool
}

func (p *gridPrinter) header(cols []column) {
	p.cols = cols
	p.widths = make([]int, len(cols))
	p.names = make([][]byte, len(cols))
	for i, c := range cols {
		var w int
		p.names[i], w = p.fit(append([]byte(nil), c.name...), 0)
		p.widths[i] = w
	}
}

func (p *gridPrinter) row(vals []any) {
	for i, v := range vals {
		start := len(p.arena)
		var num bool
		var w int
		p.arena, num = p.o.fmt.appendHuman(p.arena, v, p.cols[i].decl)
		p.arena, w = p.fit(p.arena, start)
		p.cells = append(p.cells, gridCell{start: start, end: len(p.arena), width: w, right: num})
		p.widths[i] = max(p.widths[i], w)
	}
}

// fit makes buf[start:] fit on one line of a grid: control characters
// become visible escapes, bytes that are not UTF-8 become U+FFFD, and text
// wider than maxWidth is cut with "…". It returns the display width.
func (p *gridPrinter) fit(buf []byte, start int) ([]byte, int) {
	limit := p.o.maxWidth
	plain := true
	for _, c := range buf[start:] {
		if c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		if n := len(buf) - start; limit > 0 && n > limit {
			return append(buf[:start+limit-1], "…"...), limit
		}
		return buf, len(buf) - start
	}
	p.tmp = append(p.tmp[:0], buf[start:]...)
	total := 0
	for i := 0; i < len(p.tmp); {
		r, n := utf8.DecodeRune(p.tmp[i:])
		i += n
		total += escapedWidth(r)
	}
	cut := -1
	if limit > 0 && total > limit {
		cut = limit - 1 // room for the "…"
	}
	buf = buf[:start]
	w := 0
	for i := 0; i < len(p.tmp); {
		r, n := utf8.DecodeRune(p.tmp[i:])
		i += n
		rw := escapedWidth(r)
		if cut >= 0 && w+rw > cut {
			return append(buf, "…"...), w + 1
		}
		buf = appendEscaped(buf, r)
		w += rw
	}
	return buf, w
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func escapedWidth(r rune) int {
	switch {
	case r == '\n' || r == '\r' || r == '\t' || r == 0 || r == 0x1b:
		return 2
	case isControl(r):
		return 4
	}
	return runewidth.RuneWidth(r)
}

// appendEscaped writes r, or for a control character the escape that
// shows it: \n \r \t \0 \e, or \xHH.
func appendEscaped(buf []byte, r rune) []byte {
	switch r {
	case '\n':
		return append(buf, `\n`...)
	case '\r':
		return append(buf, `\r`...)
	case '\t':
		return append(buf, `\t`...)
	case 0:
		return append(buf, `\0`...)
	case 0x1b:
		return append(buf, `\e`...)
	}
	if isControl(r) {
		return append(buf, '\\', 'x', hexDigits[r>>4], hexDigits[r&15])
	}
	return utf8.AppendRune(buf, r)
}

func (p *gridPrinter) end() {
	if len(p.cells) == 0 {
		return
	}
	g := &boxGlyphs
	if !p.box {
		g = &asciiGlyphs
	}
	p.rule(g.top, g.h)
	p.w.WriteString(g.v)
	for i, name := range p.names {
		pad := p.widths[i] - runewidth.StringWidth(string(name))
		p.w.WriteByte(' ')
		writeSpaces(p.w, pad/2)
		p.w.Write(name)
		writeSpaces(p.w, pad-pad/2)
		p.w.WriteByte(' ')
		p.w.WriteString(g.v)
	}
	p.w.WriteByte('\n')
	p.rule(g.mid, g.h)
	n := len(p.cols)
	for r := 0; r < len(p.cells); r += n {
		p.w.WriteString(g.v)
		for i, c := range p.cells[r : r+n] {
			p.w.WriteByte(' ')
			if c.right {
				writeSpaces(p.w, p.widths[i]-c.width)
			}
			p.w.Write(p.arena[c.start:c.end])
			if !c.right {
				writeSpaces(p.w, p.widths[i]-c.width)
			}
			p.w.WriteByte(' ')
			p.w.WriteString(g.v)
		}
		p.w.WriteByte('\n')
	}
	p.rule(g.bot, g.h)
}

func (p *gridPrinter) rule(j [3]string, h string) {
	p.w.WriteString(j[0])
	for i, w := range p.widths {
		if i > 0 {
			p.w.WriteString(j[1])
		}
		for k := 0; k < w+2; k++ {
			p.w.WriteString(h)
		}
	}
	p.w.WriteString(j[2])
	p.w.WriteByte('\n')
}
