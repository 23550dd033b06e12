package strkernel

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		p    Params
		want string // substring of the error, "" for none
	}{
		{Params{Kind: Subseq}, ""},
		{Params{Kind: Subseq, P: 3}, ""},
		{Params{Kind: Subseq, P: -1}, "p must be a positive integer"},
		{Params{Kind: SSK, P: 0, Lambda: 0.5}, "p must be a positive integer, got 0"},
		{Params{Kind: SSK, P: 2, Lambda: 0}, "lambda must be in (0, 1], got 0"},
		{Params{Kind: SSK, P: 2, Lambda: 1.5}, "lambda must be in (0, 1], got 1.5"},
		{Params{Kind: SSK, P: 2, Lambda: nan()}, "lambda must be in (0, 1], got NaN"},
		{Params{Kind: SSK, P: 2, Lambda: 1}, ""},
		{Params{Kind: NGram, N: 0}, "n must be a positive integer, got 0"},
		{Params{Kind: NGram, N: 2, Unit: 7}, "unit must be char or word, got Unit(7)"},
		{Params{Kind: 9}, "unknown string kernel kind 9"},
	}
	for _, tc := range tests {
		err := tc.p.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: Validate() = %v, want %q", tc.p, err, tc.want)
		}
		if tc.want != "" {
			if _, err := Eval(tc.p, Decode("ab", Char), Decode("ab", Char), nil, Limits{}); err == nil {
				t.Errorf("%+v: Eval accepted invalid parameters", tc.p)
			}
		}
	}
}

func nan() float64 { z := 0.0; return z / z }

func TestUnitMismatch(t *testing.T) {
	_, err := Eval(Params{Kind: Subseq, Unit: Word}, Decode("a b", Char), Decode("a b", Word), nil, Limits{})
	if err == nil || !strings.Contains(err.Error(), "unit=word") {
		t.Errorf("char sequence under unit=word: %v", err)
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		s    string
		u    Unit
		want []int32 // Char symbols; for Word, nil and words below
		wrds []string
	}{
		{"", Char, []int32{}, nil},
		{"aя中😀", Char, []int32{'a', 'я', '中', '😀'}, nil},
		// invalid bytes are symbols of their own, distinct from U+FFFD
		{"a\xffb\xfe\ufffd", Char, []int32{'a', invalidBase + 0xff, 'b', invalidBase + 0xfe, 0xfffd}, nil},
		// a truncated 3-byte sequence is two invalid bytes
		{"\xe4\xb8", Char, []int32{invalidBase + 0xe4, invalidBase + 0xb8}, nil},
		{"Hello, мир! 你好😀世界 ok", Word, nil, []string{"Hello", "мир", "你好", "世界", "ok"}},
		{"می\u200cخواهم  کتاب۲", Word, nil, []string{"می\u200cخواهم", "کتاب۲"}},
		{"don't e\u0301t\xffé", Word, nil, []string{"don", "t", "e\u0301t", "é"}},
		{" ,.! ", Word, nil, nil},
	}
	for _, tc := range tests {
		q := Decode(tc.s, tc.u)
		if q.Unit() != tc.u {
			t.Errorf("%q: unit %v", tc.s, q.Unit())
		}
		if tc.u == Char {
			if q.Len() != len(tc.want) || !equal(q.syms, tc.want) {
				t.Errorf("Decode(%q) = %x, want %x", tc.s, q.syms, tc.want)
			}
			continue
		}
		if q.Len() != len(tc.wrds) || strings.Join(q.words, "|") != strings.Join(tc.wrds, "|") {
			t.Errorf("Decode(%q, Word) = %q, want %q", tc.s, q.words, tc.wrds)
		}
	}
	// The invalid byte and U+FFFD are different symbols for the kernels.
	k, _ := Eval(Params{Kind: NGram, N: 1}, Decode("\xff", Char), Decode("\ufffd", Char), nil, Limits{})
	if !k.IsZero() {
		t.Errorf("ngram(\\xff, U+FFFD) = %v, want 0", k.Float64())
	}
}

func equal(a, b []int32) bool {
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

// TestNGramLong covers the packed keys for wide symbols and the pairing of
// ids for n-grams too long to pack, against counting substrings.
func TestNGramLong(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alpha := []rune("ab😀中")
	wide := make([]rune, 3000) // thousands of distinct symbols: 12-bit dense ids
	for i := range wide {
		wide[i] = rune(0x4e00 + r.IntN(3000))
	}
	for _, n := range []int{1, 2, 3, 4, 5, 6, 9, 16, 17, 33, 64, 100} {
		for trial := range 20 {
			var s, u string
			if trial%2 == 0 {
				s, u = randomString(r, alpha, 300), randomString(r, alpha, 300)
				// repeats make long n-grams shared
				s, u = s+u+s, u+s
			} else {
				i := r.IntN(1000)
				s, u = string(wide[i:i+1500]), string(wide[i+r.IntN(200):i+1700])
			}
			want := dot(ngramFeatures(bruteSymbols(s, Char), n), ngramFeatures(bruteSymbols(u, Char), n))
			got := evalStr(t, Params{Kind: NGram, N: n}, s, u).Float64()
			if got != want {
				t.Fatalf("ngram(n=%d) trial %d = %v, brute force %v", n, trial, got, want)
			}
		}
	}
}

func TestMaxCells(t *testing.T) {
	s, u := Decode(strings.Repeat("ab", 50), Char), Decode(strings.Repeat("ba", 30), Char)
	tests := []struct {
		p     Params
		cells int64
	}{
		{Params{Kind: Subseq}, 100 * 60},
		{Params{Kind: Subseq, P: 3}, 3 * 100 * 60},
		{Params{Kind: SSK, P: 4, Lambda: 0.5}, 4 * 100 * 60},
		{Params{Kind: NGram, N: 3}, 160},
	}
	for _, tc := range tests {
		if _, err := Eval(tc.p, s, u, nil, Limits{MaxCells: tc.cells}); err != nil {
			t.Errorf("%+v with max %d: %v", tc.p, tc.cells, err)
		}
		_, err := Eval(tc.p, s, u, nil, Limits{MaxCells: tc.cells - 1})
		var le *LimitError
		if !errors.As(err, &le) || le.Cells != tc.cells || le.Max != tc.cells-1 {
			t.Fatalf("%+v with max %d: %v", tc.p, tc.cells-1, err)
		}
		for _, w := range []string{fmt.Sprintf("need %d cells", tc.cells), fmt.Sprintf("bound of %d", tc.cells-1)} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not mention %s", err, w)
			}
		}
	}
	// Trivial cases need no table.
	if k, err := Eval(Params{Kind: SSK, P: 200, Lambda: 0.5}, s, u, nil, Limits{MaxCells: 1}); err != nil || !k.IsZero() {
		t.Errorf("ssk with p longer than the text: %v, %v", k, err)
	}
}

// TestCheck: Check is polled about every 2^20 cells and its error stops the
// call and is returned.
func TestCheck(t *testing.T) {
	s := Decode(strings.Repeat("abcd", 1000), Char) // 4000 × 4000 = 16·2^20 cells
	for _, p := range []Params{{Kind: Subseq}, {Kind: Subseq, P: 2}, {Kind: SSK, P: 3, Lambda: 0.5}} {
		calls := 0
		_, err := Eval(p, s, s, nil, Limits{Check: func() error { calls++; return nil }})
		cells := 16e6 * float64(max(p.P, 1))
		if err != nil || float64(calls) < cells/(1<<20)*0.9 || float64(calls) > cells/(1<<20)*1.1 {
			t.Errorf("%+v: %d checks for %g cells, err %v", p, calls, cells, err)
		}
		stop := errors.New("stop")
		calls = 0
		_, err = Eval(p, s, s, nil, Limits{Check: func() error {
			calls++
			if calls == 3 {
				return stop
			}
			return nil
		}})
		if err != stop || calls != 3 {
			t.Errorf("%+v: stopped after %d checks with %v", p, calls, err)
		}
	}
	big := Decode(strings.Repeat("abcdefgh", 1<<18), Char)
	stop := errors.New("stop")
	if _, err := Eval(Params{Kind: NGram, N: 3}, big, big, nil, Limits{Check: func() error { return stop }}); err != stop {
		t.Errorf("ngram on 2^21 symbols ignored Check: %v", err)
	}
}

// TestNoAllocation: once a workspace has grown, the dynamic programmes
// allocate nothing.
func TestNoAllocation(t *testing.T) {
	s, u := Decode(strings.Repeat("абвг", 100), Char), Decode(strings.Repeat("гвба", 90), Char)
	ws := new(Workspace)
	for _, p := range []Params{{Kind: Subseq}, {Kind: Subseq, P: 4}, {Kind: SSK, P: 4, Lambda: 0.3}, {Kind: NGram, N: 3}} {
		if a := testing.AllocsPerRun(5, func() { Eval(p, s, u, ws, Limits{}) }); a != 0 {
			t.Errorf("%+v: %v allocations per call", p, a)
		}
	}
}

// TestSymmetry: every kernel is symmetric, including when the first
// sequence is the shorter one (Eval swaps them internally).
func TestSymmetry(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alpha := []rune("abв😀")
	for range 300 {
		s, u := randomString(r, alpha, 30), randomString(r, alpha, 12)
		for _, p := range []Params{{Kind: Subseq}, {Kind: Subseq, P: 3}, {Kind: SSK, P: 3, Lambda: 0.6}, {Kind: NGram, N: 2}} {
			a, b := evalStr(t, p, s, u), evalStr(t, p, u, s)
			if a != b {
				t.Fatalf("%+v: K(%q,%q)=%v but K(%q,%q)=%v", p, s, u, a, u, s, b)
			}
		}
	}
}

// TestHashedCollisions gives every n-gram the same hash: hashedCount's
// table must still tell them apart by their symbols, also across growth.
func TestHashedCollisions(t *testing.T) {
	text := []int32{1, 2, 3, 1, 2, 4, 1, 2, 3, 5, 6, 7, 8, 9, 1, 2, 3}
	for i := range 200 { // enough distinct n-grams to grow the table often
		text = append(text, 100+int32(i), 0, 0)
	}
	const n = 3
	var tab table
	tab.reset(0)
	want := map[[n]int32]int32{}
	for pos := 0; pos+n <= len(text); pos++ {
		tab.addGram(42, text, pos, n)
		want[[n]int32(text[pos:pos+n])]++
	}
	for pos := 0; pos+n <= len(text); pos++ {
		g := text[pos : pos+n]
		if got := tab.countGram(42, g, text, n); got != want[[n]int32(g)] {
			t.Fatalf("count of %v = %d, want %d", g, got, want[[n]int32(g)])
		}
	}
	if got := tab.countGram(42, []int32{9, 9, 9}, text, n); got != 0 {
		t.Errorf("absent n-gram counted %d", got)
	}
	if len(tab.slots) < 2*len(want) {
		t.Errorf("table of %d slots for %d n-grams", len(tab.slots), len(want))
	}
}

// TestDecodeTo: DecodeTo gives Decode's symbols, reusing a large enough
// buffer.
func TestDecodeTo(t *testing.T) {
	buf := make([]int32, 0, 16)
	for _, s := range []string{"", "aя中😀\xff", "кот и пёс"} {
		q := DecodeTo(buf, s, Char)
		if want := Decode(s, Char); !equal(q.syms, want.syms) || q.Unit() != Char {
			t.Errorf("DecodeTo(%q) = %x, want %x", s, q.syms, want.syms)
		}
		if q.Len() > 0 && &q.syms[0] != &buf[:1][0] {
			t.Errorf("DecodeTo(%q) did not reuse the buffer", s)
		}
		buf = q.Buffer()
	}
	long := strings.Repeat("ё", 100)
	if q := DecodeTo(buf, long, Char); q.Len() != 100 || cap(q.Buffer()) < 100 {
		t.Errorf("DecodeTo of 100 symbols into a 16-symbol buffer: %d", q.Len())
	}
	if q := DecodeTo(buf, "a b", Word); q.Len() != 2 || q.Unit() != Word {
		t.Errorf("DecodeTo with Word: %d words", q.Len())
	}
}
