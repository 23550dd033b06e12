package sqltests

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"testing"
)

// streamSource fills s(id, v, y) with n rows of 3-d vectors as JSON text,
// a few of them NULL objects (numbers that every SQLite prints alike).
func streamSource(t *testing.T, exec func(string, ...any), n int) {
	exec(`CREATE TABLE s(id INTEGER PRIMARY KEY, v TEXT, y REAL)`)
	exec(fmt.Sprintf(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %d)
		INSERT INTO s SELECT i, CASE WHEN i %% 401 = 0 THEN NULL ELSE json_array((i * 37 %% 101) / 16.0, (i * 7 %% 13) / 2.0, (i %% 29) / 8.0) END, (i %% 9) - 4.0 FROM c`, n))
}

// streamBits reads every value of the streamed tables as float64 bits.
func streamBits(t *testing.T, q func(string) ([][]any, error)) []uint64 {
	t.Helper()
	var bits []uint64
	for _, s := range []string{
		"SELECT pc1, pc2, pc3 FROM p WHERE pc1 IS NOT NULL ORDER BY id",
		"SELECT prediction FROM r WHERE prediction IS NOT NULL ORDER BY id",
		"SELECT pc1, pc2, pc3 FROM p('[1, 2, 0.5]')",
		"SELECT prediction FROM r('[1, 2, 0.5]')",
		"SELECT prediction FROM c WHERE prediction IS NOT NULL ORDER BY id",
		"SELECT prediction FROM c('[1, 2, 0.5]')",
	} {
		rows, err := q(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for _, r := range rows {
			for _, v := range r {
				f, ok := v.(float64)
				if !ok {
					t.Fatalf("%s: %T %v", s, v, v)
				}
				bits = append(bits, math.Float64bits(f))
			}
		}
	}
	return bits
}

const streamTables = `CREATE VIRTUAL TABLE p USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=3, method=nystrom, landmarks=60, seed=7);
CREATE VIRTUAL TABLE r USING krr(table=s, id=id, column=v, label=y, kernel='gauss(sigma=2)', alpha=0.1, method=nystrom, landmarks=60, seed=7);
CREATE VIRTUAL TABLE c USING svm(table=s, id=id, column=v, label=y, kernel='gauss(sigma=2)', method=nystrom, landmarks=60, seed=7)`

// TestStreamedFitsSameBits: a streamed fit (kpca, krr, svm) over several blocks of rows is
// the same bits whatever the number of cores (one, two, eight workers)
// and on every driver, the loadable library's process included: the
// blocks' sums are added in the order the rows were read.
func TestStreamedFitsSameBits(t *testing.T) {
	const n = 3500 // four blocks of rows
	var first []uint64
	var firstName string
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, drv := range withLoadable(t) {
		for _, p := range []int{1, 2, 8} {
			if drv == loadableDriver && p != 1 {
				continue // its process runs on its own cores
			}
			runtime.GOMAXPROCS(p)
			db := OpenDB(t, drv)
			streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, n)
			mustExec(t, db, streamTables)
			got := streamBits(t, func(q string) ([][]any, error) { return queryRows(db, q) })
			db.Close()
			name := fmt.Sprintf("%s with GOMAXPROCS=%d", driverLabel(drv), p)
			if first == nil {
				first, firstName = got, name
				if len(got) < 3*(n-10)+2*(n-10) {
					t.Fatalf("%s: only %d values", name, len(got))
				}
				continue
			}
			if len(got) != len(first) {
				t.Fatalf("%s: %d values, %s: %d", name, len(got), firstName, len(first))
			}
			for i := range got {
				if got[i] != first[i] {
					t.Fatalf("%s and %s differ at value %d: %v and %v", name, firstName, i,
						math.Float64frombits(got[i]), math.Float64frombits(first[i]))
				}
			}
		}
	}
}

// TestStreamedKPCAIsExactWithEveryLandmark: with every object a landmark
// the Nyström approximation is the Gram matrix itself, so the streamed
// fit (two blocks of rows) must give exact kernel PCA's projections, up to
// rounding — an independent computation (the n×n Gram matrix and its
// eigenvectors) of the same numbers.
func TestStreamedKPCAIsExactWithEveryLandmark(t *testing.T) {
	const n = 1100
	for _, drv := range withLoadable(t) {
		db := OpenDB(t, drv)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, n)
		mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE ny USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=%d);
			CREATE VIRTUAL TABLE ex USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2)`, n))
		var count int
		var worst, scale float64
		err := db.QueryRow(`SELECT count(*), max(max(abs(ny.pc1 - ex.pc1), abs(ny.pc2 - ex.pc2))), max(abs(ex.pc1))
			FROM ny JOIN ex USING (id) WHERE ex.pc1 IS NOT NULL`).Scan(&count, &worst, &scale)
		if err != nil {
			t.Fatal(err)
		}
		if count != n-n/401 || !(worst <= 1e-7*scale) {
			t.Errorf("%s: %d rows; Nyström with every landmark differs from exact kpca by %g (projections up to %g)", driverLabel(drv), count, worst, scale)
		}
		db.Close()
	}
}

// TestFreshAfterOtherConnectionWrites: a table whose source nothing wrote
// answers without reading it again, but a commit by another connection
// (PRAGMA data_version) is seen by the next statement.
func TestFreshAfterOtherConnectionWrites(t *testing.T) {
	for _, drv := range withLoadable(t) {
		dsn := "file:" + filepath.Join(t.TempDir(), "fresh.db")
		a, b := openFile(t, drv, dsn), openFile(t, drv, dsn)
		streamSource(t, func(q string, args ...any) { mustExec(t, a, q, args...) }, 500)
		mustExec(t, a, streamTables)
		reads := func() int64 {
			var n int64
			if err := a.QueryRow("SELECT ksql_config('source_reads')").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		pc := func(id int) float64 {
			var v float64
			if err := a.QueryRow(fmt.Sprintf("SELECT pc1 FROM p WHERE id = %d", id)).Scan(&v); err != nil { // the loadable proxy binds no parameters
				t.Fatal(err)
			}
			return v
		}
		before := pc(5)
		r0 := reads()
		for range 5 {
			if pc(5) != before {
				t.Fatalf("%s: the answer changed without a write", driverLabel(drv))
			}
		}
		if r := reads() - r0; r != 0 {
			t.Errorf("%s: %d reads of an unchanged source in 5 statements, want 0", driverLabel(drv), r)
		}
		mustExec(t, b, "UPDATE s SET v = (SELECT v FROM s WHERE id = 6) WHERE id = 5")
		if got, want := pc(5), pc(6); got != want || got == before {
			t.Errorf("%s: after another connection's write, pc1 of row 5 is %v (before %v); row 6, whose vector it now has: %v", driverLabel(drv), got, before, want)
		}
	}
}
