package kpca

import (
	"math"
	"testing"
)

// TestRitzCheck compares the cheap Ritz values and last eigenvector
// components with a full eigendecomposition (smallEigen, LAPACK's Dsyev),
// on the shapes the Lanczos matrix takes: tridiagonal, arrowhead followed by
// a tridiagonal tail (after a restart), split blocks (after a breakdown),
// and with repeated eigenvalues, where a single eigenvector's last component
// is not defined but the norm over the repeated group is.
func TestRitzCheck(t *testing.T) {
	cases := []struct {
		name        string
		m, arrow    int
		zeroAt      int     // a zero coupling between rows zeroAt-1 and zeroAt (0: none)
		repeatDiag  bool    // the arrowhead's diagonal repeats one value
		offdiagSize float64 // scale of the couplings
	}{
		{"tridiagonal", 40, 0, 0, false, 1},
		{"tridiagonal, tiny couplings", 30, 0, 0, false, 1e-9},
		{"arrowhead", 45, 25, 0, false, 1},
		{"arrowhead with repeated Ritz values", 45, 25, 0, true, 1e-3},
		{"split", 33, 0, 17, false, 1},
		{"1×1", 1, 0, 0, false, 1},
		{"2×2", 2, 0, 0, false, 1},
	}
	rng := splitMix64{11}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.m
			H := make([]float64, m*m)
			set := func(i, j int, v float64) { H[i*m+j], H[j*m+i] = v, v }
			for i := 0; i < m; i++ {
				set(i, i, 2+rng.symmetric())
				if c.repeatDiag && i < c.arrow {
					set(i, i, 2.5)
				}
			}
			for i := 0; i < c.arrow; i++ {
				set(i, c.arrow, c.offdiagSize*rng.symmetric())
			}
			for i := max(c.arrow, 0); i+1 < m; i++ {
				if i+1 != c.zeroAt {
					set(i, i+1, c.offdiagSize*rng.symmetric())
				}
			}
			w := newRitzWork(m)
			if c.arrow > 0 {
				w.restarted(c.arrow)
			}
			// As in Lanczos: checks of growing leading blocks, the arrowhead
			// block reduced at the first and reused.
			for j := max(1, c.arrow+1); j <= m; j++ {
				theta, last, ok := w.check(H, m, j)
				if !ok {
					t.Fatalf("j=%d: QL did not converge", j)
				}
				compareRitz(t, H, m, j, theta, last)
			}
		})
	}
}

// compareRitz compares check's results for the leading j×j block of H
// with Dsyev's.
func compareRitz(t *testing.T, H []float64, stride, j int, theta, last []float64) {
	t.Helper()
	want, S, err := smallEigen(H, stride, 0, j)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(theta[i]-want[i]) > 1e-13*4 {
			t.Fatalf("j=%d: θ[%d] = %.17g, Dsyev has %.17g", j, i, theta[i], want[i])
		}
	}
	// Groups of equal eigenvalues (to 1e-10): compare the norm of the last
	// components over the group.
	for lo := 0; lo < j; {
		hi := lo + 1
		for hi < j && want[hi]-want[hi-1] < 1e-10 {
			hi++
		}
		var got2, want2 float64
		for i := lo; i < hi; i++ {
			got2 += last[i] * last[i]
			want2 += S.At(j-1, i) * S.At(j-1, i)
		}
		if math.Abs(math.Sqrt(got2)-math.Sqrt(want2)) > 1e-12 {
			t.Fatalf("j=%d: eigenvalues %d..%d: last components have norm %.15g, Dsyev has %.15g", j, lo, hi-1, math.Sqrt(got2), math.Sqrt(want2))
		}
		lo = hi
	}
}
