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
)

// Label is a symbol id. Epsilon (0) is the empty string; symbols are
// positive.
type Label = int32

// Epsilon is the label of the empty string.
const Epsilon Label = 0

// NoLabel is what Symbols.Encode gives a symbol the table does not hold:
// no arc reads or writes it.
const NoLabel Label = -1

// Arc is a transition to state Dst reading In, writing Out, with weight W.
type Arc struct {
	In, Out Label
	Dst     int32
	W       float64
}

// FST is a weighted transducer with states 0 … NumStates()−1, start state
// 0 and arcs stored per source state. Every state lies on an accepting path
// (Builder and Compose remove the others). An FST is immutable and safe for
// concurrent use.
type FST struct {
	final []float64 // final weight per state, 0 if not final
	off   []int32   // arcs of state q are arcs[off[q]:off[q+1]]
	arcs  []Arc
	names []int64 // the caller's id of each state (Builder), for errors
}

// NumStates returns the number of states.
func (f *FST) NumStates() int { return len(f.final) }

// NumArcs returns the number of arcs.
func (f *FST) NumArcs() int { return len(f.arcs) }

// Arcs returns the arcs leaving state q; the caller must not modify them.
func (f *FST) Arcs(q int) []Arc { return f.arcs[f.off[q]:f.off[q+1]] }

// Final returns the final weight of state q (0: not final).
func (f *FST) Final(q int) float64 { return f.final[q] }

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
	g := &FST{final: f.final, off: f.off, names: f.names, arcs: make([]Arc, len(f.arcs))}
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
