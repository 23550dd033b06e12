package fst

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

// bigramRows are the rows of the bigram counting transducer over the given
// symbols, as a user writes them into an arcs table: state 0 skips any
// symbol, copies one to state 1, which copies one to state 2, which skips
// the rest and is final (dst NULL).
func bigramTable(t testing.TB, unit strkernel.Unit, symbols []string) *Transducer {
	b := NewTableBuilder(unit)
	for _, x := range symbols {
		for _, r := range []struct {
			src, dst int64
			in, out  string
		}{{0, 0, x, ""}, {0, 1, x, x}, {1, 2, x, x}, {2, 2, x, ""}} {
			if err := b.Arc(r.src, r.dst, r.in, r.out, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := b.Final(2, 1); err != nil {
		t.Fatal(err)
	}
	tr, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestDesignExample: DESIGN.md's rational(fst=bigram) on 'abab', 'abba' is
// 3, and transducer_weight('bigram', 'abab', 'ab') is the count of ab, 2.
func TestDesignExample(t *testing.T) {
	tr := bigramTable(t, strkernel.Char, []string{"a", "b"})
	k, err := NewKernel(tr, Bound{})
	if err != nil {
		t.Fatal(err)
	}
	ws := new(Workspace)
	for _, tc := range []struct {
		s, t string
		want float64
	}{{"abab", "abba", 3}, {"abba", "abab", 3}, {"abab", "", 0}, {"ab", "ab", 1}, {"abc", "abc", 0}} {
		got, err := k.Eval(tc.s, tc.t, ws, strkernel.Limits{})
		if err != nil || got.Float64() != tc.want {
			t.Errorf("K(%q, %q) = %v, %v; want %v", tc.s, tc.t, got.Float64(), err, tc.want)
		}
	}
	for _, tc := range []struct {
		x, y string
		want float64
	}{{"abab", "ab", 2}, {"abab", "ba", 1}, {"abab", "bb", 0}, {"abab", "a", 0}} {
		got, err := tr.Weight(tc.x, tc.y, ws, strkernel.Limits{})
		if err != nil || got.Float64() != tc.want {
			t.Errorf("T(%q, %q) = %v, %v; want %v", tc.x, tc.y, got.Float64(), err, tc.want)
		}
	}
}

// TestBigramIsNgram: the rational kernel of the bigram counting
// transducer is ngram(n=2), on random text of code points and of words.
func TestBigramIsNgram(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, unit := range []strkernel.Unit{strkernel.Char, strkernel.Word} {
		var texts []string
		seen := map[string]bool{}
		var alphabet []string
		for range 40 {
			s := randomText(r, 3+r.IntN(25))
			texts = append(texts, s)
			for _, x := range symbolsOf(s, unit) {
				if !seen[x] {
					seen[x] = true
					alphabet = append(alphabet, x)
				}
			}
		}
		k, err := NewKernel(bigramTable(t, unit, alphabet), Bound{})
		if err != nil {
			t.Fatal(err)
		}
		ws := new(Workspace)
		p := strkernel.Params{Kind: strkernel.NGram, N: 2, Unit: unit}
		for i := range texts {
			for j := range texts {
				got, err := k.Eval(texts[i], texts[j], ws, strkernel.Limits{})
				want, _ := strkernel.Eval(p, strkernel.Decode(texts[i], unit), strkernel.Decode(texts[j], unit), nil, strkernel.Limits{})
				if err != nil || got.Float64() != want.Float64() {
					t.Fatalf("%v %q, %q: %v, %v; ngram(2) %v", unit, texts[i], texts[j], got.Float64(), err, want.Float64())
				}
			}
		}
	}
}

func TestTableBuilderErrors(t *testing.T) {
	b := NewTableBuilder(strkernel.Char)
	if err := b.Arc(0, 1, "a", "b", 1); err != nil {
		t.Fatal(err)
	}
	err := b.Arc(1, 2, "a", "bc", 1)
	var se *SymbolError
	if !errors.As(err, &se) || se.Row != 2 || !se.Output || se.Symbols != 2 || se.Text != "bc" {
		t.Errorf("two code points: %v", err)
	}
	w := NewTableBuilder(strkernel.Word)
	w.Final(0, 1)
	err = w.Arc(0, 0, "two words", "", 1)
	if !errors.As(err, &se) || se.Row != 2 || se.Output || se.Symbols != 2 {
		t.Errorf("two words: %v", err)
	}
	err = w.Arc(0, 0, "a", "b", math.Inf(1))
	var we *WeightError
	if !errors.As(err, &we) || we.Row != 3 {
		t.Errorf("Inf: %v", err)
	}
}

// TestKernelSymmetricBits: K(s, t) and K(t, s) are the same float64 bits.
func TestKernelSymmetricBits(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for n := 0; n < 200; {
		raw := randomFST(r, 3)
		f, err := raw.build()
		if err != nil {
			continue
		}
		k, err := NewKernelFST(f, Bound{})
		if err != nil {
			continue
		}
		x, y := randomString(r, 3, 12), randomString(r, 3, 12)
		a, _ := k.EvalLabels(x, y, nil, strkernel.Limits{})
		b, _ := k.EvalLabels(y, x, nil, strkernel.Limits{})
		if a != b {
			t.Fatalf("K(x, y) = %v·2^%d, K(y, x) = %v·2^%d", a.M, a.E, b.M, b.E)
		}
		n++
	}
}

// TestNegativeWeights: with negative weights T(x, y) may be negative and
// T∘T⁻¹ still equals Σ_z T(x,z)·T(y,z) (checked to 1e-12 of Σ_z |terms|,
// since terms cancel), so it is a Gram matrix of the vectors T(x, ·).
func TestNegativeWeights(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	negative := 0
	for n := 0; n < 300; {
		raw := randomFST(r, 2)
		for i := range raw.arcs {
			if r.IntN(3) == 0 {
				raw.arcs[i].w = -raw.arcs[i].w
			}
		}
		f, err := raw.build()
		if err != nil {
			continue
		}
		k, err := NewKernelFST(f, Bound{})
		if err != nil {
			continue
		}
		if f.HasNegative() {
			negative++
		}
		x, y := randomString(r, 2, 5), randomString(r, 2, 5)
		ox, oy := raw.outputs(x), raw.outputs(y)
		var want, mass float64
		for z, w := range ox {
			want += w * oy[z]
			mass += math.Abs(w * oy[z])
		}
		got, _ := k.EvalLabels(x, y, nil, strkernel.Limits{})
		if math.Abs(got.Float64()-want) > 1e-12*mass {
			t.Fatalf("(T∘T⁻¹)(%v, %v) = %v, Σ_z %v", x, y, got.Float64(), want)
		}
		n++
	}
	if negative < 100 {
		t.Errorf("only %d machines with negative weights", negative)
	}
}
