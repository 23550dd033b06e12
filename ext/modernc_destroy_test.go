package ext

import (
	"testing"
	"unsafe"
)

// A connection's handle is freed before its slot is forgotten, and a
// connection opened in between may get the same address: forgetting the
// closed one must leave the new one's slot, or the new connection's DROP
// TABLE errors are dropped again (hookOpen finds no slot, records no table).
func TestForgetConnKeepsReusedHandle(t *testing.T) {
	var cell byte
	db := unsafe.Pointer(&cell)
	closed, opened := &slot{}, &slot{}
	for _, c := range []struct {
		name    string
		current *slot // hooks.slots[db] when the closed connection forgets it
		want    *slot
	}{
		{"own record", closed, nil},
		{"handle reused by a new connection", opened, opened},
	} {
		hooks.Lock()
		hooks.slots[uintptr(db)] = c.current
		hooks.Unlock()
		forgetConn(db, closed)
		hooks.Lock()
		got := hooks.slots[uintptr(db)]
		delete(hooks.slots, uintptr(db))
		hooks.Unlock()
		if got != c.want {
			t.Errorf("%s: slot after forgetConn = %p, want %p", c.name, got, c.want)
		}
	}
}
