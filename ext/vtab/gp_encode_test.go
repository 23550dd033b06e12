package vtab

import (
	"math"
	"testing"

	"github.com/ksql/ksql/internal/gp"
)

// TestGPFactorParts: the stored factor splits into parts of at most
// gpFactorPart bytes, named in order, and reads back to the same upper
// triangle bit for bit (the strict lower triangle, never read, comes back
// zero); a missing or short part is refused.
func TestGPFactorParts(t *testing.T) {
	defer func(old int) { gpFactorPart = old }(gpFactorPart)
	const n = 5
	U := make([]float64, n*n)
	for i := range U {
		U[i] = math.Sqrt(float64(i + 1))
	}
	for _, tc := range []struct{ part, parts int }{{1 << 28, 1}, {40, 3}, {8, 15}} {
		gpFactorPart = tc.part
		fit := &gpFit{model: &gp.Model{N: n, U: U, Alpha: make([]float64, n), YScale: 1}, pred: make([]float64, n), std: make([]float64, n)}
		parts, err := fit.encode()
		if err != nil {
			t.Fatal(err)
		}
		s := &storedFit{parts: parts}
		if len(parts) != tc.parts+1 || parts[tc.parts-1].name != gpFactorName(tc.parts-1) {
			t.Fatalf("part size %d: %d parts, want %d factor parts and gp", tc.part, len(parts), tc.parts)
		}
		back, err := gpFactor(s, tc.parts, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := 0.0
				if j >= i {
					want = U[i*n+j]
				}
				if math.Float64bits(back[i*n+j]) != math.Float64bits(want) {
					t.Fatalf("part size %d: (%d, %d) = %v, want %v", tc.part, i, j, back[i*n+j], want)
				}
			}
		}
		if _, err := gpFactor(s, tc.parts+1, n); err == nil {
			t.Fatalf("part size %d: a missing part was not refused", tc.part)
		}
		if _, err := gpFactor(s, tc.parts, n+1); err == nil {
			t.Fatalf("part size %d: a short factor was not refused", tc.part)
		}
	}
}
