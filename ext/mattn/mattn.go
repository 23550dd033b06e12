//go:build sqlite_vtable && cgo

package mattn

import (
	"database/sql"
	"database/sql/driver"
	"fmt"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
	_ "github.com/ksql/ksql/ext/vtab" // registers the virtual table modules
	sqlite3 "github.com/mattn/go-sqlite3"
)

func init() {
	sqlitevec.Auto()
	sql.Register(DriverName, &Driver{})
}

// Driver is the "ksql_mattn" database/sql driver.
type Driver struct{}

// Open opens a connection; name is a mattn/go-sqlite3 data source name.
func (d *Driver) Open(name string) (driver.Conn, error) {
	var hc *host.Conn
	inner := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		hc = host.NewConn(host.QueryVia(c))
		return register(c, hc)
	}}
	raw, err := inner.Open(name)
	if err != nil {
		return nil, err
	}
	return host.WrapConn(raw, hc, nil), nil
}

func register(c *sqlite3.SQLiteConn, hc *host.Conn) error {
	for _, f := range functions.All() {
		f := f
		impl := func(args ...any) (any, error) {
			for i, a := range args {
				// mattn passes NULL as a nil []byte.
				if b, ok := a.([]byte); ok && b == nil {
					args[i] = nil
				}
			}
			return f.Call(hc, args)
		}
		if err := c.RegisterFunc(f.Name, impl, f.Deterministic); err != nil {
			return fmt.Errorf("ksql: registering %s: %w", f.Name, err)
		}
	}
	for name, m := range host.Modules() {
		var mod sqlite3.Module = &mattnModule{m: m, hc: hc}
		if _, ok := m.(host.Eponymous); ok {
			mod = eponymous{mod.(*mattnModule)}
		}
		if err := c.CreateModule(name, mod); err != nil {
			return fmt.Errorf("ksql: registering module %s: %w", name, err)
		}
	}
	return nil
}
