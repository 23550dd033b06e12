package vtab

import (
	"testing"

	"github.com/ksql/ksql/ext/host"
)

// A row lent (rowFrom) hashes as the same row given (row) does: a fit
// stored from one read is recognised by the other. Batches of both kinds
// and of several sizes keep the order of the rows.
func TestRowHashBorrowedSame(t *testing.T) {
	rows := [][]any{
		{int64(1), []byte{1, 2, 3}, 2.5},
		{int64(-1 << 63), "[1, 2]", nil},
		{nil, []byte(nil), ""},
		{1e308, []byte{}, "héllo"},
	}
	for _, n := range []int{1, 10, 3000} { // 3000 rows pass hashRaw and hashBatch
		s := &source{}
		given, lent, mixed := s.newRowHash(), s.newRowHash(), s.newRowHash()
		r := &host.Values{}
		for i := range n {
			v := rows[i%len(rows)]
			given.row(v)
			r.V = v
			lent.rowFrom(r, len(v))
			if i%3 == 0 {
				mixed.row(v)
			} else {
				mixed.rowFrom(r, len(v))
			}
		}
		g, l, m := sumOf(t, given), sumOf(t, lent), sumOf(t, mixed)
		if g != l || g != m {
			t.Errorf("%d rows: given %x, lent %x, mixed %x", n, g[:4], l[:4], m[:4])
		}
	}
	// the hash sees the values: another value is another digest
	s := &source{}
	a, b := s.newRowHash(), s.newRowHash()
	a.rowFrom(&host.Values{V: []any{int64(1), []byte{1}}}, 2)
	b.rowFrom(&host.Values{V: []any{int64(1), "\x01"}}, 2)
	if sumOf(t, a) == sumOf(t, b) {
		t.Error("a BLOB and TEXT of the same bytes hash alike")
	}
}

func sumOf(t *testing.T, h *rowHash) [32]byte {
	t.Helper()
	if err := h.finish(); err != nil {
		t.Fatal(err)
	}
	var s [32]byte
	h.h.Sum(s[:0])
	return s
}
