package strkernel

import (
	"encoding/csv"
	"fmt"
	"github.com/ksql/ksql/internal/cputime"
	"os"
	"strings"
	"testing"
)

// readColumn returns column col of testdata/file (a CSV with a header).
func readColumn(tb testing.TB, file string, col int) []string {
	tb.Helper()
	f, err := os.Open("testdata/" + file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[col])
	}
	return out
}

// prefixRunes returns the first n code points of the concatenation of texts.
func prefixRunes(tb testing.TB, texts []string, n int) string {
	r := []rune(strings.Join(texts, " "))
	if len(r) < n {
		tb.Fatalf("only %d code points", len(r))
	}
	return string(r[:n])
}

// benchTexts returns two texts of n code points: English news (Reuters) or
// DNA (promoters).
func benchTexts(b *testing.B, kind string, n int) (string, string) {
	if kind == "dna" {
		seqs := readColumn(b, "promoters.csv", 2)
		return prefixRunes(b, seqs[:53], n), prefixRunes(b, seqs[53:], n)
	}
	texts := readColumn(b, "reuters.csv", 2)
	return prefixRunes(b, texts[:20], n), prefixRunes(b, texts[20:], n)
}

func benchDP(b *testing.B, p Params, kind string, n int) {
	s, t := benchTexts(b, kind, n)
	a, c := Decode(s, Char), Decode(t, Char)
	ws := new(Workspace)
	if _, err := Eval(p, a, c, ws, Limits{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Process().Nanoseconds()
	for b.Loop() {
		Eval(p, a, c, ws, Limits{})
	}
	cpu = cputime.Process().Nanoseconds() - cpu
	cells := float64(n) * float64(n)
	if p.P > 0 {
		cells *= float64(p.P)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/cells, "ns/cell")
	b.ReportMetric(float64(cpu)/float64(b.N)/cells, "cpu-ns/cell")
}

// BenchmarkSubseq: ns/cell is per cell of the |s|·|t| table.
func BenchmarkSubseq(b *testing.B) {
	b.Run("news2000", func(b *testing.B) { benchDP(b, Params{Kind: Subseq}, "news", 2000) })
	b.Run("dna2000", func(b *testing.B) { benchDP(b, Params{Kind: Subseq}, "dna", 2000) })
}

// BenchmarkSubseqP: ns/cell is per cell per unit of p.
func BenchmarkSubseqP(b *testing.B) {
	b.Run("p=5/news2000", func(b *testing.B) { benchDP(b, Params{Kind: Subseq, P: 5}, "news", 2000) })
}

// BenchmarkSSK: ns/cell is per cell per unit of p (P·|s|·|t| cells).
func BenchmarkSSK(b *testing.B) {
	b.Run("p=5/news2000", func(b *testing.B) { benchDP(b, Params{Kind: SSK, P: 5, Lambda: 0.5}, "news", 2000) })
	b.Run("p=5/dna2000", func(b *testing.B) { benchDP(b, Params{Kind: SSK, P: 5, Lambda: 0.5}, "dna", 2000) })
	b.Run("p=5/lambda=0.01/news2000", func(b *testing.B) { benchDP(b, Params{Kind: SSK, P: 5, Lambda: 0.01}, "news", 2000) })
}

// BenchmarkNGram measures decoding plus the kernel; MB/s is of input text.
func BenchmarkNGram(b *testing.B) {
	texts := readColumn(b, "reuters.csv", 2)
	s, t := strings.Join(texts[:20], " "), strings.Join(texts[20:], " ")
	for _, n := range []int{3, 12, 40} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			// As the SQL function does: decode into reused buffers, one
			// workspace for all calls (warmed up by a first call).
			ws := new(Workspace)
			p := Params{Kind: NGram, N: n}
			var bs, bt []int32
			call := func() {
				a, c := DecodeTo(bs, s, Char), DecodeTo(bt, t, Char)
				if _, err := Eval(p, a, c, ws, Limits{}); err != nil {
					b.Fatal(err)
				}
				bs, bt = a.Buffer(), c.Buffer()
			}
			call()
			b.SetBytes(int64(len(s) + len(t)))
			b.ReportAllocs()
			cpu := cputime.Process().Nanoseconds()
			for b.Loop() {
				call()
			}
			cpu = cputime.Process().Nanoseconds() - cpu
			b.ReportMetric(float64(len(s)+len(t))*float64(b.N)/float64(cpu)*1e3, "cpu-MB/s")
		})
	}
}

// BenchmarkDecode measures Decode alone; MB/s is of input text.
func BenchmarkDecode(b *testing.B) {
	s := strings.Join(readColumn(b, "reuters.csv", 2), " ")
	ru := strings.Repeat("Съешь же ещё этих мягких французских булок, да выпей чаю. ", 500)
	for name, text := range map[string]string{"ascii": s, "cyrillic": ru} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Decode(text, Char)
			}
		})
	}
}
