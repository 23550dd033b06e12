package vtab

import (
	"encoding/gob"
	"io"

	"github.com/ksql/ksql/internal/fda"
)

// gob numbers each type at its first use in the process and writes that
// number into the stream, so a fit's stored bytes would depend on what the
// process encoded before: a node of a replicated database that restarted
// stored other bytes for the same fit than the others. Numbering every
// stored type here, in a fixed order (internal/kpca numbers its own
// first), makes the bytes a function of the fit alone.
func init() {
	for _, v := range []any{svmWire{}, svmNystromWire{}, regressWire{}, tsneWire{}, gpWire{},
		clusterWire{}, fda.Model{}, []int{}} {
		if err := gob.NewEncoder(io.Discard).Encode(v); err != nil {
			panic(err)
		}
	}
}
