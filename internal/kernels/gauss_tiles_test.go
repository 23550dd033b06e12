package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGaussTilesMatchPairs: Cross by tiles (gauss on flat float64 vectors)
// gives each value as Gauss computes it pair by pair, to rounding, for
// shapes that leave partial tiles (rows not a multiple of 4, columns not of
// 8), near-duplicate pairs (the cancellation fallback) and far ones
// (exp underflows to 0); and the same bits on one worker as on three.
func TestGaussTilesMatchPairs(t *testing.T) {
	spec, err := Parse("gauss(sigma=1.3)")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range []struct{ n, m, d int }{{4, 8, 1}, {13, 29, 7}, {101, 17, 64}, {6, 9, 3}} {
		vec := func() Object {
			x := make([]float64, shape.d)
			for i := range x {
				x[i] = rng.NormFloat64() * 2
			}
			return spec.PrepareVec(Vec{F64: x})
		}
		a, b := make([]Object, shape.n), make([]Object, shape.m)
		for i := range a {
			a[i] = vec()
		}
		for j := range b {
			b[j] = vec()
		}
		near := append([]float64(nil), b[3].Vec.F64...)
		near[0] += 1e-9
		a[1] = spec.PrepareVec(Vec{F64: near})
		far := make([]float64, shape.d)
		far[0] = 1e4
		a[2] = spec.PrepareVec(Vec{F64: far})
		if !gaussTiled(spec.Prepare(a).withNorms(), spec.Prepare(b).withNorms()) {
			t.Fatalf("%v: not tiled", shape)
		}
		one, three := make([]float64, shape.n*shape.m), make([]float64, shape.n*shape.m)
		if err := spec.Cross(a, b, one, GramOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		if err := spec.Cross(a, b, three, GramOptions{Workers: 3}); err != nil {
			t.Fatal(err)
		}
		for i := range shape.n {
			for j := range shape.m {
				got, want := one[i*shape.m+j], Gauss(a[i].Vec, b[j].Vec, 1.3)
				if math.Float64bits(got) != math.Float64bits(three[i*shape.m+j]) {
					t.Fatalf("%v (%d, %d): %v on one worker, %v on three", shape, i, j, got, three[i*shape.m+j])
				}
				if math.Abs(got-want) > 1e-13 {
					t.Errorf("%v (%d, %d): %v, pair by pair %v", shape, i, j, got, want)
				}
			}
		}
	}
}

// TestCrossBasisIsCross: a basis prepared once and a reused scratch give
// Cross's bits, block after block of different sizes, for the tiled gauss,
// a kernel without tiles and string objects.
func TestCrossBasisIsCross(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []string{"gauss(sigma=2)", "laplace(sigma=3)", "ssk(p=2, lambda=0.5)"} {
		spec, err := Parse(k)
		if err != nil {
			t.Fatal(err)
		}
		obj := func() Object {
			if spec.Domain() == StringDomain {
				b := make([]byte, 5+rng.IntN(6))
				for i := range b {
					b[i] = "abc"[rng.IntN(3)]
				}
				return spec.PrepareString(string(b))
			}
			x := make([]float64, 5)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			return spec.PrepareVec(Vec{F64: x})
		}
		basis := make([]Object, 19)
		for i := range basis {
			basis[i] = obj()
		}
		b := spec.NewBasis(basis)
		var w CrossWork
		for _, n := range []int{37, 3, 64, 9} {
			a := make([]Object, n)
			for i := range a {
				a[i] = obj()
			}
			want, got := make([]float64, n*len(basis)), make([]float64, n*len(basis))
			if err := spec.Cross(a, basis, want, GramOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := spec.CrossBasis(a, b, got, GramOptions{Workers: 1}, &w); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s, %d rows: value %d is %v, Cross gives %v", k, n, i, got[i], want[i])
				}
			}
		}
	}
}
