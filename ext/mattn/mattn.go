//go:build sqlite_vtable && cgo

package mattn

import (
	"database/sql"
	"database/sql/driver"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/loadable"
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
		// SQLite's own values through its C API on mattn's handle; where
		// that cannot be had, mattn's rows (BLOBs from C.GoBytes, fresh
		// each time: ours to keep, not to copy again)
		db, dbErr := dbHandle(c)
		if dbErr != nil {
			hc = catalog.Extension.NewConn(host.QueryViaOwned(c))
		} else {
			hc = catalog.Extension.NewConn(loadable.Query(db))
			hc.SetSettled(func() bool { return loadable.Settled(db) })
			hc.SetBorrow(loadable.Borrow(db))
		}
		return catalog.Extension.Install(registrar{c, hc})
	}}
	raw, err := inner.Open(name)
	if err != nil {
		return nil, err
	}
	return host.WrapConn(raw, hc, nil), nil
}

// registrar binds functions and modules to one mattn connection.
type registrar struct {
	c  *sqlite3.SQLiteConn
	hc *host.Conn
}

// RegisterFunction implements host.Registrar through SQLite's C API on
// mattn's connection handle (ext/loadable's trampolines): mattn's own
// RegisterFunc converts every argument by reflection, about 2.9 µs a call
// where this costs a fraction of a microsecond.
func (r registrar) RegisterFunction(f *host.Func) error {
	db, err := dbHandle(r.c)
	if err != nil {
		return err
	}
	return loadable.RegisterFunction(db, r.hc, f)
}

// RegisterModule implements host.Registrar through SQLite's C API, as
// RegisterFunction: mattn's own module interface has no xRename, and a
// model table must rename its shadow table with it.
func (r registrar) RegisterModule(name string, m host.Module) error {
	db, err := dbHandle(r.c)
	if err != nil {
		return err
	}
	return loadable.RegisterModule(db, r.hc, name, m)
}
