package sqltests

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestForgedGPFactor: a gp_factor part forged with its checksum
// recomputed (an entry NaN, a diagonal negative, a part cut short) used to
// give a NULL std for new objects. The decode refuses it: the table
// refits, answers as before, and ksql_model says why.
func TestForgedGPFactor(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b []byte) []byte // on the packed upper triangle
		note string
	}{
		{"NaN entry", func(b []byte) []byte { return put(b, 1, math.NaN()) }, "not finite"},
		{"Inf entry", func(b []byte) []byte { return put(b, 2, math.Inf(1)) }, "not finite"},
		{"negative diagonal", func(b []byte) []byte { return put(b, 0, -1) }, "not a positive number"},
		{"short", func(b []byte) []byte { return b[:len(b)-8] }, "does not match its source"},
	} {
		for _, drv := range withLoadable(t) {
			t.Run(tc.name+"/"+driverLabel(drv), func(t *testing.T) {
				dsn := "file:" + filepath.Join(t.TempDir(), "gp.db")
				db := openFile(t, drv, dsn)
				mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL)`)
				for i := 1; i <= 6; i++ {
					mustExec(t, db, fmt.Sprintf("INSERT INTO pts VALUES (%d, '[%d, %g]', %g)", i, i%4, 0.5*float64(i), float64(i*i%7)))
				}
				mustExec(t, db, `CREATE VIRTUAL TABLE g USING gp(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=1)', noise=0.1)`)
				const read = `SELECT prediction, std FROM g('[1.5, 2]')`
				want, err := queryRows(db, read)
				if err != nil || len(want) != 1 || want[0][1] == nil {
					t.Fatalf("%s: %v %v", read, want, err)
				}
				parts := shadowParts(t, db, "g")
				parts["gp_factor_0000"] = tc.edit(parts["gp_factor_0000"])
				forge(parts)
				writeParts(t, db, "g", parts)
				db.Close()
				db = openFile(t, drv, dsn)
				defer db.Close()
				got, err := queryRows(db, read)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("forged: %s = %v (%v), want %v", read, got, err, want)
				}
				note := modelValue(t, db, "g", "stored_fit")
				if fit := modelValue(t, db, "g", "fit"); !strings.Contains(note, tc.note) || fit != "fitted on this connection" {
					t.Errorf("ksql_model(g): fit %q, stored_fit %q; want a refit and a note with %q", fit, note, tc.note)
				}
			})
		}
	}
}

// put writes x as the i-th little-endian float64 of a copy of b.
func put(b []byte, i int, x float64) []byte {
	b = append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	return b
}
