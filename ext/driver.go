// Package ext is ksql's public Go API. Importing it registers the
// database/sql driver "ksql": modernc.org/sqlite (pure Go) with sqlite-vec
// loaded and every ksql function and virtual table module registered on
// each connection.
//
//	import _ "github.com/ksql/ksql/ext"
//	db, err := sql.Open("ksql", "file:corpus.db")
//
// The same registration for github.com/mattn/go-sqlite3 is in ext/mattn;
// what gets registered, and so what either driver offers, is declared
// once, in ext/catalog.
package ext

import (
	"database/sql"
	"database/sql/driver"
	"sync"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
	sqlite "modernc.org/sqlite"
	_ "modernc.org/sqlite/vec" // sqlite-vec, as an auto extension
)

// DriverName is the database/sql name of the modernc-based driver.
const DriverName = "ksql"

func init() { sql.Register(DriverName, &Driver{}) }

// Driver is the "ksql" database/sql driver. Its zero value is ready to use.
type Driver struct{}

// slot is the host.Registrar of one modernc Driver: modernc registers per
// Driver, not per connection, so each open connection gets a Driver of its
// own (recycled at close), whose closures reach the connection's hc.
type slot struct {
	drv       *sqlite.Driver
	hc        *host.Conn
	eponymous []string // table-valued functions (eponymousOnly)
	modules   []string // every module (hookDestroys)
	opened    *moderncTable
}

var slots = struct {
	sync.Mutex
	free []*slot
}{}

func getSlot() (*slot, error) {
	slots.Lock()
	defer slots.Unlock()
	if n := len(slots.free); n > 0 {
		s := slots.free[n-1]
		slots.free = slots.free[:n-1]
		return s, nil
	}
	s := &slot{drv: &sqlite.Driver{}}
	return s, catalog.Extension.Install(s)
}

func putSlot(s *slot) {
	s.hc, s.opened = nil, nil
	slots.Lock()
	slots.free = append(slots.free, s)
	slots.Unlock()
}

// RegisterFunction implements host.Registrar.
func (s *slot) RegisterFunction(f *host.Func) error {
	return s.drv.RegisterFunction(f.Name, &sqlite.FunctionImpl{
		NArgs:         -1,
		Deterministic: f.Deterministic,
		// ksql never retains an argument past the call (spec texts are
		// cloned before caching), so SQLite's buffers can be read in place.
		VolatileArgs: true,
		Scalar: func(fc *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			if f.ReadsTables && statementStart(fc, len(args)) {
				s.hc.NewStatement()
			}
			return f.Call(s.hc, host.Args(args))
		},
	})
}

// RegisterModule implements host.Registrar.
func (s *slot) RegisterModule(name string, m host.Module) error {
	if _, ok := m.(host.Eponymous); ok {
		s.eponymous = append(s.eponymous, name)
	}
	s.modules = append(s.modules, name)
	return s.drv.RegisterModule(name, &moderncModule{m: m, slot: s})
}

// Open opens a connection; name is a modernc.org/sqlite data source name.
func (d *Driver) Open(name string) (driver.Conn, error) {
	s, err := getSlot()
	if err != nil {
		return nil, err
	}
	raw, err := s.drv.Open(name)
	if err == nil {
		owned := host.QueryViaOwned(raw.(driver.QueryerContext))
		s.hc = catalog.Extension.NewConn(moderncQuery(raw, owned))
		s.hc.SetSettled(moderncSettled(raw))
		s.hc.SetBorrow(moderncBorrow(raw, owned))
		if !eponymousOnly(raw, s.eponymous) {
			err = host.CreateEponymous(raw, s.eponymous)
		}
		if err == nil {
			hookDestroys(raw, s, s.modules)
		} else {
			raw.Close()
		}
	}
	if err != nil {
		putSlot(s)
		return nil, err
	}
	db := moderncHandle(raw)
	return host.WrapConn(raw, s.hc, func() { forgetConn(db, s); putSlot(s) }), nil
}
