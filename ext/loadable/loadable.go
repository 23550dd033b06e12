//go:build cgo

package loadable

/*
#cgo CFLAGS: -O2 -I${SRCDIR}/../../internal/kernels/f32c
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels/f32c"
)

// registrar binds functions and modules to one connection through the C API.
type registrar struct {
	db *C.sqlite3
	hc *host.Conn
}

var _ host.Registrar = registrar{}

// fn is what a registered function's user data points to: its address,
// pinned, so that a call finds it without a cgo.Handle lookup.
type fn struct {
	f   *host.Func
	hc  *host.Conn
	pin runtime.Pinner
}

// liveFuncs keeps every registered fn reachable (and its Pinner with it)
// until SQLite drops the function.
var liveFuncs = struct {
	sync.Mutex
	m map[*fn]struct{}
}{m: map[*fn]struct{}{}}

// RegisterFunction implements host.Registrar: variadic (Func.Call checks
// the count), deterministic when the function is, and innocuous when it
// is also pure (reads no table).
func (r registrar) RegisterFunction(f *host.Func) error {
	flags := C.int(0)
	if f.Deterministic {
		flags = C.SQLITE_DETERMINISTIC
		if !f.ReadsTables {
			flags |= C.SQLITE_INNOCUOUS
		}
	}
	name := C.CString(f.Name)
	defer C.free(unsafe.Pointer(name))
	p := &fn{f: f, hc: r.hc}
	p.pin.Pin(p)
	liveFuncs.Lock()
	liveFuncs.m[p] = struct{}{}
	liveFuncs.Unlock()
	// On failure SQLite calls the destructor, which releases p.
	addr := C.uintptr_t(uintptr(unsafe.Pointer(p)))
	kind := fnKind(f)
	if f.ReadsTables {
		kind |= C.KSQL_FN_STMT
	}
	if rc := C.ksql_create_function(r.db, name, flags, addr, kind); rc != C.SQLITE_OK {
		return fmt.Errorf("sqlite3_create_function_v2: %s", C.GoString(C.ksql_errmsg(r.db)))
	}
	return nil
}

// twins are the functions whose float32 BLOB calls a C twin answers
// (internal/kernels/f32c), by SQL name; the C trampolines read their
// arguments in the order ext/functions declares them.
var twins = map[string]C.int{
	"gauss_kernel":   C.KSQL_FN_GAUSS,
	"laplace_kernel": C.KSQL_FN_LAPLACE,
	"linear_kernel":  C.KSQL_FN_LINEAR,
	"poly_kernel":    C.KSQL_FN_POLY,
}

// fnKind picks f's trampoline.
func fnKind(f *host.Func) C.int {
	if f.Body != nil || argLayoutErr != nil {
		return C.KSQL_FN_BOXED
	}
	if k, ok := twins[f.Name]; ok && f32c.Enabled() {
		return k
	}
	return C.KSQL_FN_NUMBER
}

//export ksqlGoNewStatement
func ksqlGoNewStatement(p unsafe.Pointer) { (*fn)(p).hc.NewStatement() }

//export ksqlGoReleaseFunc
func ksqlGoReleaseFunc(p unsafe.Pointer) {
	f := (*fn)(p)
	liveFuncs.Lock()
	delete(liveFuncs.m, f)
	liveFuncs.Unlock()
	f.pin.Unpin()
}

// RegisterModule implements host.Registrar.
func (r registrar) RegisterModule(name string, m host.Module) error {
	_, epo := m.(host.Eponymous)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	h := cgo.NewHandle(&module{m: m, hc: r.hc})
	if rc := C.ksql_create_module(r.db, cname, boolInt(epo), C.uintptr_t(h)); rc != C.SQLITE_OK {
		return fmt.Errorf("sqlite3_create_module_v2: %s", C.GoString(C.ksql_errmsg(r.db)))
	}
	return nil
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// interrupted is the context of every statement on one connection: done
// once SQLite says the running statement was interrupted (SQLite ≥ 3.41;
// on older libraries never, and sqlite3_interrupt is seen between rows).
type interrupted struct {
	context.Context
	db *C.sqlite3
}

func (c interrupted) Err() error {
	if C.ksql_is_interrupted(c.db) != 0 {
		return context.Canceled
	}
	return nil
}

//export ksqlGoInit
func ksqlGoInit(db *C.sqlite3, pzErrMsg **C.char) (rc C.int) {
	defer func() {
		if r := recover(); r != nil {
			rc = setErrMsg(pzErrMsg, fmt.Sprintf("ksql: internal error: %v", r))
		}
	}()
	hc := catalog.Extension.NewConn(queryFunc(db))
	hc.SetBorrow(borrowFunc(db))
	hc.SetContext(interrupted{context.Background(), db})
	hc.SetSettled(func() bool { return C.ksql_settled(db) != 0 })
	if err := catalog.Extension.Install(registrar{db, hc}); err != nil {
		return setErrMsg(pzErrMsg, err.Error())
	}
	return C.SQLITE_OK
}

// setErrMsg gives SQLite an error message it will free with sqlite3_free.
func setErrMsg(pz **C.char, msg string) C.int {
	if pz != nil {
		*pz = C.ksql_strdup(cstr(msg), C.int(len(msg)))
	}
	return C.SQLITE_ERROR
}

// argBufs are the argument slices of function calls: a slice handed to
// Func.Call escapes, and allocating one per call was the largest cost of
// a cheap function after the crossing into Go.
var argBufs = sync.Pool{New: func() any { b := make([]any, 0, 8); return &b }}

//export ksqlGoRelease
func ksqlGoRelease(h C.uintptr_t) { cgo.Handle(h).Delete() }

// ksqlGoFunc runs one call. It returns 1 when the result is a number or
// NULL, left in *res for the C side to hand to SQLite, and 0 when it has
// set the result itself.
//
//export ksqlGoFunc
func ksqlGoFunc(ctx *C.sqlite3_context, p unsafe.Pointer, argc C.int, argv *C.ksql_arg, res *C.ksql_arg) C.int {
	f := (*fn)(p)
	bp := argBufs.Get().(*[]any)
	args := goArgs((*bp)[:0], argc, argv)
	v, err := f.f.Call(f.hc, args) // Call recovers panics into err
	clear(args)                    // views of SQLite's memory: not kept
	*bp = args[:0]
	argBufs.Put(bp)
	if err != nil {
		msg := err.Error()
		C.ksql_result_error(ctx, cstr(msg), C.int(len(msg)))
		return 0
	}
	switch x := v.(type) {
	case float64:
		res._type, res.d = C.SQLITE_FLOAT, C.double(x)
	case int64:
		res._type, res.i = C.SQLITE_INTEGER, C.sqlite3_int64(x)
	case nil:
		res._type = C.SQLITE_NULL
	default:
		setResult(ctx, v)
		return 0
	}
	return 1
}

// ksqlGoNumber runs one call of a function with a Number body, reading the
// C side's arguments in place (host.Arg has ksql_arg's layout).
//
//export ksqlGoNumber
func ksqlGoNumber(ctx *C.sqlite3_context, p unsafe.Pointer, argc C.int, argv *C.ksql_arg, res *C.double) C.int {
	f := (*fn)(p)
	var args []host.Arg
	if argc > 0 {
		args = unsafe.Slice((*host.Arg)(unsafe.Pointer(argv)), int(argc))
	}
	v, null, err := f.f.CallNumber(f.hc, args)
	switch {
	case err != nil:
		msg := err.Error()
		C.ksql_result_error(ctx, cstr(msg), C.int(len(msg)))
		return C.KSQL_SET
	case null:
		return C.KSQL_NULL
	}
	*res = C.double(v)
	return C.KSQL_REAL
}

// argLayoutErr is not nil if host.Arg does not read a ksql_arg as C wrote
// it; Number functions then go through ksqlGoFunc, which converts.
var argLayoutErr = checkArgLayout()

func checkArgLayout() error {
	if unsafe.Sizeof(host.Arg{}) != C.sizeof_ksql_arg {
		return fmt.Errorf("host.Arg is %d bytes, ksql_arg %d", unsafe.Sizeof(host.Arg{}), C.sizeof_ksql_arg)
	}
	var c [4]C.ksql_arg
	c[0]._type, c[0].i = C.SQLITE_INTEGER, -7
	c[1]._type, c[1].d = C.SQLITE_FLOAT, 2.5
	c[2]._type, c[2].n, c[2].p = C.SQLITE_TEXT, 3, unsafe.Pointer(cstr("xyz!"))
	c[3]._type = C.SQLITE_NULL
	a := unsafe.Slice((*host.Arg)(unsafe.Pointer(&c[0])), len(c))
	i, iok := a[0].Integer()
	f, fok := a[1].Number()
	t, tok := a[2].Text()
	if i != -7 || !iok || f != 2.5 || !fok || t != "xyz" || !tok || !a[3].IsNull() {
		return fmt.Errorf("host.Arg reads ksql_arg as %v %v %q %v", i, f, t, a[3].IsNull())
	}
	return nil
}
