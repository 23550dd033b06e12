package sqltests

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchTable fills t(v) with n random dim-dimensional vectors, as float32
// BLOBs (via vec_f32) or as JSON text.
func benchTable(b *testing.B, db *sql.DB, n, dim int, blob bool) {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	mustExecB(b, db, "DROP TABLE IF EXISTS t; CREATE TABLE t(v)")
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	ins := "INSERT INTO t VALUES (?)"
	if blob {
		ins = "INSERT INTO t VALUES (vec_f32(?))"
	}
	for range n {
		parts := make([]string, dim)
		for j := range parts {
			parts[j] = fmt.Sprintf("%.6f", r.NormFloat64())
		}
		if _, err := tx.Exec(ins, "["+strings.Join(parts, ",")+"]"); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

func mustExecB(b *testing.B, db *sql.DB, q string) {
	b.Helper()
	if _, err := db.Exec(q); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSelfJoin compares gauss_kernel with sqlite-vec's
// vec_distance_l2 over all 1,000,000 pairs of 1,000 64-dimensional rows,
// per driver and vector form. The goal: gauss ≤ 1.3 × l2 on
// modernc with BLOBs.
func BenchmarkSelfJoin(b *testing.B) {
	queries := []struct{ name, sql string }{
		{"gauss_kernel", "SELECT sum(gauss_kernel(a.v, b.v, 1.0)) FROM t a, t b"},
		{"vec_distance_l2", "SELECT sum(vec_distance_l2(a.v, b.v)) FROM t a, t b"},
	}
	for _, drv := range drivers {
		for _, form := range []string{"blob", "json"} {
			db, err := sql.Open(drv, ":memory:")
			if err != nil {
				b.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			benchTable(b, db, 1000, 64, form == "blob")
			for _, q := range queries {
				b.Run(driverLabel(drv)+"/"+form+"/"+q.name, func(b *testing.B) {
					for b.Loop() {
						var s float64
						if err := db.QueryRow(q.sql).Scan(&s); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/pair")
				})
			}
			db.Close()
		}
	}
}
