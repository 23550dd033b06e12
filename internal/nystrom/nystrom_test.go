package nystrom

import (
	"math"
	"testing"
)

func gaussBlock(xs []float64) []float64 {
	m := len(xs)
	W := make([]float64, m*m)
	for a := range m {
		for b := range m {
			d := xs[a] - xs[b]
			W[a*m+b] = math.Exp(-d * d / 2)
		}
	}
	return W
}

// TestMap: MᵀWM is the identity on the kept eigenpairs and W·M·Mᵀ·W is W
// (M·Mᵀ is W's pseudo-inverse), checked by plain products; a repeated
// landmark leaves one eigenvalue out, and the eigenvalues come back
// ascending.
func TestMap(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want int // r
	}{
		{[]float64{0, 0.7, 1.9, 3.2, 4}, 5},
		{[]float64{0, 1, 1, 2.5}, 3},
	} {
		W := gaussBlock(c.xs)
		m := len(c.xs)
		M, vals, err := Map(append([]float64(nil), W...), m, float64(m)*0x1p-52, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := len(M) / m
		if r != c.want || len(vals) != m {
			t.Fatalf("%v: r = %d, %d eigenvalues; want r = %d", c.xs, r, len(vals), c.want)
		}
		for i := 1; i < m; i++ {
			if vals[i] < vals[i-1] {
				t.Fatalf("eigenvalues not ascending: %v", vals)
			}
		}
		at := func(A []float64, cols, i, j int) float64 { return A[i*cols+j] }
		for p := range r { // MᵀWM = I
			for q := range r {
				s := 0.0
				for a := range m {
					for b := range m {
						s += at(M, r, a, p) * W[a*m+b] * at(M, r, b, q)
					}
				}
				if want := float64(map[bool]int{true: 1}[p == q]); math.Abs(s-want) > 1e-9 {
					t.Errorf("%v: (MᵀWM)[%d][%d] = %v, want %v", c.xs, p, q, s, want)
				}
			}
		}
		for a := range m { // W·(MMᵀ)·W = W
			for b := range m {
				s := 0.0
				for i := range m {
					for j := range m {
						mm := 0.0
						for p := range r {
							mm += at(M, r, i, p) * at(M, r, j, p)
						}
						s += W[a*m+i] * mm * W[j*m+b]
					}
				}
				if math.Abs(s-W[a*m+b]) > 1e-9 {
					t.Errorf("%v: (W·M·Mᵀ·W)[%d][%d] = %v, W has %v", c.xs, a, b, s, W[a*m+b])
				}
			}
		}
	}
}

// TestSumsCentred: block sums added in order give the centred CᵀC and the
// column means of the whole matrix, computed here directly, whatever the
// shift; Full gives the plain CᵀC and Ty the target sums.
func TestSumsCentred(t *testing.T) {
	const n, m = 53, 4
	C, y := make([]float64, n*m), make([]float64, n)
	for i := range n {
		for l := range m {
			C[i*m+l] = 1e3 + math.Sin(float64(i*(l+1))) // large means: cancellation to avoid
		}
		y[i] = float64(i % 5)
	}
	mean := make([]float64, m)
	for i := range n {
		for l := range m {
			mean[l] += C[i*m+l] / n
		}
	}
	for _, shift := range [][]float64{nil, {1e3, 1e3, 1e3, 1e3}} {
		total, part := New(m, shift, true), New(m, shift, true)
		for lo := 0; lo < n; lo += 10 {
			hi := min(n, lo+10)
			if err := part.Block(append([]float64(nil), C[lo*m:hi*m]...), hi-lo, y[lo:hi], nil); err != nil {
				t.Fatal(err)
			}
			total.Add(part)
		}
		ty := append([]float64(nil), total.Ty...)
		var G, mu []float64
		if shift == nil {
			plain := append([]float64(nil), total.G...)
			full := (&Sums{M: m, G: plain}).Full()
			for a := range m {
				for b := range m {
					s := 0.0
					for i := range n {
						s += C[i*m+a] * C[i*m+b]
					}
					if math.Abs(full[a*m+b]-s) > 1e-9*s {
						t.Errorf("CᵀC[%d][%d] = %v, want %v", a, b, full[a*m+b], s)
					}
				}
			}
		}
		G, mu = total.Centred()
		for a := range m {
			if math.Abs(mu[a]-mean[a]) > 1e-9 {
				t.Errorf("shift %v: mean %d = %v, want %v", shift, a, mu[a], mean[a])
			}
			s := 0.0
			for i := range n {
				s += y[i] * C[i*m+a]
			}
			if math.Abs(ty[a]-s) > 1e-9*math.Abs(s) {
				t.Errorf("Ty[%d] = %v, want %v", a, ty[a], s)
			}
			for b := range m {
				s := 0.0
				for i := range n {
					s += (C[i*m+a] - mean[a]) * (C[i*m+b] - mean[b])
				}
				if tol := 1e-6 * math.Max(1, math.Abs(s)); shift != nil && math.Abs(G[a*m+b]-s) > 1e-9*math.Max(1, math.Abs(s)) || math.Abs(G[a*m+b]-s) > tol {
					t.Errorf("shift %v: centred CᵀC[%d][%d] = %v, want %v", shift, a, b, G[a*m+b], s)
				}
			}
		}
	}
}
