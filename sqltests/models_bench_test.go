package sqltests

import (
	"compress/gzip"
	"database/sql"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Model-table benchmarks, end to end from SQL with the data already
// loaded: testdata/sklearn_models_bench.py times scikit-learn on the same
// problems (same C, gamma, tol, alpha).

// loadLabelled makes table name(id, v, <col>) from vectors (float32
// BLOBs when blob) and one label per row; col is a column definition
// ("digit INTEGER").
func loadLabelled(b testing.TB, db *sql.DB, name, col string, X [][]float64, y []any, blob bool) {
	b.Helper()
	loadVectors(b, db, name, X, blob)
	mustExec(b, db, fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s", name, col))
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for i, v := range y {
		if _, err := tx.Exec(fmt.Sprintf("UPDATE %s SET %s = ? WHERE id = ?", name, strings.Fields(col)[0]), v, i); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// zscore standardises each column with its mean and population standard
// deviation, as the reference scripts do.
func zscore(X [][]float64) {
	for j := range X[0] {
		var mean, sq float64
		for i := range X {
			mean += X[i][j]
		}
		mean /= float64(len(X))
		for i := range X {
			sq += (X[i][j] - mean) * (X[i][j] - mean)
		}
		sd := math.Sqrt(sq / float64(len(X)))
		for i := range X {
			X[i][j] = (X[i][j] - mean) / sd
		}
	}
}

// column returns column c of every row, as any (for loadLabelled).
func column(rows [][]string, c int) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r[c]
	}
	return out
}

func digitsLabelled(b testing.TB) ([][]float64, []any) {
	rows := testData(b, "digits.csv")
	y := make([]any, len(rows))
	for i, r := range rows {
		y[i], _ = strconv.ParseInt(r[1], 10, 64)
	}
	return features(b, rows, 2, 66, 1), y
}

// spamLabelled reads internal/svm's copy of spam, features z-scored with
// the population standard deviation.
func spamLabelled(b testing.TB) ([][]float64, []any) {
	f, err := os.Open("../internal/svm/testdata/spam.csv.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := csv.NewReader(z).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	rows = rows[1:]
	X := make([][]float64, len(rows))
	y := make([]any, len(rows))
	for i, r := range rows {
		for _, s := range r[1 : len(r)-1] {
			v, _ := strconv.ParseFloat(s, 64)
			X[i] = append(X[i], v)
		}
		y[i] = r[len(r)-1]
	}
	zscore(X)
	return X, y
}

// benchCreate times CREATE VIRTUAL TABLE (which fits and stores the fit)
// plus one read of every row.
func benchCreate(b *testing.B, db *sql.DB, using string, rows int) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		name := fmt.Sprintf("m%d", i)
		mustExec(b, db, fmt.Sprintf("CREATE VIRTUAL TABLE %s USING %s", name, using))
		if n := scanAll(b, db, "SELECT * FROM "+name); n != rows {
			b.Fatalf("%d rows, want %d", n, rows)
		}
		b.StopTimer()
		mustExec(b, db, "DROP TABLE "+name)
		b.StartTimer()
	}
}

// BenchmarkSVMFitDigits: all 1,797 digits, 10 classes, gamma = 0.001, C = 1.
func BenchmarkSVMFitDigits(b *testing.B) {
	X, y := digitsLabelled(b)
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadLabelled(b, db, "digits", "y", X, y, false)
			benchCreate(b, db, "svm(table=digits, id=id, column=v, label=y, kernel='gauss(sigma=22.360679774997898)', C=1)", len(X))
		})
	}
}

// BenchmarkSVMFitSpam: 4,601 rows, 2 classes, standardised, gamma = 1/57, C = 5.
func BenchmarkSVMFitSpam(b *testing.B) {
	X, y := spamLabelled(b)
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadLabelled(b, db, "spam", "y", X, y, false)
			benchCreate(b, db, fmt.Sprintf("svm(table=spam, id=id, column=v, label=y, kernel='gauss(sigma=%v)', C=5)", math.Sqrt(28.5)), len(X))
		})
	}
}

// BenchmarkSVMPredictDigits1000 predicts 1,000 digits through the hidden
// input of a fitted 10-class svm.
func BenchmarkSVMPredictDigits1000(b *testing.B) {
	X, y := digitsLabelled(b)
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadLabelled(b, db, "digits", "y", X, y, false)
			mustExec(b, db, "CREATE VIRTUAL TABLE s USING svm(table=digits, id=id, column=v, label=y, kernel='gauss(sigma=22.360679774997898)', C=1)")
			mustExec(b, db, "CREATE TABLE q AS SELECT id, v FROM digits WHERE id < 1000")
			b.ReportAllocs()
			for b.Loop() {
				if n := scanAll(b, db, "SELECT (SELECT prediction FROM s(q.v)) FROM q"); n != 1000 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}

// BenchmarkKRRFitDigits2000: exact krr, 2,000 rows (digits tiled, as the
// kpca benchmark), gauss(sigma=√32) = rbf gamma 1/64, alpha = 1.
func BenchmarkKRRFitDigits2000(b *testing.B) {
	X := digitsTiled(b, 2000)
	y := make([]any, len(X))
	for i := range y {
		y[i] = float64(i % 10)
	}
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadLabelled(b, db, "digits", "y", X, y, false)
			benchCreate(b, db, fmt.Sprintf("krr(table=digits, id=id, column=v, label=y, kernel='gauss(sigma=%v)', alpha=1)", math.Sqrt(32)), len(X))
		})
	}
}

// BenchmarkReopenKPCA2000: a new connection to a database holding a
// stored exact kpca fit of 2,000 rows answers its first full query from
// the stored fit; compare with BenchmarkKPCAExactDigits2000, the fit.
func BenchmarkReopenKPCA2000(b *testing.B) {
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "kpca.db")
			db, err := sql.Open(drv, "file:"+path)
			if err != nil {
				b.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			loadVectors(b, db, "digits", digitsTiled(b, 2000), false)
			mustExec(b, db, fmt.Sprintf(`CREATE VIRTUAL TABLE p USING kpca(table=digits, id=id, column=v, kernel='gauss(sigma=%v)', components=5)`, math.Sqrt(32)))
			db.Close()
			for b.Loop() {
				db, err := sql.Open(drv, "file:"+path)
				if err != nil {
					b.Fatal(err)
				}
				db.SetMaxOpenConns(1)
				if n := scanAll(b, db, "SELECT id, pc1, pc2, pc3, pc4, pc5 FROM p"); n != 2000 {
					b.Fatalf("%d rows", n)
				}
				if fitCount(b, db) != 0 {
					b.Fatal("the reopened table refitted")
				}
				db.Close()
			}
		})
	}
}

// BenchmarkKRRNystrom100k: krr method=nystrom, 500 landmarks, on 100,000
// rows of 64 values (digits tiled with noise); the data load is not timed.
// Run alone (-bench KRRNystrom100k -benchtime 1x) to read its peak memory.
func BenchmarkKRRNystrom100k(b *testing.B) {
	X := digitsTiled(b, 100_000)
	y := make([]any, len(X))
	for i := range y {
		y[i] = float64(i % 10)
	}
	db := OpenDB(b, drivers[0])
	loadLabelled(b, db, "digits", "y", X, y, false)
	benchCreate(b, db, "krr(table=digits, id=id, column=v, label=y, kernel='gauss(sigma=40)', alpha=1, method=nystrom, landmarks=500)", len(X))
}
