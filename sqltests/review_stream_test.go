package sqltests

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func rvCount(t *testing.T, db interface {
	QueryRow(string, ...any) *sql.Row
}, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

const rvTables = `CREATE VIRTUAL TABLE p USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=30, seed=7);
CREATE VIRTUAL TABLE e USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2)`

// A read inside a transaction that is then rolled back must not be served
// afterwards: total_changes() does not go back on ROLLBACK.
func TestReviewRollbackFresh(t *testing.T) {
	for _, mode := range []string{"rollback", "savepoint"} {
		for _, drv := range drivers { // the loadable runner commits a transaction before each statement record
			for _, tbl := range []string{"p", "e"} {
				db := OpenDB(t, drv)
				streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 300)
				mustExec(t, db, rvTables)
				q := "SELECT count(pc1) FROM " + tbl
				before := rvCount(t, db, q)
				if mode == "rollback" {
					mustExec(t, db, "BEGIN")
				} else {
					mustExec(t, db, "SAVEPOINT a")
				}
				mustExec(t, db, "INSERT INTO s VALUES (1000, '[1,2,3]', 1)")
				if got := rvCount(t, db, q); got != before+1 {
					t.Fatalf("%s %s: in txn %d want %d", driverLabel(drv), tbl, got, before+1)
				}
				if mode == "rollback" {
					mustExec(t, db, "ROLLBACK")
				} else {
					mustExec(t, db, "ROLLBACK TO a")
					mustExec(t, db, "RELEASE a")
				}
				real := rvCount(t, db, "SELECT count(v) FROM s")
				if got := rvCount(t, db, q); got != before {
					t.Errorf("%s %s %s: after the rollback %s has %d rows with pc1, the source %d non-NULL objects (stale snapshot of the rolled-back transaction)", mode, driverLabel(drv), tbl, tbl, got, real)
				}
			}
		}
	}
}

// A model whose source is another model (a virtual table): read by every
// statement, so a write to the underlying table reaches the outer model.
func TestReviewModelOnModel(t *testing.T) {
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 300)
		mustExec(t, db, rvTables)
		mustExec(t, db, `CREATE VIRTUAL TABLE pp USING kpca(table=e, id=id, columns=pc1..pc2, kernel='gauss(sigma=2)', components=1, method=nystrom, landmarks=20, nulls=skip)`)
		before := rvCount(t, db, "SELECT count(pc1) FROM pp")
		mustExec(t, db, "INSERT INTO s VALUES (1000, '[1,2,3]', 1)")
		if got := rvCount(t, db, "SELECT count(pc1) FROM pp"); got != before+1 {
			t.Errorf("%s: model over a model: %d rows after an insert, want %d", driverLabel(drv), got, before+1)
		}
	}
}

// nulls=skip with columns= in a lean (nystrom) fit equals the exact fit when
// every object is a landmark.
func TestReviewLeanColumnsNullSkip(t *testing.T) {
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		mustExec(t, db, `CREATE TABLE h(id INTEGER PRIMARY KEY, a REAL, b REAL, y REAL);
			WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1100)
			INSERT INTO h SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 37 % 101) / 16.0 END, CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 29) / 8.0 END, i % 5 FROM c`)
		var n int
		db.QueryRow("SELECT count(*) FROM h WHERE a IS NOT NULL AND b IS NOT NULL").Scan(&n)
		mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE ny USING kpca(table=h, id=id, columns=a..b, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=%d, nulls=skip);
			CREATE VIRTUAL TABLE ex USING kpca(table=h, id=id, columns=a..b, kernel='gauss(sigma=2)', components=2, nulls=skip);
			CREATE VIRTUAL TABLE kr USING krr(table=h, id=id, columns=a..b, label=y, kernel='gauss(sigma=2)', alpha=0.5, method=nystrom, landmarks=%d, nulls=skip);
			CREATE VIRTUAL TABLE kx USING krr(table=h, id=id, columns=a..b, label=y, kernel='gauss(sigma=2)', alpha=0.5, nulls=skip)`, n, n))
		var count, kcount int
		var worst, scale, kworst float64
		if err := db.QueryRow(`SELECT count(*), max(max(abs(abs(ny.pc1) - abs(ex.pc1)), abs(abs(ny.pc2) - abs(ex.pc2)))), max(abs(ex.pc1))
			FROM ny JOIN ex USING (id) WHERE ex.pc1 IS NOT NULL AND ny.pc1 IS NOT NULL`).Scan(&count, &worst, &scale); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT count(*), max(abs(kr.prediction - kx.prediction)) FROM kr JOIN kx USING (id) WHERE kr.prediction IS NOT NULL AND kx.prediction IS NOT NULL`).Scan(&kcount, &kworst); err != nil {
			t.Fatal(err)
		}
		if count != n || !(worst <= 1e-6*scale) || kcount != n || !(kworst <= 1e-6) {
			t.Errorf("%s: kpca %d rows (want %d) differ by %g (scale %g); krr %d rows differ by %g", driverLabel(drv), count, n, worst, scale, kcount, kworst)
		}
	}
}

// ssk with method=nystrom (string objects decoded on workers).
func TestReviewLeanSSK(t *testing.T) {
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		mustExec(t, db, `CREATE TABLE w(id INTEGER PRIMARY KEY, s TEXT, y REAL);
			WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1040)
			INSERT INTO w SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE substr('abcabdacbdbcadcbabdc', 1 + i % 7, 3 + i % 5) END, i % 3 FROM c`)
		var n int
		db.QueryRow("SELECT count(s) FROM w").Scan(&n)
		mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE ny USING kpca(table=w, id=id, column=s, kernel='ssk(p=2, lambda=0.5)', components=2, method=nystrom, landmarks=%d);
			CREATE VIRTUAL TABLE ex USING kpca(table=w, id=id, column=s, kernel='ssk(p=2, lambda=0.5)', components=2);
			CREATE VIRTUAL TABLE sv USING svm(table=w, id=id, column=s, label=y, kernel='ssk(p=2, lambda=0.5)', method=nystrom, landmarks=50, seed=3)`, n))
		var count int
		var worst, scale float64
		if err := db.QueryRow(`SELECT count(*), max(abs(abs(ny.pc1) - abs(ex.pc1))), max(abs(ex.pc1))
			FROM ny JOIN ex USING (id) WHERE ex.pc1 IS NOT NULL`).Scan(&count, &worst, &scale); err != nil {
			t.Fatal(err)
		}
		if count != n || !(worst <= 1e-6*scale) {
			t.Errorf("%s: ssk nystrom %d rows (want %d), differs from exact by %g (scale %g)", driverLabel(drv), count, n, worst, scale)
		}
		var a, b float64
		if err := db.QueryRow(`SELECT (SELECT pc1 FROM ny('abd')), (SELECT pc1 FROM ex('abd'))`).Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		if !(abs64(abs64(a)-abs64(b)) <= 1e-6*scale) {
			t.Errorf("%s: new object: %g vs exact %g", driverLabel(drv), a, b)
		}
		if k := rvCount(t, db, "SELECT count(prediction) FROM sv"); k != n {
			t.Errorf("%s: svm ssk nystrom %d predictions want %d", driverLabel(drv), k, n)
		}
		if _, err := queryRows(db, "SELECT prediction FROM sv('abcd')"); err != nil {
			t.Errorf("%s: svm new object: %v", driverLabel(drv), err)
		}
	}
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Cancelling a statement in the middle of a pass stops it, leaves no
// goroutine behind and the table answers the next statement.
func TestReviewCancelMidPass(t *testing.T) {
	for _, drv := range drivers {
		db := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 40000)
		mustExec(t, db, `CREATE VIRTUAL TABLE p USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=300, seed=7);
			CREATE VIRTUAL TABLE r USING krr(table=s, id=id, column=v, label=y, kernel='gauss(sigma=2)', alpha=0.1, method=nystrom, landmarks=300, seed=7)`)
		base := runtime.NumGoroutine()
		for _, tbl := range []string{"p", "r"} {
			for _, d := range []time.Duration{5, 10, 15, 20, 30, 45, 60, 150, 400} {
				d *= time.Millisecond
				ctx, cancel := context.WithTimeout(context.Background(), d)
				start := time.Now()
				_, err := queryRowsCtx(ctx, db, "SELECT count(*) FROM "+tbl)
				cancel()
				t.Logf("%s %s %v: %v after %v", driverLabel(drv), tbl, d, err, time.Since(start))
			}
		}
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > base+2 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if g := runtime.NumGoroutine(); g > base+2 {
			buf := make([]byte, 1<<20)
			t.Errorf("%s: %d goroutines after cancelled passes, %d before\n%s", driverLabel(drv), g, base, buf[:runtime.Stack(buf, true)])
		}
		sums := func(db *sql.DB) [3]float64 {
			var a [3]float64
			if err := db.QueryRow("SELECT (SELECT sum(pc1 * id) FROM p), (SELECT sum(pc2 * id) FROM p), (SELECT sum(prediction * id) FROM r)").Scan(&a[0], &a[1], &a[2]); err != nil {
				t.Fatal(err)
			}
			return a
		}
		got := sums(db)
		fresh := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, fresh, q, a...) }, 40000)
		mustExec(t, fresh, `CREATE VIRTUAL TABLE p USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=300, seed=7);
			CREATE VIRTUAL TABLE r USING krr(table=s, id=id, column=v, label=y, kernel='gauss(sigma=2)', alpha=0.1, method=nystrom, landmarks=300, seed=7)`)
		if want := sums(fresh); got != want {
			t.Errorf("%s: after cancelled statements the fits give %v, a fresh connection %v", driverLabel(drv), got, want)
		}
	}
}

func queryRowsCtx(ctx context.Context, db *sql.DB, q string) (int, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

// A reopened database's streamed fits predict new objects (their landmarks
// read lazily) as the original did, and as a new table does once another
// connection changed the source.
func TestReviewRestoredPredictAfterChange(t *testing.T) {
	newObj := func(t *testing.T, db *sql.DB, sfx string) [3]float64 {
		t.Helper()
		var a [3]float64
		if err := db.QueryRow("SELECT (SELECT pc1 FROM p"+sfx+"('[1, 2, 0.5]')), (SELECT prediction FROM r"+sfx+"('[1, 2, 0.5]')), (SELECT prediction FROM c"+sfx+"('[3, 1, 0.5]'))").Scan(&a[0], &a[1], &a[2]); err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, drv := range withLoadable(t) {
		for _, order := range []string{"change-then-read", "read-then-change"} {
			dsn := "file:" + filepath.Join(t.TempDir(), "r.db")
			a := openFile(t, drv, dsn)
			streamSource(t, func(q string, args ...any) { mustExec(t, a, q, args...) }, 2500)
			mustExec(t, a, streamTables)
			orig := newObj(t, a, "")
			a.Close()
			a = openFile(t, drv, dsn)
			if got := newObj(t, a, ""); got != orig {
				t.Errorf("%s: reopened: %v, original %v", driverLabel(drv), got, orig)
			}
			a.Close()
			a = openFile(t, drv, dsn)
			b := openFile(t, drv, dsn)
			if order == "read-then-change" {
				rvCount(t, a, "SELECT count(pc1) FROM p WHERE id < 10")
				rvCount(t, a, "SELECT count(prediction) FROM r WHERE id < 10")
				rvCount(t, a, "SELECT count(prediction) FROM c WHERE id < 10")
			}
			mustExec(t, b, "UPDATE s SET v = json_array(id % 5, id % 3, 1) WHERE id % 3 = 0")
			got := newObj(t, a, "")
			mustExec(t, a, `CREATE VIRTUAL TABLE p2 USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=3, method=nystrom, landmarks=60, seed=7);
CREATE VIRTUAL TABLE r2 USING krr(table=s, id=id, column=v, label=y, kernel='gauss(sigma=2)', alpha=0.1, method=nystrom, landmarks=60, seed=7);
CREATE VIRTUAL TABLE c2 USING svm(table=s, id=id, column=v, label=y, kernel='gauss(sigma=2)', method=nystrom, landmarks=60, seed=7)`)
			if want := newObj(t, a, "2"); got != want {
				t.Errorf("%s %s: restored fits after another connection's write predict %v, new tables %v", driverLabel(drv), order, got, want)
			}
		}
	}
}

// Two connections to one shared-cache in-memory database: the other's
// commit must be seen.
func TestReviewSharedCache(t *testing.T) {
	for i, drv := range drivers {
		dsn := fmt.Sprintf("file:rvshared%d?mode=memory&cache=shared", i)
		a, b := openFile(t, drv, dsn), openFile(t, drv, dsn)
		streamSource(t, func(q string, args ...any) { mustExec(t, a, q, args...) }, 300)
		mustExec(t, a, rvTables)
		before := rvCount(t, a, "SELECT count(pc1) FROM e")
		mustExec(t, b, "INSERT INTO s VALUES (1000, '[1,2,3]', 1)")
		if got := rvCount(t, a, "SELECT count(pc1) FROM e"); got != before+1 {
			t.Errorf("%s: after the other shared-cache connection's insert: %d rows, want %d", driverLabel(drv), got, before+1)
		}
	}
}

// The same streamed model twice in one statement, new objects included,
// and model_search over method=nystrom.
func TestReviewTwiceInOneStatement(t *testing.T) {
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 2500)
		mustExec(t, db, streamTables)
		n := rvCount(t, db, "SELECT count(v) FROM s")
		if got := rvCount(t, db, "SELECT count(*) FROM p a JOIN p b USING (id) JOIN r USING (id) JOIN c USING (id) WHERE a.pc1 = b.pc1 AND a.pc1 IS NOT NULL"); got != n {
			t.Errorf("%s: self-join %d rows, want %d", driverLabel(drv), got, n)
		}
		rows, err := queryRows(db, "SELECT (SELECT pc1 FROM p('[1,2,3]')) - (SELECT pc1 FROM p('[1,2,3]')), (SELECT prediction FROM r('[1,2,4]')) - (SELECT prediction FROM r('[1,2,4]')), (SELECT prediction FROM c('[1,2,4]')) = (SELECT prediction FROM c('[1,2,4]')), count(*) FROM p JOIN r USING (id)")
		if err != nil {
			t.Fatalf("%s: %v", driverLabel(drv), err)
		}
		if fmt.Sprint(rows) != fmt.Sprintf("[[0 0 1 %d]]", 2500) {
			t.Errorf("%s: %v", driverLabel(drv), rows)
		}
		rows, err = queryRows(db, `SELECT arguments, cv_score, error FROM model_search('krr', 'table=s, id=id, column=v, label=y, folds=3, method=nystrom, landmarks=40, seed=2', '{"kernel": ["gauss(sigma=2)"], "alpha": [0.1, 1]}')`)
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: model_search krr nystrom: %v %v", driverLabel(drv), rows, err)
		}
		for _, r := range rows {
			if r[2] != nil {
				t.Errorf("%s: model_search point %v: %v", driverLabel(drv), r[0], r[2])
			}
		}
		rows, err = queryRows(db, `SELECT arguments, cv_score, error FROM model_search('svm', 'table=s, id=id, column=v, label=y, folds=3, method=nystrom, landmarks=40, seed=2', '{"kernel": ["gauss(sigma=2)"], "c": [1, 10]}')`)
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: model_search svm nystrom: %v %v", driverLabel(drv), rows, err)
		}
		for _, r := range rows {
			if r[2] != nil {
				t.Errorf("%s: model_search point %v: %v", driverLabel(drv), r[0], r[2])
			}
		}
	}
}
