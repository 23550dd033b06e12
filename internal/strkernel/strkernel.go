// Package strkernel computes string kernels exactly: the all-subsequences
// kernel, its fixed-length variant, the gap-weighted subsequence kernel of
// Lodhi et al. (2002) and the n-gram (spectrum) kernel.
//
// Symbols are Unicode code points (Unit Char) or words (Unit Word); see
// Decode for how a string becomes a sequence of symbols.
//
// # Values and range
//
// Eval returns an xfloat.F, a float64 mantissa with a separate exponent, so a
// value never overflows: the all-subsequences kernel of two 5,000-character
// texts is about 2^7000. Inside the dynamic programmes every table cell
// carries its own exponent in steps of 2^512 (see cell.go). All quantities
// summed are non-negative, so rounding errors stay relative: the result has
// a relative error of a few units in the last place times the length of the
// longest chain of additions, about (|s|+|t|)·2^-53. Integer-valued results
// below 2^53 (subseq, subseq(p), ssk with lambda = 1, ngram) are exact.
//
// # Cost and bounds
//
// Work is measured in table cells, documented per kernel on Eval. Limits
// bound the cells per call and let a caller cancel a long call.
package strkernel

import (
	"fmt"
	"math"
	"slices"

	"github.com/ksql/ksql/internal/xfloat"
)

// Unit is what a symbol of a string is.
type Unit int

const (
	// Char makes every Unicode code point a symbol.
	Char Unit = iota
	// Word makes every word a symbol; see Decode for what a word is.
	Word
)

// String returns "char" or "word", the spelling of the spec language.
func (u Unit) String() string {
	switch u {
	case Char:
		return "char"
	case Word:
		return "word"
	}
	return fmt.Sprintf("Unit(%d)", int(u))
}

// Kind selects a string kernel.
type Kind int

const (
	// Subseq is the all-subsequences kernel (P = 0) or its restriction to
	// common subsequences of length exactly P.
	Subseq Kind = iota
	// SSK is the gap-weighted subsequence kernel of Lodhi et al. (2002).
	SSK
	// NGram is the spectrum kernel over contiguous n-grams.
	NGram
)

// String returns the spec-language name of the kind.
func (k Kind) String() string {
	switch k {
	case Subseq:
		return "subseq"
	case SSK:
		return "ssk"
	case NGram:
		return "ngram"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Params selects a kernel and its parameters. Fields a kind does not use
// are ignored.
type Params struct {
	Kind Kind
	// P is the subsequence length: for Subseq 0 means all lengths (the
	// empty subsequence included), otherwise exactly P ≥ 1; SSK needs P ≥ 1.
	P int
	// Lambda is SSK's gap decay, 0 < Lambda ≤ 1.
	Lambda float64
	// N is NGram's n-gram length, N ≥ 1.
	N int
	// Unit is the symbol unit; the sequences given to Eval must have been
	// decoded with the same unit.
	Unit Unit
}

// Validate reports the first parameter out of range, naming it and the
// range allowed.
func (p Params) Validate() error {
	if p.Unit != Char && p.Unit != Word {
		return fmt.Errorf("unit must be char or word, got %v", p.Unit)
	}
	switch p.Kind {
	case Subseq:
		if p.P < 0 {
			return fmt.Errorf("p must be a positive integer (or omitted for all lengths), got %d", p.P)
		}
	case SSK:
		if p.P < 1 {
			return fmt.Errorf("p must be a positive integer, got %d", p.P)
		}
		if !(p.Lambda > 0 && p.Lambda <= 1) {
			return fmt.Errorf("lambda must be in (0, 1], got %v", p.Lambda)
		}
	case NGram:
		if p.N < 1 {
			return fmt.Errorf("n must be a positive integer, got %d", p.N)
		}
	default:
		return fmt.Errorf("unknown string kernel kind %d (allowed: subseq, ssk, ngram)", int(p.Kind))
	}
	return nil
}

// Limits bounds one Eval call.
type Limits struct {
	// MaxCells bounds the table cells of one call (see Eval); 0 means no
	// bound.
	MaxCells int64
	// Check, if not nil, is called about every 2^20 cells of work; a non-nil
	// error stops the call and Eval returns it unchanged.
	Check func() error
}

// LimitError is returned when a call would need more than Limits.MaxCells
// table cells.
type LimitError struct{ Cells, Max int64 }

// Error says how many cells the call needs and the bound it passed; the
// SQL layer adds the name of the setting that holds the bound.
func (e *LimitError) Error() string {
	return fmt.Sprintf("the string kernel table would need %d cells, more than the bound of %d", e.Cells, e.Max)
}

// checkEvery is how many cells of work pass between calls of Limits.Check.
const checkEvery = 1 << 20

// poller calls Limits.Check about every checkEvery cells.
type poller struct {
	check func() error
	work  int64
}

// add records cells of work and polls when enough has accumulated.
func (p *poller) add(cells int) error {
	if p.check == nil {
		return nil
	}
	p.work += int64(cells)
	if p.work < checkEvery {
		return nil
	}
	p.work = 0
	return p.check()
}

// Workspace holds the buffers of Eval so that repeated calls allocate
// nothing once the buffers have grown. The zero value is ready; a Workspace
// must not be used by two goroutines at once.
type Workspace struct {
	f64 []float64
	i32 []int32
	a   []int32 // word ids of the first sequence
	b   []int32 // word ids of the second sequence
	wid map[string]int32

	gram    table // n-grams
	symTab  table // distinct symbols
	ids     []int32
	count   []int64
	occ     occurrences
	scratch []int32
}

// floats returns a zeroed-or-not buffer of n float64s; callers initialise it.
func (ws *Workspace) floats(n int) []float64 {
	if cap(ws.f64) < n {
		ws.f64 = make([]float64, n)
	}
	return ws.f64[:n]
}

// ints returns a buffer of n int32s; callers initialise it.
func (ws *Workspace) ints(n int) []int32 {
	if cap(ws.i32) < n {
		ws.i32 = make([]int32, n)
	}
	return ws.i32[:n]
}

// Eval computes the kernel p between a and b.
//
// Cells, the unit of Limits.MaxCells, are |s|·|t| for the all-subsequences
// kernel, P·|s|·|t| for subseq(p) and ssk, and |s|+|t| for ngram, where |s|
// is the number of symbols. Trivial cases (an empty sequence, P or N longer
// than a sequence) need no table and are never refused.
//
// Memory, besides the sequences, is O(P·min(|s|, |t|)) for the dynamic
// programmes and O(|s|+|t|) for ngram, kept in ws for the next call. ws may be nil (a temporary workspace is used).
func Eval(p Params, a, b Seq, ws *Workspace, lim Limits) (xfloat.F, error) {
	if err := p.Validate(); err != nil {
		return xfloat.F{}, err
	}
	if a.Len() > 0 && a.unit != p.Unit || b.Len() > 0 && b.unit != p.Unit {
		return xfloat.F{}, fmt.Errorf("sequences decoded as %v and %v cannot be compared with unit=%v",
			a.unit, b.unit, p.Unit)
	}
	if ws == nil {
		ws = new(Workspace)
	}
	s, t := ws.symbols(a, b)
	// The dynamic programmes keep rows as long as the shorter sequence. A
	// fixed order also for equal lengths makes K(a, b) and K(b, a) the same
	// bits, so that Gram matrices are exactly symmetric.
	if len(s) < len(t) || len(s) == len(t) && slices.Compare(s, t) < 0 {
		s, t = t, s
	}
	m, n := len(s), len(t)
	switch {
	case p.Kind == Subseq && p.P == 0:
		if n == 0 {
			return xfloat.New(1), nil
		}
		if err := p.limit(lim, mulSat(int64(m), int64(n))); err != nil {
			return xfloat.F{}, err
		}
		return subseqAll(s, t, ws, lim)
	case p.Kind == NGram:
		if n < p.N {
			return xfloat.F{}, nil
		}
		if err := p.limit(lim, int64(m)+int64(n)); err != nil {
			return xfloat.F{}, err
		}
		return ngram(s, t, p.N, ws, lim)
	}
	if n < p.P {
		return xfloat.F{}, nil
	}
	if err := p.limit(lim, mulSat(mulSat(int64(p.P), int64(m)), int64(n))); err != nil {
		return xfloat.F{}, err
	}
	lambda := 1.0
	if p.Kind == SSK {
		lambda = p.Lambda
	}
	return layered(s, t, p.P, lambda, ws, lim)
}

// limit refuses a call needing more cells than lim allows.
func (p Params) limit(lim Limits, cells int64) error {
	if lim.MaxCells > 0 && cells > lim.MaxCells {
		return &LimitError{Cells: cells, Max: lim.MaxCells}
	}
	return nil
}

// mulSat multiplies non-negative a and b, saturating at MaxInt64.
func mulSat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
