package functions_test

import (
	"database/sql"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	_ "github.com/ksql/ksql/ext"
	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
)

// rffDrivers lists the drivers the rff tests run on; the mattn build adds
// its own (rff_mattn_test.go).
var rffDrivers = []string{"ksql"}

func openRFF(t testing.TB, driver string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// loadDigits puts testdata/rff_digits.csv into digits(id, v) with v the 64
// pixel values as JSON text.
func loadDigits(t testing.TB, db *sql.DB) int {
	t.Helper()
	f, err := os.Open("testdata/rff_digits.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "CREATE TABLE digits(id INTEGER PRIMARY KEY, label INTEGER, v TEXT)")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		if _, err := tx.Exec("INSERT INTO digits VALUES (?, ?, ?)", r[0], r[1], "["+strings.Join(r[2:], ",")+"]"); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return len(rows) - 1
}

// TestRFFDigitsRecall: approximate kernel search. The digits are embedded
// with rff_embed into a sqlite-vec vec0 table, and the 10 nearest by L2
// there are compared with the 10 nearest by exact gauss_kernel, for every
// 9th digit as the query (200 queries). ‖φ(x) − φ(z)‖² = 2 − 2⟨φ(x),φ(z)⟩
// ≈ 2 − 2K(x,z), so the orders agree up to the features' noise.
//
// σ = 30: the noise of K̃ at kernel value K is (1 − K²)/sqrt(2n), which in
// terms of the squared distance d² is 2σ²·(1 − K²)/(K·sqrt(2n)). That
// falls as σ grows, to a floor of d²·sqrt(2/n) once the neighbours sit well
// inside the kernel (K near 1), and is useless when σ is below the
// neighbour distances (K ≈ 0 there). Digits' 10th-neighbour distance has a
// median of 22.3 (10%–90%: 17.7–29.0), so σ = 30 puts K ≈ 0.76 at the
// 10th neighbour: on the floor, but not so close to 1 that float32
// features lose the differences. Measured recall@10 at dim 2048, seed 0:
// σ = 10: 0.71, 15: 0.91, 20: 0.93, 30: 0.936, 50: 0.938 (the floor); and at
// σ = 30: dim 1024: 0.909, 4096: 0.955. The test asserts ≥ 0.9.
//
// Ties (pixel counts are integers, so distances tie) count as hits: a
// neighbour is right when its exact kernel value is at least the 10th
// largest.
func TestRFFDigitsRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds 1797 digits at dim 2048 and runs 200 KNN queries")
	}
	const (
		dim   = 2048
		sigma = 30.0
		k     = 10
	)
	for _, drv := range rffDrivers {
		t.Run(drv, func(t *testing.T) {
			db := openRFF(t, drv)
			n := loadDigits(t, db)
			mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE emb USING vec0(embedding float[%d])", dim))
			mustExec(t, db, "INSERT INTO emb(rowid, embedding) SELECT id, rff_embed(v, ?, ?) FROM digits", dim, sigma)
			var hits, total int
			for q := 0; q < n; q += 9 {
				var threshold float64
				err := db.QueryRow(`SELECT gauss_kernel(a.v, b.v, ?) AS kv FROM digits a, digits b
					WHERE a.id = ? AND b.id != a.id ORDER BY kv DESC LIMIT 1 OFFSET ?`, sigma, q, k-1).Scan(&threshold)
				if err != nil {
					t.Fatal(err)
				}
				rows, err := db.Query(`SELECT e.rowid, gauss_kernel(a.v, b.v, ?)
					FROM emb e JOIN digits b ON b.id = e.rowid, digits a
					WHERE e.embedding MATCH (SELECT embedding FROM emb WHERE rowid = ?) AND e.k = ? AND a.id = ?
					ORDER BY e.distance`, sigma, q, k+1, q)
				if err != nil {
					t.Fatal(err)
				}
				got := 0
				for rows.Next() {
					var id int
					var kv float64
					if err := rows.Scan(&id, &kv); err != nil {
						t.Fatal(err)
					}
					if id == q || got == k {
						continue
					}
					got++
					if kv >= threshold {
						hits++
					}
				}
				if err := rows.Close(); err != nil {
					t.Fatal(err)
				}
				if got != k {
					t.Fatalf("query %d: vec0 returned %d neighbours besides itself, want %d", q, got, k)
				}
				total += k
			}
			recall := float64(hits) / float64(total)
			t.Logf("%s: recall@%d = %.3f over %d queries (dim %d, σ %g)", drv, k, recall, total/k, dim, sigma)
			if recall < 0.9 {
				t.Errorf("recall@%d = %.3f, want ≥ 0.9", k, recall)
			}
		})
	}
}

// TestRFFSameBitsOnDrivers embeds the same rows on every driver and
// compares the BLOBs.
func TestRFFSameBitsOnDrivers(t *testing.T) {
	if len(rffDrivers) < 2 {
		t.Skip("only one driver in this build (add -tags sqlite_vtable)")
	}
	var first []string
	for i, drv := range rffDrivers {
		db := openRFF(t, drv)
		loadDigits(t, db)
		rows, err := db.Query(`SELECT hex(rff_embed(v, 256, 'laplace(sigma=40)', 5)) || hex(rff_embed(vec_f32(v), 70, 12.5, -3))
			FROM digits WHERE id % 50 = 0 ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		rows.Close()
		if i == 0 {
			first = got
			continue
		}
		if len(got) != len(first) || len(got) < 30 {
			t.Fatalf("%s: %d rows, %s: %d", drv, len(got), rffDrivers[0], len(first))
		}
		for j := range got {
			if got[j] != first[j] {
				t.Fatalf("row %d: %s and %s differ", j, drv, rffDrivers[0])
			}
		}
	}
}

// TestRFFEmbedAllocs: a row costs the output BLOB and nothing else (for a
// float32 BLOB input; JSON text is parsed into a new slice): two
// allocations, its bytes and the slice header that returning it as an
// `any` boxes. Measured at
// the function's Go entry point so that the driver's own allocations do
// not blur the figure.
func TestRFFEmbedAllocs(t *testing.T) {
	var f functions.Func
	for _, g := range functions.All() {
		if g.Name == "rff_embed" {
			f = g
		}
	}
	c := host.NewConn(nil)
	blob := make([]byte, 4*64)
	for _, args := range [][]any{{blob, int64(512), 1.0}, {blob, int64(512), "laplace(sigma=2)", int64(7)}} {
		if _, err := f.Call(c, args); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(50, func() { f.Call(c, args) }); a > 2 {
			t.Errorf("rff_embed(%v, ...) allocates %v times per row, want 2 (the output and its header)", args[2], a)
		}
	}
}

// BenchmarkRFFEmbedSQL is the speed figure: 64-dimensional float32
// BLOB rows embedded at dim 512 through SQL, against numpy/scikit-learn's
// RBFSampler(n_components=512).transform on the same machine
// (testdata/rff_numpy_bench.py). "scan" is the cost of reading the rows
// alone; "aggregate" embeds inside SQLite; "fetch" also hands every BLOB
// to Go through database/sql.
func BenchmarkRFFEmbedSQL(b *testing.B) {
	const rows = 20000
	for _, drv := range rffDrivers {
		db := openRFF(b, drv)
		mustExec(b, db, "CREATE TABLE t(v BLOB)")
		r := rand.New(rand.NewPCG(1, 2))
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for range rows {
			v := make([]float64, 64)
			for i := range v {
				v[i] = r.NormFloat64()
			}
			if _, err := tx.Exec("INSERT INTO t VALUES (?)", host.Float32Blob(v)); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		mustExec(b, db, "SELECT rff_embed(v, 512, 1.0) FROM t LIMIT 1") // draw the map outside the timing
		for _, q := range []struct{ name, sql string }{
			{"scan", "SELECT sum(length(v)) FROM t"},
			{"aggregate", "SELECT sum(length(rff_embed(v, 512, 1.0))) FROM t"},
		} {
			b.Run(drv+"/"+q.name, func(b *testing.B) {
				for b.Loop() {
					var n int64
					if err := db.QueryRow(q.sql).Scan(&n); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
				b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
			})
		}
		b.Run(drv+"/fetch", func(b *testing.B) {
			for b.Loop() {
				rs, err := db.Query("SELECT rff_embed(v, 512, 1.0) FROM t")
				if err != nil {
					b.Fatal(err)
				}
				var blob sql.RawBytes
				for rs.Next() {
					if err := rs.Scan(&blob); err != nil {
						b.Fatal(err)
					}
				}
				if err := rs.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
			b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// FuzzRFFEmbed: any arguments give a BLOB of 4·dim bytes with unit norm,
// NULL, or an error — never a panic (Call would turn one into an
// "internal error", which the fuzzer reports).
func FuzzRFFEmbed(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63}, "[1,2,3]", int64(8), 1.0, "", int64(0))
	f.Add([]byte{}, "[1e300]", int64(7), -1.0, "laplace(sigma=2)", int64(-5))
	f.Add([]byte{0, 0, 192, 127}, "", int64(2), 0.5, "poly(degree=2)", int64(1<<62))
	var fn functions.Func
	for _, g := range functions.All() {
		if g.Name == "rff_embed" {
			fn = g
		}
	}
	c := host.NewConn(nil)
	f.Fuzz(func(t *testing.T, blob []byte, text string, dim int64, sigma float64, spec string, seed int64) {
		var x any = blob
		if text != "" {
			x = text
		}
		var k any = sigma
		if spec != "" {
			k = spec
		}
		dim %= 4096 // keep each map small
		res, err := fn.Call(c, []any{x, dim, k, seed})
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		out, ok := res.([]byte)
		if !ok || int64(len(out)) != 4*dim {
			t.Fatalf("result %T of %d bytes for dim %d", res, len(out), dim)
		}
		var s float64
		for i := 0; i < len(out); i += 4 {
			v := float64(math.Float32frombits(binary.LittleEndian.Uint32(out[i:])))
			s += v * v
		}
		if math.Abs(s-1) > 1e-5 {
			t.Fatalf("‖φ‖² = %v", s)
		}
	})
}
