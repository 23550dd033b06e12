// Package transducer is a connection's view of the transducer tables that
// rational kernels name (rational(fst=NAME)): it reads a table's rows
// through the connection, checks them, and keeps one fst.Table per content
// so that T∘T⁻¹ is composed once and reused until the rows change. It is
// the kernels.Env that functions and modules give their workspaces.
package transducer

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/fst"
	"github.com/ksql/ksql/internal/kernels"
)

// MaxRows bounds the rows read from one transducer table.
var MaxRows = &host.Setting{Name: "max_fst_rows", Default: 1_000_000, Min: 1, Max: 1 << 40,
	Doc: "largest transducer table (rows) that rational(fst=...) and transducer_weight read"}

// MaxBytes bounds the memory of one composed transducer T∘T⁻¹ (its states
// and arcs while it is built and compiled).
var MaxBytes = &host.Setting{Name: "max_fst_bytes", Default: 1 << 30, Min: 1 << 10, Max: 1 << 50,
	Doc: "largest composed transducer T∘T⁻¹ (bytes) that rational(fst=...) builds"}

// Env is one connection's transducer tables. Prepare reads them on the
// goroutine that runs the statement; Resolve, which kernels call from any
// worker, only returns what Prepare read, so that no worker ever runs SQL.
//
// Every Prepare reads the rows again, through SQL, and keys what it keeps
// on their content: nothing cheaper tells the table as SQL sees it now. A
// ROLLBACK restores rows without moving any counter (total_changes,
// data_version), a TEMP table shadows a main one, another connection
// commits to an attached database whose data_version the main one does
// not share. Reading costs O(rows); composing T∘T⁻¹, far dearer, happens
// only for a content not seen last time.
type Env struct {
	c    *host.Conn
	mu   sync.Mutex
	tabs map[string]*entry
}

var _ kernels.Env = (*Env)(nil)

type entry struct {
	sum  [32]byte
	tab  *fst.Table
	stmt uint64 // the statement (host.Conn.Statement) of the last read, for PrepareCall
}

type envKey struct{}

// For returns connection c's Env.
func For(c *host.Conn) *Env {
	return c.Value(envKey{}, func() any { return &Env{c: c, tabs: map[string]*entry{}} }).(*Env)
}

// Prepare reads the transducer tables that spec refers to. It must run on
// the goroutine of the statement, before any evaluation of spec.
func (e *Env) Prepare(spec *kernels.Spec) error { return e.prepare(spec, 0) }

// PrepareCall is Prepare for one call of a scalar function: a table it
// read earlier in the same statement (host.Conn.Statement) is not read
// again, so a self-join reads it once, not once per pair.
func (e *Env) PrepareCall(spec *kernels.Spec) error { return e.prepare(spec, e.c.Statement()) }

// prepare reads spec's tables, those already read in statement stmt
// excepted (0: every one).
func (e *Env) prepare(spec *kernels.Spec, stmt uint64) error {
	var done []string
	for _, r := range spec.References() {
		if r.Kernel != "rational" || r.Param != kernels.FSTKind || slices.Contains(done, r.Name) {
			continue
		}
		if _, err := e.table(r.Name, stmt); err != nil {
			return err
		}
		done = append(done, r.Name)
	}
	return nil
}

// Digest prepares spec's transducer tables (as Prepare) and returns a hash
// of their content, empty when spec names none: a fit made with spec
// depends on it as on its source.
func (e *Env) Digest(spec *kernels.Spec) ([]byte, error) {
	if err := e.Prepare(spec); err != nil {
		return nil, err
	}
	var d []byte
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range spec.References() {
		if en, ok := e.tabs[r.Name]; ok && r.Kernel == "rational" {
			d = append(d, en.sum[:]...)
		}
	}
	return d, nil
}

// TableCall returns the rows of the transducer table name as they are now,
// for one call of a scalar function: as PrepareCall, a table read earlier
// in the same statement is not read again.
func (e *Env) TableCall(name string) (*fst.Table, error) { return e.table(name, e.c.Statement()) }

// Resolve implements kernels.Env for tables Prepare has read.
func (e *Env) Resolve(kind, name string) (any, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if en, ok := e.tabs[name]; ok && kind == kernels.FSTKind {
		return en.tab, nil
	}
	return nil, fmt.Errorf("rational: fst=%s was not read before evaluation (a ksql bug)", name)
}

// table reads name's rows and returns the fst.Table of their content: the
// one kept from the last read when the content is the same, or without a
// read when stmt (not 0) is the statement of the last read.
func (e *Env) table(name string, stmt uint64) (*fst.Table, error) {
	if stmt != 0 {
		e.mu.Lock()
		en := e.tabs[name]
		e.mu.Unlock()
		if en != nil && en.stmt == stmt {
			return en.tab, nil
		}
	}
	rows, sum, err := e.read(name)
	e.c.Stats.TransducerReads.Add(1)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		delete(e.tabs, name)
		return nil, err
	}
	en := e.tabs[name]
	if en == nil || en.sum != sum {
		en = &entry{sum: sum, tab: fst.NewTable(rows)}
		e.tabs[name] = en
		e.c.Stats.TransducerLoads.Add(1)
	}
	en.tab.SetMaxBytes(MaxBytes.Get(e.c))
	en.stmt = stmt
	return en.tab, nil
}

func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// read returns the rows of table name and a hash of their content. A
// table whose rows, read through SQL, need name itself again (a view
// calling rational(fst=name) or transducer_weight over name) meets
// host.Conn.Query's refusal of a statement running inside itself, which
// this words for every read on the way up.
func (e *Env) read(name string) ([]fst.Row, [32]byte, error) {
	max := MaxRows.Get(e.c)
	var rows []fst.Row
	var enc []byte
	h := sha256.New()
	q := "SELECT src, dst, input, output, weight FROM " + quote(name)
	err := e.c.Query(q, nil, func(v []any) error {
		if int64(len(rows)) >= max {
			return fmt.Errorf("the table has more than max_fst_rows = %d rows; raise it with ksql_config('max_fst_rows', N)", max)
		}
		r, err := row(v)
		if err != nil {
			return fmt.Errorf("row %d: %v", len(rows)+1, err)
		}
		rows = append(rows, r)
		enc = encode(enc[:0], &r)
		h.Write(enc)
		return nil
	})
	if err != nil {
		var re *host.RecursionError
		if errors.As(err, &re) && re.Again && re.Words == "" {
			re.Words = fmt.Sprintf("the table %s reads itself: reading its rows calls rational(fst=%s) or transducer_weight('%s', ...) again",
				name, name, name)
		}
		return nil, [32]byte{}, readError(name, err)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return rows, sum, nil
}

// encode appends what the content hash covers of one row (the bytes that
// stored fits were hashed with: keep them).
func encode(b []byte, r *fst.Row) []byte {
	for _, x := range []int64{r.Src, r.Dst, int64(math.Float64bits(r.Weight))} {
		b = binary.LittleEndian.AppendUint64(b, uint64(x))
	}
	b = strconv.AppendBool(b, r.Final)
	b = strconv.AppendInt(b, int64(len(r.In)), 10)
	b = append(append(b, ':'), r.In...)
	b = strconv.AppendInt(b, int64(len(r.Out)), 10)
	return append(append(b, ':'), r.Out...)
}

// readError words the failure of reading table name.
func readError(name string, err error) error {
	if errors.Is(err, host.ErrInterrupted) {
		return err
	}
	switch msg := err.Error(); {
	case strings.Contains(msg, "no such table"):
		err = fmt.Errorf("no table %s (a transducer is a table of arcs: src, dst, input, output, weight)", name)
	case strings.Contains(msg, "no such column"):
		msg = msg[strings.Index(msg, "no such column"):]
		if i := strings.Index(msg, " ("); i >= 0 {
			msg = msg[:i] // the driver's result code
		}
		err = fmt.Errorf("%s (a transducer table has columns src, dst, input, output, weight)", msg)
	}
	return fmt.Errorf("rational(fst=%s): %w", name, err)
}
