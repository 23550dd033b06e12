//go:build cgo

package loadable

/*
#include "shim.h"
*/
import "C"

import (
	"unsafe"

	"github.com/ksql/ksql/ext/host"
)

// RegisterFunction binds f to the connection db (a sqlite3*) through this
// package's C trampolines, for a Go program that links SQLite itself
// (ext/mattn): one call from C into Go per SQL call, with the arguments
// read in C, where mattn's RegisterFunc converts them by reflection. The
// program must first point the routines at its SQLite (ext/mattn does,
// with its linked symbols; see sqlite3_api in shim.c).
func RegisterFunction(db unsafe.Pointer, hc *host.Conn, f *host.Func) error {
	return registrar{db: (*C.sqlite3)(db), hc: hc}.RegisterFunction(f)
}

// Settled is host.Conn.Settled's probe for the connection db.
func Settled(db unsafe.Pointer) bool { return C.ksql_settled((*C.sqlite3)(db)) != 0 }

// Query is host.QueryFunc on db, the linked SQLite's handle: SQLite's own
// values, where a driver's rows may turn those of a declared type into
// other Go types (mattn: BOOLEAN into bool, DATE into time.Time).
func Query(db unsafe.Pointer) host.QueryFunc { return queryFunc((*C.sqlite3)(db)) }

// Borrow is host.BorrowFunc on db, the linked SQLite's handle: rows stepped
// and described in C, one call a row, their TEXT and BLOB values lent.
func Borrow(db unsafe.Pointer) host.BorrowFunc { return borrowFunc((*C.sqlite3)(db)) }

// RegisterModule binds m to the connection db as RegisterFunction binds a
// function: the same C trampolines as the loadable library's, so that every
// module callback, xRename included, reaches Go the same way on both.
func RegisterModule(db unsafe.Pointer, hc *host.Conn, name string, m host.Module) error {
	return registrar{db: (*C.sqlite3)(db), hc: hc}.RegisterModule(name, m)
}
