package ext

import (
	"context"
	"database/sql/driver"
	"reflect"
	"testing"

	"github.com/ksql/ksql/ext/host"
)

// The rows moderncBorrow lends hold the values the driver's own rows give,
// of every storage class, past the first row and after a statement that
// fails at prepare (which goes through the driver, for its error).
func TestModerncBorrowSameValues(t *testing.T) {
	c, err := (&Driver{}).Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw := c.(interface{ Raw() driver.Conn }).Raw()
	if _, err := c.(driver.ExecerContext).ExecContext(context.Background(), `CREATE TABLE t(a, b, c);
		INSERT INTO t VALUES (1, 2.5, 'x'), (NULL, x'', ''), (-9223372036854775808, 1e308, x'00ff'),
			(zeroblob(4), 'héllo', 9223372036854775807), (3, -0.0, printf('%.*c', 3000, 'z'))`, nil); err != nil {
		t.Fatal(err)
	}
	owned := host.QueryViaOwned(raw.(driver.QueryerContext))
	borrow := moderncBorrow(raw, owned)
	if borrow == nil {
		t.Fatal("no BorrowFunc for a modernc connection")
	}
	const q = "SELECT a, b, c, typeof(a) FROM t ORDER BY rowid"
	var want, got [][]any
	if err := owned(q, nil, func(v []any) error { want = append(want, append([]any{}, v...)); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := borrow(q, func(r host.Row) error {
		row := make([]any, 4)
		for i := range row {
			row[i] = r.Value(i)
			switch x := row[i].(type) {
			case string:
				if r.Kind(i) != host.Text || string(r.Bytes(i)) != x {
					t.Errorf("column %d: kind %d, Bytes %q, Value %q", i, r.Kind(i), r.Bytes(i), x)
				}
			case []byte:
				if r.Kind(i) != host.Blob || string(r.Bytes(i)) != string(x) {
					t.Errorf("column %d: kind %d, Bytes %q, Value %q", i, r.Kind(i), r.Bytes(i), x)
				}
			}
		}
		got = append(got, row)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) != 5 || !reflect.DeepEqual(normal(got), normal(want)) {
		t.Errorf("borrowed rows\n%#v\nwant\n%#v", got, want)
	}
	wantErr := owned("SELECT nosuch FROM t", nil, func([]any) error { return nil })
	if err := borrow("SELECT nosuch FROM t", func(host.Row) error { return nil }); err == nil || wantErr == nil || err.Error() != wantErr.Error() {
		t.Errorf("error %v, want the driver's %v", err, wantErr)
	}
}

// normal writes BLOBs as TEXT with a mark, so that an empty BLOB compares
// equal whether nil or not.
func normal(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(r))
		for j, v := range r {
			if b, ok := v.([]byte); ok {
				v = "blob:" + string(b)
			}
			out[i][j] = v
		}
	}
	return out
}
