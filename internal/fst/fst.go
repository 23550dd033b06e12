// Package fst is weighted finite-state transducers over the real
// (probability) semiring and the rational kernels built from them
// (Cortes, Haffner & Mohri 2004; lecture notes 002 §6.5).
//
// A transducer T maps a pair of strings (x, y) to T(x, y), the sum over its
// accepting paths with input x and output y of the product of the arc
// weights and the final weight. Symbols are integer Labels, 0 being ε (the
// empty string); a Symbols table maps the strings of a unit (code points or
// words, as internal/strkernel defines them) to Labels.
//
// The pieces, in the order a rational kernel uses them:
//
//   - Builder validates arcs and final weights given as rows and returns an
//     FST: start state 0, states that lie on no accepting path removed.
//     TableBuilder does the same from rows whose symbols are strings.
//   - Compose is composition with the ε-filter of the notes (each
//     ε-matching counted once); Invert swaps input and output.
//   - PathSum sums the accepting paths of an acyclic FST by one topological
//     pass; Acceptor is the one-path machine of a string. So
//     T(x, y) = PathSum(A_x ∘ T ∘ A_y), as the notes compute it.
//   - Machine computes the same sum without building A_x ∘ T ∘ A_y: a
//     dynamic programme over (position in x, state, position in y), with a
//     reusable Workspace and an extended exponent, so that values beyond
//     float64 stay exact to rounding (see machine.go).
//   - Kernel is the rational kernel K(s, t) = (T∘T⁻¹)(s, t): T∘T⁻¹ is
//     composed once, every pair is a Machine evaluation.
//   - Gappy is the gappy n-gram kernel, by counting transducers through the
//     same engine (GappyTransducer) or by a dedicated dynamic programme.
//   - ReadText and WriteText read and write AT&T / OpenFst text.
//
// Nothing here knows SQL: errors are typed values with fields (errors.go),
// for the caller to put into words.
package fst

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// Label is a symbol id. Epsilon (0) is the empty string; symbols are
// positive.
type Label = int32

// Epsilon is the label of the empty string.
const Epsilon Label = 0

// NoLabel is what Symbols.Encode gives a symbol the table does not hold:
// no arc reads or writes it.
const NoLabel Label = -1

// Arc is a transition to state Dst reading In, writing Out, with weight
// W·2^E. E is 0 but on arcs that Compose made from weights whose product
// leaves the range of float64 (two arcs of 1e200): such a weight is kept
// exactly rather than as +Inf or 0.
type Arc struct {
	In, Out Label
	Dst     int32
	E       int32
	W       float64
}

// FST is a weighted transducer with states 0 … NumStates()−1, start state
// 0 and arcs stored per source state. Every state lies on an accepting path
// (Builder and Compose remove the others). An FST is immutable and safe for
// concurrent use.
type FST struct {
	final  []float64 // final weight per state, 0 if not final
	finalE []int32   // nil, or the final weight of q is final[q]·2^finalE[q] (see Arc.E)
	off    []int32   // arcs of state q are arcs[off[q]:off[q+1]]
	arcs   []Arc
	names  []int64 // the caller's id of each state (Builder), for errors
}

// NumStates returns the number of states.
func (f *FST) NumStates() int { return len(f.final) }

// NumArcs returns the number of arcs.
func (f *FST) NumArcs() int { return len(f.arcs) }

// Arcs returns the arcs leaving state q; the caller must not modify them.
func (f *FST) Arcs(q int) []Arc { return f.arcs[f.off[q]:f.off[q+1]] }

// Final returns the final weight of state q (0: not final), ±Inf or 0
// past the range of float64 (see FinalX).
func (f *FST) Final(q int) float64 { return f.FinalX(q).Float64() }

// FinalX returns the final weight of state q with its whole exponent.
func (f *FST) FinalX(q int) xfloat.F {
	if f.finalE == nil {
		return xfloat.New(f.final[q])
	}
	return xfloat.Make(f.final[q], int64(f.finalE[q]))
}

// finalW returns the final weight of state q as w·2^e.
func (f *FST) finalW(q int32) (float64, int32) {
	if f.finalE == nil {
		return f.final[q], 0
	}
	return f.final[q], f.finalE[q]
}

// Weight returns a's weight with its whole exponent.
func (a Arc) Weight() xfloat.F { return xfloat.Make(a.W, int64(a.E)) }

// mulW returns the product of the weights w1·2^e1 and w2·2^e2 as w·2^e:
// the float64 product itself with e = 0 when that is exact to rounding (a
// normal float64, or 0 for a factor 0), else the product of the
// mantissas, so that nothing overflows to +Inf or underflows to 0.
func mulW(w1 float64, e1 int32, w2 float64, e2 int32) (float64, int32) {
	p := w1 * w2
	if e1 == 0 && e2 == 0 {
		if a := math.Abs(p); a >= 0x1p-1022 && a <= math.MaxFloat64 || w1 == 0 || w2 == 0 {
			return p, 0
		}
	}
	if w1 == 0 || w2 == 0 {
		return 0, 0
	}
	m1, x1 := math.Frexp(w1)
	m2, x2 := math.Frexp(w2)
	return m1 * m2, int32(x1) + int32(x2) + e1 + e2
}

// Name returns the caller's id of state q: the id given to the Builder, or
// q itself for a machine made by Compose.
func (f *FST) Name(q int) int64 {
	if f.names == nil {
		return int64(q)
	}
	return f.names[q]
}

// names of a list of states, for errors.
func (f *FST) nameList(qs []int32) []int64 {
	out := make([]int64, len(qs))
	for i, q := range qs {
		out[i] = f.Name(int(q))
	}
	return out
}

// HasNegative reports whether an arc or final weight is negative. T(x, y)
// may then be negative; (T∘T⁻¹) is positive semi-definite all the same.
func (f *FST) HasNegative() bool {
	for _, a := range f.arcs {
		if a.W < 0 {
			return true
		}
	}
	for _, w := range f.final {
		if w < 0 {
			return true
		}
	}
	return false
}

// Invert returns T⁻¹: every arc with input and output swapped, so that
// T⁻¹(y, x) = T(x, y).
func (f *FST) Invert() *FST {
	g := &FST{final: f.final, finalE: f.finalE, off: f.off, names: f.names, arcs: make([]Arc, len(f.arcs))}
	for i, a := range f.arcs {
		a.In, a.Out = a.Out, a.In
		g.arcs[i] = a
	}
	return g
}

// Acceptor returns the machine with one path, reading and writing x, of
// weight 1 (A_x of the notes). Labels must be positive.
func Acceptor(x []Label) *FST {
	n := len(x)
	f := &FST{final: make([]float64, n+1), off: make([]int32, n+2), arcs: make([]Arc, n)}
	for i, l := range x {
		f.arcs[i] = Arc{In: l, Out: l, Dst: int32(i + 1), W: 1}
		f.off[i+1] = int32(i + 1)
	}
	f.off[n+1] = int32(n)
	f.final[n] = 1
	return f
}

// String returns a short description, for test failures.
func (f *FST) String() string {
	return fmt.Sprintf("FST(%d states, %d arcs)", f.NumStates(), f.NumArcs())
}

func finite(w float64) bool { return !math.IsInf(w, 0) && !math.IsNaN(w) }
