package kernels

import (
	"bytes"
	"cmp"
	"github.com/ksql/ksql/internal/strkernel"
	"math"
	"slices"
	"strings"
)

// Every kernel of the language is symmetric, but the rounding of a
// computation need not be: a product's distance identities, say, use
// K(a,a) − K(b,b) in one order. Eval and Distance therefore put each pair
// in one canonical order first, so that K(a, b) and K(b, a) are the same
// bits (a fuzz target found a last-bit difference under gauss(over=…*…)).

// canonical returns a and b in the order of compareObjects.
func canonical(a, b *Object) (*Object, *Object) {
	if a != b && compareObjects(a, b) > 0 {
		return b, a
	}
	return a, b
}

// compareObjects orders objects by content: strings by their symbols,
// vectors by length, then values (float64 vectors before float32 BLOBs).
// Usually the first symbol or value decides.
func compareObjects(a, b *Object) int {
	if a.isStr || b.isStr {
		for u := range strkernel.Unit(2) {
			x, y := a.Seq(u), b.Seq(u)
			if c := slices.Compare(x.Chars(), y.Chars()); c != 0 {
				return c
			}
			if c := slices.CompareFunc(x.Words(), y.Words(), strings.Compare); c != 0 {
				return c
			}
		}
		return 0
	}
	x, y := a.Vec, b.Vec
	if c := cmp.Compare(x.Len(), y.Len()); c != 0 {
		return c
	}
	switch {
	case x.F32 == nil && y.F32 == nil:
		return slices.CompareFunc(x.F64, y.F64, func(p, q float64) int {
			return cmp.Compare(math.Float64bits(p), math.Float64bits(q))
		})
	case x.F32 != nil && y.F32 != nil:
		return bytes.Compare(x.F32, y.F32)
	case x.F32 == nil:
		return -1
	}
	return 1
}
