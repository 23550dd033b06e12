//go:build cgo

package loadable

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/cgo"
	"unsafe"

	"github.com/ksql/ksql/ext/host"
)

// module is what a registered module's client data points to.
type module struct {
	m  host.Module
	hc *host.Conn
}

// guard turns a panic in a callback into the error the trampoline gives
// SQLite, so that a bug never takes the host process down.
func guard(msg **C.char) {
	if r := recover(); r != nil {
		*msg = errC(fmt.Errorf("ksql: internal error: %v", r))
	}
}

//export ksqlGoConnect
func ksqlGoConnect(h C.uintptr_t, db *C.sqlite3, argc C.int, argv **C.char, create C.int, out *C.uintptr_t) (msg *C.char) {
	defer guard(&msg)
	m := cgo.Handle(h).Value().(*module)
	args := make([]string, int(argc))
	for i, p := range unsafe.Slice(argv, int(argc)) {
		args[i] = C.GoString(p)
	}
	declare := func(schema string) error {
		cs := C.CString(schema)
		defer C.free(unsafe.Pointer(cs))
		if C.ksql_declare_vtab(db, cs) != C.SQLITE_OK {
			return errors.New(C.GoString(C.ksql_errmsg(db)))
		}
		return nil
	}
	t, err := host.Open(m.m, create != 0, m.hc, args, declare)
	if err != nil {
		return errC(err)
	}
	*out = C.uintptr_t(cgo.NewHandle(t))
	return nil
}

func table(h C.uintptr_t) host.Table { return cgo.Handle(h).Value().(host.Table) }

//export ksqlGoBestIndex
func ksqlGoBestIndex(h C.uintptr_t, info *C.sqlite3_index_info) (msg *C.char) {
	defer guard(&msg)
	cons := unsafe.Slice(info.aConstraint, int(info.nConstraint))
	order := unsafe.Slice(info.aOrderBy, int(info.nOrderBy))
	hi, argv, err := host.Plan(table(h), cons, func(c C.struct_sqlite3_index_constraint) host.Constraint {
		return host.Constraint{Column: int(c.iColumn), Op: host.Op(c.op), Usable: c.usable != 0}
	}, order, func(o C.struct_sqlite3_index_orderby) host.OrderBy {
		return host.OrderBy{Column: int(o.iColumn), Desc: o.desc != 0}
	}, float64(info.estimatedCost), int64(info.estimatedRows))
	if err != nil {
		return errC(err)
	}
	usage := unsafe.Slice(info.aConstraintUsage, int(info.nConstraint))
	for i, a := range argv {
		usage[i].argvIndex = C.int(a)
		usage[i].omit = 0
		if a > 0 {
			usage[i].omit = 1
		}
	}
	info.idxNum = C.int(hi.IdxNum)
	if hi.IdxStr != "" {
		info.idxStr = C.ksql_strdup(cstr(hi.IdxStr), C.int(len(hi.IdxStr)))
		info.needToFreeIdxStr = 1
	}
	info.orderByConsumed = boolInt(hi.OrderByConsumed)
	info.estimatedCost = C.double(hi.EstimatedCost)
	info.estimatedRows = C.sqlite3_int64(hi.EstimatedRows)
	return nil
}

//export ksqlGoDisconnect
func ksqlGoDisconnect(h C.uintptr_t, destroy C.int) (msg *C.char) {
	defer guard(&msg)
	t := table(h)
	var err error
	if destroy != 0 {
		if err = t.Destroy(); err != nil {
			return errC(err) // the table stays: SQLite keeps it
		}
	} else {
		err = t.Disconnect()
	}
	cgo.Handle(h).Delete()
	return errC(err)
}

//export ksqlGoOpen
func ksqlGoOpen(h C.uintptr_t, out *C.uintptr_t) (msg *C.char) {
	defer guard(&msg)
	c, err := table(h).Open()
	if err != nil {
		return errC(err)
	}
	*out = C.uintptr_t(cgo.NewHandle(c))
	return nil
}

func cur(h C.uintptr_t) host.Cursor { return cgo.Handle(h).Value().(host.Cursor) }

//export ksqlGoClose
func ksqlGoClose(h C.uintptr_t) {
	defer func() { recover() }() // nothing to report: SQLite ignores xClose's result
	defer cgo.Handle(h).Delete()
	cur(h).Close()
}

//export ksqlGoFilter
func ksqlGoFilter(h C.uintptr_t, idxNum C.int, idxStr *C.char, argc C.int, argv *C.ksql_arg) (msg *C.char) {
	defer guard(&msg)
	var buf [8]any
	s := ""
	if idxStr != nil {
		s = C.GoString(idxStr)
	}
	return errC(cur(h).Filter(int(idxNum), s, goArgs(buf[:0], argc, argv)))
}

//export ksqlGoNext
func ksqlGoNext(h C.uintptr_t) (msg *C.char) {
	defer guard(&msg)
	return errC(cur(h).Next())
}

//export ksqlGoEof
func ksqlGoEof(h C.uintptr_t) (eof C.int) {
	defer func() {
		if recover() != nil {
			eof = 1 // end the scan rather than crash
		}
	}()
	return boolInt(cur(h).EOF())
}

//export ksqlGoColumn
func ksqlGoColumn(h C.uintptr_t, ctx *C.sqlite3_context, col C.int) (msg *C.char) {
	defer guard(&msg)
	v, err := host.Column(cur(h), int(col))
	if err != nil {
		return errC(err)
	}
	setResult(ctx, v)
	return nil
}

//export ksqlGoRowid
func ksqlGoRowid(h C.uintptr_t) (id C.sqlite3_int64) {
	defer func() { recover() }()
	r, _ := cur(h).Rowid()
	return C.sqlite3_int64(r)
}

//export ksqlGoUpdate
func ksqlGoUpdate(h C.uintptr_t, argc C.int, argv *C.ksql_arg) (msg *C.char) {
	defer guard(&msg)
	var buf [8]any
	args := goArgs(buf[:0], argc, argv)
	old := int64(-1)
	if o, ok := args[0].(int64); ok {
		old = o
	}
	if len(args) == 1 {
		return errC(host.Write(table(h), old, nil, true))
	}
	return errC(host.Write(table(h), old, args[2:], false))
}

//export ksqlGoRename
func ksqlGoRename(h C.uintptr_t, name *C.char) (msg *C.char) {
	defer guard(&msg)
	return errC(host.Rename(table(h), C.GoString(name)))
}
