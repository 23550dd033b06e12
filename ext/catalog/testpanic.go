//go:build ksqlpanic

package catalog

import "github.com/ksql/ksql/ext/host"

// With -tags ksqlpanic (the loadable library the tests build), ksql also
// has a function and a table-valued function that panic, so that tests can
// show a panic inside the library never takes the host process down.
func init() {
	Extension.Functions = append(Extension.Functions, host.Func{Name: "ksql_test_panic", MaxArgs: 0,
		Usage: "ksql_test_panic()", Body: func(*host.Conn, []any) (any, error) { panic("ksql_test_panic") }})
	Extension.Modules = append(Extension.Modules, host.ModuleEntry{Name: "ksql_test_panic_table", Module: panicModule{}})
}

type panicModule struct{}

func (panicModule) EponymousOnly() {}
func (panicModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return panicTable{}, nil
}
func (panicModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return panicTable{}, nil
}

type panicTable struct{}

func (panicTable) Schema() string                       { return "CREATE TABLE x(v)" }
func (panicTable) BestIndex(info *host.IndexInfo) error { return nil }
func (panicTable) Open() (host.Cursor, error)           { return panicCursor{}, nil }
func (panicTable) Disconnect() error                    { return nil }
func (panicTable) Destroy() error                       { return nil }

type panicCursor struct{}

func (panicCursor) Filter(int, string, []any) error { panic("ksql_test_panic_table") }
func (panicCursor) Next() error                     { return nil }
func (panicCursor) EOF() bool                       { return true }
func (panicCursor) Column(int) (any, error)         { return nil, nil }
func (panicCursor) Rowid() (int64, error)           { return 0, nil }
func (panicCursor) Close() error                    { return nil }
