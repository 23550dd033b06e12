package sqltests

import (
	"database/sql"
	"fmt"
	"github.com/ksql/ksql/internal/cputime"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// loadTiledDigits makes big(id, label, p0..p63): the digits tiled to rows
// rows by a recursive CTE, copy k's pixel j shifted by ((7k + 13j) mod
// 11)/100 so that the copies are distinct points (the formula
// testdata/sklearn_svm_nystrom_bench.py uses), and checks the row count.
func loadTiledDigits(b *testing.B, db *sql.DB, rows int) {
	b.Helper()
	loadDigitsTable(b, db)
	cols, exprs := make([]string, 64), make([]string, 64)
	for j := range cols {
		cols[j] = fmt.Sprintf("p%d REAL", j)
		exprs[j] = fmt.Sprintf("p%d + ((7 * k + %d) %% 11) / 100.0", j, 13*j)
	}
	mustExec(b, db, "CREATE TABLE big(id INTEGER PRIMARY KEY, label INTEGER, "+strings.Join(cols, ", ")+")")
	mustExec(b, db, fmt.Sprintf("WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE (k + 1) * 1797 < %d) "+
		"INSERT INTO big SELECT k * 1797 + id, label, %s FROM t, digits WHERE k * 1797 + id < %d", rows, strings.Join(exprs, ", "), rows))
	var n int
	if err := db.QueryRow("SELECT count(*) FROM big").Scan(&n); err != nil || n != rows {
		b.Fatalf("big has %d rows (%v), want %d", n, err, rows)
	}
}

// BenchmarkSVMNystrom: CREATE of svm method=nystrom (landmarks=500,
// gauss(sigma=20), C=1, 10 classes one-vs-rest) on 100,000 tiled digits,
// features held as float64. testdata/sklearn_svm_nystrom_bench.py is the
// anchor (Nystroem + LinearSVC on the same rows). fit-peak-MiB is the
// process's peak resident memory (VmHWM) from the end of the load (the
// table is a database file). KSQL_BENCH_ROWS
// replaces the row count (1000000: the scale target, with landmarks 100
// and features as float32 by max_gram_bytes = 512 MiB).
//
// Measured on the shared 2-core machine under load (load average 3–5),
// in the same minutes: 100,000 rows 33.6 s (peak RSS of the whole test
// process, in-memory database included, 1.09 GB) against scikit-learn's
// 49.3 s (1.49 GB); both reach max_iter on every class at tol 1e-4 and
// train to accuracy 1.0. 1,000,000 rows (a database file; the source's
// objects are read in passes, not held), idle machine: 34.3 s, fit peak
// 469.9 MiB — the float32 features (381.5 MiB, mapped outside Go's heap),
// the ids and labels, the solver's duals; every class reaches max_iter =
// 1000 (BENCHMARKS.md, "Memory in MiB"). cpu/wall is the process's CPU
// time over the wall time of the fits (the CREATEs alone): the cores they
// kept busy.
func BenchmarkSVMNystrom(b *testing.B) {
	rows, landmarks, maxBytes := 100000, 500, int64(1<<30)
	if s := os.Getenv("KSQL_BENCH_ROWS"); s != "" {
		rows, _ = strconv.Atoi(s)
		landmarks, maxBytes = 100, 512<<20
	}
	db := openBig(b, filepath.Join(b.TempDir(), "digits.db")) // a file: its pages are not the process's memory
	loadTiledDigits(b, db, rows)
	mustExec(b, db, fmt.Sprintf("SELECT ksql_config('max_gram_bytes', %d)", maxBytes))
	resetPeak(b)
	b.ResetTimer()
	var cw cputime.Meter
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		cw.Start()
		mustExec(b, db, fmt.Sprintf("CREATE VIRTUAL TABLE m%d USING svm(table=big, id=id, columns=p0..p63, label=label, "+
			"kernel='gauss(sigma=20)', method=nystrom, landmarks=%d)", i, landmarks))
		cw.Stop()
		fit := time.Since(start)
		b.StopTimer()
		var acc float64
		var storage string
		if err := db.QueryRow(fmt.Sprintf("SELECT value FROM ksql_model('m%d') WHERE name = 'training_accuracy'", i)).Scan(&acc); err != nil {
			b.Fatal(err)
		}
		if err := db.QueryRow(fmt.Sprintf("SELECT value FROM ksql_model('m%d') WHERE name = 'feature_storage'", i)).Scan(&storage); err != nil {
			b.Fatal(err)
		}
		var maxIter, warnings int
		if err := db.QueryRow(fmt.Sprintf("SELECT max(CASE WHEN name LIKE 'iterations%%' THEN value END), count(CASE WHEN name = 'warning' THEN 1 END) "+
			"FROM ksql_model('m%d')", i)).Scan(&maxIter, &warnings); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(peakMiB(b), "fit-peak-MiB")
		b.ReportMetric(acc, "train-acc")
		b.Logf("%d rows, %d landmarks, features %s: fit %v, training accuracy %.4f, most iterations %d, %d problems at max_iter",
			rows, landmarks, storage, fit, acc, maxIter, warnings)
		mustExec(b, db, fmt.Sprintf("DROP TABLE m%d", i))
		b.StartTimer()
	}
	b.ReportMetric(cw.PerWall(), "cpu/wall")
}
