package vtab

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ksql/ksql/internal/kernels"
)

// Outputs in pieces. A fit whose outputs grow with the source (kpca's
// projections: ten million rows of five components are 400 MB) writes
// them to the shadow table as the pass that computes them goes, in pieces
// of chunkRows rows, instead of holding them; a restored fit reads back
// the piece a row is in when a statement asks for that row. A piece is a
// part named "~<output>/<index>" (the tilde sorts after every other
// part's name, so loadStored reads the fit without them), holding
// rows×width float64s, little-endian. The part "<output>.chunks" lists the
// width, the number of rows and every piece's SHA-256: the fit's checksum
// covers it, and every piece is checked against its hash when read.
// Pieces are written only where writing is the statement's job — CREATE
// and 'refit' — so a fit made by a read (the source changed since) holds
// its outputs in memory as before.

// chunkRows is how many rows of an output a piece holds.
const chunkRows = 4096

// chunkPrefix begins every piece's part name, and no other's.
const chunkPrefix = "~"

// chunkIndex describes one output kept in pieces.
type chunkIndex struct {
	name   string // the output's name, such as kpca_projections
	width  int    // values a row
	rows   int
	hashes [][sha256.Size]byte
}

func chunkPart(name string, i int) string { return fmt.Sprintf("%s%s/%08d", chunkPrefix, name, i) }

// part is the index as a part of the fit.
func (x *chunkIndex) part() fitPart {
	b := binary.LittleEndian.AppendUint64(nil, uint64(x.width))
	b = binary.LittleEndian.AppendUint64(b, uint64(x.rows))
	for _, h := range x.hashes {
		b = append(b, h[:]...)
	}
	return fitPart{name: x.name + ".chunks", data: b}
}

// chunkIndexOf reads the index of output name from a stored fit; nil,
// nil when the fit keeps no such output in pieces.
func chunkIndexOf(s *storedFit, name string) (*chunkIndex, error) {
	b, err := s.part(name + ".chunks")
	if err != nil {
		return nil, nil
	}
	if len(b) < 16 || (len(b)-16)%sha256.Size != 0 {
		return nil, errors.New("the index of " + name + " is damaged")
	}
	x := &chunkIndex{name: name, width: int(binary.LittleEndian.Uint64(b)), rows: int(binary.LittleEndian.Uint64(b[8:]))}
	for h := b[16:]; len(h) > 0; h = h[sha256.Size:] {
		x.hashes = append(x.hashes, [sha256.Size]byte(h))
	}
	if x.width < 1 || x.rows < 0 || len(x.hashes) != (x.rows+chunkRows-1)/chunkRows {
		return nil, errors.New("the index of " + name + " is damaged")
	}
	return x, nil
}

// restoredPieces is output idx of the stored fit s, for a restore on f's
// snapshot: every piece read once and checked against the index.
func (s *storedFit) restoredPieces(f *fitting, idx *chunkIndex) (pieces, error) {
	p := pieces{out: idx, in: s.t.chunkReader(idx), sum: s.sum, checked: f.snap.token, justRead: true}
	return p, p.in.verify()
}

// piecewise is a fit that may keep outputs in the shadow table's pieces.
type piecewise interface {
	pieceSet() *pieces
}

// pieces is what a piecewise fit knows of its pieces: out is their index
// (nil: the fit holds its outputs), written there by the fit being stored
// or read by a restored fit through in; sum is the checksum of the stored
// fit it was restored from, and checked the database's state (fresh.go)
// when the pieces were last found unchanged; justRead marks pieces the
// statement's own restore has just read, which it need not read again.
type pieces struct {
	out      *chunkIndex
	in       *chunkReader
	sum      []byte
	checked  string
	justRead bool
}

// row reads row o's values from the pieces of a restored fit.
func (p *pieces) row(o int) ([]float64, error) {
	if p.in == nil {
		return nil, errors.New("the fit's outputs are in pieces not yet stored")
	}
	return p.in.row(o)
}

// mustRow is stored for a rowReader: the callers of stored (model_search,
// checkShape) see fits that hold their outputs, which cannot fail.
func mustRow(r rowReader, o int, dst []any) {
	if err := r.storedRow(o, dst); err != nil {
		panic(err)
	}
}

// rowReader is a fit whose stored rows may have to be read from the
// shadow table first, which can fail; the cursor asks it instead of
// calling stored.
type rowReader interface {
	storedRow(o int, dst []any) error
}

// stillStored says whether the shadow table still holds, unchanged, the
// pieces of the fit p was restored from: a 'refit' inside a transaction
// that rolled back, or a write by hand, leaves them gone or changed. It
// reads them again whenever the database may have changed since they
// were last found unchanged (token, fresh.go; "" always).
func (t *modelTable) stillStored(p *pieces, token string) bool {
	if p.justRead || token != "" && token == p.checked {
		return true
	}
	var sum []byte
	err := t.hc.Query("SELECT data FROM "+t.shadow().sql()+" WHERE part = 'checksum'", nil, func(v []any) error {
		sum, _ = v[0].([]byte)
		return nil
	})
	if err != nil || string(sum) != string(p.sum) || p.in.verify() != nil {
		return false
	}
	p.checked = token
	return true
}

// outputs returns a writer of the output called name (width values a
// row) into the shadow table when the fit is being stored, or nil when
// the fit is to hold its outputs in memory. Pieces an earlier try of the
// same fit wrote (a fit read again after the source changed) go first.
func (f *fitting) outputs(name string, width int) (*chunkWriter, error) {
	t := f.pieces
	if t == nil {
		return nil, nil
	}
	err := t.exec("DELETE FROM "+t.shadow().sql()+" WHERE part > ? AND part < ?", chunkPrefix+name+"/", chunkPrefix+name+"0")
	if err != nil {
		return nil, err
	}
	return t.chunkWriter(name, width), nil
}

// streamTo is the pass of a fit being stored that computes an output:
// each block's width values a row, set by each on a worker from the
// block's kernel values against basis, are seen (nil: not) and written to
// out on this goroutine in read order.
func (f *fitting) streamTo(out *chunkWriter, basis []kernels.Object, marks []int, each func(b *passBlock, rows int, dst []float64) error,
	seen func(b *passBlock, vals []float64) error, blockErr func(error, int) error) error {
	width := out.idx.width
	return f.streamKernel(basis, marks, func() any { return new([]float64) }, func(b *passBlock, _, rows int) error {
		p := b.aux.(*[]float64)
		*p = slices.Grow((*p)[:0], rows*width)[:rows*width]
		return each(b, rows, *p)
	}, func(b *passBlock) error {
		p := *b.aux.(*[]float64)
		if seen != nil {
			if err := seen(b, p); err != nil {
				return err
			}
		}
		return out.add(p)
	}, blockErr)
}

// chunkWriter writes one output in pieces as its rows come, in order.
type chunkWriter struct {
	t   *modelTable
	idx chunkIndex
	buf []float64
	raw []byte
}

func (t *modelTable) chunkWriter(name string, width int) *chunkWriter {
	return &chunkWriter{t: t, idx: chunkIndex{name: name, width: width}, buf: make([]float64, 0, chunkRows*width)}
}

// add takes the next rows (a multiple of width values).
func (w *chunkWriter) add(vals []float64) error {
	for len(vals) > 0 {
		n := min(len(vals), cap(w.buf)-len(w.buf))
		w.buf = append(w.buf, vals[:n]...)
		vals = vals[n:]
		if len(w.buf) == cap(w.buf) {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *chunkWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	w.raw = appendFloats(w.raw[:0], w.buf)
	err := w.t.exec("INSERT INTO "+w.t.shadow().sql()+"(part, data) VALUES (?, ?)", chunkPart(w.idx.name, len(w.idx.hashes)), w.raw)
	if err != nil {
		return err
	}
	w.idx.hashes = append(w.idx.hashes, sha256.Sum256(w.raw))
	w.idx.rows += len(w.buf) / w.idx.width
	w.buf = w.buf[:0]
	return nil
}

// finish writes the last piece and returns the output's index.
func (w *chunkWriter) finish() (*chunkIndex, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	return &w.idx, nil
}

// chunkReader reads an output's pieces back for a restored fit, keeping
// the last few read: a scan reads each piece once, a lookup one piece.
type chunkReader struct {
	t   *modelTable
	idx *chunkIndex
	mu  sync.Mutex
	lru [4]struct {
		i    int // the piece held, −1 for none
		vals []float64
	}
}

func (t *modelTable) chunkReader(idx *chunkIndex) *chunkReader {
	r := &chunkReader{t: t, idx: idx}
	for i := range r.lru {
		r.lru[i].i = -1
	}
	return r
}

// row returns row o's width values, which stay valid until the next
// call (the connection's statements run one at a time).
func (r *chunkReader) row(o int) ([]float64, error) {
	if o < 0 || o >= r.idx.rows {
		return nil, fmt.Errorf("row %d of %s is past its %d rows", o, r.idx.name, r.idx.rows)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	i, w := o/chunkRows, r.idx.width
	if r.lru[0].i != i {
		k := 1
		for k < len(r.lru)-1 && r.lru[k].i != i {
			k++
		}
		if r.lru[k].i != i { // the least recent, read again
			vals, err := r.read(i, r.lru[k].vals)
			var bad *badPiece
			if errors.As(err, &bad) {
				return nil, fmt.Errorf("%w; INSERT INTO %s(%s) VALUES ('refit') stores the fit anew", err, r.t.name.name, r.t.name.name)
			}
			if err != nil {
				return nil, err
			}
			r.lru[k].i, r.lru[k].vals = i, vals
		}
		hit := r.lru[k]
		copy(r.lru[1:k+1], r.lru[:k])
		r.lru[0] = hit
	}
	at := (o - i*chunkRows) * w
	return r.lru[0].vals[at : at+w], nil
}

// read reads piece i, checked against its hash, into dst's memory.
func (r *chunkReader) read(i int, dst []float64) ([]float64, error) {
	var data []byte
	found := false
	err := r.t.hc.Query("SELECT data FROM "+r.t.shadow().sql()+" WHERE part = ?", []any{chunkPart(r.idx.name, i)}, func(v []any) error {
		data, _ = v[0].([]byte)
		found = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.decode(i, data, found, dst)
}

func (r *chunkReader) decode(i int, data []byte, found bool, dst []float64) ([]float64, error) {
	want := min(chunkRows, r.idx.rows-i*chunkRows) * r.idx.width
	if !found || len(data) != 8*want || sha256.Sum256(data) != r.idx.hashes[i] {
		return nil, &badPiece{fmt.Errorf("piece %d of %s in %s is missing or changed (by hand, or by a 'refit' that a transaction rolled back)",
			i, r.idx.name, r.t.shadow().name)}
	}
	return readFloats(dst[:0], data), nil
}

// badPiece is a piece that is not the one its index lists.
type badPiece struct{ error }

func (b *badPiece) Unwrap() error { return b.error }

// verify reads every piece once, in order, and checks it against the
// index: a restore trusts no piece it has not seen.
func (r *chunkReader) verify() error {
	n := 0
	var buf []float64
	var err error
	lo, hi := chunkPrefix+r.idx.name+"/", chunkPrefix+r.idx.name+"0" // '0' follows '/'
	qerr := r.t.hc.Query("SELECT part, data FROM "+r.t.shadow().sql()+" WHERE part > ? AND part < ? ORDER BY part", []any{lo, hi}, func(v []any) error {
		name, _ := v[0].(string)
		data, _ := v[1].([]byte)
		if n >= len(r.idx.hashes) || name != chunkPart(r.idx.name, n) {
			return fmt.Errorf("%s holds a piece %s that its index does not list", r.t.shadow().name, quoteExcerpt(strings.Clone(name)))
		}
		buf, err = r.decode(n, data, true, buf)
		n++
		return err
	})
	if qerr != nil {
		return qerr
	}
	if n != len(r.idx.hashes) {
		_, err = r.decode(n, nil, false, nil)
	}
	return err
}
