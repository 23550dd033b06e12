package vtab

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"unsafe"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/transducer"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/par"
)

// rowHash hashes a source's rows as read: the content a snapshot, and a
// stored fit, are identified by. The hashing runs beside the statement
// that steps the rows, on a goroutine of its own that takes them in
// batches, in order: reading a million JSON rows to prove a source
// unchanged (the first statement on a reopened database) spent a quarter
// of its time in SHA-256.
type rowHash struct {
	h     hash.Hash
	buf   [9]byte
	batch []any        // values waiting for the hasher
	todo  chan []any   // full batches, in read order (nil once finished)
	free  chan []any   // emptied batches
	done  <-chan error // the hasher's end
	err   error
}

// hashBatch is how many values a batch holds.
const hashBatch = 4096

// newRowHash starts a hash of s's rows; finish (or sum) must end it.
func (s *source) newRowHash() *rowHash {
	r := &rowHash{h: sha256.New(), todo: make(chan []any, 2), free: make(chan []any, 3)}
	s.hashFeatures(r.h)
	for range 2 {
		r.free <- make([]any, 0, hashBatch)
	}
	r.batch = make([]any, 0, hashBatch)
	todo := r.todo
	r.done = par.Go("vtab.rowHash", func() (err error) {
		for b := range todo { // drained to the end, whatever happens, so that row never waits forever
			if err == nil {
				err = r.hashBatch(b)
			}
			clear(b) // the values may go
			r.free <- b[:0]
		}
		return err
	})
	return r
}

// hashBatch hashes one batch, a panic returned as an error.
func (r *rowHash) hashBatch(b []any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error hashing the source: %v", p)
		}
	}()
	for _, x := range b {
		r.put(x)
	}
	return nil
}

// row hashes a row as read; the values are the caller's to keep (the
// slice may be reused).
func (r *rowHash) row(v []any) {
	r.batch = append(r.batch, v...)
	if len(r.batch) >= hashBatch {
		r.todo <- r.batch
		r.batch = <-r.free
	}
}

// finish hands the hasher the last batch and waits for it; calling it
// again does nothing.
func (r *rowHash) finish() error {
	if r.todo == nil {
		return r.err
	}
	if len(r.batch) > 0 {
		r.todo <- r.batch
	}
	close(r.todo)
	r.todo, r.batch = nil, nil
	r.err = <-r.done
	return r.err
}

func (r *rowHash) put(v any) {
	h, buf := r.h, r.buf[:]
	switch x := v.(type) {
	case nil:
		h.Write([]byte{0})
	case int64:
		buf[0] = 1
		binary.LittleEndian.PutUint64(buf[1:], uint64(x))
		h.Write(buf)
	case float64:
		buf[0] = 2
		binary.LittleEndian.PutUint64(buf[1:], math.Float64bits(x))
		h.Write(buf)
	case string:
		buf[0] = 3
		binary.LittleEndian.PutUint64(buf[1:], uint64(len(x)))
		h.Write(buf)
		// the string's bytes, not a copy of them (a million JSON rows
		// were a million allocations): Write reads them and keeps nothing
		h.Write(unsafe.Slice(unsafe.StringData(x), len(x)))
	case []byte:
		buf[0] = 4
		binary.LittleEndian.PutUint64(buf[1:], uint64(len(x)))
		h.Write(buf)
		h.Write(x)
	}
}

// sum ends the hash with the digest of the transducer tables the kernel
// names: a fit depends on them too.
func (r *rowHash) sum(c *host.Conn, spec *kernels.Spec) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	if err := r.finish(); err != nil {
		return sum, err
	}
	d, err := transducer.For(c).Digest(spec)
	if err != nil {
		return sum, err
	}
	r.h.Write(d)
	r.h.Sum(sum[:0])
	return sum, nil
}
