package sqltests

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// digitsTiled returns rows of digits.csv (raw pixels 0..16), repeated with
// small deterministic noise until there are n: copy c of row i has
// c·0.01 added to every pixel (copy 0 is the data itself). With n = 2,000
// this is the data of testdata/sklearn_bench.py.
func digitsTiled(b testing.TB, n int) [][]float64 {
	X := features(b, testData(b, "digits.csv"), 2, 66, 1)
	out := make([][]float64, n)
	for i := range out {
		src, c := X[i%len(X)], float64(i/len(X))
		out[i] = make([]float64, len(src))
		for j, v := range src {
			out[i][j] = v + c*0.01
		}
	}
	return out
}

// scanAll reads every row of q, so that the whole result is computed.
func scanAll(b *testing.B, db *sql.DB, q string, args ...any) int {
	rows, err := db.Query(q, args...)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkKPCAExactDigits2000 is an exact kpca fit from SQL, end to end:
// read 2,000 rows of 64 pixels, Gram matrix, centring, top 5 eigenpairs,
// and all projections returned. gauss(sigma=√32) is scikit-learn's default
// rbf gamma 1/64; testdata/sklearn_bench.py times scikit-learn's
// KernelPCA(n_components=5, kernel='rbf') on the same data.
func BenchmarkKPCAExactDigits2000(b *testing.B) {
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadVectors(b, db, "digits", digitsTiled(b, 2000), false)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				name := fmt.Sprintf("p%d", i)
				if _, err := db.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING kpca(table=digits, id=id, column=v, kernel='gauss(sigma=%v)', components=5)`, name, math.Sqrt(32))); err != nil {
					b.Fatal(err)
				}
				if n := scanAll(b, db, `SELECT id, pc1, pc2, pc3, pc4, pc5 FROM `+name); n != 2000 {
					b.Fatalf("%d rows", n)
				}
			}
			b.StopTimer()
			// Same problem as scikit-learn's: its eigenvalues_ (sklearn_bench.py).
			ev := queryFloats(b, db, `SELECT eigenvalue FROM kpca_eigen('p1')`, 1)
			for j, want := range []float64{2.3611075, 2.35206132, 2.28156849, 2.26502317, 2.25575715} {
				if math.Abs(ev[j][0]-want) > 1e-7 {
					b.Fatalf("eigenvalue %d = %.9g, scikit-learn has %.9g", j+1, ev[j][0], want)
				}
			}
		})
	}
}

// BenchmarkKPCANystrom20000 fits Nyström kernel PCA with 500 landmarks on
// 20,000 rows (digits tiled with noise), end to end from SQL.
func BenchmarkKPCANystrom20000(b *testing.B) {
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadVectors(b, db, "digits", digitsTiled(b, 20000), true)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				name := fmt.Sprintf("p%d", i)
				if _, err := db.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING kpca(table=digits, id=id, column=v, kernel='gauss(sigma=%v)', components=5, method=nystrom, landmarks=500)`, name, math.Sqrt(32))); err != nil {
					b.Fatal(err)
				}
				if n := scanAll(b, db, `SELECT id, pc1, pc2, pc3, pc4, pc5 FROM `+name); n != 20000 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}

// shortTexts returns n texts of 6 to 12 words drawn from the reuters
// corpus's vocabulary with a fixed generator.
func shortTexts(b testing.TB, n int) []string {
	var words []string
	for _, r := range testData(b, "reuters.csv") {
		words = append(words, strings.Fields(r[2])...)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		w := make([]string, 6+rng.IntN(7))
		for j := range w {
			w[j] = words[rng.IntN(len(words))]
		}
		out[i] = strings.Join(w, " ")
	}
	return out
}

// BenchmarkGramRowTexts10000 is one row of a Gram matrix of 10,000 short
// texts under normalize(ngram(n=3)), end to end: the source is re-read
// (and found unchanged) and 10,000 kernel values are computed and returned.
func BenchmarkGramRowTexts10000(b *testing.B) {
	texts := shortTexts(b, 10000)
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			tx, _ := db.Begin()
			tx.Exec(`CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)`)
			for i, s := range texts {
				if _, err := tx.Exec(`INSERT INTO docs VALUES (?, ?)`, i, s); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			if _, err := db.Exec(`CREATE VIRTUAL TABLE g USING gram(table=docs, id=id, column=body, kernel='normalize(ngram(n=3))')`); err != nil {
				b.Fatal(err)
			}
			scanAll(b, db, `SELECT col_id, value FROM g WHERE row_id = 0`) // first read decodes the texts
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				if n := scanAll(b, db, `SELECT col_id, value FROM g WHERE row_id = ?`, i%10000); n != 10000 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}
