//go:build sqlite_vtable && cgo

package mattn

/*
#cgo CFLAGS: -I${SRCDIR}/../loadable
#define SQLITE_CORE 1
#include "sqlite3ext.h"

// ext/loadable's routines pointer (hidden from other shared objects, not
// from this program), pointed here at the SQLite that mattn links.
extern const sqlite3_api_routines *sqlite3_api;

static sqlite3_api_routines ksql_linked;

static void ksql_use_linked(void) {
	ksql_linked.bind_blob = sqlite3_bind_blob;
	ksql_linked.bind_double = sqlite3_bind_double;
	ksql_linked.bind_int64 = sqlite3_bind_int64;
	ksql_linked.bind_null = sqlite3_bind_null;
	ksql_linked.bind_text = sqlite3_bind_text;
	ksql_linked.column_blob = sqlite3_column_blob;
	ksql_linked.column_bytes = sqlite3_column_bytes;
	ksql_linked.column_count = sqlite3_column_count;
	ksql_linked.column_double = sqlite3_column_double;
	ksql_linked.column_int64 = sqlite3_column_int64;
	ksql_linked.column_text = sqlite3_column_text;
	ksql_linked.column_type = sqlite3_column_type;
	ksql_linked.create_function_v2 = sqlite3_create_function_v2;
	ksql_linked.create_module_v2 = sqlite3_create_module_v2;
	ksql_linked.declare_vtab = sqlite3_declare_vtab;
	ksql_linked.errmsg = sqlite3_errmsg;
	ksql_linked.finalize = sqlite3_finalize;
	ksql_linked.free = sqlite3_free;
	ksql_linked.get_auxdata = sqlite3_get_auxdata;
	ksql_linked.get_autocommit = sqlite3_get_autocommit;
	ksql_linked.txn_state = sqlite3_txn_state;
	ksql_linked.set_auxdata = sqlite3_set_auxdata;
	ksql_linked.is_interrupted = sqlite3_is_interrupted;
	ksql_linked.libversion_number = sqlite3_libversion_number;
	ksql_linked.malloc = sqlite3_malloc;
	ksql_linked.malloc64 = sqlite3_malloc64;
	ksql_linked.mprintf = sqlite3_mprintf;
	ksql_linked.prepare_v2 = sqlite3_prepare_v2;
	ksql_linked.result_blob = sqlite3_result_blob;
	ksql_linked.result_double = sqlite3_result_double;
	ksql_linked.result_error = sqlite3_result_error;
	ksql_linked.result_error_nomem = sqlite3_result_error_nomem;
	ksql_linked.result_int64 = sqlite3_result_int64;
	ksql_linked.result_null = sqlite3_result_null;
	ksql_linked.result_text = sqlite3_result_text;
	ksql_linked.step = sqlite3_step;
	ksql_linked.user_data = sqlite3_user_data;
	ksql_linked.value_blob = sqlite3_value_blob;
	ksql_linked.value_bytes = sqlite3_value_bytes;
	ksql_linked.value_double = sqlite3_value_double;
	ksql_linked.value_int64 = sqlite3_value_int64;
	ksql_linked.value_text = sqlite3_value_text;
	ksql_linked.value_type = sqlite3_value_type;
	sqlite3_api = &ksql_linked;
}
*/
import "C"

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	sqlite3 "github.com/mattn/go-sqlite3"
)

var useLinked sync.Once

// dbHandle returns mattn's sqlite3* of c (its unexported db field), for
// registering functions through SQLite's C API on that connection. A mattn
// version without the field is an error, not a crash (and fails the tests).
func dbHandle(c *sqlite3.SQLiteConn) (unsafe.Pointer, error) {
	useLinked.Do(func() { C.ksql_use_linked() })
	f := reflect.ValueOf(c).Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil, errors.New("ksql_mattn: this mattn/go-sqlite3 has no sqlite3* field db in SQLiteConn")
	}
	return f.UnsafePointer(), nil
}
