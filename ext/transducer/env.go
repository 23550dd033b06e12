// Package transducer is a connection's view of the transducer tables that
// rational kernels name (rational(fst=NAME)): it reads a table's rows
// through the connection, checks them, and keeps one fst.Table per content
// so that T∘T⁻¹ is composed once and reused until the rows change. It is
// the kernels.Env that functions and modules give their workspaces.
package transducer

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/fst"
	"github.com/ksql/ksql/internal/kernels"
)

// MaxRows bounds the rows read from one transducer table.
var MaxRows = &host.Setting{Name: "max_fst_rows", Default: 1_000_000, Min: 1, Max: 1 << 40,
	Doc: "largest transducer table (rows) that rational(fst=...) and transducer_weight read"}

// Env is one connection's transducer tables. Prepare reads them on the
// goroutine that runs the statement; Resolve, which kernels call from any
// worker, only returns what Prepare read, so that no worker ever runs SQL.
type Env struct {
	c    *host.Conn
	mu   sync.Mutex
	tabs map[string]*entry
}

var _ kernels.Env = (*Env)(nil)

type entry struct {
	stamp stamp
	sum   [32]byte
	tab   *fst.Table
}

// stamp says whether anything a table read could see has changed since:
// rows changed on this connection, a commit by another, a schema change.
// The row bound is part of it, so that a lowered bound applies at once.
type stamp struct{ changes, data, schema, maxRows int64 }

type envKey struct{}

// For returns connection c's Env.
func For(c *host.Conn) *Env {
	return c.Value(envKey{}, func() any { return &Env{c: c, tabs: map[string]*entry{}} }).(*Env)
}

// Prepare reads the transducer tables that spec refers to, unless nothing
// has changed since they were last read. It must run on the goroutine of
// the statement, before any evaluation of spec.
func (e *Env) Prepare(spec *kernels.Spec) error {
	var st stamp
	read := false
	for _, r := range spec.References() {
		if r.Kernel != "rational" || r.Param != kernels.FSTKind {
			continue
		}
		if !read {
			var err error
			if st, err = e.stamp(); err != nil {
				return err
			}
			read = true
		}
		if _, err := e.table(r.Name, st); err != nil {
			return err
		}
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

// Table returns the rows of the transducer table name as they are now.
func (e *Env) Table(name string) (*fst.Table, error) {
	st, err := e.stamp()
	if err != nil {
		return nil, err
	}
	return e.table(name, st)
}

// Resolve implements kernels.Env for tables Prepare has read.
func (e *Env) Resolve(kind, name string) (any, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if en, ok := e.tabs[name]; ok && kind == kernels.FSTKind {
		return en.tab, nil
	}
	return nil, fmt.Errorf("rational: fst=%s was not read before evaluation (a ksql bug)", name)
}

func (e *Env) stamp() (stamp, error) {
	st := stamp{maxRows: MaxRows.Get(e.c)}
	err := e.c.Query("SELECT total_changes(), (SELECT data_version FROM pragma_data_version), "+
		"(SELECT schema_version FROM pragma_schema_version)", nil, func(v []any) error {
		st.changes, _ = v[0].(int64)
		st.data, _ = v[1].(int64)
		st.schema, _ = v[2].(int64)
		return nil
	})
	return st, err
}

// table returns name's rows, re-reading them when st differs from the
// stamp of the last read and keeping the old fst.Table when they are the same.
func (e *Env) table(name string, st stamp) (*fst.Table, error) {
	e.mu.Lock()
	en := e.tabs[name]
	e.mu.Unlock()
	if en != nil && en.stamp == st {
		return en.tab, nil
	}
	rows, sum, err := e.read(name)
	if err != nil {
		e.mu.Lock()
		delete(e.tabs, name)
		e.mu.Unlock()
		return nil, err
	}
	if en == nil || en.sum != sum {
		en = &entry{sum: sum, tab: fst.NewTable(rows)}
		e.c.Stats.TransducerLoads.Add(1)
	} else {
		en = &entry{sum: sum, tab: en.tab}
	}
	en.stamp = st
	e.mu.Lock()
	e.tabs[name] = en
	e.mu.Unlock()
	return en.tab, nil
}

func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// read returns the rows of table name and a hash of their content.
func (e *Env) read(name string) ([]fst.Row, [32]byte, error) {
	max := MaxRows.Get(e.c)
	var rows []fst.Row
	h := sha256.New()
	var buf [8]byte
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
		for _, x := range []int64{r.Src, r.Dst, int64(math.Float64bits(r.Weight))} {
			binary.LittleEndian.PutUint64(buf[:], uint64(x))
			h.Write(buf[:])
		}
		fmt.Fprintf(h, "%t%d:%s%d:%s", r.Final, len(r.In), r.In, len(r.Out), r.Out)
		return nil
	})
	if err != nil {
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
		return nil, [32]byte{}, fmt.Errorf("rational(fst=%s): %w", name, err)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return rows, sum, nil
}
