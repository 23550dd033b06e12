package sqltests

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestReview2ColumnsHashLeanExact: a columns= source hashes the same
// whether it is read lean (a Nyström fit: borrowed rows, each value put in
// the hash from SQLite's own cell) or whole (an exact fit: Query's values),
// for features that are INTEGERs, REALs, TEXT numbers with spaces, huge
// INTEGERs and -0.0, ids of mixed types and a TEXT label; and a Nyström fit
// stored on one driver answers a reopened database on every driver without
// refitting (its hash, read there, is the one stored).
func TestReview2ColumnsHashLeanExact(t *testing.T) {
	for _, made := range drivers {
		t.Run(driverLabel(made), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cols.db")
			db := openFile(t, made, "file:"+path)
			mustExec(t, db, `CREATE TABLE m(id, a, b, big, y)`)
			mustExec(t, db, `WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM t WHERE i < 40)
INSERT INTO m SELECT CASE i % 4 WHEN 0 THEN i WHEN 1 THEN i + 0.5 WHEN 2 THEN printf('r%03d', i) ELSE i * 1000 END,
  CASE i % 3 WHEN 0 THEN i WHEN 1 THEN i + 0.5 ELSE printf('  %g  ', i * 0.25) END,
  CASE i % 4 WHEN 0 THEN -0.0 WHEN 1 THEN printf('%d', i) ELSE (i * 7 % 11) / 4.0 END,
  CASE i WHEN 7 THEN 9223372036854775807 WHEN 8 THEN -9223372036854775808 ELSE i % 2 END,
  CASE i % 3 WHEN 0 THEN 'cat' WHEN 1 THEN 'dog' ELSE 'emu' END FROM t`)
			mustExec(t, db, `CREATE VIRTUAL TABLE ln USING svm(table=m, id=id, columns=a..big, label=y, kernel='gauss(sigma=3)', method=nystrom, landmarks=9, seed=4)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE ex USING svm(table=m, id=id, columns=a..big, label=y, kernel='gauss(sigma=3)')`)
			if l, e := storedHash(t, db, "ln"), storedHash(t, db, "ex"); l != e {
				t.Fatalf("the lean read's hash %x differs from the whole read's %x", l, e)
			}
			want, err := queryRows(db, "SELECT id, prediction, decision FROM ln")
			if err != nil || len(want) != 40 {
				t.Fatalf("%d rows, %v", len(want), err)
			}
			db.Close()
			for _, drv := range drivers {
				db := openFile(t, drv, "file:"+path)
				got, err := queryRows(db, "SELECT id, prediction, decision FROM ln")
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("made on %s, read on %s: %v\n got %v\nwant %v", driverLabel(made), driverLabel(drv), err, got, want)
				}
				if n := fitCount(t, db); n != 0 {
					t.Fatalf("made on %s, read on %s: %d fits, want 0 (the stored fit)", driverLabel(made), driverLabel(drv), n)
				}
				db.Close()
			}
		})
	}
}
