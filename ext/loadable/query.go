//go:build cgo

package loadable

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"

	"github.com/ksql/ksql/ext/host"
)

// queryFunc runs SQL on db itself, re-entrantly (a module reading its
// source while SQLite is inside one of its callbacks); values are copied.
func queryFunc(db *C.sqlite3) host.QueryFunc {
	return func(q string, args []any, row func([]any) error) error {
		var stmt *C.sqlite3_stmt
		if C.ksql_prepare(db, cstr(q), C.int(len(q)), &stmt) != C.SQLITE_OK {
			return errors.New(C.GoString(C.ksql_errmsg(db)))
		}
		if stmt == nil {
			return nil // only a comment or white space
		}
		defer C.ksql_finalize(stmt)
		for i, a := range args {
			if bind(stmt, i+1, a) != C.SQLITE_OK {
				return fmt.Errorf("binding parameter %d (a %T): %s", i+1, a, C.GoString(C.ksql_errmsg(db)))
			}
		}
		n := int(C.ksql_column_count(stmt))
		for {
			switch C.ksql_step(stmt) {
			case C.SQLITE_ROW:
			case C.SQLITE_DONE:
				return nil
			default:
				return errors.New(C.GoString(C.ksql_errmsg(db)))
			}
			vals := make([]any, n)
			var a C.ksql_arg
			for i := range vals {
				C.ksql_column(stmt, C.int(i), &a)
				vals[i] = goValue(&a, true)
			}
			if err := row(vals); err != nil {
				return err
			}
		}
	}
}
