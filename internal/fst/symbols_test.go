package fst

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

// randomText draws from pieces that exercise the word rule: ASCII letters
// and digits, spaces and punctuation, Cyrillic, Persian with U+200C,
// combining marks, CJK, emoji, U+FFFD and bytes that are not UTF-8.
func randomText(r *rand.Rand, n int) string {
	pieces := []string{"a", "b", "Z", "7", " ", ",", "'", "-", "ж", "Ё", "ک", "\u200c", "ی",
		"e\u0301", "\u0301", "中", "文", "😀", "\ufffd", "\xff", "\xc3", "\t", "٣", "²"}
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// symbolsOf splits s with this package's rules, each symbol as text.
func symbolsOf(s string, u strkernel.Unit) []string {
	var out []string
	if u == strkernel.Word {
		for i := 0; ; {
			start, end := nextWord(s, i)
			if start == len(s) {
				return out
			}
			out, i = append(out, s[start:end]), end
		}
	}
	for i := 0; i < len(s); {
		_, w := nextChar(s, i)
		out, i = append(out, s[i:i+w]), i+w
	}
	return out
}

// spectrum is Σ_u count_u(s)·count_u(t) over n-grams of symbols.
func spectrum(s, t []string, n int) float64 {
	c := map[string]float64{}
	for i := 0; i+n <= len(s); i++ {
		c[strings.Join(s[i:i+n], "\x00")]++
	}
	var sum float64
	for i := 0; i+n <= len(t); i++ {
		sum += c[strings.Join(t[i:i+n], "\x00")]
	}
	return sum
}

// TestTokenizerAgrees: strkernel's tokenizer is not exported, so this
// package writes the rules again; on random text both give the same
// number of symbols and the same 1- and 2-gram spectra (so the same
// symbols in the same order, up to renaming).
func TestTokenizerAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 2000; it++ {
		s, u := randomText(r, r.IntN(20)), randomText(r, r.IntN(20))
		for _, unit := range []strkernel.Unit{strkernel.Char, strkernel.Word} {
			ss, su := symbolsOf(s, unit), symbolsOf(u, unit)
			ds, du := strkernel.Decode(s, unit), strkernel.Decode(u, unit)
			if len(ss) != ds.Len() || countSymbols(s, unit) != ds.Len() {
				t.Fatalf("%v %q: %d symbols here, %d in strkernel", unit, s, len(ss), ds.Len())
			}
			for n := 1; n <= 2; n++ {
				want, _ := strkernel.Eval(strkernel.Params{Kind: strkernel.NGram, N: n, Unit: unit}, ds, du, nil, strkernel.Limits{})
				if got := spectrum(ss, su, n); got != want.Float64() {
					t.Fatalf("%v ngram(%d) of %q, %q: %v here, %v in strkernel", unit, n, s, u, got, want.Float64())
				}
			}
		}
	}
}

func TestIntern(t *testing.T) {
	tests := []struct {
		unit strkernel.Unit
		sym  string
		n    int // symbols in the error, 0 for none
	}{
		{strkernel.Char, "a", 0},
		{strkernel.Char, "ж", 0},
		{strkernel.Char, "\xff", 0}, // one invalid byte is one symbol
		{strkernel.Char, " ", 0},
		{strkernel.Char, "ab", 2},
		{strkernel.Char, "e\u0301", 2}, // two code points, one grapheme
		{strkernel.Word, "cat", 0},
		{strkernel.Word, "می\u200cخواهم", 0},
		{strkernel.Word, "don't", 2},
		{strkernel.Word, " cat", 1},
		{strkernel.Word, "!", 0 - 1},
	}
	for _, tc := range tests {
		syms := NewSymbols(tc.unit)
		l, err := syms.Intern(tc.sym)
		var se *SymbolError
		switch {
		case tc.n == 0 && (err != nil || l != 1 || syms.Name(1) != tc.sym || syms.Lookup(tc.sym) != 1):
			t.Errorf("%v %q: label %d, error %v", tc.unit, tc.sym, l, err)
		case tc.n > 0 && (!errors.As(err, &se) || se.Symbols != tc.n):
			t.Errorf("%v %q: error %v, want %d symbols", tc.unit, tc.sym, err, tc.n)
		case tc.n < 0 && (!errors.As(err, &se) || se.Symbols != 0):
			t.Errorf("%v %q: error %v, want no symbol", tc.unit, tc.sym, err)
		}
	}
	syms := NewSymbols(strkernel.Char)
	if l, err := syms.Intern(""); l != Epsilon || err != nil || syms.Len() != 0 {
		t.Errorf("ε: %d, %v", l, err)
	}
	syms.Intern("a")
	syms.Intern("ж")
	got := syms.Encode(nil, "aжbж\xff")
	if want := []Label{1, 2, NoLabel, 2, NoLabel}; !equalLabels(got, want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
	w := NewSymbols(strkernel.Word)
	w.Intern("cat")
	if got := w.Encode(nil, "Cat, cat; the cat!"); !equalLabels(got, []Label{NoLabel, 1, NoLabel, 1}) {
		t.Errorf("word Encode = %v", got)
	}
}

func equalLabels(a, b []Label) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
