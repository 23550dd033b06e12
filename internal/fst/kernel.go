package fst

import (
	"slices"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// TableBuilder builds a Transducer from rows whose symbols are strings of
// one unit, as an arcs table holds them: "" is ε, any other symbol must be
// exactly one code point (unit=char) or one word (unit=word). The caller
// maps SQL NULLs (ε for symbols, 1 for weights, "final" for a NULL dst)
// and refuses NULL or non-integer states before calling.
type TableBuilder struct {
	b    Builder
	syms *Symbols
}

// NewTableBuilder returns a builder for unit u.
func NewTableBuilder(u strkernel.Unit) *TableBuilder {
	return &TableBuilder{syms: NewSymbols(u)}
}

// Arc adds the arc src → dst reading in, writing out, of weight w. Besides
// the errors of Builder.AddArc it returns a *SymbolError for a symbol that
// is not one symbol of the unit.
func (t *TableBuilder) Arc(src, dst int64, in, out string, w float64) error {
	li, err := t.symbol(in, false)
	if err == nil {
		var lo Label
		if lo, err = t.symbol(out, true); err == nil {
			return t.b.AddArc(src, dst, li, lo, w)
		}
	}
	t.b.row++ // the row is counted all the same
	return err
}

func (t *TableBuilder) symbol(s string, output bool) (Label, error) {
	l, err := t.syms.Intern(s)
	if se, ok := err.(*SymbolError); ok {
		se.Row, se.Output = t.b.row+1, output
	}
	return l, err
}

// Final makes state q final with weight w (added to any weight it has).
func (t *TableBuilder) Final(q int64, w float64) error { return t.b.AddFinal(q, w) }

// Build returns the transducer; see Builder.Build for its errors. A
// transducer with an ε:ε cycle is built (its kernel may still be refused,
// or not), but its Weight returns the cycle's *EpsilonCycleError.
func (t *TableBuilder) Build() (*Transducer, error) {
	f, err := t.b.Build()
	if err != nil {
		return nil, err
	}
	return NewTransducer(f, t.syms), nil
}

// Transducer is an FST with the symbol table of its labels. It is
// immutable and safe for concurrent use.
type Transducer struct {
	fst  *FST
	syms *Symbols
	m    *Machine
	merr error
}

// NewTransducer pairs f with the table its labels come from.
func NewTransducer(f *FST, syms *Symbols) *Transducer {
	m, err := Compile(f)
	return &Transducer{fst: f, syms: syms, m: m, merr: err}
}

// FST returns the transducer's machine.
func (t *Transducer) FST() *FST { return t.fst }

// Symbols returns the transducer's symbol table.
func (t *Transducer) Symbols() *Symbols { return t.syms }

// Weight returns T(x, y), the strings split into symbols of the table's
// unit; see Machine.Weight for the bound and the workspace. A transducer
// with an ε:ε cycle returns its *EpsilonCycleError.
func (t *Transducer) Weight(x, y string, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if t.merr != nil {
		return xfloat.F{}, t.merr
	}
	if ws == nil {
		ws = new(Workspace)
	}
	ws.la = t.syms.Encode(ws.la, x)
	ws.lb = t.syms.Encode(ws.lb, y)
	return t.m.Weight(ws.la, ws.lb, ws, lim)
}

// Rational returns T∘T⁻¹, (T∘T⁻¹)(x, y) = Σ_z T(x, z)·T(y, z), composed with
// the ε-filter. It returns an *EpsilonCycleError (InputOnly) when T has a
// cycle reading ε: T∘T⁻¹ would pair it with itself into an ε:ε cycle, and
// the sum over z would be infinite. lim bounds the composition (a
// *SizeError).
func Rational(f *FST, lim Bound) (*FST, error) {
	if err := epsCycle(f, true); err != nil {
		return nil, err
	}
	return Compose(f, f.Invert(), lim)
}

// Kernel is the rational kernel K(s, t) = (T∘T⁻¹)(s, t) of a transducer T,
// positive semi-definite for every T (negative weights included). T∘T⁻¹ is
// composed once, in NewKernel; each pair is then the dynamic programme of
// Machine, O(|T∘T⁻¹|·|s|·|t|). A Kernel is immutable and safe for
// concurrent use, each goroutine with its own Workspace.
type Kernel struct {
	syms *Symbols
	u    *FST
	m    *Machine
}

// NewKernel composes T∘T⁻¹ for t; see Rational for its errors.
func NewKernel(t *Transducer, lim Bound) (*Kernel, error) {
	k, err := NewKernelFST(t.fst, lim)
	if err != nil {
		return nil, err
	}
	k.syms = t.syms
	return k, nil
}

// NewKernelFST is NewKernel for a machine without a symbol table: Eval is
// then unavailable and EvalLabels takes labels.
func NewKernelFST(f *FST, lim Bound) (*Kernel, error) {
	u, err := Rational(f, lim)
	if err != nil {
		return nil, err
	}
	m, err := Compile(u)
	if err != nil {
		return nil, err // cannot happen: Rational refused the cause
	}
	return &Kernel{u: u, m: m}, nil
}

// U returns T∘T⁻¹.
func (k *Kernel) U() *FST { return k.u }

// Machine returns T∘T⁻¹ compiled.
func (k *Kernel) Machine() *Machine { return k.m }

// Eval returns K(s, t), the strings split into symbols of T's unit. A
// symbol T does not read makes K 0. Cells (the unit of lim.MaxCells) are
// (|s|+1)·(|t|+1)·|states of T∘T⁻¹|.
func (k *Kernel) Eval(s, t string, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if ws == nil {
		ws = new(Workspace)
	}
	ws.la = k.syms.Encode(ws.la, s)
	ws.lb = k.syms.Encode(ws.lb, t)
	return k.EvalLabels(ws.la, ws.lb, ws, lim)
}

// EvalSeq returns K(s, t) for strings already split into symbols of T's
// unit by strkernel.Decode.
func (k *Kernel) EvalSeq(s, t strkernel.Seq, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if ws == nil {
		ws = new(Workspace)
	}
	ws.la = k.syms.EncodeSeq(ws.la, s)
	ws.lb = k.syms.EncodeSeq(ws.lb, t)
	return k.EvalLabels(ws.la, ws.lb, ws, lim)
}

// EvalLabels returns K(a, b) for label sequences. K(a, b) and K(b, a) are
// the same bits: the pair is put in one order (the longer first, the
// shorter along the rows of the programme, which keeps them short).
func (k *Kernel) EvalLabels(a, b []Label, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if len(a) < len(b) || len(a) == len(b) && slices.Compare(a, b) < 0 {
		a, b = b, a
	}
	return k.m.Weight(a, b, ws, lim)
}
