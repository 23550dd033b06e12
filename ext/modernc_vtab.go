package ext

import (
	"database/sql/driver"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/ksql/ksql/ext/host"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
	"modernc.org/sqlite/vtab"
)

// moderncModule adapts a host.Module to modernc.org/sqlite/vtab.
type moderncModule struct {
	m    host.Module
	slot *slot
}

func (a *moderncModule) Create(c vtab.Context, args []string) (vtab.Table, error) {
	return a.open(c, args, true)
}
func (a *moderncModule) Connect(c vtab.Context, args []string) (vtab.Table, error) {
	return a.open(c, args, false)
}

func (a *moderncModule) open(ctx vtab.Context, args []string, create bool) (vtab.Table, error) {
	t, err := host.Open(a.m, create, a.slot.hc, args, ctx.Declare)
	if err != nil {
		return nil, err
	}
	mt := &moderncTable{Table: t}
	a.slot.opened = mt // for hookOpen (modernc_destroy.go)
	return mt, nil
}

// moderncTable is a host.Table under modernc's names.
type moderncTable struct {
	host.Table
	destroyed bool // by hookDestroy, before modernc's xDestroy calls Destroy
}

// Destroy is xDestroy; when hookDestroy has run it, modernc's call of it
// after does nothing.
func (t *moderncTable) Destroy() error {
	if t.destroyed {
		return nil
	}
	return t.Table.Destroy()
}

// opFromModernc maps modernc's own operator numbering to SQLite's.
var opFromModernc = [...]host.Op{vtab.OpEQ: host.OpEQ, vtab.OpGT: host.OpGT, vtab.OpLE: host.OpLE, vtab.OpLT: host.OpLT,
	vtab.OpGE: host.OpGE, vtab.OpMATCH: host.OpMATCH, vtab.OpNE: host.OpNE, vtab.OpIS: host.OpIS, vtab.OpISNOT: host.OpISNOT,
	vtab.OpISNULL: host.OpISNULL, vtab.OpISNOTNULL: host.OpISNOTNULL, vtab.OpLIKE: host.OpLIKE, vtab.OpGLOB: host.OpGLOB,
	vtab.OpREGEXP: host.OpREGEXP, vtab.OpFUNCTION: host.OpFUNCTION, vtab.OpLIMIT: host.OpLIMIT, vtab.OpOFFSET: host.OpOFFSET}

func constraint(c vtab.Constraint) host.Constraint {
	op := host.OpOther
	if c.Op >= 0 && int(c.Op) < len(opFromModernc) {
		op = opFromModernc[c.Op]
	}
	return host.Constraint{Column: c.Column, Op: op, Usable: c.Usable}
}

func orderBy(o vtab.OrderBy) host.OrderBy { return host.OrderBy{Column: o.Column, Desc: o.Desc} }

func (t moderncTable) BestIndex(info *vtab.IndexInfo) error {
	hi, argv, err := host.Plan(t.Table, info.Constraints, constraint, info.OrderBy, orderBy, info.EstimatedCost, info.EstimatedRows)
	if err != nil {
		return err
	}
	for i, a := range argv {
		info.Constraints[i].ArgIndex, info.Constraints[i].Omit = a-1, a > 0
	}
	info.IdxNum, info.IdxStr, info.OrderByConsumed = int64(hi.IdxNum), hi.IdxStr, hi.OrderByConsumed
	info.EstimatedCost, info.EstimatedRows = hi.EstimatedCost, hi.EstimatedRows
	return nil
}

func (t moderncTable) Open() (vtab.Cursor, error) {
	c, err := t.Table.Open()
	if err != nil {
		return nil, err
	}
	return moderncCursor{c}, nil
}

// moderncCursor is a host.Cursor under modernc's names.
type moderncCursor struct{ host.Cursor }

func (c moderncCursor) Filter(idxNum int, idxStr string, vals []vtab.Value) error {
	return c.Cursor.Filter(idxNum, idxStr, host.Args(vals))
}

func (c moderncCursor) Eof() bool                          { return c.EOF() }
func (c moderncCursor) Column(col int) (vtab.Value, error) { return host.Column(c.Cursor, col) }

// Insert, Update and Delete are xUpdate (host.Write).
func (t moderncTable) Insert(cols []vtab.Value, _ *int64) error {
	return host.Write(t.Table, -1, host.Args(cols), false)
}
func (t moderncTable) Update(old int64, cols []vtab.Value, _ *int64) error {
	return host.Write(t.Table, old, host.Args(cols), false)
}
func (t moderncTable) Delete(old int64) error { return host.Write(t.Table, old, nil, true) }

// Rename is xRename (host.Rename).
func (t moderncTable) Rename(newName string) error { return host.Rename(t.Table, newName) }

// eponymousOnly makes the named modules eponymous-only, as SQLite's C API
// would register them (xCreate NULL): usable as table-valued functions by
// their own name from anywhere, views and triggers of any schema included,
// and refused by CREATE VIRTUAL TABLE. modernc.org/sqlite always sets
// xCreate, and offers no way to change it, so this finds the module
// structures through the connection's handle (as cmd/ksql's errorOffset
// reads it) and clears xCreate. The structure is modernc's one per module
// name for the whole process, so clearing it is idempotent. It reports
// false, changing nothing, when the handle or a module cannot be found:
// the caller then falls back on temp stand-ins (host.CreateEponymous).
func eponymousOnly(raw driver.Conn, names []string) bool {
	_, found := moduleStructs(raw, names)
	if found == nil {
		return false
	}
	modulesMu.Lock()
	defer modulesMu.Unlock()
	for _, m := range found {
		if m.FxCreate != 0 {
			m.FxCreate = 0
		}
	}
	return true
}

// moduleStructs returns the connection's handle and modernc's module
// structures of the names given (one per name for the whole process),
// found through the handle's hash of modules; nil when the handle or a
// module cannot be found.
func moduleStructs(raw driver.Conn, names []string) (unsafe.Pointer, []*sqlite3.Tsqlite3_module) {
	db := moderncHandle(raw)
	if db == nil {
		return nil, nil
	}
	var found []*sqlite3.Tsqlite3_module
	mods := &(*sqlite3.Tsqlite3)(db).FaModule
	for e := cPointer(&mods.Ffirst); e != nil; e = cPointer(&(*sqlite3.THashElem)(e).Fnext) {
		elem := (*sqlite3.THashElem)(e)
		name := libc.GoString(elem.FpKey)
		if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) }) {
			continue
		}
		mod := (*sqlite3.TModule)(cPointer(&elem.Fdata))
		found = append(found, (*sqlite3.Tsqlite3_module)(cPointer(&mod.FpModule)))
	}
	if len(found) != len(names) {
		return nil, nil
	}
	return db, found
}

// modulesMu serialises the writes to modernc's shared module structures
// (eponymousOnly's and hookDestroys').
var modulesMu sync.Mutex

// moderncHandle returns the sqlite3* of a modernc connection, nil when its
// fields are not as expected.
func moderncHandle(raw driver.Conn) unsafe.Pointer {
	v := reflect.ValueOf(raw)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Uintptr {
		return nil
	}
	return cPointer((*uintptr)(unsafe.Pointer(f.UnsafeAddr())))
}

// moderncSettled is host.Conn.Settled's probe for a modernc connection:
// what sqlite3_get_autocommit and sqlite3_txn_state read, read from its
// handle (the functions would need the connection's C thread state, which
// modernc keeps to itself, and take its mutex, which the running statement
// holds); nil when the handle cannot be found.
func moderncSettled(raw driver.Conn) func() bool {
	db := moderncHandle(raw)
	if db == nil {
		return nil
	}
	return func() bool {
		c := (*sqlite3.Tsqlite3)(db)
		if c.FautoCommit == 0 {
			return false
		}
		for i := range int(c.FnDb) {
			d := (*sqlite3.TDb)(unsafe.Add(cPointer(&c.FaDb), i*int(unsafe.Sizeof(sqlite3.TDb{}))))
			if bt := cPointer(&d.FpBt); bt != nil && (*sqlite3.TBtree)(bt).FinTrans >= sqlite3.TRANS_WRITE {
				return false
			}
		}
		return true
	}
}

// cPointer reads a pointer into SQLite's memory that modernc keeps as a
// uintptr (memory outside Go's heap, so the collector need not see it).
func cPointer(p *uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(p)) }
