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
	h    hash.Hash
	buf  [9]byte
	cur  *hashJob      // rows waiting for the hasher
	todo chan *hashJob // full batches, in read order (nil once finished)
	free chan *hashJob // emptied batches
	done <-chan error  // the hasher's end
	err  error
}

// hashJob is a batch of rows for the hasher: values as Query gives them
// (row), or rows a reader borrowed, already in the hash's encoding
// (rowFrom). A batch holds one or the other.
type hashJob struct {
	vals []any
	raw  []byte
}

// hashBatch is how many values a batch holds, hashRaw how many bytes: a
// batch wakes the hasher, and waking it every 64 KB (4,400 times in a
// 1M-row read) cost the read 7–13% on the statement's goroutine.
const (
	hashBatch = 4096
	hashRaw   = 1 << 18
)

// newRowHash starts a hash of s's rows; finish (or sum) must end it.
func (s *source) newRowHash() *rowHash {
	r := &rowHash{h: sha256.New(), todo: make(chan *hashJob, 2), free: make(chan *hashJob, 3)}
	s.hashFeatures(r.h)
	for range 2 {
		r.free <- &hashJob{}
	}
	r.cur = &hashJob{}
	todo := r.todo
	r.done = par.Go("vtab.rowHash", func() (err error) {
		for j := range todo { // drained to the end, whatever happens, so that row never waits forever
			if err == nil {
				err = r.hashJob(j)
			}
			clear(j.vals) // the values may go
			j.vals, j.raw = j.vals[:0], j.raw[:0]
			r.free <- j
		}
		return err
	})
	return r
}

// hashJob hashes one batch, a panic returned as an error.
func (r *rowHash) hashJob(j *hashJob) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error hashing the source: %v", p)
		}
	}()
	for _, x := range j.vals {
		r.put(x)
	}
	r.h.Write(j.raw)
	return nil
}

// row hashes a row as read; the values are the caller's to keep (the
// slice may be reused).
func (r *rowHash) row(v []any) {
	if len(r.cur.raw) > 0 {
		r.flush()
	}
	r.cur.vals = append(r.cur.vals, v...)
	if len(r.cur.vals) >= hashBatch {
		r.flush()
	}
}

// rowFrom hashes the first width values of a borrowed row as row would
// hash them, copying their bytes into the batch.
func (r *rowHash) rowFrom(row host.Row, width int) {
	if len(r.cur.vals) > 0 {
		r.flush()
	}
	for i := range width {
		r.cur.raw = appendHashed(r.cur.raw, row, i)
	}
	if len(r.cur.raw) >= hashRaw {
		r.flush()
	}
}

// flush hands the batch being filled to the hasher.
func (r *rowHash) flush() {
	r.todo <- r.cur
	r.cur = <-r.free
}

// finish hands the hasher the last batch and waits for it; calling it
// again does nothing.
func (r *rowHash) finish() error {
	if r.todo == nil {
		return r.err
	}
	if len(r.cur.vals) > 0 || len(r.cur.raw) > 0 {
		r.todo <- r.cur
	}
	close(r.todo)
	r.todo, r.cur = nil, nil
	r.err = <-r.done
	return r.err
}

// appendHashed appends value i of row in put's encoding.
func appendHashed(dst []byte, row host.Row, i int) []byte {
	switch k := row.Kind(i); k {
	case host.Integer:
		return binary.LittleEndian.AppendUint64(append(dst, 1), uint64(row.Int(i)))
	case host.Float:
		return binary.LittleEndian.AppendUint64(append(dst, 2), math.Float64bits(row.Float(i)))
	case host.Text, host.Blob:
		b := row.Bytes(i)
		tag := byte(3)
		if k == host.Blob {
			tag = 4
		}
		return append(binary.LittleEndian.AppendUint64(append(dst, tag), uint64(len(b))), b...)
	}
	return append(dst, 0)
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
