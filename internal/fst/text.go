package fst

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AT&T / OpenFst text, as fstprint writes it and fstcompile reads it: one
// arc per line, "src dst in out [weight]", or one final state,
// "state [weight]", fields separated by tabs or spaces; the first line's
// source is the start state (here it must be 0: the start state of this
// package). An omitted weight is 1.
//
// Weights are real (probability) semiring values, read as they stand: a
// file of the tropical or log semiring holds −log weights, which the
// caller converts with exp(−w) first.
//
// Labels are read in one of two modes:
//
//   - SymbolLabels (fstprint --isymbols/--osymbols): a label is the symbol
//     itself, as text; "<eps>" is ε; "<U+hhhh>" is the code point U+hhhh
//     (how WriteRows writes spaces, tabs, line breaks and other
//     whitespace or control characters, which cannot stand in a field);
//     "<0xhh>" is the single byte hh that is not valid UTF-8 (a symbol of
//     its own under unit=char). Any other field is literal, so "0" is the
//     digit zero.
//   - CodePointLabels (fstprint without symbol tables, for a machine whose
//     labels are Unicode code points): a label is a decimal integer, 0 is
//     ε, any other must be a code point.
//
// ReadFST reads integer labels as they are, for machines without symbols.

// LabelMode says how ReadText reads labels.
type LabelMode int

const (
	// SymbolLabels reads labels as symbol text (<eps> is ε).
	SymbolLabels LabelMode = iota
	// CodePointLabels reads labels as decimal code points (0 is ε).
	CodePointLabels
)

// TextRow is one line of AT&T text: an arc, or a final state (Final, with
// Src the state and Weight its final weight).
type TextRow struct {
	Line    int
	Src     int64
	Dst     int64
	Final   bool
	In, Out string // "" is ε
	Weight  float64
}

// ReadText parses AT&T / OpenFst text. Blank lines are skipped; any other
// malformed line is a *TextError naming the line and field.
func ReadText(r io.Reader, mode LabelMode) ([]TextRow, error) {
	var rows []TextRow
	err := scanLines(r, func(line int, f []string) error {
		row, err := parseRow(line, f, func(k int) (string, error) { return parseSymbol(line, k, f[k-1], mode) })
		rows = append(rows, row)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// ReadFST parses AT&T text with integer labels into an FST (Builder's
// rules and errors; text errors name the line).
func ReadFST(r io.Reader) (*FST, error) {
	var b Builder
	err := scanLines(r, func(line int, f []string) error {
		var labels [2]Label
		row, err := parseRow(line, f, func(k int) (string, error) {
			l, err := strconv.ParseInt(f[k-1], 10, 32)
			if err != nil || l < 0 {
				return "", &TextError{Line: line, Field: k, Text: f[k-1], Reason: "a label must be an integer ≥ 0 (0 is ε)"}
			}
			labels[k-3] = Label(l)
			return "", nil
		})
		if err != nil {
			return err
		}
		if row.Final {
			return b.AddFinal(row.Src, row.Weight)
		}
		return b.AddArc(row.Src, row.Dst, labels[0], labels[1], row.Weight)
	})
	if err != nil {
		return nil, err
	}
	return b.Build()
}

// scanLines calls fn with the fields of every non-blank line.
func scanLines(r io.Reader, fn func(line int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<24)
	for line := 1; sc.Scan(); line++ {
		f := strings.FieldsFunc(sc.Text(), func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' })
		if len(f) == 0 {
			continue
		}
		if err := fn(line, f); err != nil {
			return err
		}
	}
	return sc.Err()
}

// parseRow parses the states and weight of a line; label(k) parses field k.
func parseRow(line int, f []string, label func(k int) (string, error)) (TextRow, error) {
	row := TextRow{Line: line, Weight: 1}
	var err error
	state := func(k int) int64 {
		v, e := strconv.ParseInt(f[k-1], 10, 64)
		if e != nil || v < 0 {
			if err == nil {
				err = &TextError{Line: line, Field: k, Text: f[k-1], Reason: "a state must be an integer ≥ 0"}
			}
		}
		return v
	}
	weight := func(k int) float64 {
		v, e := strconv.ParseFloat(f[k-1], 64)
		if e != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			if err == nil {
				err = &TextError{Line: line, Field: k, Text: f[k-1], Reason: "a weight must be a finite number"}
			}
		}
		return v
	}
	switch len(f) {
	case 1, 2:
		row.Final, row.Src = true, state(1)
		if len(f) == 2 {
			row.Weight = weight(2)
		}
	case 4, 5:
		row.Src, row.Dst = state(1), state(2)
		if err == nil {
			row.In, err = label(3)
		}
		if err == nil {
			row.Out, err = label(4)
		}
		if len(f) == 5 {
			row.Weight = weight(5)
		}
	default:
		return row, &TextError{Line: line, Text: strings.Join(f, " "),
			Reason: fmt.Sprintf("%d fields; a line is \"src dst in out [weight]\" or \"state [weight]\"", len(f))}
	}
	return row, err
}

func parseSymbol(line, k int, s string, mode LabelMode) (string, error) {
	if mode == CodePointLabels {
		v, err := strconv.ParseInt(s, 10, 32)
		switch {
		case err != nil || v < 0:
			return "", &TextError{Line: line, Field: k, Text: s, Reason: "a label must be an integer ≥ 0 (0 is ε)"}
		case v == 0:
			return "", nil
		case !utf8.ValidRune(rune(v)):
			return "", &TextError{Line: line, Field: k, Text: s, Reason: "a label must be a Unicode code point"}
		}
		return string(rune(v)), nil
	}
	if s == "<eps>" {
		return "", nil
	}
	if hex, ok := strings.CutPrefix(s, "<U+"); ok && strings.HasSuffix(hex, ">") {
		v, err := strconv.ParseUint(hex[:len(hex)-1], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) || len(hex) < 5 {
			return "", &TextError{Line: line, Field: k, Text: s, Reason: "<U+hhhh> must name a Unicode code point in hexadecimal"}
		}
		return string(rune(v)), nil
	}
	if hex, ok := strings.CutPrefix(s, "<0x"); ok && strings.HasSuffix(hex, ">") {
		v, err := strconv.ParseUint(hex[:len(hex)-1], 16, 8)
		if err != nil || v < utf8.RuneSelf {
			return "", &TextError{Line: line, Field: k, Text: s, Reason: "<0xhh> must be a byte from 80 to ff in hexadecimal"}
		}
		return string([]byte{byte(v)}), nil
	}
	return s, nil
}

// quoteSymbol writes a symbol as ReadText's SymbolLabels mode reads it back:
// escapes stand for a whole field, one code point or byte. It returns
// false for text no field can hold: several code points with whitespace
// among them, or text that reads as an escape (neither is one symbol of
// a unit).
func quoteSymbol(s string) (string, bool) {
	if s == "" {
		return "<eps>", true
	}
	r, w := utf8.DecodeRuneInString(s)
	if w == len(s) {
		switch {
		case r == utf8.RuneError && w == 1:
			return fmt.Sprintf("<0x%02x>", s[0]), true
		case unicode.IsSpace(r) || unicode.IsControl(r):
			return fmt.Sprintf("<U+%04X>", r), true
		}
		return s, true
	}
	if strings.IndexFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }) >= 0 ||
		s == "<eps>" || strings.HasSuffix(s, ">") && (strings.HasPrefix(s, "<U+") || strings.HasPrefix(s, "<0x")) {
		return "", false
	}
	return s, true
}

// WriteRows writes rows as AT&T text with symbol labels (ReadText's
// SymbolLabels mode reads them back); a weight of 1 is omitted, as fstprint
// does. A symbol no field can hold is a *TextError with the row's Line.
func WriteRows(w io.Writer, rows []TextRow) error {
	bw := bufio.NewWriter(w)
	for _, r := range rows {
		if r.Final {
			writeFinal(bw, r.Src, r.Weight)
			continue
		}
		in, ok1 := quoteSymbol(r.In)
		out, ok2 := quoteSymbol(r.Out)
		if !ok1 || !ok2 {
			bad := r.In
			if ok1 {
				bad = r.Out
			}
			return &TextError{Line: r.Line, Text: bad, Reason: "a symbol written as text cannot hold whitespace or read as <eps>, <U+hhhh> or <0xhh>"}
		}
		fmt.Fprintf(bw, "%d\t%d\t%s\t%s", r.Src, r.Dst, in, out)
		writeWeight(bw, r.Weight)
	}
	return bw.Flush()
}

// WriteText writes f as AT&T text: the arcs of each state, then its final
// weight, states in order from the start (0); states by the caller's ids
// (FST.Name). Labels are integers when syms is nil, else their symbols.
func (f *FST) WriteText(w io.Writer, syms *Symbols) error {
	bw := bufio.NewWriter(w)
	label := func(l Label) string {
		if syms == nil {
			return strconv.Itoa(int(l))
		}
		q, _ := quoteSymbol(syms.Name(l)) // a table's symbols are one char or word
		return q
	}
	for q := range f.NumStates() {
		for _, a := range f.Arcs(q) {
			fmt.Fprintf(bw, "%d\t%d\t%s\t%s", f.Name(q), f.Name(int(a.Dst)), label(a.In), label(a.Out))
			writeWeight(bw, a.Weight().Float64())
		}
		if w := f.Final(q); w != 0 {
			writeFinal(bw, f.Name(q), w)
		}
	}
	return bw.Flush()
}

func writeFinal(w *bufio.Writer, q int64, wt float64) {
	fmt.Fprintf(w, "%d", q)
	writeWeight(w, wt)
}

func writeWeight(w *bufio.Writer, wt float64) {
	if wt != 1 {
		w.WriteByte('\t')
		w.WriteString(strconv.FormatFloat(wt, 'g', -1, 64))
	}
	w.WriteByte('\n')
}
