package fst

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// gappyFeatures maps every n-symbol subsequence u of s to c_u(s), the sum
// over its occurrences i_1 < … < i_n of λ^(i_n − i_1 + 1 − n), by listing
// every index tuple.
func gappyFeatures(s []int32, n int, lambda float64) map[string]float64 {
	out := map[string]float64{}
	idx := make([]int, n)
	var rec func(k, from int)
	rec = func(k, from int) {
		if k == n {
			key := ""
			for _, i := range idx {
				key += fmt.Sprint(s[i], ",")
			}
			out[key] += math.Pow(lambda, float64(idx[n-1]-idx[0]+1-n))
			return
		}
		for i := from; i < len(s); i++ {
			idx[k] = i
			rec(k+1, i+1)
		}
	}
	rec(0, 0)
	return out
}

func bruteGappy(s, t []int32, n int, lambda float64) float64 {
	fs, ft := gappyFeatures(s, n, lambda), gappyFeatures(t, n, lambda)
	var sum float64
	for u, c := range fs {
		sum += c * ft[u]
	}
	return sum
}

// gappyEngine is gappy(n, λ) by the transducer engine: the rational kernel
// of the counting transducer over labels 1…k.
func gappyEngine(t testing.TB, g Gappy, k int) *Kernel {
	alphabet := make([]Label, k)
	for i := range alphabet {
		alphabet[i] = Label(i + 1)
	}
	kern, err := NewKernelFST(gappyFST(t, g, alphabet), Bound{})
	if err != nil {
		t.Fatal(err)
	}
	return kern
}

// TestGappyBrute: the dedicated programme and the engine against the
// definition, enumerated.
func TestGappyBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	ws := new(Workspace)
	for _, lambda := range []float64{0, 0.25, 0.5, 0.9, 1} {
		for n := 1; n <= 4; n++ {
			g := Gappy{N: n, Lambda: lambda}
			eng := gappyEngine(t, g, 3)
			for range 30 {
				s, u := randomString(r, 3, 9), randomString(r, 3, 9)
				want := bruteGappy(s, u, n, lambda)
				got, err := g.EvalLabels(s, u, ws, strkernel.Limits{})
				if err != nil || !closeRel(got.Float64(), want, 1e-12) {
					t.Fatalf("%+v %v %v: dedicated %v, %v; brute %v", g, s, u, got.Float64(), err, want)
				}
				e, err := eng.EvalLabels(s, u, ws, strkernel.Limits{})
				if err != nil || !closeRel(e.Float64(), want, 1e-12) {
					t.Fatalf("%+v %v %v: engine %v, %v; brute %v", g, s, u, e.Float64(), err, want)
				}
			}
		}
	}
}

// TestGappyEngineAgrees: the dedicated programme equals the engine on
// longer strings, n up to 5, λ anywhere in [0, 1].
func TestGappyEngineAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 54))
	ws := new(Workspace)
	for range 40 {
		g := Gappy{N: 1 + r.IntN(5), Lambda: r.Float64()}
		if r.IntN(4) == 0 {
			g.Lambda = float64(r.IntN(2))
		}
		eng := gappyEngine(t, g, 4)
		for range 5 {
			s, u := randomString(r, 4, 60), randomString(r, 4, 60)
			d, err1 := g.EvalLabels(s, u, ws, strkernel.Limits{})
			e, err2 := eng.EvalLabels(s, u, ws, strkernel.Limits{})
			if err := errors.Join(err1, err2); err != nil || d.IsZero() != e.IsZero() ||
				!d.IsZero() && math.Abs(xfloat.Div(d, e).Float64()-1) > 1e-12 {
				t.Fatalf("%+v: dedicated %v, engine %v, %v", g, d.Float64(), e.Float64(), err)
			}
		}
	}
}

// dense renames the code points of two strings 1…k for the engine.
func dense(s, u string) (a, b []Label, k int) {
	id := map[rune]Label{}
	conv := func(x string) []Label {
		var out []Label
		for _, r := range x {
			if id[r] == 0 {
				id[r] = Label(len(id) + 1)
			}
			out = append(out, id[r])
		}
		return out
	}
	a, b = conv(s), conv(u)
	return a, b, len(id)
}

// TestGappyIdentities: the engine's gappy against strkernel, the issue's
// identities: gappy(n, 0) = ngram(n), gappy(n, 1) = subseq(p=n),
// ssk(p=n, λ) = λ^(2n)·gappy(n, λ). The dedicated programme is checked on
// the same pairs.
func TestGappyIdentities(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 56))
	ws := new(Workspace)
	rel := func(a, b xfloat.F) float64 {
		if a.IsZero() && b.IsZero() {
			return 0
		}
		return math.Abs(xfloat.Div(a, b).Float64() - 1)
	}
	for it := 0; it < 120; it++ {
		s, u := randomText(r, 1+r.IntN(30)), randomText(r, 1+r.IntN(30))
		// dense's range loop reads invalid bytes as U+FFFD, which strkernel
		// keeps apart: keep valid text only.
		s, u = validOnly(s), validOnly(u)
		a, b, k := dense(s, u)
		if k == 0 {
			continue
		}
		n := 1 + r.IntN(4)
		lambda := 0.05 + 0.9*r.Float64()
		ds, du := strkernel.Decode(s, strkernel.Char), strkernel.Decode(u, strkernel.Char)
		sk := func(p strkernel.Params) xfloat.F {
			v, err := strkernel.Eval(p, ds, du, nil, strkernel.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		cases := []struct {
			name string
			g    Gappy
			want xfloat.F
		}{
			{"gappy(n,0) = ngram(n)", Gappy{n, 0}, sk(strkernel.Params{Kind: strkernel.NGram, N: n})},
			{"gappy(n,1) = subseq(p=n)", Gappy{n, 1}, sk(strkernel.Params{Kind: strkernel.Subseq, P: n})},
			{"λ^2n·gappy(n,λ) = ssk(p=n,λ)", Gappy{n, lambda},
				xfloat.Div(sk(strkernel.Params{Kind: strkernel.SSK, P: n, Lambda: lambda}), xfloat.Pow(xfloat.New(lambda), 2*n))},
		}
		for _, c := range cases {
			e, err := gappyEngine(t, c.g, k).EvalLabels(a, b, ws, strkernel.Limits{})
			if err != nil || rel(e, c.want) > 1e-12 {
				t.Fatalf("%s, %q, %q, n=%d: engine %v, strkernel %v (%v)", c.name, s, u, n, e.Float64(), c.want.Float64(), err)
			}
			d, err := c.g.Eval(s, u, strkernel.Char, ws, strkernel.Limits{})
			if err != nil || rel(d, c.want) > 1e-12 {
				t.Fatalf("%s: dedicated %v, strkernel %v (%v)", c.name, d.Float64(), c.want.Float64(), err)
			}
		}
	}
}

// validOnly drops invalid UTF-8 (and U+FFFD) from s.
func validOnly(s string) string {
	var out []rune
	for _, r := range s {
		if r != '\ufffd' {
			out = append(out, r)
		}
	}
	return string(out)
}

// TestGappyWords: unit=word through Eval, against λ^-2n·ssk(unit=word).
func TestGappyWords(t *testing.T) {
	r := rand.New(rand.NewPCG(57, 58))
	ws := new(Workspace)
	for range 200 {
		s, u := randomText(r, r.IntN(40)), randomText(r, r.IntN(40))
		g := Gappy{N: 1 + r.IntN(3), Lambda: 0.1 + 0.9*r.Float64()}
		p := strkernel.Params{Kind: strkernel.SSK, P: g.N, Lambda: g.Lambda, Unit: strkernel.Word}
		ssk, _ := strkernel.Eval(p, strkernel.Decode(s, strkernel.Word), strkernel.Decode(u, strkernel.Word), nil, strkernel.Limits{})
		want := xfloat.Div(ssk, xfloat.Pow(xfloat.New(g.Lambda), 2*g.N))
		got, err := g.Eval(s, u, strkernel.Word, ws, strkernel.Limits{})
		if err != nil || got.IsZero() != want.IsZero() || !got.IsZero() && math.Abs(xfloat.Div(got, want).Float64()-1) > 1e-12 {
			t.Fatalf("%+v %q %q: %v, want %v (%v)", g, s, u, got.Float64(), want.Float64(), err)
		}
	}
}

// TestGappySlowPath: the xfloat-per-value programme equals the float64 one.
func TestGappySlowPath(t *testing.T) {
	r := rand.New(rand.NewPCG(59, 60))
	ws := new(Workspace)
	for range 100 {
		g := Gappy{N: 2 + r.IntN(4), Lambda: r.Float64()}
		s, u := randomString(r, 3, 50), randomString(r, 3, 50)
		if len(s) < len(u) {
			s, u = u, s
		}
		if len(u) < g.N {
			continue
		}
		fast, _ := g.EvalLabels(s, u, ws, strkernel.Limits{})
		slow, _ := g.slow(s, u, ws, strkernel.Limits{})
		if fast.IsZero() != slow.IsZero() || !fast.IsZero() && math.Abs(xfloat.Div(fast, slow).Float64()-1) > 1e-12 {
			t.Fatalf("%+v: fast %v, slow %v", g, fast.Float64(), slow.Float64())
		}
	}
}

// TestGappyLong: news text, against strkernel, where values are large:
// gappy(3, 0.5) on 1,000 characters, gappy(60, 1) = subseq(p=60) on 2,000
// (about 2^529, computed in float64 under a power-of-two scale), and
// gappy(200, 1) on 480 (past 2^900: the xfloat programme).
func TestGappyLong(t *testing.T) {
	texts := readColumn(t, "reuters.csv", 2)
	cases := []struct {
		g    Gappy
		n, m int
		p    strkernel.Params
		slow bool
	}{
		{Gappy{3, 0.5}, 1000, 900, strkernel.Params{Kind: strkernel.SSK, P: 3, Lambda: 0.5}, false},
		{Gappy{60, 1}, 2000, 1800, strkernel.Params{Kind: strkernel.Subseq, P: 60}, false},
		{Gappy{200, 1}, 480, 480, strkernel.Params{Kind: strkernel.Subseq, P: 200}, true},
	}
	for _, c := range cases {
		if c.slow && testing.Short() {
			continue
		}
		s, u := prefixRunes(t, texts[:20], c.n), prefixRunes(t, texts[20:], c.m)
		if lg := log2Pairs(c.n, c.m, c.g.N); (lg > 900) != c.slow {
			t.Fatalf("%+v: log2 of the pair count %v", c.g, lg)
		}
		got, err := c.g.Eval(s, u, strkernel.Char, nil, strkernel.Limits{})
		want, _ := strkernel.Eval(c.p, strkernel.Decode(s, strkernel.Char), strkernel.Decode(u, strkernel.Char), nil, strkernel.Limits{})
		want = xfloat.Div(want, xfloat.Pow(xfloat.New(c.g.Lambda), 2*c.g.N))
		if err != nil || math.Abs(xfloat.Div(got, want).Float64()-1) > 1e-11 {
			t.Errorf("%+v: %v·2^%d, strkernel %v·2^%d (%v)", c.g, got.M, got.E, want.M, want.E, err)
		}
	}
}

func TestGappyValidate(t *testing.T) {
	for _, g := range []Gappy{{0, 0.5}, {2, -0.1}, {2, 1.5}, {2, math.NaN()}} {
		var pe *ParamError
		if _, err := g.EvalLabels([]int32{1, 2}, []int32{1, 2}, nil, strkernel.Limits{}); !errors.As(err, &pe) {
			t.Errorf("%+v: %v", g, err)
		}
		if _, err := GappyTransducer(g, []Label{1}); !errors.As(err, &pe) {
			t.Errorf("%+v transducer: %v", g, err)
		}
	}
}
