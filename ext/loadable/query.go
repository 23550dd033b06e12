//go:build cgo

package loadable

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/ksql/ksql/ext/host"
)

// queryFunc runs SQL on db itself, re-entrantly (a module reading its
// source while SQLite is inside one of its callbacks); values are copied.
func queryFunc(db *C.sqlite3) host.QueryFunc {
	return func(q string, args []any, row func([]any) error) error {
		return steps(db, q, args, func(r *cRow) error {
			vals := make([]any, len(r.a))
			for i := range vals {
				vals[i] = goValue(&r.a[i], true)
			}
			return row(vals)
		})
	}
}

// borrowFunc is host.BorrowFunc on db: TEXT and BLOB values lent from
// SQLite's memory, where queryFunc copies each into Go.
func borrowFunc(db *C.sqlite3) host.BorrowFunc {
	return func(q string, row func(host.Row) error) error {
		return steps(db, q, nil, func(r *cRow) error { return row(r) })
	}
}

// steps runs q with args bound and calls row with each result row, one
// call into C a row (ksql_step_row), which steps the statement and
// describes every column.
func steps(db *C.sqlite3, q string, args []any, row func(*cRow) error) error {
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
	r := &cRow{a: make([]C.ksql_arg, int(C.ksql_column_count(stmt)), max(1, int(C.ksql_column_count(stmt))))}
	for {
		switch C.ksql_step_row(stmt, C.int(len(r.a)), unsafe.SliceData(r.a[:cap(r.a)])) {
		case C.SQLITE_ROW:
		case C.SQLITE_DONE:
			return nil
		default:
			return errors.New(C.GoString(C.ksql_errmsg(db)))
		}
		if err := row(r); err != nil {
			return err
		}
	}
}

// cRow is a row as ksql_step_row describes it.
type cRow struct{ a []C.ksql_arg }

var _ host.Row = (*cRow)(nil)

func (r *cRow) Kind(i int) host.Kind {
	switch r.a[i]._type {
	case C.SQLITE_INTEGER:
		return host.Integer
	case C.SQLITE_FLOAT:
		return host.Float
	case C.SQLITE_TEXT:
		return host.Text
	case C.SQLITE_BLOB:
		return host.Blob
	}
	return host.Null
}

func (r *cRow) Int(i int) int64     { return int64(r.a[i].i) }
func (r *cRow) Float(i int) float64 { return float64(r.a[i].d) }
func (r *cRow) Value(i int) any     { return goValue(&r.a[i], true) }

func (r *cRow) Bytes(i int) []byte {
	if a := &r.a[i]; a.n > 0 && a.p != nil {
		return unsafe.Slice((*byte)(a.p), int(a.n))
	}
	return nil
}
