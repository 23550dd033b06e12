package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/fst"
)

// The kernels of internal/fst through the spec language: gappy against
// the string kernels it generalises, and rational through an Env.

func randomText(r *rand.Rand, alphabet []string, maxLen int, sep string) string {
	n := r.IntN(maxLen + 1)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = alphabet[r.IntN(len(alphabet))]
	}
	return strings.Join(parts, sep)
}

func evalSpec(t *testing.T, text, s, u string, ws *Workspace) float64 {
	t.Helper()
	sp, err := Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	a, b := sp.PrepareString(s), sp.PrepareString(u)
	v, err := sp.EvalFloat(&a, &b, ws)
	if err != nil {
		t.Fatalf("%s(%q, %q): %v", text, s, u, err)
	}
	return v
}

func relClose(got, want, rel float64) bool {
	return got == want || math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

// TestGappyIdentities checks gappy(n, 0) = ngram(n), gappy(n, 1) =
// subseq(p=n) and ssk(p=n, λ) = λ^(2n)·gappy(n, λ) on random strings of
// characters and of words, and that K(a, b) and K(b, a) are the same bits.
func TestGappyIdentities(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	ws := &Workspace{}
	units := []struct {
		unit, sep string
		alphabet  []string
	}{
		{"char", "", []string{"a", "b", "c", "é"}},
		{"word", " ", []string{"to", "be", "or", "not", "да"}},
	}
	for _, u := range units {
		for trial := 0; trial < 60; trial++ {
			s := randomText(r, u.alphabet, 9, u.sep)
			v := randomText(r, u.alphabet, 9, u.sep)
			n := 1 + r.IntN(3)
			lam := []float64{0.3, 0.5, 0.9}[r.IntN(3)]
			opt := ", unit=" + u.unit
			for _, c := range []struct{ gappy, other string }{
				{fmt.Sprintf("gappy(n=%d, lambda=0%s)", n, opt), fmt.Sprintf("ngram(n=%d%s)", n, opt)},
				{fmt.Sprintf("gappy(n=%d, lambda=1%s)", n, opt), fmt.Sprintf("subseq(p=%d%s)", n, opt)},
			} {
				g, o := evalSpec(t, c.gappy, s, v, ws), evalSpec(t, c.other, s, v, ws)
				if !relClose(g, o, 1e-12) {
					t.Errorf("%s(%q, %q) = %v, %s = %v", c.gappy, s, v, g, c.other, o)
				}
			}
			g := evalSpec(t, fmt.Sprintf("gappy(n=%d, lambda=%v%s)", n, lam, opt), s, v, ws)
			k := evalSpec(t, fmt.Sprintf("ssk(p=%d, lambda=%v%s)", n, lam, opt), s, v, ws)
			if want := math.Pow(lam, float64(2*n)) * g; !relClose(k, want, 1e-12) {
				t.Errorf("ssk(p=%d, λ=%v)(%q, %q) = %v, λ^2n·gappy = %v", n, lam, s, v, k, want)
			}
			g2 := evalSpec(t, fmt.Sprintf("gappy(n=%d, lambda=%v%s)", n, lam, opt), v, s, ws)
			if math.Float64bits(g) != math.Float64bits(g2) {
				t.Errorf("gappy(%q, %q) = %v but gappy(%q, %q) = %v", s, v, g, v, s, g2)
			}
		}
	}
}

// tables is an Env over transducer tables given as rows.
type tables map[string]*fst.Table

func (e tables) Resolve(kind, name string) (any, error) {
	if kind != FSTKind {
		return nil, fmt.Errorf("kind %q", kind)
	}
	t, ok := e[name]
	if !ok {
		return nil, fmt.Errorf("no transducer %s", name)
	}
	return t, nil
}

// bigramRows is the counting transducer of bigrams over alphabet: it
// skips any symbols, copies two adjacent ones, skips the rest.
func bigramRows(alphabet []string) []fst.Row {
	var rows []fst.Row
	for _, a := range alphabet {
		rows = append(rows,
			fst.Row{Src: 0, Dst: 0, In: a, Weight: 1},
			fst.Row{Src: 0, Dst: 1, In: a, Out: a, Weight: 1},
			fst.Row{Src: 1, Dst: 2, In: a, Out: a, Weight: 1},
			fst.Row{Src: 2, Dst: 2, In: a, Weight: 1})
	}
	return append(rows, fst.Row{Src: 2, Final: true, Weight: 1})
}

// TestRationalThroughEnv: rational(fst=T) of the bigram counting
// transducer is ngram(n=2), under normalize and gauss(over=) too, with the
// transducer composed once per table; a missing Env or name is an error.
func TestRationalThroughEnv(t *testing.T) {
	alphabet := []string{"a", "b", "c"}
	env := tables{"bigram": fst.NewTable(bigramRows(alphabet))}
	ws := &Workspace{Env: env}
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 80; trial++ {
		s, v := randomText(r, alphabet, 8, ""), randomText(r, alphabet, 8, "")
		for _, c := range []struct{ rat, ref string }{
			{"rational(fst=bigram)", "ngram(n=2)"},
			{"normalize(rational(fst=bigram))", "normalize(ngram(n=2))"},
			{"gauss(sigma=2, over=rational(fst=bigram))", "gauss(sigma=2, over=ngram(n=2))"},
			{"rational(fst=bigram) + 0.5*ngram(n=1)", "ngram(n=2) + 0.5*ngram(n=1)"},
		} {
			got, want := evalSpec(t, c.rat, s, v, ws), evalSpec(t, c.ref, s, v, ws)
			if !relClose(got, want, 1e-12) {
				t.Errorf("%s(%q, %q) = %v, %s = %v", c.rat, s, v, got, c.ref, want)
			}
		}
	}
	sp, _ := Parse("rational(fst=nothere)")
	a, b := sp.PrepareString("ab"), sp.PrepareString("ab")
	if _, err := sp.Eval(&a, &b, ws); err == nil || !strings.Contains(err.Error(), "no transducer nothere") {
		t.Errorf("missing table: %v", err)
	}
	if _, err := sp.Eval(&a, &b, &Workspace{}); err == nil || !strings.Contains(err.Error(), "rational") {
		t.Errorf("no Env: %v", err)
	}
	if refs := sp.References(); len(refs) != 1 || refs[0].Name != "nothere" || refs[0].Kernel != "rational" {
		t.Errorf("References() = %v", refs)
	}
}
