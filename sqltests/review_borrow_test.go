package sqltests

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestReviewBorrowStoredNystrom: Nyström fits read their rows lent by the
// driver, and a stored fit is recognised by the hash of those rows. Rows
// of awkward values (ids at the ends of int64, -0.0 and integer labels,
// NULL objects between rows, float32 BLOB objects next to JSON TEXT, a
// BOOLEAN label column, which mattn's rows turn into Go bools, TEXT ids
// whose landmarks are read by a pass) answer a reopened database from the
// stored fit, with the same values and no refit.
func TestReviewBorrowStoredNystrom(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fits.db")
			db := openFile(t, drv, "file:"+path)
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v, y, b BOOLEAN)`)
			mustExec(t, db, `WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < 40)
				INSERT INTO pts SELECT CASE n WHEN 1 THEN -9223372036854775808 WHEN 40 THEN 9223372036854775807 ELSE n * 1000003 END,
					CASE WHEN n % 9 = 0 THEN NULL WHEN n % 2 = 0 THEN json_array(n % 7, n % 5) WHEN n % 3 = 0 THEN x'0000803f00000040' WHEN n % 3 = 1 THEN x'0000404000000040' ELSE x'000000000000803f' END,
					CASE WHEN n % 5 = 0 THEN -0.0 WHEN n % 7 = 0 THEN n ELSE n * 0.25 END,
					n % 2 FROM i`)
			mustExec(t, db, `CREATE TABLE tids(id TEXT PRIMARY KEY, v, y REAL, b BOOLEAN)`)
			mustExec(t, db, `INSERT INTO tids SELECT 'r' || id, v, y, b FROM pts`)
			mustExec(t, db, `CREATE VIRTUAL TABLE r USING krr(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=2)', alpha=0.5, method=nystrom, landmarks=8, seed=3)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE rb USING krr(table=tids, id=id, column=v, label=b, kernel='gauss(sigma=2)', alpha=0.5, method=nystrom, landmarks=8, seed=3)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE p USING kpca(table=tids, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=8, seed=3)`)
			answers := func() [][]any {
				var out [][]any
				for _, q := range []string{
					"SELECT id, label, prediction FROM r",
					"SELECT id, label, prediction FROM rb",
					"SELECT id, pc1, pc2 FROM p",
					"SELECT prediction FROM r('[1, 2]')",
				} {
					rows, err := queryRows(db, q)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					out = append(out, rows...)
				}
				return out
			}
			want := answers()
			if len(want) != 40+40+40+1 {
				t.Fatalf("%d rows of answers, want 121", len(want))
			}
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := answers(); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			if got := fitCount(t, db); got != 0 {
				t.Fatalf("fit_count after reopen = %d, want 0 (stored fits not recognised)", got)
			}
		})
	}
}
