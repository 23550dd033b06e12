package ext

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
	_ "github.com/ksql/ksql/ext/vtab" // registers the virtual table modules
	sqlite "modernc.org/sqlite"
	_ "modernc.org/sqlite/vec" // sqlite-vec, as an auto extension
)

func init() {
	sql.Register(DriverName, &Driver{})
}

// Driver is the "ksql" database/sql driver. Its zero value is ready to use.
type Driver struct{}

// slot binds one modernc Driver's registered functions and modules to the
// connection it is currently serving. modernc registers functions and
// modules per Driver, not per connection, so ksql gives each open
// connection a Driver of its own (recycled when the connection closes) and
// the closures reach the connection through the slot.
type slot struct {
	drv *sqlite.Driver
	hc  *host.Conn
}

var slots = struct {
	sync.Mutex
	free []*slot
}{}

func getSlot() (*slot, error) {
	slots.Lock()
	if n := len(slots.free); n > 0 {
		s := slots.free[n-1]
		slots.free = slots.free[:n-1]
		slots.Unlock()
		return s, nil
	}
	slots.Unlock()
	s := &slot{drv: &sqlite.Driver{}}
	for _, f := range functions.All() {
		f := f
		err := s.drv.RegisterFunction(f.Name, &sqlite.FunctionImpl{
			NArgs:         -1,
			Deterministic: f.Deterministic,
			// ksql never retains an argument past the call (spec texts are
			// cloned before caching), so SQLite's buffers can be read in place.
			VolatileArgs: true,
			Scalar: func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
				return f.Call(s.hc, asAny(args))
			},
		})
		if err != nil {
			return nil, fmt.Errorf("ksql: registering %s: %w", f.Name, err)
		}
	}
	for name, m := range host.Modules() {
		if err := s.drv.RegisterModule(name, &moderncModule{m: m, slot: s}); err != nil {
			return nil, fmt.Errorf("ksql: registering module %s: %w", name, err)
		}
	}
	return s, nil
}

func putSlot(s *slot) {
	s.hc = nil
	slots.Lock()
	slots.free = append(slots.free, s)
	slots.Unlock()
}

// Open opens a connection; name is a modernc.org/sqlite data source name.
func (d *Driver) Open(name string) (driver.Conn, error) {
	s, err := getSlot()
	if err != nil {
		return nil, err
	}
	raw, err := s.drv.Open(name)
	if err != nil {
		putSlot(s)
		return nil, err
	}
	q, ok := raw.(driver.QueryerContext)
	if !ok {
		raw.Close()
		putSlot(s)
		return nil, fmt.Errorf("ksql: modernc connection does not implement QueryerContext")
	}
	s.hc = host.NewConn(host.QueryVia(q))
	if err := createEponymous(raw); err != nil {
		raw.Close()
		putSlot(s)
		return nil, err
	}
	return host.WrapConn(raw, s.hc, func() { putSlot(s) }), nil
}

// createEponymous makes table-valued functions such as kpca_eigen usable
// by name: modernc's modules always have an xCreate, so SQLite does not
// treat them as eponymous; a temp virtual table of the same name stands in.
// Under PRAGMA query_only (a read-only session) the stand-in is still made:
// it only touches the connection's private temp schema.
func createEponymous(conn driver.Conn) error {
	e := conn.(driver.ExecerContext)
	q := conn.(driver.QueryerContext)
	ctx := context.Background()
	queryOnly := false
	if err := host.QueryVia(q)("PRAGMA query_only", nil, func(v []any) error {
		queryOnly = v[0] == int64(1)
		return nil
	}); err != nil {
		return err
	}
	if queryOnly {
		if _, err := e.ExecContext(ctx, "PRAGMA query_only = 0", nil); err != nil {
			return err
		}
		defer e.ExecContext(ctx, "PRAGMA query_only = 1", nil)
	}
	for name, m := range host.Modules() {
		if _, ok := m.(host.Eponymous); !ok {
			continue
		}
		stmt := fmt.Sprintf(`CREATE VIRTUAL TABLE temp."%s" USING "%s"`, name, name)
		if _, err := e.ExecContext(ctx, stmt, nil); err != nil {
			return fmt.Errorf("ksql: creating %s: %w", name, err)
		}
	}
	return nil
}

// asAny views args as []any without copying: driver.Value is defined as
// any, so the two slice types share their memory layout, and the per-call
// copy would be the largest cost of a cheap kernel.
func asAny(args []driver.Value) []any {
	if len(args) == 0 {
		return nil
	}
	return unsafe.Slice((*any)(unsafe.Pointer(unsafe.SliceData(args))), len(args))
}
