package fst

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/ksql/ksql/internal/strkernel"
)

// Row is one row of a transducer table: an arc Src → Dst reading In and
// writing Out ("" is ε) with weight Weight, or, when Final, the final
// weight of state Src.
type Row struct {
	Src, Dst int64
	Final    bool
	In, Out  string
	Weight   float64
}

// Table is the content of a transducer table, with the transducer and the
// rational kernel of each unit built from it on first use and kept: a
// caller that keeps one Table per content composes T∘T⁻¹ once. It is safe
// for concurrent use.
type Table struct {
	rows     []Row
	mu       sync.Mutex
	units    [2]tableUnit
	maxBytes atomic.Int64 // Bound.MaxBytes of the compositions (0: none)
}

type tableUnit struct {
	t    *Transducer
	terr error
	k    *Kernel
	kerr error // a property of the rows, kept; bounds and interrupts are not
}

// NewTable returns the table of rows; it keeps rows.
func NewTable(rows []Row) *Table { return &Table{rows: rows} }

// SetMaxBytes sets the bound on the memory of the compositions that Kernel
// makes from now on (see Bound; 0: none).
func (t *Table) SetMaxBytes(n int64) { t.maxBytes.Store(n) }

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.rows) }

// Transducer returns the rows' transducer for unit u, built once. Its
// errors are TableBuilder's; Row fields count rows from 1 in table order.
func (t *Table) Transducer(u strkernel.Unit) (*Transducer, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.transducer(u)
}

func (t *Table) transducer(u strkernel.Unit) (*Transducer, error) {
	tu := &t.units[unitIndex(u)]
	if tu.t == nil && tu.terr == nil {
		b := NewTableBuilder(u)
		for _, r := range t.rows {
			var err error
			if r.Final {
				err = b.Final(r.Src, r.Weight)
			} else {
				err = b.Arc(r.Src, r.Dst, r.In, r.Out, r.Weight)
			}
			if err != nil {
				tu.terr = err
				return nil, err
			}
		}
		tu.t, tu.terr = b.Build()
	}
	return tu.t, tu.terr
}

// Kernel returns the rational kernel T∘T⁻¹ of the rows for unit u,
// composed once, within the bound of SetMaxBytes (lim.MaxCells bounds each
// pair, not the composition), lim.Check polled. A composition past the
// bound or interrupted is not kept, so a later call with a larger bound
// can succeed.
func (t *Table) Kernel(u strkernel.Unit, lim strkernel.Limits) (*Kernel, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tu := &t.units[unitIndex(u)]
	if tu.k != nil || tu.kerr != nil {
		return tu.k, tu.kerr
	}
	tr, err := t.transducer(u)
	if err != nil {
		return nil, err
	}
	k, err := NewKernel(tr, Bound{MaxBytes: t.maxBytes.Load(), Check: lim.Check})
	var cyc *EpsilonCycleError
	if err == nil || errors.As(err, &cyc) {
		tu.k, tu.kerr = k, err
	}
	return k, err
}

func unitIndex(u strkernel.Unit) int {
	if u == strkernel.Word {
		return 1
	}
	return 0
}
