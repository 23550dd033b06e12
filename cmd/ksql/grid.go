package main

import (
	"bufio"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// gridStyle is how one columnar mode draws: the joints (left, middle,
// right) of the top border, the rule under the header and the bottom
// border ("" for none), the horizontal and vertical line characters, and
// whether names always show (box, table, markdown) or only under .headers
// on (column).
type gridStyle struct {
	top, mid, bot [3]string
	h, v          string
	alwaysHeader  bool
	markdown      bool
}

var gridStyles = map[string]*gridStyle{
	"box": {top: [3]string{"┌", "┬", "┐"}, mid: [3]string{"├", "┼", "┤"}, bot: [3]string{"└", "┴", "┘"},
		h: "─", v: "│", alwaysHeader: true},
	"table": {top: [3]string{"+", "+", "+"}, mid: [3]string{"+", "+", "+"}, bot: [3]string{"+", "+", "+"},
		h: "-", v: "|", alwaysHeader: true},
	"markdown": {mid: [3]string{"|", "|", "|"}, h: "-", v: "|", alwaysHeader: true, markdown: true},
	"column":   {h: "-"},
}

// gridPrinter draws the columnar modes. It must see every row before it
// knows the column widths, so it keeps the cells, already made fit for one
// line, in one growing arena (no allocation per cell).
type gridPrinter struct {
	w      *bufio.Writer
	o      *outputOptions
	style  *gridStyle
	cols   []column
	names  [][]byte
	nameW  []int
	widths []int
	fixed  []int  // .width of each column, 0 when automatic
	right  []bool // column is right-aligned
	seen   []int  // per column: 1 number seen, 2 something else seen
	arena  []byte
	cells  []gridCell // row-major
	tmp    []byte
}

type gridCell struct {
	start, end, width int
}

func (p *gridPrinter) header(cols []column) {
	n := len(cols)
	p.cols = cols
	p.widths, p.nameW, p.fixed = make([]int, n), make([]int, n), make([]int, n)
	p.names, p.right, p.seen = make([][]byte, n), make([]bool, n), make([]int, n)
	for i, c := range cols {
		if i < len(p.o.widths) {
			p.fixed[i] = p.o.widths[i]
		}
		p.names[i], p.nameW[i] = p.fit(append([]byte(nil), c.name...), 0, p.limit(i))
		p.widths[i] = p.nameW[i]
		if !p.showHeader() {
			p.widths[i] = 0
		}
	}
}

func (p *gridPrinter) showHeader() bool { return p.style.alwaysHeader || p.o.headers }

// limit is the widest a cell of column i may be: its .width, else .maxwidth.
func (p *gridPrinter) limit(i int) int {
	if f := p.fixed[i]; f != 0 {
		return max(f, -f)
	}
	return p.o.maxWidth
}

func (p *gridPrinter) row(vals []any) {
	for i, v := range vals {
		start := len(p.arena)
		var num bool
		var w int
		p.arena, num = p.o.fmt.appendText(p.arena, v, &p.cols[i])
		p.arena, w = p.fit(p.arena, start, p.limit(i))
		p.cells = append(p.cells, gridCell{start: start, end: len(p.arena), width: w})
		p.widths[i] = max(p.widths[i], w)
		switch {
		case v == nil:
		case num:
			p.seen[i] |= 1
		default:
			p.seen[i] |= 2
		}
	}
}

// fit makes buf[start:] fit on one line of a grid: control characters
// become visible escapes, bytes that are not UTF-8 become U+FFFD, and text
// wider than limit (0: no limit) is cut with "…". It returns the display
// width.
func (p *gridPrinter) fit(buf []byte, start, limit int) ([]byte, int) {
	plain := true
	for _, c := range buf[start:] {
		if c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		if n := len(buf) - start; limit > 0 && n > limit {
			if limit == 1 {
				return append(buf[:start], "…"...), 1
			}
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
	for i := range p.cols {
		p.right[i] = p.fixed[i] < 0 || p.fixed[i] == 0 && p.seen[i] == 1
		if p.fixed[i] != 0 {
			p.widths[i] = max(p.fixed[i], -p.fixed[i])
		}
	}
	st := p.style
	if st.top[0] != "" {
		p.rule(st.top)
	}
	if p.showHeader() {
		p.line(func(i int) {
			pad := p.widths[i] - p.nameW[i]
			switch {
			case st.v == "" && p.right[i]:
				writeSpaces(p.w, pad)
				p.w.Write(p.names[i])
			case st.v == "":
				p.w.Write(p.names[i])
				writeSpaces(p.w, pad)
			default:
				writeSpaces(p.w, pad/2)
				p.w.Write(p.names[i])
				writeSpaces(p.w, pad-pad/2)
			}
		})
		p.rule(st.mid)
	}
	n := len(p.cols)
	for r := 0; r < len(p.cells); r += n {
		row := p.cells[r : r+n]
		p.line(func(i int) {
			c := row[i]
			if p.right[i] {
				writeSpaces(p.w, p.widths[i]-c.width)
			}
			p.w.Write(p.arena[c.start:c.end])
			if !p.right[i] {
				writeSpaces(p.w, p.widths[i]-c.width)
			}
		})
	}
	if st.bot[0] != "" {
		p.rule(st.bot)
	}
}

// line writes one line of the grid; cell writes the padded content of
// column i. Column mode separates cells with two spaces, the others with
// " │ ".
func (p *gridPrinter) line(cell func(i int)) {
	v := p.style.v
	if v != "" {
		p.w.WriteString(v)
		p.w.WriteByte(' ')
	}
	for i := range p.cols {
		if i > 0 {
			if v != "" {
				p.w.WriteByte(' ')
				p.w.WriteString(v)
				p.w.WriteByte(' ')
			} else {
				p.w.WriteString("  ")
			}
		}
		cell(i)
	}
	if v != "" {
		p.w.WriteByte(' ')
		p.w.WriteString(v)
	}
	p.w.WriteByte('\n')
}

// rule draws a horizontal line with the joints j; in column mode it is
// the dashes under the names, in markdown the |---|---:| line.
func (p *gridPrinter) rule(j [3]string) {
	h := p.style.h
	if p.style.v == "" {
		for i, w := range p.widths {
			if i > 0 {
				p.w.WriteString("  ")
			}
			for k := 0; k < w; k++ {
				p.w.WriteString(h)
			}
		}
		p.w.WriteByte('\n')
		return
	}
	p.w.WriteString(j[0])
	for i, w := range p.widths {
		if i > 0 {
			p.w.WriteString(j[1])
		}
		n := w + 2
		if p.style.markdown && p.right[i] {
			n--
		}
		for k := 0; k < n; k++ {
			p.w.WriteString(h)
		}
		if p.style.markdown && p.right[i] {
			p.w.WriteByte(':')
		}
	}
	p.w.WriteString(j[2])
	p.w.WriteByte('\n')
}
