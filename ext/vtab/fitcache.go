package vtab

import (
	"fmt"

	"github.com/ksql/ksql/ext/host"
)

// fitCache holds the model fitted on a source's content: each query
// re-reads the source (cheap) and refits only when the content changed.
type fitCache[M any] struct {
	snap *snapshot // the content the cached fit or error is for
	fit  M
	err  error // a fit error for snap, cached like a fit (never an interrupt)
	done bool  // fit or err is valid for snap
	busy bool  // a fit is running: its source must not read this table
}

// current returns the fit for the source's current content, calling fit
// only when the content changed since the last call. name is the virtual
// table's, for the error when its own source reads it.
func (f *fitCache[M]) current(name string, hc *host.Conn, src *source, fit func(*snapshot) (M, error)) (*snapshot, M, error) {
	var zero M
	if f.busy {
		return nil, zero, fmt.Errorf("the source of %s reads %s itself", name, name)
	}
	f.busy = true
	defer func() { f.busy = false }()
	snap, err := src.read(hc, f.snap)
	if err != nil {
		return nil, zero, err
	}
	if snap == f.snap && f.done {
		return snap, f.fit, f.err
	}
	f.snap, f.fit, f.err, f.done = snap, zero, nil, false
	m, err := fit(snap)
	if err != nil {
		if cacheable(err) {
			f.err, f.done = err, true
		}
		return nil, zero, err
	}
	f.fit, f.done = m, true
	hc.Stats.Fits.Add(1)
	return snap, m, nil
}
