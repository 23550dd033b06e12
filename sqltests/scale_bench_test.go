package sqltests

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkKPCANystrom1M: Nyström kpca with 500 landmarks on 1,000,000 rows
// of 64 values (the digits tiled with small noise, generated row by row
// into a database file as float32 BLOBs), end to end: CREATE, which streams
// the n×m kernel values in blocks (they would take 4 GB), and a count of
// the stored projections. peak-MB is the process's peak resident memory
// (VmHWM), which includes SQLite's and the loader's.
func BenchmarkKPCANystrom1M(b *testing.B) {
	const n = 1_000_000
	db := bigDB(b, n)
	runtime.GC()
	loadPeak := peakMB(b)
	i := 0
	for b.Loop() {
		i++
		name := fmt.Sprintf("p%d", i)
		if _, err := db.Exec(`CREATE VIRTUAL TABLE ` + name + ` USING kpca(table=big, id=id, column=v, kernel='gauss(sigma=5.66)', components=5, method=nystrom, landmarks=500)`); err != nil {
			b.Fatal(err)
		}
		var c int
		if err := db.QueryRow(`SELECT count(pc1) FROM ` + name).Scan(&c); err != nil || c != n {
			b.Fatalf("%d projections, %v", c, err)
		}
	}
	b.ReportMetric(loadPeak, "load-peak-MB")
	b.ReportMetric(peakMB(b), "peak-MB")
}

// BenchmarkKRRNystrom1M: krr method=nystrom (500 landmarks) on the same
// 1,000,000 rows, regressing the digit's label: CREATE streams the kernel
// values twice (CᵀC and Cᵀy, then the stored predictions).
func BenchmarkKRRNystrom1M(b *testing.B) {
	const n = 1_000_000
	db := bigDB(b, n)
	i := 0
	for b.Loop() {
		i++
		name := fmt.Sprintf("r%d", i)
		if _, err := db.Exec(`CREATE VIRTUAL TABLE ` + name + ` USING krr(table=big, id=id, column=v, label=y, kernel='gauss(sigma=20)', alpha=1, method=nystrom, landmarks=500)`); err != nil {
			b.Fatal(err)
		}
		var c int
		var mae float64
		if err := db.QueryRow(`SELECT count(prediction), avg(abs(prediction - label)) FROM `+name).Scan(&c, &mae); err != nil || c != n {
			b.Fatalf("%d predictions, %v", c, err)
		}
		b.ReportMetric(mae, "train-MAE")
	}
	b.ReportMetric(peakMB(b), "peak-MB")
}

// bigDB opens a database file, closed when b ends, holding big with n rows
// (loadTiledBlobs).
func bigDB(b *testing.B, n int) *sql.DB {
	db, err := sql.Open("ksql", filepath.Join(b.TempDir(), "big.db"))
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { db.Close() })
	loadTiledBlobs(b, db, n)
	return db
}

// loadTiledBlobs fills big(id, v, y) with n rows, row i being digit i mod
// 1,797 plus 0.01·(i div 1,797), as float32 BLOBs, and y its label, in one
// transaction.
func loadTiledBlobs(b *testing.B, db *sql.DB, n int) {
	rows := testData(b, "digits.csv")
	X := features(b, rows, 2, 66, 1)
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tx.Exec(`CREATE TABLE big(id INTEGER PRIMARY KEY, v BLOB, y REAL)`); err != nil {
		b.Fatal(err)
	}
	ins, err := tx.Prepare(`INSERT INTO big VALUES (?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 4*len(X[0]))
	for i := 0; i < n; i++ {
		src, c := X[i%len(X)], float64(i/len(X))
		for j, v := range src {
			binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(float32(v+c*0.01)))
		}
		label, _ := strconv.ParseFloat(rows[i%len(X)][1], 64)
		if _, err := ins.Exec(i, buf, label); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	var c int
	if err := db.QueryRow(`SELECT count(*) FROM big WHERE length(v) = 256`).Scan(&c); err != nil || c != n {
		b.Fatalf("%d rows loaded, %v", c, err)
	}
}

// peakMB reads VmHWM from /proc/self/status (0 where there is none).
func peakMB(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
