package strkernel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// This file checks Eval against brute-force enumeration: the feature map of
// each kernel is built by listing every index tuple (every subset of
// positions, every substring) of each string, independently of the dynamic
// programmes, and the kernel is the dot product of two feature maps.

// bruteSymbols splits s into symbols as strings: code points for char, and
// for word the maximal runs of letters, marks, numbers and U+200C (the
// definition in Decode's documentation, written again here).
func bruteSymbols(s string, u Unit) []string {
	if u == Word {
		return strings.FieldsFunc(s, func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || r == '\u200c')
		})
	}
	var out []string
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// subseqFeatures maps each subsequence (symbols joined by \x00) to the sum
// over its occurrences i of weight(i); length < 0 means every length.
func subseqFeatures(sym []string, length int, weight func(idx []int) float64) map[string]float64 {
	out := map[string]float64{}
	var idx []int
	for mask := 0; mask < 1<<len(sym); mask++ {
		idx = idx[:0]
		for i := range sym {
			if mask&(1<<i) != 0 {
				idx = append(idx, i)
			}
		}
		if length >= 0 && len(idx) != length {
			continue
		}
		parts := make([]string, len(idx))
		for k, i := range idx {
			parts[k] = sym[i]
		}
		out[strings.Join(parts, "\x00")] += weight(idx)
	}
	return out
}

func ngramFeatures(sym []string, n int) map[string]float64 {
	out := map[string]float64{}
	for i := 0; i+n <= len(sym); i++ {
		out[strings.Join(sym[i:i+n], "\x00")]++
	}
	return out
}

func dot(a, b map[string]float64) float64 {
	var s float64
	for k, v := range a {
		s += v * b[k]
	}
	return s
}

// bruteKernel is the kernel of DESIGN.md computed from its definition.
func bruteKernel(p Params, s, t string) float64 {
	a, b := bruteSymbols(s, p.Unit), bruteSymbols(t, p.Unit)
	one := func([]int) float64 { return 1 }
	switch p.Kind {
	case Subseq:
		l := p.P
		if l == 0 {
			l = -1
		}
		return dot(subseqFeatures(a, l, one), subseqFeatures(b, l, one))
	case SSK:
		span := func(idx []int) float64 {
			return math.Pow(p.Lambda, float64(idx[len(idx)-1]-idx[0]+1))
		}
		return dot(subseqFeatures(a, p.P, span), subseqFeatures(b, p.P, span))
	case NGram:
		return dot(ngramFeatures(a, p.N), ngramFeatures(b, p.N))
	}
	panic("unknown kind")
}

var alphabets = []string{
	"ab",
	"abc",
	"абв",       // Cyrillic
	"中文字",       // CJK
	"سلام",      // Persian
	"😀🎉",        // emoji (outside the BMP)
	"aб中س😀",     // all of them
	"\u200cاa1", // ZWNJ, Persian, Latin, digit
}

func randomString(r *rand.Rand, alphabet []rune, maxLen int) string {
	n := r.IntN(maxLen + 1)
	out := make([]rune, n)
	for i := range out {
		out[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(out)
}

// TestBruteForceChar compares every kernel with enumeration on thousands of
// random short strings, the empty string included.
func TestBruteForceChar(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	params := []Params{
		{Kind: Subseq}, {Kind: Subseq, P: 1}, {Kind: Subseq, P: 2}, {Kind: Subseq, P: 3}, {Kind: Subseq, P: 5},
		{Kind: SSK, P: 1, Lambda: 0.5}, {Kind: SSK, P: 2, Lambda: 0.5}, {Kind: SSK, P: 3, Lambda: 0.9},
		{Kind: SSK, P: 2, Lambda: 1}, {Kind: SSK, P: 4, Lambda: 0.1}, {Kind: SSK, P: 3, Lambda: 1e-3},
		{Kind: NGram, N: 1}, {Kind: NGram, N: 2}, {Kind: NGram, N: 3}, {Kind: NGram, N: 6},
	}
	ws := new(Workspace)
	pairs := 0
	for _, alpha := range alphabets {
		runes := []rune(alpha)
		for range 400 {
			s, u := randomString(r, runes, 10), randomString(r, runes, 10)
			if r.IntN(20) == 0 {
				s = ""
			}
			pairs++
			for _, p := range params {
				checkAgainstBrute(t, p, s, u, ws)
			}
		}
	}
	t.Logf("%d string pairs × %d kernels", pairs, len(params))
}

// TestBruteForceWord runs the same comparison over word sequences, built
// from a small vocabulary in several scripts with varied separators.
func TestBruteForceWord(t *testing.T) {
	vocab := []string{"кот", "пёс", "猫", "狗", "گربه", "می\u200cخواهم", "cat", "dog", "x2", "é"}
	seps := []string{" ", ", ", "! ", " 😀 ", "\n", "—", "..."}
	r := rand.New(rand.NewPCG(3, 4))
	text := func() string {
		var b strings.Builder
		for i := range r.IntN(9) {
			if i > 0 || r.IntN(3) == 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			b.WriteString(vocab[r.IntN(4+r.IntN(len(vocab)-3))])
		}
		return b.String()
	}
	params := []Params{
		{Kind: Subseq}, {Kind: Subseq, P: 2}, {Kind: SSK, P: 2, Lambda: 0.7}, {Kind: NGram, N: 2},
	}
	ws := new(Workspace)
	for range 1500 {
		s, u := text(), text()
		for _, p := range params {
			p.Unit = Word
			checkAgainstBrute(t, p, s, u, ws)
		}
	}
}

func checkAgainstBrute(t *testing.T, p Params, s, u string, ws *Workspace) {
	t.Helper()
	want := bruteKernel(p, s, u)
	f, err := Eval(p, Decode(s, p.Unit), Decode(u, p.Unit), ws, Limits{})
	if err != nil {
		t.Fatalf("%+v (%q, %q): %v", p, s, u, err)
	}
	got := f.Float64()
	exact := p.Kind != SSK || p.Lambda == 1
	if exact && got != want || !exact && math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Fatalf("%+v (%q, %q) = %.17g, brute force %.17g", p, s, u, got, want)
	}
}

// TestHandCounted pins small values counted by hand.
func TestHandCounted(t *testing.T) {
	tests := []struct {
		p    Params
		s, t string
		want float64
	}{
		// ε, a, b, ab
		{Params{Kind: Subseq}, "ab", "ab", 4},
		{Params{Kind: Subseq}, "", "", 1},
		{Params{Kind: Subseq}, "abc", "", 1},
		// ε; a: 2·1; aa: 1·0
		{Params{Kind: Subseq}, "aa", "a", 3},
		// ε; a: 2·2; aa: 1·1
		{Params{Kind: Subseq}, "aa", "aa", 6},
		{Params{Kind: Subseq, P: 2}, "aa", "aa", 1},
		{Params{Kind: Subseq, P: 3}, "aa", "aa", 0},
		// "кот" vs "кит": к, т, кт
		{Params{Kind: Subseq}, "кот", "кит", 4},
		// ssk p=2: "ab" in "ab" has span 2, in "axb" span 3: λ^5
		{Params{Kind: SSK, P: 2, Lambda: 0.5}, "ab", "axb", 1.0 / 32},
		{Params{Kind: SSK, P: 1, Lambda: 0.5}, "aa", "a", 2 * 0.25},
		// trigrams of "abcab": abc, bca, cab; of "cabc": cab, abc
		{Params{Kind: NGram, N: 3}, "abcab", "cabc", 2},
		{Params{Kind: NGram, N: 2}, "😀😀😀", "😀😀", 2},
		{Params{Kind: NGram, N: 4}, "abc", "abcd", 0},
		// words: "мама мыла раму" vs "раму мыла": мыла, раму, ε
		{Params{Kind: Subseq, Unit: Word}, "мама мыла раму", "раму, мыла!", 3},
		{Params{Kind: NGram, N: 1, Unit: Word}, "a a b", "a b b", 4},
	}
	for _, tc := range tests {
		got, err := Eval(tc.p, Decode(tc.s, tc.p.Unit), Decode(tc.t, tc.p.Unit), nil, Limits{})
		if err != nil || got.Float64() != tc.want {
			t.Errorf("%+v(%q, %q) = %v, %v; want %v", tc.p, tc.s, tc.t, got.Float64(), err, tc.want)
		}
	}
}
