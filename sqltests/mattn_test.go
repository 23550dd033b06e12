//go:build sqlite_vtable && cgo

package sqltests

import _ "github.com/ksql/ksql/ext/mattn"

func init() { drivers = append(drivers, "ksql_mattn") }
