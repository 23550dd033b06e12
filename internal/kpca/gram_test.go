package kpca

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fillGram writes the upper triangle of K from ref and NaN below it, as
// recycled storage may hold anything there.
func fillGram(K *Gram, ref *mat.SymDense) {
	data, n := K.Upper(), K.N()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j >= i {
				data[i*n+j] = ref.At(i, j)
			} else {
				data[i*n+j] = math.NaN()
			}
		}
	}
}

// TestNewGram: fits on matrices from NewGram, with NaN in the unused lower
// triangle, equal fits on plain matrices, with both solvers and for
// FitMap; their storage is recycled by a later NewGram, and a caller's own
// matrix never is.
func TestNewGram(t *testing.T) {
	X := digitsX(t)[:600]
	ref := gram(X, gauss(4))
	for _, solver := range []Solver{Lanczos, Dense} {
		want, err := Fit(copySym(ref), Options{Components: 3, Solver: solver})
		if err != nil {
			t.Fatal(err)
		}
		for rep := 0; rep < 3; rep++ {
			K := NewGram(len(X))
			fillGram(K, ref)
			got, err := K.Fit(Options{Components: 3, Solver: solver})
			if err != nil {
				t.Fatal(err)
			}
			for j := range want.Eigenvalues {
				if got.Eigenvalues[j] != want.Eigenvalues[j] {
					t.Fatalf("%v rep %d: eigenvalue %d = %v, want %v", solver, rep, j, got.Eigenvalues[j], want.Eigenvalues[j])
				}
			}
			for i := 0; i < len(X); i++ {
				g, w := got.Projection(i, nil), want.Projection(i, nil)
				for j := range g {
					if g[j] != w[j] {
						t.Fatalf("%v rep %d: projection (%d, %d) = %v, want %v", solver, rep, i, j, g[j], w[j])
					}
				}
			}
		}
	}
	small := gram(X[:50], gauss(4))
	wantMap, err := FitMap(copySym(small), MapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	K := NewGram(50)
	fillGram(K, small)
	gotMap, err := K.FitMap(MapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := gotMap.Stored(7, nil), wantMap.Stored(7, nil); gotMap.Dim() != wantMap.Dim() || g[0] != w[0] {
		t.Fatalf("FitMap on NewGram: dim %d, φ(x_7)₀ %v; want %d, %v", gotMap.Dim(), g[0], wantMap.Dim(), w[0])
	}

	// Recycling: the storage of a consumed NewGram matrix comes back to the
	// next NewGram; a caller's own matrix never does.
	own := copySym(ref)
	ownData := &own.RawSymmetric().Data[0]
	if _, err := Fit(own, Options{Components: 3}); err != nil {
		t.Fatal(err)
	}
	for try := 0; try < 3; try++ {
		K := NewGram(len(X))
		p := &K.Upper()[0]
		if p == ownData {
			t.Fatal("NewGram handed out the storage of a caller's own matrix")
		}
		fillGram(K, ref)
		if _, err := K.Fit(Options{Components: 3}); err != nil {
			t.Fatal(err)
		}
		next := NewGram(len(X))
		if &next.Upper()[0] != p {
			t.Fatal("NewGram did not reuse the storage of the matrix just consumed")
		}
		next.Release() // as a fit would
		next.Release() // twice is harmless
	}
	// A Gram released without a fit (its kernel values failed) is reused too.
	K = NewGram(len(X))
	p := &K.Upper()[0]
	K.Release()
	if next := NewGram(len(X)); &next.Upper()[0] != p {
		t.Fatal("NewGram did not reuse the storage of a released matrix")
	}
	if K := NewGram(0); K.N() != 0 || len(K.Upper()) != 0 {
		t.Errorf("NewGram(0) is not empty")
	}
}
