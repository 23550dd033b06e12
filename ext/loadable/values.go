//go:build cgo

package loadable

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// cstr points C at s's bytes for a call that copies them at once (a
// result with SQLITE_TRANSIENT, an error message); "" becomes a pointer to
// an empty C string, since a NULL pointer would make the result NULL.
func cstr(s string) *C.char {
	if len(s) == 0 {
		return &C.ksql_empty[0]
	}
	return (*C.char)(unsafe.Pointer(unsafe.StringData(s)))
}

// errC returns err's message in C memory for the trampolines, which free
// it, or nil.
func errC(err error) *C.char {
	if err == nil {
		return nil
	}
	return C.CString(err.Error())
}

// goArgs converts SQL values to nil, int64, float64, string or []byte.
// Strings and blobs are views of SQLite's memory, valid during the
// callback, as host.Func and host.Cursor allow.
func goArgs(buf []any, argc C.int, argv *C.ksql_arg) []any {
	if argc == 0 {
		return buf[:0]
	}
	for _, a := range unsafe.Slice(argv, int(argc)) {
		buf = append(buf, goValue(&a, false))
	}
	return buf
}

// goValue converts one value, copying text and blobs when own is set.
func goValue(a *C.ksql_arg, own bool) any {
	switch a._type {
	case C.SQLITE_INTEGER:
		return int64(a.i)
	case C.SQLITE_FLOAT:
		return float64(a.d)
	case C.SQLITE_TEXT:
		if a.n == 0 {
			return ""
		}
		if own {
			return C.GoStringN((*C.char)(a.p), a.n)
		}
		return unsafe.String((*byte)(a.p), int(a.n))
	case C.SQLITE_BLOB:
		if a.n == 0 {
			return []byte{}
		}
		if own {
			return C.GoBytes(a.p, a.n)
		}
		return unsafe.Slice((*byte)(a.p), int(a.n))
	}
	return nil
}

// bind binds v to parameter i of stmt; SQLite copies text and blobs.
func bind(stmt *C.sqlite3_stmt, i int, v any) C.int {
	ci := C.int(i)
	switch x := v.(type) {
	case nil:
		return C.ksql_bind_null(stmt, ci)
	case int64:
		return C.ksql_bind_int64(stmt, ci, C.sqlite3_int64(x))
	case int:
		return C.ksql_bind_int64(stmt, ci, C.sqlite3_int64(x))
	case float64:
		return C.ksql_bind_double(stmt, ci, C.double(x))
	case string:
		return C.ksql_bind_text(stmt, ci, cstr(x), C.int(len(x)))
	case []byte:
		if len(x) == 0 {
			return C.ksql_bind_blob(stmt, ci, unsafe.Pointer(cstr("")), 0)
		}
		return C.ksql_bind_blob(stmt, ci, unsafe.Pointer(&x[0]), C.int(len(x)))
	}
	return C.SQLITE_MISMATCH
}

// setResult hands a function's or column's value to SQLite, which copies it.
func setResult(ctx *C.sqlite3_context, v any) {
	switch x := v.(type) {
	case nil:
		C.ksql_result_null(ctx)
	case int64:
		C.ksql_result_int64(ctx, C.sqlite3_int64(x))
	case float64:
		C.ksql_result_double(ctx, C.double(x))
	case string:
		C.ksql_result_text(ctx, cstr(x), C.int(len(x)))
	case []byte:
		if len(x) == 0 {
			C.ksql_result_blob(ctx, unsafe.Pointer(cstr("")), 0)
			return
		}
		C.ksql_result_blob(ctx, unsafe.Pointer(&x[0]), C.int(len(x)))
	default:
		msg := fmt.Sprintf("ksql: internal error: a result of type %T", v)
		C.ksql_result_error(ctx, cstr(msg), C.int(len(msg)))
	}
}
