package kernels

import (
	"math"
	"sync/atomic"
	"testing"

	"github.com/ksql/ksql/internal/xfloat"
)

// countingKernel is ngram(n=1) counting its evaluations of K(a, a).
type countingKernel struct{ self *atomic.Int64 }

func (k countingKernel) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	if a == b {
		k.self.Add(1)
	}
	sa, sb := a.Seq(0).Chars(), b.Seq(0).Chars()
	s := 0.0
	for _, x := range sa {
		for _, y := range sb {
			if x == y {
				s++
			}
		}
	}
	return xfloat.New(s), nil
}

// TestSelfValuesOncePerObject: a Gram matrix of normalize(K) and of
// gauss(over=K) evaluates K(a, a) once per object, not once per pair, and
// gives the values computed without the cache.
func TestSelfValuesOncePerObject(t *testing.T) {
	var selfCalls atomic.Int64
	def := Def{Name: "countself", Domain: StringDomain,
		Build: func(*Args) (Evaluator, error) { return countingKernel{&selfCalls}, nil }}
	Register(&def)
	defer Unregister("countself")
	texts := []string{"abc", "abd", "bcd", "aaaa", "", "cab", "dcba", "bb"}
	for _, spec := range []string{"normalize(countself)", "gauss(sigma=1, over=countself)", "normalize(countself) + normalize(countself)", "normalize(countself + ngram(n=1))"} {
		sp, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		objs := make([]Object, len(texts))
		for i, s := range texts {
			objs[i] = sp.PrepareString(s)
		}
		n := len(objs)
		dst := make([]float64, n*n)
		selfCalls.Store(0)
		if err := sp.Gram(objs, dst, GramOptions{Workers: 3}); err != nil {
			t.Fatal(err)
		}
		leaves := int64(len(sp.selfLeaves))
		if got := selfCalls.Load(); got > leaves*int64(n)+leaves*2 { // a race may compute a slot twice
			t.Errorf("%s: %d evaluations of K(a, a) for %d objects", spec, got, n)
		}
		for i := range objs {
			for j := i; j < n; j++ {
				a, b := sp.PrepareString(texts[i]), sp.PrepareString(texts[j])
				a.self, b.self = nil, nil
				want, err := sp.EvalFloat(&a, &b, &Workspace{})
				if err != nil || math.Abs(dst[i*n+j]-want) > 1e-15 {
					t.Fatalf("%s(%q, %q) = %v, uncached %v (%v)", spec, texts[i], texts[j], dst[i*n+j], want, err)
				}
			}
		}
	}
}

// BenchmarkGramNormalizeSSK: the Gram matrix of normalize(ssk(p=3,
// λ=0.5)) over 24 texts of 600 letters, with each text's K(a, a) kept
// (cached) and computed for every pair as before (uncached).
func BenchmarkGramNormalizeSSK(b *testing.B) {
	texts := make([]string, 24)
	seed := uint64(7)
	for i := range texts {
		buf := make([]byte, 600)
		for j := range buf {
			seed = seed*6364136223846793005 + 1442695040888963407
			buf[j] = 'a' + byte(seed>>59)%20
		}
		texts[i] = string(buf)
	}
	for _, cached := range []bool{true, false} {
		name := "cached"
		if !cached {
			name = "uncached"
		}
		b.Run(name, func(b *testing.B) {
			sp, err := Parse("normalize(ssk(p=3, lambda=0.5))")
			if err != nil {
				b.Fatal(err)
			}
			n := len(texts)
			dst := make([]float64, n*n)
			for b.Loop() {
				objs := make([]Object, n)
				for i, s := range texts {
					objs[i] = sp.PrepareString(s)
					if !cached {
						objs[i].self = nil
					}
				}
				if err := sp.Gram(objs, dst, GramOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStringCostUsesCores: a Gram matrix of a few long texts is worth
// several workers (parallel caps them at cost/minParallelCells), though it
// has few values; a few short ones, or vectors, are not.
func TestStringCostUsesCores(t *testing.T) {
	sp, _ := Parse("ssk(p=3, lambda=0.5)")
	long := make([]Object, 40)
	short := make([]Object, 40)
	for i := range long {
		long[i] = sp.PrepareString(string(make([]byte, 1000+i)))
		short[i] = sp.PrepareString("ab")
	}
	values := 40 * 41 / 2
	if c := sp.cost(long, long, values); c/minParallelCells < 2 {
		t.Errorf("40 texts of 1,000 symbols: cost %d, one worker", c)
	}
	if c := sp.cost(short, short, values); c/minParallelCells >= 2 {
		t.Errorf("40 texts of 2 symbols: cost %d, several workers", c)
	}
	vs, _ := Parse("linear")
	if c := vs.cost([]Object{{}}, []Object{{}}, values); c != values {
		t.Errorf("vectors: cost %d, want the count of values %d", c, values)
	}
}

// TestSelfCacheOtherSpec: an object prepared under one spec and evaluated
// under another with the same shape does not take the first spec's K(a, a).
func TestSelfCacheOtherSpec(t *testing.T) {
	a1, _ := Parse("normalize(ngram(n=1))")
	a2, _ := Parse("normalize(ngram(n=2))")
	x, y := a1.PrepareString("aab"), a1.PrepareString("abb")
	if _, err := a1.EvalFloat(&x, &y, &Workspace{}); err != nil { // fills x's and y's caches
		t.Fatal(err)
	}
	got, err := a2.EvalFloat(&x, &y, &Workspace{})
	fresh1, fresh2 := a2.PrepareString("aab"), a2.PrepareString("abb")
	want, _ := a2.EvalFloat(&fresh1, &fresh2, &Workspace{})
	if err != nil || got != want {
		t.Errorf("normalize(ngram(n=2)) on objects of normalize(ngram(n=1)): %v (%v), want %v", got, err, want)
	}
}
