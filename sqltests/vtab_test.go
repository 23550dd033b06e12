package sqltests

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// testData reads a CSV of testdata/: the header and the rows.
func testData(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

// features parses columns [first, last) of rows as floats times scale.
func features(t testing.TB, rows [][]string, first, last int, scale float64) [][]float64 {
	t.Helper()
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = make([]float64, last-first)
		for j := range out[i] {
			v, err := strconv.ParseFloat(r[first+j], 64)
			if err != nil {
				t.Fatal(err)
			}
			out[i][j] = v * scale
		}
	}
	return out
}

// jsonVec renders a vector as JSON array text with round-tripping floats,
// so the module sees exactly the float64 values the reference used.
func jsonVec(x []float64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range x {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	}
	b.WriteByte(']')
	return b.String()
}

// loadVectors creates table name(id INTEGER PRIMARY KEY, v) holding X as
// JSON text (blob=false) or float32 BLOBs, ids 0..n−1.
func loadVectors(t testing.TB, db *sql.DB, name string, X [][]float64, blob bool) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(fmt.Sprintf(`CREATE TABLE %s(id INTEGER PRIMARY KEY, v)`, name)); err != nil {
		t.Fatal(err)
	}
	ins := fmt.Sprintf(`INSERT INTO %s VALUES (?, ?)`, name)
	if blob {
		ins = fmt.Sprintf(`INSERT INTO %s VALUES (?, vec_f32(?))`, name)
	}
	for i, x := range X {
		if _, err := tx.Exec(ins, i, jsonVec(x)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

type kpcaRef struct {
	Components     int         `json:"components"`
	Eigenvalues    []float64   `json:"eigenvalues"`
	ExplainedRatio []float64   `json:"explained_ratio"`
	Train          [][]float64 `json:"train"`
	NewX           [][]float64 `json:"new_x"`
	New            [][]float64 `json:"new"`
}

// TestKPCASklearnThroughSQL fits kpca tables from SQL and compares
// eigenvalues, explained ratios and projections of stored rows and of new
// points (through the hidden input column) with scikit-learn's
// KernelPCA(eigen_solver='dense'), to 1e-6 relative (projections: of each
// component's largest |value|). The signs must be scikit-learn's too: the
// sign rule is its svd_flip.
func TestKPCASklearnThroughSQL(t *testing.T) {
	cases := []struct {
		name, ref, kernel string
		x                 func() [][]float64
	}{
		{"iris", "ref_iris.json", "gauss(sigma=1)", func() [][]float64 { return features(t, testData(t, "iris.csv"), 1, 5, 1) }},
		{"digits500", "ref_digits.json", "poly(degree=3, r=1)", func() [][]float64 { return features(t, testData(t, "digits.csv")[:500], 2, 66, 1.0/16) }},
	}
	for _, drv := range drivers {
		for _, c := range cases {
			t.Run(driverLabel(drv)+"/"+c.name, func(t *testing.T) {
				var ref kpcaRef
				b, err := os.ReadFile("testdata/" + c.ref)
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(b, &ref); err != nil {
					t.Fatal(err)
				}
				db := OpenDB(t, drv)
				loadVectors(t, db, "src", c.x(), false)
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE p USING kpca(table=src, id=id, column=v, kernel='%s', components=%d)`, c.kernel, ref.Components))
				k := ref.Components
				rows := queryFloats(t, db, `SELECT eigenvalue, explained_ratio FROM kpca_eigen('p') ORDER BY component`, 2)
				for j := 0; j < k; j++ {
					checkRel(t, fmt.Sprintf("eigenvalue %d", j+1), rows[j][0], ref.Eigenvalues[j], 1e-6)
					checkRel(t, fmt.Sprintf("explained ratio %d", j+1), rows[j][1], ref.ExplainedRatio[j], 1e-6)
				}
				cols := make([]string, k)
				for j := range cols {
					cols[j] = fmt.Sprintf("pc%d", j+1)
				}
				train := queryFloats(t, db, `SELECT `+strings.Join(cols, ", ")+` FROM p ORDER BY id`, k)
				compareProjections(t, "stored rows", train, ref.Train)
				newRows := make([][]float64, len(ref.NewX))
				for i, z := range ref.NewX {
					r := queryFloats(t, db, `SELECT `+strings.Join(cols, ", ")+` FROM p(?)`, k, jsonVec(z))
					if len(r) != 1 {
						t.Fatalf("new point %d: %d rows", i, len(r))
					}
					newRows[i] = r[0]
				}
				compareProjections(t, "new points", newRows, ref.New)
			})
		}
	}
}

func checkRel(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if e := math.Abs(got-want) / math.Abs(want); !(e <= tol) {
		t.Errorf("%s: got %.15g, want %.15g (relative error %.2g)", what, got, want, e)
	}
}

// compareProjections checks got against want entry by entry, relative to
// each column's largest |value|, signs included.
func compareProjections(t *testing.T, what string, got, want [][]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	var worst float64
	for j := range want[0] {
		var scale float64
		for _, w := range want {
			scale = math.Max(scale, math.Abs(w[j]))
		}
		for i, w := range want {
			e := math.Abs(got[i][j]-w[j]) / scale
			worst = math.Max(worst, e)
			if !(e <= 1e-6) {
				t.Fatalf("%s: row %d pc%d = %.12g, want %.12g (error %.2g of the column scale)", what, i, j+1, got[i][j], w[j], e)
			}
		}
	}
	t.Logf("%s: worst error %.1e of the column scale", what, worst)
}

// queryFloats runs q and returns its first cols columns as floats.
func queryFloats(t testing.TB, db *sql.DB, q string, cols int, args ...any) [][]float64 {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]float64
	for rows.Next() {
		r := make([]float64, cols)
		ptrs := make([]any, cols)
		for i := range r {
			ptrs[i] = &r[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func fitCount(t testing.TB, db *sql.DB) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(`SELECT ksql_config('fit_count')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestGramFullScanMatchesDefinition compares a parallel full scan of gram
// on iris with the kernel computed here from its definition, and checks
// that the matrix is symmetric and positive semi-definite.
func TestGramFullScanMatchesDefinition(t *testing.T) {
	X := features(t, testData(t, "iris.csv"), 1, 5, 1)
	n := len(X)
	ref := func(a, b []float64) float64 { // 0.5*gauss(sigma=1.5) + linear
		var d, dot float64
		for i := range a {
			d += (a[i] - b[i]) * (a[i] - b[i])
			dot += a[i] * b[i]
		}
		return 0.5*math.Exp(-d/(2*1.5*1.5)) + dot
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadVectors(t, db, "iris", X, false)
			mustExec(t, db, `CREATE VIRTUAL TABLE g USING gram(table=iris, id=id, column=v, kernel='0.5*gauss(sigma=1.5) + linear')`)
			K := mat.NewDense(n, n, nil)
			seen := 0
			for _, r := range queryFloats(t, db, `SELECT row_id, col_id, value FROM g`, 3) {
				i, j := int(r[0]), int(r[1])
				if want := ref(X[i], X[j]); math.Abs(r[2]-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("K(%d,%d) = %.17g, want %.17g", i, j, r[2], want)
				}
				K.Set(i, j, r[2])
				seen++
			}
			if seen != n*n {
				t.Fatalf("full scan gave %d entries, want %d", seen, n*n)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					if K.At(i, j) != K.At(j, i) {
						t.Fatalf("not symmetric at (%d,%d): %v vs %v", i, j, K.At(i, j), K.At(j, i))
					}
				}
			}
			var eig mat.EigenSym
			if !eig.Factorize(mat.NewSymDense(n, K.RawMatrix().Data), false) {
				t.Fatal("eigendecomposition failed")
			}
			vals := eig.Values(nil)
			if vals[0] < -1e-10*vals[n-1] {
				t.Errorf("smallest eigenvalue %g (largest %g): not positive semi-definite", vals[0], vals[n-1])
			}
			// A row agrees with the full scan.
			row := queryFloats(t, db, `SELECT col_id, value FROM g WHERE row_id = 77`, 2)
			for _, r := range row {
				if r[1] != K.At(77, int(r[0])) {
					t.Fatalf("row 77 col %v: %v, full scan %v", r[0], r[1], K.At(77, int(r[0])))
				}
			}
		})
	}
}

// TestFitInterrupted cancels a long exact fit — the one CREATE makes to
// store the fit: the statement fails within a moment, the table is not
// created, nothing is counted, stored or cached, and the connection goes on.
func TestFitInterrupted(t *testing.T) {
	X := features(t, testData(t, "digits.csv"), 2, 66, 1.0/16)
	X = append(append(X, X...), X...)
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadVectors(t, db, "digits", X, true)
			// kernel_map of the digits three times over: 29 million
			// kernel values and a pivoted Cholesky of rank ~1,797, a
			// second or more, so the cancel lands inside the fit. (Once
			// the digits alone took seconds; since the fit got fast, the
			// cancel sometimes came after it.)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE m USING kernel_map(table=digits, id=id, column=v, kernel='gauss(sigma=2)')`)
			el := time.Since(start)
			if err == nil {
				t.Fatalf("cancelled fit returned no error (took %v)", el)
			}
			if !strings.Contains(err.Error(), "interrupt") && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %q does not say the statement was interrupted", err)
			}
			t.Logf("cancelled after %v: %v", el, err)
			if el > 3*time.Second {
				t.Errorf("the fit took %v to stop", el)
			}
			if got := fitCount(t, db); got != 0 {
				t.Errorf("fit_count = %d after an interrupted fit, want 0", got)
			}
			var tables int
			if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('m', 'm_fit')`).Scan(&tables); err != nil || tables != 0 {
				t.Fatalf("after the interrupted CREATE: %d tables named m or m_fit (err %v), want none", tables, err)
			}
			start = time.Now()
			mustExec(t, db, `DELETE FROM digits WHERE id >= 100`)
			mustExec(t, db, `CREATE VIRTUAL TABLE m USING kernel_map(table=digits, id=id, column=v, kernel='gauss(sigma=2)')`)
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM m`).Scan(&n); err != nil || n != 100 {
				t.Fatalf("after the interrupt: count = %d, err = %v", n, err)
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Errorf("the connection was busy for %v after the cancel", el)
			}
			if got := fitCount(t, db); got != 1 {
				t.Errorf("fit_count = %d, want 1", got)
			}
		})
	}
}

// TestStringKNNWithVec0 maps texts with kernel_map under a string kernel,
// stores the vectors in a vec0 table, and checks that L2 nearest neighbours
// there are the texts nearest by kernel_distance, for several new texts,
// and that inner products reproduce the kernel to 1e-5.
func TestStringKNNWithVec0(t *testing.T) {
	texts := testData(t, "reuters.csv")
	const spec = "normalize(ngram(n=3))"
	queries := []string{
		"the company said it has completed the sale of shares",
		"oil prices rose on opec production cuts",
		"crude oil futures",
		texts[5][2][:200],
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, `CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)`)
			for _, r := range texts {
				if _, err := db.Exec(`INSERT INTO docs VALUES (?, ?)`, r[0], r[2]); err != nil {
					t.Fatal(err)
				}
			}
			mustExec(t, db, `CREATE VIRTUAL TABLE dm USING kernel_map(table=docs, id=id, column=body, kernel='`+spec+`')`)
			var dim int
			if err := db.QueryRow(`SELECT max(length(vector)) / 4 FROM dm`).Scan(&dim); err != nil {
				t.Fatal(err)
			}
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE vecs USING vec0(embedding float[%d]);
				INSERT INTO vecs(rowid, embedding) SELECT id, vector FROM dm`, dim))
			for _, q := range queries {
				var worst float64
				if err := db.QueryRow(`SELECT max(abs(linear_kernel(a.vector, z.vector) - kernel(?1, d.body, ?2)))
					FROM dm a JOIN docs d ON d.id = a.id, dm(?2) z`, spec, q).Scan(&worst); err != nil {
					t.Fatal(err)
				}
				if worst > 1e-5 {
					t.Errorf("%.30q: <phi(x_i), phi(z)> differs from k(x_i, z) by %.2g", q, worst)
				}
				knn := queryFloats(t, db, `WITH q AS (SELECT vector AS qv FROM dm(?))
					SELECT rowid FROM vecs, q WHERE embedding MATCH q.qv AND k = 5 ORDER BY distance`, 1, q)
				byKernel := queryFloats(t, db, `SELECT id FROM docs ORDER BY kernel_distance(?, body, ?) LIMIT 5`, 1, spec, q)
				if fmt.Sprint(knn) != fmt.Sprint(byKernel) {
					t.Errorf("%.30q: vec0 KNN %v, ORDER BY kernel_distance %v", q, knn, byKernel)
				}
			}
		})
	}
}

// TestNystromApproachesExact: on iris, Nyström with more landmarks comes
// closer to the exact eigenvalues, and with every row a landmark it is the
// exact fit; landmarks are reproducible from the seed.
func TestNystromApproachesExact(t *testing.T) {
	X := features(t, testData(t, "iris.csv"), 1, 5, 1)
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadVectors(t, db, "iris", X, false)
			mustExec(t, db, `CREATE VIRTUAL TABLE ex USING kpca(table=iris, id=id, column=v, kernel='gauss(sigma=1)', components=3)`)
			exact := queryFloats(t, db, `SELECT eigenvalue FROM kpca_eigen('ex')`, 1)
			prevErr := math.Inf(1)
			for _, m := range []int{10, 40, 150} {
				name := fmt.Sprintf("ny%d", m)
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING kpca(table=iris, id=id, column=v, kernel='gauss(sigma=1)', components=3, method=nystrom, landmarks=%d, seed=3)`, name, m))
				ny := queryFloats(t, db, `SELECT eigenvalue FROM kpca_eigen(?)`, 1, name)
				var e float64
				for j := range exact {
					e = math.Max(e, math.Abs(ny[j][0]-exact[j][0])/exact[j][0])
				}
				t.Logf("landmarks=%d: worst eigenvalue error %.2g", m, e)
				if e > prevErr {
					t.Errorf("landmarks=%d: error %.2g above %.2g with fewer landmarks", m, e, prevErr)
				}
				prevErr = e
			}
			if prevErr > 1e-9 {
				t.Errorf("landmarks = n: eigenvalue error %.2g, want the exact fit", prevErr)
			}
			// Same seed, same landmarks, same projections; another seed differs.
			mustExec(t, db, `CREATE VIRTUAL TABLE again USING kpca(table=iris, id=id, column=v, kernel='gauss(sigma=1)', components=3, method=nystrom, landmarks=10, seed=3);
				CREATE VIRTUAL TABLE other USING kpca(table=iris, id=id, column=v, kernel='gauss(sigma=1)', components=3, method=nystrom, landmarks=10, seed=4)`)
			a := queryFloats(t, db, `SELECT pc1, pc2 FROM ny10`, 2)
			b := queryFloats(t, db, `SELECT pc1, pc2 FROM again`, 2)
			c := queryFloats(t, db, `SELECT pc1, pc2 FROM other`, 2)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Error("the same seed gave different projections")
			}
			if fmt.Sprint(a) == fmt.Sprint(c) {
				t.Error("another seed gave the same projections")
			}
		})
	}
}

// TestModulesInFileDatabase: tables created in a database file work on a
// new connection (SQLite calls Connect, not Create), and kpca_eigen finds
// a kpca table that this connection has not used yet.
func TestModulesInFileDatabase(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := t.TempDir() + "/m.db"
			db, err := sql.Open(drv, "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT);
				INSERT INTO pts VALUES (1, '[2,0]'), (2, '[-2,0]'), (3, '[0,1]'), (4, '[0,-1]');
				CREATE VIRTUAL TABLE p USING kpca(table=pts, id=id, column=v, kernel=linear, components=2);
				CREATE VIRTUAL TABLE g USING gram(table=pts, id=id, column=v, kernel=linear);
				CREATE VIRTUAL TABLE m USING kernel_map(table=pts, id=id, column=v, kernel='gauss(sigma=1)')`)
			db.Close()
			db, err = sql.Open(drv, "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			ev := queryFloats(t, db, `SELECT eigenvalue, explained_ratio FROM kpca_eigen('p')`, 2)
			if len(ev) != 2 || math.Abs(ev[0][0]-8) > 1e-12 || math.Abs(ev[1][1]-0.2) > 1e-12 {
				t.Fatalf("kpca_eigen on a new connection: %v, want [[8 0.8] [2 0.2]]", ev)
			}
			if v := queryFloats(t, db, `SELECT value FROM g WHERE row_id = 1 AND col_id = 2`, 1); len(v) != 1 || v[0][0] != -4 {
				t.Fatalf("gram on a new connection: %v, want -4", v)
			}
			if v := queryFloats(t, db, `SELECT length(vector) / 4 FROM m WHERE id = 3`, 1); len(v) != 1 || v[0][0] != 4 {
				t.Fatalf("kernel_map on a new connection: %v, want a 4-dimensional vector", v)
			}
		})
	}
}
