// Package ext is ksql's public Go API. Importing it registers the
// database/sql driver "ksql": modernc.org/sqlite (pure Go) with sqlite-vec
// loaded and every ksql function and virtual table module registered on
// each connection.
//
//	import _ "github.com/ksql/ksql/ext"
//	db, err := sql.Open("ksql", "file:corpus.db")
//
// The same registration for github.com/mattn/go-sqlite3 is in ext/mattn.
package ext

import (
	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
)

// DriverName is the database/sql name of the modernc-based driver.
const DriverName = "ksql"

// Functions lists the SQL functions ksql registers on every connection.
func Functions() []functions.Func { return functions.All() }

// Modules lists the virtual table modules ksql registers on every
// connection, by name.
func Modules() map[string]host.Module { return host.Modules() }
