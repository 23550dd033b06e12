package fst

import (
	"unicode"
	"unicode/utf8"

	"github.com/ksql/ksql/internal/strkernel"
)

// A string becomes symbols exactly as internal/strkernel.Decode makes them
// (its tokenizer is not exported, so the rules are written again here and
// symbols_test.go checks on random text that both agree):
//
//   - unit=char: every code point is a symbol; a byte that is not part of
//     valid UTF-8 is a symbol of its own (distinct from U+FFFD and from
//     other bytes);
//   - unit=word: a word is a maximal run of letters (L), marks (M), numbers
//     (N) and U+200C ZERO WIDTH NON-JOINER; everything else separates words
//     and is dropped.

// invalidBase is the symbol of byte 0 of invalid UTF-8, above every code
// point (strkernel's convention).
const invalidBase = utf8.MaxRune + 1

const zwnj = '\u200c'

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r == zwnj || unicode.In(r, unicode.L, unicode.M, unicode.N)
}

// nextChar returns the char symbol at s[i:] and its width in bytes.
func nextChar(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && w == 1 {
		r = invalidBase + rune(s[i])
	}
	return r, w
}

// nextWord returns the next word of s at or after byte i as [start, end),
// or start = len(s) when there is none.
func nextWord(s string, i int) (start, end int) {
	for start = i; start < len(s); {
		r, w := utf8.DecodeRuneInString(s[start:])
		if isWordRune(r) && !(r == utf8.RuneError && w == 1) {
			break
		}
		start += w
	}
	for end = start; end < len(s); {
		r, w := utf8.DecodeRuneInString(s[end:])
		if !isWordRune(r) || r == utf8.RuneError && w == 1 {
			break
		}
		end += w
	}
	return start, end
}

// countSymbols returns how many symbols of unit u s holds.
func countSymbols(s string, u strkernel.Unit) int {
	n := 0
	if u == strkernel.Word {
		for i := 0; ; n++ {
			start, end := nextWord(s, i)
			if start == len(s) {
				return n
			}
			i = end
		}
	}
	for i := 0; i < len(s); n++ {
		_, w := nextChar(s, i)
		i += w
	}
	return n
}

// Symbols maps the symbols of one unit to Labels 1, 2, … in the order they
// are interned. Reads (Lookup, Encode, Name) are safe for concurrent use
// once no more symbols are interned.
type Symbols struct {
	unit  strkernel.Unit
	ascii [utf8.RuneSelf]Label // unit=char: labels of ASCII symbols
	ids   map[string]Label
	names []string // names[l-1] is the symbol of label l
}

// NewSymbols returns an empty table for unit u.
func NewSymbols(u strkernel.Unit) *Symbols {
	return &Symbols{unit: u, ids: map[string]Label{}}
}

// Unit returns the table's unit.
func (t *Symbols) Unit() strkernel.Unit { return t.unit }

// Len returns the number of symbols.
func (t *Symbols) Len() int { return len(t.names) }

// Name returns the symbol of label l ("" for ε).
func (t *Symbols) Name(l Label) string {
	if l <= 0 || int(l) > len(t.names) {
		return ""
	}
	return t.names[l-1]
}

// Intern returns the label of sym, adding it when new. sym must be "" (ε)
// or exactly one symbol of the table's unit; otherwise Intern returns a
// *SymbolError with Row and Output left for the caller to fill.
func (t *Symbols) Intern(sym string) (Label, error) {
	if sym == "" {
		return Epsilon, nil
	}
	if l, ok := t.ids[sym]; ok {
		return l, nil
	}
	if n := countSymbols(sym, t.unit); n != 1 || t.unit == strkernel.Word && !isWholeWord(sym) {
		return 0, &SymbolError{Text: sym, Unit: t.unit, Symbols: n}
	}
	t.names = append(t.names, sym)
	l := Label(len(t.names))
	t.ids[sym] = l
	if t.unit != strkernel.Word && len(sym) == 1 && sym[0] < utf8.RuneSelf {
		t.ascii[sym[0]] = l
	}
	return l, nil
}

func isWholeWord(s string) bool {
	start, end := nextWord(s, 0)
	return start == 0 && end == len(s)
}

// Lookup returns the label of sym, or NoLabel when the table does not hold
// it (Epsilon for "").
func (t *Symbols) Lookup(sym string) Label {
	if sym == "" {
		return Epsilon
	}
	if l, ok := t.ids[sym]; ok {
		return l
	}
	return NoLabel
}

// Encode appends the labels of the symbols of text to dst[:0] and returns
// it; a symbol the table does not hold becomes NoLabel.
func (t *Symbols) Encode(dst []Label, text string) []Label {
	dst = dst[:0]
	if t.unit == strkernel.Word {
		for i := 0; ; {
			start, end := nextWord(text, i)
			if start == len(text) {
				return dst
			}
			dst = append(dst, t.Lookup(text[start:end]))
			i = end
		}
	}
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			l := t.ascii[c]
			if l == 0 {
				l = NoLabel
			}
			dst = append(dst, l)
			i++
			continue
		}
		_, w := nextChar(text, i)
		dst = append(dst, t.Lookup(text[i:i+w]))
		i += w
	}
	return dst
}

// EncodeSeq is Encode for a string already split into symbols by
// strkernel.Decode with the table's unit.
func (t *Symbols) EncodeSeq(dst []Label, q strkernel.Seq) []Label {
	dst = dst[:0]
	if t.unit == strkernel.Word {
		for _, w := range q.Words() {
			dst = append(dst, t.Lookup(w))
		}
		return dst
	}
	var buf [utf8.UTFMax]byte
	for _, r := range q.Chars() {
		var l Label
		switch {
		case r >= 0 && r < utf8.RuneSelf:
			if l = t.ascii[r]; l == 0 {
				l = NoLabel
			}
		case r >= invalidBase:
			buf[0] = byte(r - invalidBase)
			l = t.lookupBytes(buf[:1])
		default:
			l = t.lookupBytes(buf[:utf8.EncodeRune(buf[:], r)])
		}
		dst = append(dst, l)
	}
	return dst
}

// lookupBytes is Lookup of a symbol given as bytes, without allocating.
func (t *Symbols) lookupBytes(b []byte) Label {
	if l, ok := t.ids[string(b)]; ok {
		return l
	}
	return NoLabel
}
