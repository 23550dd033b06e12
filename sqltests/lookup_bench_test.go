package sqltests

import (
	"testing"
)

// BenchmarkLookups4000 measures 4,000 correlated lookups into a
// fitted kpca (SELECT (SELECT pc1 FROM p WHERE id = s.id) FROM s) and 4,000
// single-entry gram lookups, one statement each. Before the freshness
// check every lookup re-read and re-hashed the 4,000-row source.
func BenchmarkLookups4000(b *testing.B) {
	for _, drv := range drivers {
		db := OpenDB(b, drv)
		mustExec(b, db, `CREATE TABLE s(id INTEGER PRIMARY KEY, v);
			WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 4000)
			INSERT INTO s SELECT i, '[' || (i % 17) || ',' || (i % 5) || ',' || (i * 0.001) || ']' FROM c;
			CREATE VIRTUAL TABLE p USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=50);
			CREATE VIRTUAL TABLE g USING gram(table=s, id=id, column=v, kernel='gauss(sigma=2)')`)
		if n := scanAll(b, db, "SELECT pc1 FROM p"); n != 4000 { // fit once
			b.Fatalf("%d rows", n)
		}
		for _, q := range []struct{ name, sql string }{
			{"kpca", "SELECT (SELECT pc1 FROM p WHERE id = s.id) FROM s"},
			{"gram", "SELECT (SELECT value FROM g WHERE row_id = s.id AND col_id = 4001 - s.id) FROM s"},
		} {
			b.Run(driverLabel(drv)+"/"+q.name, func(b *testing.B) {
				for b.Loop() {
					if n := scanAll(b, db, q.sql); n != 4000 {
						b.Fatalf("%d rows", n)
					}
				}
			})
		}
	}
}
