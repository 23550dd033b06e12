package ext

import (
	"reflect"
	"unsafe"

	"modernc.org/libc"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// fcFields are the offsets of modernc's FunctionContext fields tls and
// ctx (the sqlite3_context*), found once by reflection; ok is false when
// the type is not as expected, and then every call counts as a new
// statement (correct, only slower).
var fcFields = func() (f struct {
	tls, ctx uintptr
	ok       bool
}) {
	t := reflect.TypeOf(sqlite.FunctionContext{})
	tls, ok1 := t.FieldByName("tls")
	ctx, ok2 := t.FieldByName("ctx")
	if ok1 && ok2 && tls.Type == reflect.TypeOf((*libc.TLS)(nil)) && ctx.Type.Kind() == reflect.Uintptr {
		f.tls, f.ctx, f.ok = tls.Offset, ctx.Offset, true
	}
	return f
}()

// statementStart says whether a call is the first of its statement at its
// call site, as ext/loadable's newStatement does in C: SQLite keeps
// auxiliary data on a constant argument for the whole statement, so
// finding none on argument 0 means a new statement (or an argument that is
// not constant, where every call counts as new).
func statementStart(fc *sqlite.FunctionContext, nargs int) bool {
	if fc == nil || nargs == 0 || !fcFields.ok {
		return true
	}
	p := unsafe.Pointer(fc)
	tls := *(**libc.TLS)(unsafe.Add(p, fcFields.tls))
	ctx := *(*uintptr)(unsafe.Add(p, fcFields.ctx))
	if tls == nil || ctx == 0 {
		return true
	}
	if sqlite3.Xsqlite3_get_auxdata(tls, ctx, 0) != 0 {
		return false
	}
	sqlite3.Xsqlite3_set_auxdata(tls, ctx, 0, 1, 0) // any non-zero mark; SQLite never reads it
	return true
}
