package fst

import (
	"fmt"
	"github.com/ksql/ksql/internal/cputime"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

// windows returns count texts of n code points cut from the Reuters texts
// joined by spaces, starting every step code points (they overlap when
// step < n; the 40 texts hold 43,075 characters).
func windows(tb testing.TB, count, n, step int) []string {
	r := []rune(strings.Join(readColumn(tb, "reuters.csv", 2), " "))
	if (count-1)*step+n > len(r) {
		tb.Fatalf("only %d code points", len(r))
	}
	out := make([]string, count)
	for i := range out {
		out[i] = string(r[i*step : i*step+n])
	}
	return out
}

// charKernel returns the rational kernel of f built over the code points
// of texts by build(alphabet).
func alphabetOf(texts ...string) (*Symbols, []Label) {
	syms := NewSymbols(strkernel.Char)
	for _, s := range texts {
		for _, r := range s {
			syms.Intern(string(r))
		}
	}
	alphabet := make([]Label, syms.Len())
	for i := range alphabet {
		alphabet[i] = Label(i + 1)
	}
	return syms, alphabet
}

// BenchmarkRational: one pair of 1,000-character news texts through the
// per-pair programme; ns/triple is per visited (i, state, j) triple,
// (|s|+1)·(|t|+1)·|states of T∘T⁻¹|.
func BenchmarkRational(b *testing.B) {
	w := windows(b, 2, 1000, 20000)
	syms, alphabet := alphabetOf(w...)
	x, y := syms.Encode(nil, w[0]), syms.Encode(nil, w[1])
	machines := []struct {
		name string
		f    func() *FST
	}{
		{"bigram", func() *FST { return gappyFST(b, Gappy{N: 2, Lambda: 0}, alphabet) }},
		{"gappy3", func() *FST { return gappyFST(b, Gappy{N: 3, Lambda: 0.5}, alphabet) }},
		{"allsubseq", func() *FST { return allSubsequences(alphabet) }},
	}
	for _, mc := range machines {
		k, err := NewKernelFST(mc.f(), Bound{})
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("%s/states=%d/arcs=%d", mc.name, k.U().NumStates(), k.U().NumArcs())
		b.Run(name, func(b *testing.B) {
			ws := new(Workspace)
			if _, err := k.EvalLabels(x, y, ws, strkernel.Limits{}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := cputime.Process().Nanoseconds()
			for b.Loop() {
				k.EvalLabels(x, y, ws, strkernel.Limits{})
			}
			cpu = cputime.Process().Nanoseconds() - cpu
			triples := float64(k.Machine().Cells(len(x), len(y)))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/triples, "ns/triple")
			b.ReportMetric(float64(cpu)/float64(b.N)/triples, "cpu-ns/triple")
		})
	}
}

// BenchmarkGappyVsSSK: gappy(n=3, λ=0.5) and strkernel's ssk(p=3, λ=0.5)
// on the same rows × cols pairs of 1,000-character news texts, strings
// given as text (decoding included for both, once per pair as a SQL
// scalar call would); ns/pair is per pair.
func BenchmarkGappyVsSSK(b *testing.B) {
	for _, n := range []int{10, 100} {
		w := windows(b, 2*n, 1000, 40000/(2*n))
		rows, cols := w[:n], w[n:]
		g := Gappy{N: 3, Lambda: 0.5}
		p := strkernel.Params{Kind: strkernel.SSK, P: 3, Lambda: 0.5}
		run := func(b *testing.B, pair func(s, t string)) {
			b.ReportAllocs()
			cpu := cputime.Process().Nanoseconds()
			for b.Loop() {
				for _, s := range rows {
					for _, t := range cols {
						pair(s, t)
					}
				}
			}
			cpu = cputime.Process().Nanoseconds() - cpu
			pairs := float64(b.N * n * n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/pairs, "ns/pair")
			b.ReportMetric(float64(cpu)/pairs, "cpu-ns/pair")
		}
		b.Run(fmt.Sprintf("gappy/pairs=%dx%d", n, n), func(b *testing.B) {
			ws := new(Workspace)
			run(b, func(s, t string) {
				if _, err := g.Eval(s, t, strkernel.Char, ws, strkernel.Limits{}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(fmt.Sprintf("ssk/pairs=%dx%d", n, n), func(b *testing.B) {
			ws := new(strkernel.Workspace)
			var bs, bt []int32
			run(b, func(s, t string) {
				a, c := strkernel.DecodeTo(bs, s, strkernel.Char), strkernel.DecodeTo(bt, t, strkernel.Char)
				if _, err := strkernel.Eval(p, a, c, ws, strkernel.Limits{}); err != nil {
					b.Fatal(err)
				}
				bs, bt = a.Buffer(), c.Buffer()
			})
		})
	}
}
