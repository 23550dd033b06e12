package ext

import (
	"database/sql/driver"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/ksql/ksql/ext/host"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// moderncBorrow is host.Conn's BorrowFunc for a modernc connection: it
// steps the statement itself on the connection's C thread state and lends
// each value from SQLite's memory, where the driver's rows copy every BLOB
// into a new slice and box every value (half the cost of a pass over a
// million rows, on the one goroutine a pass cannot share). Nil where the
// handle or thread state cannot be found.
func moderncBorrow(raw driver.Conn, owned host.QueryFunc) host.BorrowFunc {
	db, tls := moderncHandle(raw), moderncTLS(raw)
	if db == nil || tls == nil {
		return nil
	}
	return func(query string, row func(host.Row) error) error {
		return moderncSteps(tls, uintptr(db), query, nil, func() error { return owned(query, nil, host.Lend(row)) },
			func(r *moderncRow) error { return row(r) })
	}
}

// moderncQuery is host.Conn's QueryFunc for a modernc connection, the
// values SQLite's own: the driver's rows turn those of a column declared
// DATE, DATETIME or TIMESTAMP into time.Time, which is no SQL value (an
// svm saw two dates as one class). Owned where the handle or thread state
// cannot be found.
func moderncQuery(raw driver.Conn, owned host.QueryFunc) host.QueryFunc {
	db, tls := moderncHandle(raw), moderncTLS(raw)
	if db == nil || tls == nil {
		return owned
	}
	return func(query string, args []any, row func([]any) error) error {
		return moderncSteps(tls, uintptr(db), query, args, func() error { return owned(query, args, row) },
			func(r *moderncRow) error {
				vals := make([]any, r.n)
				for i := range vals {
					vals[i] = r.Value(i)
				}
				return row(vals)
			})
	}
}

// moderncSteps runs query with args bound and calls row with each result
// row. A statement that does not prepare goes through driver instead, for
// the driver's error; an error of a step is not run again (a statement
// nested in others, each failing and run again, ran 2^depth times). A
// shared-cache lock is an error at once, as on mattn and the loadable
// library: the driver would wait for the other connection to release it,
// but a statement ksql runs is nested in one that holds the shared cache's
// mutex, which the other connection needs to get on (a COMMIT there hung,
// and so did this statement, for ever).
func moderncSteps(tls *libc.TLS, db uintptr, query string, args []any, driver func() error, row func(*moderncRow) error) error {
	r, ok := moderncPrepare(tls, db, query)
	if !ok {
		return driver()
	}
	defer func() {
		if r.stmt != 0 {
			sqlite3.Xsqlite3_finalize(tls, r.stmt)
		}
	}()
	if err := moderncBind(tls, db, r.stmt, args); err != nil {
		return err
	}
	for {
		switch rc := sqlite3.Xsqlite3_step(tls, r.stmt); rc {
		case sqlite3.SQLITE_ROW:
			r.next()
			if err := row(r); err != nil {
				return err
			}
		case sqlite3.SQLITE_DONE:
			return nil
		default:
			return moderncError(tls, db, rc)
		}
	}
}

// moderncBind binds args to stmt's parameters 1, 2, ..., as the driver
// binds them; SQLite copies TEXT and BLOB values.
func moderncBind(tls *libc.TLS, db, stmt uintptr, args []any) error {
	for i, a := range args {
		n := int32(i + 1)
		var rc int32
		switch x := a.(type) {
		case nil:
			rc = sqlite3.Xsqlite3_bind_null(tls, stmt, n)
		case int64:
			rc = sqlite3.Xsqlite3_bind_int64(tls, stmt, n, x)
		case int:
			rc = sqlite3.Xsqlite3_bind_int64(tls, stmt, n, int64(x))
		case float64:
			rc = sqlite3.Xsqlite3_bind_double(tls, stmt, n, x)
		case string:
			rc = moderncBindBytes(tls, stmt, n, []byte(x), true)
		case []byte:
			if x == nil {
				rc = sqlite3.Xsqlite3_bind_null(tls, stmt, n)
			} else {
				rc = moderncBindBytes(tls, stmt, n, x, false)
			}
		default:
			return fmt.Errorf("binding parameter %d: a %T is no SQL value", n, a)
		}
		if rc != sqlite3.SQLITE_OK {
			return moderncError(tls, db, rc)
		}
	}
	return nil
}

// moderncBindBytes binds b as TEXT or BLOB from a copy in C memory, which
// SQLite copies again (SQLITE_TRANSIENT) before it is freed.
func moderncBindBytes(tls *libc.TLS, stmt uintptr, n int32, b []byte, text bool) int32 {
	p := libc.Xmalloc(tls, uint64(max(1, len(b))))
	if p == 0 {
		return sqlite3.SQLITE_NOMEM
	}
	defer libc.Xfree(tls, p)
	copy(unsafe.Slice((*byte)(cPointer(&p)), len(b)), b)
	if text {
		return sqlite3.Xsqlite3_bind_text(tls, stmt, n, p, int32(len(b)), sqlite3.SQLITE_TRANSIENT)
	}
	return sqlite3.Xsqlite3_bind_blob(tls, stmt, n, p, int32(len(b)), sqlite3.SQLITE_TRANSIENT)
}

// moderncPrepare prepares query; ok is false where it could not (the
// caller lets the driver report why).
func moderncPrepare(tls *libc.TLS, db uintptr, query string) (*moderncRow, bool) {
	q, err := libc.CString(query)
	if err != nil {
		return nil, false
	}
	defer libc.Xfree(tls, q)
	pp := tls.Alloc(8)
	defer tls.Free(8)
	if rc := sqlite3.Xsqlite3_prepare_v2(tls, db, q, -1, pp, 0); rc != sqlite3.SQLITE_OK {
		return nil, false
	}
	stmt := *(*uintptr)(cPointer(&pp))
	if stmt == 0 { // only a comment or white space
		return nil, false
	}
	return &moderncRow{tls: tls, stmt: stmt, n: int(sqlite3.Xsqlite3_column_count(tls, stmt))}, true
}

// moderncError words an error code as the driver does.
func moderncError(tls *libc.TLS, db uintptr, rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errmsg(tls, db))
	if msg == "" {
		return fmt.Errorf("%s (%d)", libc.GoString(sqlite3.Xsqlite3_errstr(tls, rc)), rc)
	}
	return fmt.Errorf("%s: %s (%d)", libc.GoString(sqlite3.Xsqlite3_errstr(tls, rc)), msg, rc)
}

// moderncRow is the row a modernc statement is on. It reads the row's
// values (SQLite's Mem cells) with the sqlite3_value_* functions, as the
// sqlite3_column_* ones do after taking the connection's mutex: with one
// goroutine using the connection, inside a call it is making, the mutex
// guards nothing, and on a 16-core Xeon it was a third of a pass (ten
// column calls a row, each locking and unlocking).
type moderncRow struct {
	tls   *libc.TLS
	stmt  uintptr
	n     int    // columns
	known uint64 // the columns whose kind is in kinds, on this row
	kinds [64]host.Kind
}

var _ host.Row = (*moderncRow)(nil)

// next forgets what was read of the row the statement was on.
func (r *moderncRow) next() { r.known = 0 }

// mem is column i's cell on the current row, 0 where there is none.
func (r *moderncRow) mem(i int) uintptr {
	vm := (*sqlite3.TVdbe)(cPointer(&r.stmt))
	if vm.FpResultRow == 0 || i < 0 || i >= int(vm.FnResColumn) {
		return 0
	}
	return vm.FpResultRow + uintptr(i)*unsafe.Sizeof(sqlite3.TMem{})
}

func (r *moderncRow) Kind(i int) host.Kind {
	if i < len(r.kinds) && r.known&(1<<i) != 0 {
		return r.kinds[i]
	}
	k := host.Null
	if m := r.mem(i); m != 0 {
		switch sqlite3.Xsqlite3_value_type(r.tls, m) {
		case sqlite3.SQLITE_INTEGER:
			k = host.Integer
		case sqlite3.SQLITE_FLOAT:
			k = host.Float
		case sqlite3.SQLITE_TEXT:
			k = host.Text
		case sqlite3.SQLITE_BLOB:
			k = host.Blob
		}
	}
	if i < len(r.kinds) {
		r.kinds[i], r.known = k, r.known|1<<i
	}
	return k
}

func (r *moderncRow) Int(i int) int64 {
	if m := r.mem(i); m != 0 {
		return sqlite3.Xsqlite3_value_int64(r.tls, m)
	}
	return 0
}

func (r *moderncRow) Float(i int) float64 {
	if m := r.mem(i); m != 0 {
		return sqlite3.Xsqlite3_value_double(r.tls, m)
	}
	return 0
}

func (r *moderncRow) Bytes(i int) []byte {
	m := r.mem(i)
	if m == 0 {
		return nil
	}
	var p uintptr
	if r.Kind(i) == host.Text {
		p = sqlite3.Xsqlite3_value_text(r.tls, m)
	} else {
		p = sqlite3.Xsqlite3_value_blob(r.tls, m)
	}
	n := sqlite3.Xsqlite3_value_bytes(r.tls, m)
	if p == 0 || n <= 0 {
		return nil
	}
	return unsafe.Slice((*byte)(cPointer(&p)), n)
}

func (r *moderncRow) Value(i int) any {
	switch r.Kind(i) {
	case host.Integer:
		return r.Int(i)
	case host.Float:
		return r.Float(i)
	case host.Text:
		return string(r.Bytes(i))
	case host.Blob:
		return append([]byte{}, r.Bytes(i)...)
	}
	return nil
}

// moderncTLS is the C thread state of modernc's connection raw, which its
// calls into SQLite run on (the vtab callbacks this connection's reads
// are made from run on it too); nil when it cannot be found.
func moderncTLS(raw driver.Conn) *libc.TLS {
	v := reflect.ValueOf(raw)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("tls")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*libc.TLS]() {
		return nil
	}
	return *(**libc.TLS)(unsafe.Pointer(f.UnsafeAddr()))
}
