//go:build sqlite_vtable && cgo

package functions_test

import _ "github.com/ksql/ksql/ext/mattn"

func init() { rffDrivers = append(rffDrivers, "ksql_mattn") }
