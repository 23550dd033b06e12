package strkernel

import (
	"unicode"
	"unicode/utf8"
)

// invalidBase is the symbol of byte 0 of an invalid UTF-8 sequence: byte b
// becomes invalidBase+b, above every Unicode code point.
const invalidBase = utf8.MaxRune + 1

// zwnj is U+200C ZERO WIDTH NON-JOINER, which Persian writes inside words.
const zwnj = '\u200c'

// Seq is a string decoded into symbols, once, so that a kernel compares
// integers per table cell. The zero value is the empty sequence.
type Seq struct {
	unit  Unit
	syms  []int32  // Char: the symbols
	words []string // Word: the words, as substrings of the decoded string
}

// Decode splits s into symbols of unit u.
//
// Char: every Unicode code point is a symbol. A byte that is not part of a
// valid UTF-8 encoding is a symbol of its own, one per byte, distinct from
// every code point (U+FFFD included) and from other byte values, so that
// invalid text is neither merged with the replacement character nor with
// other invalid bytes.
//
// Word: a word is a maximal run of code points that are letters (Unicode
// category L), marks (M), numbers (N) or U+200C ZERO WIDTH NON-JOINER (used
// inside Persian words). Everything else (spaces, punctuation, symbols such
// as emoji, invalid UTF-8 bytes) separates words and is dropped. Two words
// are the same symbol when their code points are identical: case, Unicode
// normalisation and apostrophes are left to the caller (lower(), ...), so
// "don't" is the two words "don" and "t".
//
// Any other unit decodes as Char; Eval rejects the unit through
// Params.Validate.
func Decode(s string, u Unit) Seq {
	if u == Word {
		return Seq{unit: Word, words: splitWords(s)}
	}
	return Seq{unit: Char, syms: decodeChars(s)}
}

// DecodeTo is Decode storing the symbols of a Char sequence in buf when it is
// large enough, so that a caller decoding many strings reuses one buffer;
// the Seq is valid until buf is reused. Pass the Seq's storage back with
// Buffer.
func DecodeTo(buf []int32, s string, u Unit) Seq {
	if u == Word {
		return Decode(s, u)
	}
	n := utf8.RuneCountInString(s)
	if cap(buf) < n {
		buf = make([]int32, n)
	}
	return Seq{unit: Char, syms: decodeInto(buf[:n], s)}
}

// Buffer returns the storage of q's symbols for reuse with DecodeTo.
func (q Seq) Buffer() []int32 { return q.syms[:0] }

// Len returns the number of symbols.
func (q Seq) Len() int {
	if q.unit == Word {
		return len(q.words)
	}
	return len(q.syms)
}

// Unit returns the unit q was decoded with.
func (q Seq) Unit() Unit { return q.unit }

func decodeChars(s string) []int32 {
	return decodeInto(make([]int32, utf8.RuneCountInString(s)), s)
}

// decodeInto fills out, of length RuneCountInString(s), with the symbols of s.
func decodeInto(out []int32, s string) []int32 {
	k := 0
	for i := 0; i < len(s); k++ {
		if c := s[i]; c < utf8.RuneSelf {
			out[k] = int32(c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			r = invalidBase + rune(s[i])
		}
		out[k] = r
		i += w
	}
	return out
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r == zwnj || unicode.In(r, unicode.L, unicode.M, unicode.N)
}

func splitWords(s string) []string {
	var words []string
	start := -1
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		word := isWordRune(r) && !(r == utf8.RuneError && w == 1)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			words = append(words, s[start:i])
			start = -1
		}
		i += w
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// symbols returns a and b as integer symbols. Words get ids that are equal
// exactly when the words are, assigned afresh for each call.
func (ws *Workspace) symbols(a, b Seq) (s, t []int32) {
	if a.unit != Word && b.unit != Word {
		return a.syms, b.syms
	}
	if ws.wid == nil {
		ws.wid = map[string]int32{}
	}
	clear(ws.wid)
	ws.a = ws.intern(ws.a[:0], a.words)
	ws.b = ws.intern(ws.b[:0], b.words)
	return ws.a, ws.b
}

func (ws *Workspace) intern(dst []int32, words []string) []int32 {
	for _, w := range words {
		id, ok := ws.wid[w]
		if !ok {
			id = int32(len(ws.wid))
			ws.wid[w] = id
		}
		dst = append(dst, id)
	}
	return dst
}

// Chars returns the symbols of a Char sequence (nil for a Word sequence).
// The caller must not modify them.
func (q Seq) Chars() []int32 { return q.syms }

// Words returns the words of a Word sequence (nil for a Char sequence).
func (q Seq) Words() []string { return q.words }

// Ints returns a and b as integer symbols that are equal exactly when the
// symbols are: a Char sequence's own symbols, or for words ids assigned
// afresh for each call (so they depend on the order of a and b). The
// slices are valid until the next use of ws.
func (ws *Workspace) Ints(a, b Seq) (s, t []int32) { return ws.symbols(a, b) }
