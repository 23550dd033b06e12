package sqltests

import (
	"math/rand/v2"
	"testing"
)

// randomVectors returns n standard normal vectors of dimension dim, the
// same on every run.
func randomVectors(n, dim int) [][]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	X := make([][]float64, n)
	for i := range X {
		X[i] = make([]float64, dim)
		for j := range X[i] {
			X[i][j] = r.NormFloat64()
		}
	}
	return X
}

// BenchmarkSelfJoin compares gauss_kernel with sqlite-vec's
// vec_distance_l2 over all 1,000,000 pairs of 1,000 64-dimensional rows,
// per driver and vector form, with linear_kernel (one reduction over the
// vectors, as l2) beside them.
func BenchmarkSelfJoin(b *testing.B) {
	queries := []struct{ name, sql string }{
		{"gauss_kernel", "SELECT sum(gauss_kernel(a.v, b.v, 1.0)) FROM t a, t b"},
		{"linear_kernel", "SELECT sum(linear_kernel(a.v, b.v)) FROM t a, t b"},
		{"kernel_spec", "SELECT sum(kernel('gauss(sigma=1)', a.v, b.v)) FROM t a, t b"},
		{"vec_distance_l2", "SELECT sum(vec_distance_l2(a.v, b.v)) FROM t a, t b"},
	}
	X := randomVectors(1000, 64)
	for _, drv := range drivers {
		for _, form := range []string{"blob", "json"} {
			db := OpenDB(b, drv)
			loadVectors(b, db, "t", X, form == "blob")
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
		}
	}
}
