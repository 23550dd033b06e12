// Package mattn registers ksql on github.com/mattn/go-sqlite3 (cgo) under
// the database/sql driver name "ksql_mattn", with the same functions and
// virtual table modules as the default "ksql" driver and sqlite-vec loaded.
// Build with -tags sqlite_vtable (mattn's virtual table support):
//
//	import _ "github.com/ksql/ksql/ext/mattn"
//	db, err := sql.Open("ksql_mattn", "file:corpus.db")
package mattn

// DriverName is the database/sql name of the mattn-based driver.
const DriverName = "ksql_mattn"
