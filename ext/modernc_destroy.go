package ext

import (
	"database/sql/driver"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// modernc.org/sqlite's xDestroy calls Table.Destroy, drops its error and
// reports success: a model table whose shadow table could not be dropped
// (an interrupt; another statement of the connection still reading, while
// SQLite refuses DROP TABLE) was dropped all the same, its <name>_fit left
// behind and the name taken for the next CREATE. SQLite's contract, kept
// by mattn and the loadable library, is that a failing xDestroy fails the
// DROP and keeps the table. So ksql's module structures get an xDestroy
// that runs Destroy first and returns its error, modernc's then only
// freeing; to know the Go table of a sqlite3_vtab, xCreate and xConnect
// record it as SQLite gets the pointer, and xDisconnect forgets it.

type (
	xOpenFn  = func(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32
	xCloseFn = func(tls *libc.TLS, pVtab uintptr) int32
)

// hooks holds modernc's four functions (the same for every module it
// registers) and what the hooks need to find a table.
var hooks = struct {
	sync.Mutex
	create, connect, disconnect, destroy uintptr           // modernc's; 0 until the first hook
	slots                                map[uintptr]*slot // sqlite3* → its connection's slot
	tables                               map[uintptr]*moderncTable
}{slots: map[uintptr]*slot{}, tables: map[uintptr]*moderncTable{}}

var (
	myCreate     = cFunc[xOpenFn](hookCreate)
	myConnect    = cFunc[xOpenFn](hookConnect)
	myDisconnect = cFunc[xCloseFn](hookDisconnect)
	myDestroy    = cFunc[xCloseFn](hookDestroy)
)

// cFunc is a top-level function as one of modernc's C function pointers
// (how modernc.org/sqlite fills a module structure); callC calls one.
func cFunc[T any](f T) uintptr { return *(*uintptr)(unsafe.Pointer(&struct{ f T }{f})) }
func callC[T any](p uintptr) T { return *(*T)(unsafe.Pointer(&struct{ p uintptr }{p})) }

// hookDestroys installs the hooks on the structures of the modules named
// (modernc's, one per name for the process: a structure already hooked is
// left as it is) and records the connection's slot. It reports false when
// the handle or a module cannot be found or is not as expected; DROP TABLE
// then behaves as modernc makes it.
func hookDestroys(raw driver.Conn, s *slot, names []string) bool {
	db, found := moduleStructs(raw, names)
	if found == nil {
		return false
	}
	hooks.Lock()
	defer hooks.Unlock()
	modulesMu.Lock()
	defer modulesMu.Unlock()
	for _, m := range found {
		if m.FxDestroy == myDestroy {
			continue
		}
		if hooks.destroy == 0 {
			hooks.connect, hooks.disconnect, hooks.destroy = m.FxConnect, m.FxDisconnect, m.FxDestroy
		}
		if hooks.create == 0 {
			hooks.create = m.FxCreate
		}
		if (m.FxCreate != 0 && m.FxCreate != hooks.create) || m.FxConnect != hooks.connect ||
			m.FxDisconnect != hooks.disconnect || m.FxDestroy != hooks.destroy {
			return false // not modernc's trampolines as known: leave it
		}
		if m.FxCreate != 0 { // 0: eponymous-only (eponymousOnly)
			m.FxCreate = myCreate
		}
		m.FxConnect, m.FxDisconnect, m.FxDestroy = myConnect, myDisconnect, myDestroy
	}
	hooks.slots[uintptr(db)] = s
	return true
}

// forgetConn drops a closed connection's slot s from the hooks' records.
// It runs after the handle is freed, when a connection opened meanwhile
// may have the same address: that one's record is left.
func forgetConn(db unsafe.Pointer, s *slot) {
	hooks.Lock()
	if hooks.slots[uintptr(db)] == s {
		delete(hooks.slots, uintptr(db))
	}
	hooks.Unlock()
}

// original returns one of modernc's functions, as hookDestroys found it.
func original(f *uintptr) uintptr {
	hooks.Lock()
	defer hooks.Unlock()
	return *f
}

func hookCreate(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	return hookOpen(original(&hooks.create), tls, db, pAux, argc, argv, ppVtab, pzErr)
}

func hookConnect(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	return hookOpen(original(&hooks.connect), tls, db, pAux, argc, argv, ppVtab, pzErr)
}

// hookOpen runs modernc's xCreate or xConnect, then records the table
// made, which moderncModule.open left in the connection's slot, under
// the sqlite3_vtab that SQLite now holds.
func hookOpen(orig uintptr, tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	hooks.Lock()
	s := hooks.slots[db]
	hooks.Unlock()
	if s != nil {
		s.opened = nil
	}
	rc := callC[xOpenFn](orig)(tls, db, pAux, argc, argv, ppVtab, pzErr)
	if rc == sqlite3.SQLITE_OK && s != nil && s.opened != nil {
		hooks.Lock()
		hooks.tables[*(*uintptr)(cPointer(&ppVtab))] = s.opened
		hooks.Unlock()
	}
	if s != nil {
		s.opened = nil
	}
	return rc
}

func hookDisconnect(tls *libc.TLS, pVtab uintptr) int32 {
	hooks.Lock()
	delete(hooks.tables, pVtab)
	hooks.Unlock()
	return callC[xCloseFn](original(&hooks.disconnect))(tls, pVtab)
}

// hookDestroy runs the table's Destroy; on an error the table stays, for
// SQLite to keep (the DROP fails), and on success modernc's xDestroy,
// whose call of Destroy then does nothing, frees it.
func hookDestroy(tls *libc.TLS, pVtab uintptr) int32 {
	hooks.Lock()
	t := hooks.tables[pVtab]
	hooks.Unlock()
	if t != nil {
		if err := t.Table.Destroy(); err != nil {
			return sqlite3.SQLITE_ERROR
		}
		t.destroyed = true
		hooks.Lock()
		delete(hooks.tables, pVtab)
		hooks.Unlock()
	}
	return callC[xCloseFn](original(&hooks.destroy))(tls, pVtab)
}
