package kpca

import (
	"encoding/gob"
	"io"
)

// gob numbers each type at its first use in the process and writes that
// number into the stream, so a fit's stored bytes would depend on what the
// process encoded before (a replicated database's nodes store different
// bytes for the same fit). Numbering the stored types here, in a fixed
// order, makes the bytes a function of the fit alone.
func init() {
	for _, v := range []any{modelWire{}, mapWire{}} {
		if err := gob.NewEncoder(io.Discard).Encode(v); err != nil {
			panic(err)
		}
	}
}
