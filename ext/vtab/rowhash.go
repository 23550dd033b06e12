package vtab

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"
	"unsafe"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/transducer"
	"github.com/ksql/ksql/internal/kernels"
)

// rowHash hashes a source's rows as read: the content a snapshot, and a
// stored fit, are identified by.
type rowHash struct {
	h   hash.Hash
	buf [9]byte
}

func (s *source) newRowHash() *rowHash {
	r := &rowHash{h: sha256.New()}
	s.hashFeatures(r.h)
	return r
}

func (r *rowHash) row(v []any) {
	for _, x := range v {
		r.put(x)
	}
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
	d, err := transducer.For(c).Digest(spec)
	if err != nil {
		return sum, err
	}
	r.h.Write(d)
	r.h.Sum(sum[:0])
	return sum, nil
}
