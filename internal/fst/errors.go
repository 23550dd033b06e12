package fst

import (
	"fmt"
	"strings"

	"github.com/ksql/ksql/internal/strkernel"
)

// The errors of this package carry what was wrong as fields; their Error
// strings are plain statements that a caller (ext/) may use or reword.
// Rows are counted from 1 in the order the rows were given to a builder.

// StateError is a negative state id.
type StateError struct {
	Row   int
	State int64
}

func (e *StateError) Error() string {
	return fmt.Sprintf("row %d: state %d is negative (states are integers ≥ 0, 0 is the start)", e.Row, e.State)
}

// LabelError is a negative label on an arc given by integer labels.
type LabelError struct {
	Row   int
	Label Label
}

func (e *LabelError) Error() string {
	return fmt.Sprintf("row %d: label %d is negative (labels are integers ≥ 0, 0 is ε)", e.Row, e.Label)
}

// WeightError is a weight that is NaN or infinite.
type WeightError struct {
	Row    int
	Final  bool // a final weight rather than an arc's
	Weight float64
}

func (e *WeightError) Error() string {
	what := "arc"
	if e.Final {
		what = "final"
	}
	return fmt.Sprintf("row %d: %s weight %v is not a finite number", e.Row, what, e.Weight)
}

// NoFinalError: the rows give no final state with a non-zero weight, so T
// is 0 everywhere.
type NoFinalError struct{}

func (e *NoFinalError) Error() string {
	return "no final state with a non-zero weight"
}

// UnreachableFinalError lists final states that no path of non-zero arcs
// from the start state 0 reaches. It is an error rather than a warning: a
// final state that cannot be reached is almost always a mistyped state id,
// and ignoring it would return a silently different T.
type UnreachableFinalError struct {
	States []int64 // the caller's ids, ascending
}

func (e *UnreachableFinalError) Error() string {
	return fmt.Sprintf("final state%s %s cannot be reached from the start state 0",
		plural(len(e.States)), stateList(e.States))
}

// EpsilonCycleError is a cycle of non-zero arcs that reads no input and,
// unless InputOnly, writes no output: sums over the paths that go round it
// are infinite. For T(x, y) the cycle is an ε:ε cycle of T; for T∘T⁻¹
// (InputOnly) it is any cycle of T reading ε, since T∘T⁻¹ pairs it with
// itself into an ε:ε cycle.
type EpsilonCycleError struct {
	States    []int64 // the caller's ids, in the order of the cycle
	InputOnly bool
}

func (e *EpsilonCycleError) Error() string {
	what := "ε:ε arcs"
	if e.InputOnly {
		what = "arcs reading ε"
	}
	return fmt.Sprintf("a cycle of %s with non-zero weight through states %s makes the sum over paths infinite",
		what, cycleList(e.States))
}

// CycleError is a cycle in a machine that PathSum was asked to sum.
type CycleError struct {
	States []int64
}

func (e *CycleError) Error() string {
	return fmt.Sprintf("the machine has a cycle through states %s; PathSum needs an acyclic machine", cycleList(e.States))
}

// SizeError is a composition that would hold more than Bound.MaxBytes.
type SizeError struct {
	Bytes, Max int64 // Bytes: what the states and arcs made held when the bound was passed
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("the composed transducer would need more than %d bytes (the bound)", e.Max)
}

// SymbolError is a symbol text that is not exactly one symbol of the unit.
type SymbolError struct {
	Row     int
	Output  bool // the output symbol rather than the input one
	Text    string
	Unit    strkernel.Unit
	Symbols int // how many symbols of the unit Text holds (1: a word with separators)
}

func (e *SymbolError) Error() string {
	side := "input"
	if e.Output {
		side = "output"
	}
	if e.Symbols == 1 { // a word with separators around it
		return fmt.Sprintf("row %d: %s symbol %q holds characters that separate words; with unit=%v a symbol is one word",
			e.Row, side, e.Text, e.Unit)
	}
	return fmt.Sprintf("row %d: %s symbol %q is %d symbols with unit=%v, not one (ε is the empty string)",
		e.Row, side, e.Text, e.Symbols, e.Unit)
}

// TextError is a malformed line of AT&T / OpenFst text.
type TextError struct {
	Line   int
	Field  int    // 1-based field, 0 for the line as a whole
	Text   string // the offending field or line
	Reason string // what is allowed
}

func (e *TextError) Error() string {
	if e.Field == 0 {
		return fmt.Sprintf("line %d: %q: %s", e.Line, e.Text, e.Reason)
	}
	return fmt.Sprintf("line %d, field %d: %q: %s", e.Line, e.Field, e.Text, e.Reason)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// stateList writes at most 8 states.
func stateList(s []int64) string {
	var b strings.Builder
	for i, q := range s {
		if i == 8 {
			fmt.Fprintf(&b, " … (%d in all)", len(s))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, q)
	}
	return b.String()
}

// cycleList writes a cycle as 1 → 2 → 1.
func cycleList(s []int64) string {
	var b strings.Builder
	for _, q := range s {
		fmt.Fprintf(&b, "%d → ", q)
	}
	if len(s) > 0 {
		fmt.Fprint(&b, s[0])
	}
	return b.String()
}
