package strkernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/xfloat"
)

// This file checks values far outside float64 against math/big.

// relErr returns |got − want| / |want| for an xfloat against a big.Float.
func relErr(got xfloat.F, want *big.Float) float64 {
	if want.Sign() == 0 {
		if got.IsZero() {
			return 0
		}
		return math.Inf(1)
	}
	g := new(big.Float).SetPrec(want.Prec()).SetMantExp(big.NewFloat(got.M), int(got.E))
	d := new(big.Float).SetPrec(want.Prec()).Sub(g, want)
	r, _ := new(big.Float).Quo(d, want).Float64()
	return math.Abs(r)
}

func bigInt(x *big.Int) *big.Float { return new(big.Float).SetPrec(256).SetInt(x) }

func binom(n, k int) *big.Int { return new(big.Int).Binomial(int64(n), int64(k)) }

func evalStr(t *testing.T, p Params, s, u string) xfloat.F {
	t.Helper()
	f, err := Eval(p, Decode(s, p.Unit), Decode(u, p.Unit), nil, Limits{})
	if err != nil {
		t.Fatalf("%+v: %v", p, err)
	}
	return f
}

// TestBlocksClosedForm uses s = a^L b^L, t = b^L a^L, whose common
// subsequences are a^k or b^k only, so that
//
//	subseq = 2·C(2L, L) − 1,  subseq(p) = 2·C(L, p)²,
//	ssk(p, λ) = 2·F², F = Σ_{d=p}^{L} (L−d+1)·C(d−2, p−2)·λ^d  (p ≥ 2),
//
// F summing λ^span over the p-tuples of a^L by their span d. Half of each
// value comes from cells that stay small while the rest of their row grows
// by thousands of binary orders: a DP with one exponent per row loses it.
func TestBlocksClosedForm(t *testing.T) {
	blocks := func(l int, x, y string) string { return strings.Repeat(x, l) + strings.Repeat(y, l) }
	const L = 2500 // two 5,000-character texts
	s, u := blocks(L, "a", "b"), blocks(L, "b", "a")
	want := new(big.Int).Lsh(binom(2*L, L), 1)
	want.Sub(want, big.NewInt(1))
	got := evalStr(t, Params{Kind: Subseq}, s, u)
	if e := relErr(got, bigInt(want)); e > 1e-12 {
		t.Errorf("subseq(a^%d b^%d, b^%d a^%d): relative error %g", L, L, L, L, e)
	}
	if !math.IsInf(got.Float64(), 1) {
		t.Errorf("subseq of 5,000-character texts is %g as float64, want +Inf", got.Float64())
	}

	const l = 300
	s, u = blocks(l, "я", "😀"), blocks(l, "😀", "я")
	for _, p := range []int{1, 2, 7, 150, 299, 300} {
		c := binom(l, p)
		want := new(big.Int).Mul(c, c)
		want.Lsh(want, 1)
		if e := relErr(evalStr(t, Params{Kind: Subseq, P: p}, s, u), bigInt(want)); e > 1e-12 {
			t.Errorf("subseq(p=%d) blocks of %d: relative error %g", p, l, e)
		}
	}
	for _, lambda := range []float64{1, 0.5, 0.01} {
		for _, p := range []int{2, 5, 40} {
			lam := new(big.Float).SetPrec(256).SetFloat64(lambda)
			f := new(big.Float).SetPrec(256)
			pow := new(big.Float).SetPrec(256).SetFloat64(1)
			for d := 1; d <= l; d++ {
				pow.Mul(pow, lam)
				if d < p {
					continue
				}
				term := bigInt(new(big.Int).Mul(binom(d-2, p-2), big.NewInt(int64(l-d+1))))
				f.Add(f, term.Mul(term, pow))
			}
			want := new(big.Float).SetPrec(256).Mul(f, f)
			want.Mul(want, big.NewFloat(2))
			got := evalStr(t, Params{Kind: SSK, P: p, Lambda: lambda}, s, u)
			if e := relErr(got, want); e > 1e-11 {
				t.Errorf("ssk(p=%d, lambda=%g) blocks of %d: relative error %g", p, lambda, l, e)
			}
		}
	}
}

// TestSSKTinyValues: common subsequences only across long gaps give values
// far below float64's range, which the xfloat result still carries.
func TestSSKTinyValues(t *testing.T) {
	const gap = 3000
	s := "a" + strings.Repeat("x", gap) + "b"
	u := "a" + strings.Repeat("y", gap) + "b"
	got := evalStr(t, Params{Kind: SSK, P: 2, Lambda: 0.5}, s, u)
	// the only common 2-subsequence is "ab", span gap+2 in each
	if want := -float64(2*(gap+2)) * math.Ln2; math.Abs(got.Log()-want) > 1e-12*math.Abs(want) {
		t.Errorf("log ssk = %v, want %v", got.Log(), want)
	}
	if got.Float64() != 0 {
		t.Errorf("as float64 %g, want 0 (below the range)", got.Float64())
	}
}

// bigSubseq is the notes' dynamic programme in exact integers.
func bigSubseq(s, t []rune) *big.Int {
	row := make([]big.Int, len(t)+1)
	for j := range row {
		row[j].SetInt64(1)
	}
	var p, last, old big.Int
	for _, x := range s {
		p.SetInt64(0)
		last.SetInt64(1)
		for j := 1; j <= len(t); j++ {
			old.Set(&row[j])
			if t[j-1] == x {
				p.Add(&p, &last)
			}
			row[j].Add(&row[j], &p)
			last, old = old, last
		}
	}
	return &row[len(t)]
}

// TestLongTextsAgainstBig compares subseq and its normalisation on two
// pairs of 5,000-character texts with exact integers: an English text and a
// copy with 1% of its characters replaced by Cyrillic ones, and a random
// Russian text and a copy with 1% of its characters replaced. (Unrelated
// long texts have a normalised subseq below float64's range.)
func TestLongTextsAgainstBig(t *testing.T) {
	if testing.Short() {
		t.Skip("six 5,000×5,000 big-integer tables take several seconds")
	}
	r := rand.New(rand.NewPCG(5, 6))
	ru := []rune("абвгдеёжзийклмнопрстуфхцчшщъыьэюя ,.")
	mutate := func(s []rune) []rune {
		u := append([]rune(nil), s...)
		for range len(u) / 100 {
			u[r.IntN(len(u))] = ru[r.IntN(len(ru))]
		}
		return u
	}
	en := []rune(prefixRunes(t, readColumn(t, "reuters.csv", 2), 5000))
	rus := make([]rune, 5000)
	for i := range rus {
		rus[i] = ru[r.IntN(len(ru))]
	}
	for _, pair := range [][2][]rune{{en, mutate(en)}, {rus, mutate(rus)}} {
		checkLongNormalized(t, pair[0], pair[1])
	}
}

func checkLongNormalized(t *testing.T, s, u []rune) {
	p := Params{Kind: Subseq}
	kst := evalStr(t, p, string(s), string(u))
	kss := evalStr(t, p, string(s), string(s))
	ktt := evalStr(t, p, string(u), string(u))
	bst, bss, btt := bigInt(bigSubseq(s, u)), bigInt(bigSubseq(s, s)), bigInt(bigSubseq(u, u))
	for _, c := range []struct {
		name string
		got  xfloat.F
		want *big.Float
	}{{"K(s,t)", kst, bst}, {"K(s,s)", kss, bss}, {"K(t,t)", ktt, btt}} {
		if e := relErr(c.got, c.want); e > 1e-12 {
			t.Errorf("%s: relative error %g", c.name, e)
		}
	}
	norm := xfloat.Div(kst, xfloat.Sqrt(xfloat.Mul(kss, ktt))).Float64()
	bn := new(big.Float).SetPrec(256).Mul(bss, btt)
	bn.Quo(bst, bn.Sqrt(bn))
	want, _ := bn.Float64()
	if math.Abs(norm-want) > 1e-9*want || norm == 0 {
		t.Errorf("normalized = %g, want %g", norm, want)
	}
	t.Logf("K(s,t) ≈ 2^%.0f, normalized %g", kst.Log()/math.Ln2, norm)
}

// lodhiBig is Lodhi's K′/K″ recursion as published, in big.Float: an
// independent formulation of ssk with explicit λ factors.
func lodhiBig(s, t []rune, p int, lambda float64) *big.Float {
	const prec = 300
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	lam := nf().SetFloat64(lambda)
	lam2 := nf().Mul(lam, lam)
	m, n := len(s), len(t)
	// kp[q][i][j] = K′_q(s[:i], t[:j])
	kp := make([][][]*big.Float, p)
	for q := range kp {
		kp[q] = make([][]*big.Float, m+1)
		for i := range kp[q] {
			kp[q][i] = make([]*big.Float, n+1)
			for j := range kp[q][i] {
				kp[q][i][j] = nf()
				if q == 0 {
					kp[q][i][j].SetInt64(1)
				}
			}
		}
	}
	tmp := nf()
	for q := 1; q < p; q++ {
		for i := 1; i <= m; i++ {
			kpp := nf() // K″_q(s[:i], t[:j])
			for j := 1; j <= n; j++ {
				kpp.Mul(kpp, lam)
				if s[i-1] == t[j-1] {
					kpp.Add(kpp, tmp.Mul(lam2, kp[q-1][i-1][j-1]))
				}
				kp[q][i][j].Add(tmp.Mul(lam, kp[q][i-1][j]), kpp)
			}
		}
	}
	k := nf()
	for i := 1; i <= m; i++ {
		for j := 1; j <= n; j++ {
			if s[i-1] == t[j-1] {
				k.Add(k, tmp.Mul(lam2, kp[p-1][i-1][j-1]))
			}
		}
	}
	return k
}

// TestSSKAgainstLodhiBig compares ssk on 400-character texts, with decays
// that take the value far below float64, with Lodhi's recursion in
// big.Float.
func TestSSKAgainstLodhiBig(t *testing.T) {
	texts := readColumn(t, "reuters.csv", 2)
	s, u := []rune(prefixRunes(t, texts[:5], 400)), []rune(prefixRunes(t, texts[20:], 300))
	for _, c := range []struct {
		p      int
		lambda float64
	}{{3, 0.5}, {4, 0.05}, {2, 1e-3}, {6, 0.9}, {2, 1e-30}, {3, 1e-200}} {
		want := lodhiBig(s, u, c.p, c.lambda)
		got := evalStr(t, Params{Kind: SSK, P: c.p, Lambda: c.lambda}, string(s), string(u))
		if e := relErr(got, want); e > 1e-11 {
			t.Errorf("ssk(p=%d, lambda=%g): relative error %g", c.p, c.lambda, e)
		}
	}
}
