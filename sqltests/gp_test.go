package sqltests

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// gpRef is testdata/ref_gp.json (scikit-learn's GaussianProcessRegressor
// with optimizer=None; make_gp_ref.py there says how).
type gpRef struct {
	X, Z  [][]float64
	Y     []float64
	Cases []struct {
		Kernel     string
		Noise      float64
		NormalizeY bool `json:"normalize_y"`
		Mean, Std  []float64
		ZMean      []float64 `json:"z_mean"`
		ZStd       []float64 `json:"z_std"`
		LML        float64
	}
}

// TestGPAgainstScikitLearn: for Gaussian, Matérn (ν = ½, 3/2, 5/2),
// rational quadratic and linear kernels, noise from 1e-3 to 2, with and
// without normalize_y, gp's posterior means and standard deviations of
// the stored rows and of new objects (through the hidden input) and its
// log marginal likelihood agree with scikit-learn's to 1e-9 relative.
func TestGPAgainstScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/ref_gp.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref gpRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	vs := make([]string, len(ref.X))
	for i, x := range ref.X {
		vs[i] = jsonVec(x)
	}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			gpLoad(t, db, "pts", vs, ref.Y)
			for i, c := range ref.Cases {
				name := fmt.Sprintf("g%d", i)
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING gp(table=pts, id=id, column=v, label=y, kernel='%s', noise=%v, normalize_y=%v)`,
					name, c.Kernel, c.Noise, c.NormalizeY))
				rows, err := queryRows(db, "SELECT prediction, std FROM "+name+" ORDER BY id")
				if err != nil || len(rows) != len(ref.Y) {
					t.Fatalf("%s: %d rows, %v", name, len(rows), err)
				}
				for r, row := range rows {
					if !relNear(row[0].(float64), c.Mean[r], 1e-9) || !relNear(row[1].(float64), c.Std[r], 1e-9) {
						t.Fatalf("%s %s noise %v row %d: %v, scikit-learn %v %v", name, c.Kernel, c.Noise, r, row, c.Mean[r], c.Std[r])
					}
				}
				for z, x := range ref.Z {
					var m, s float64
					if err := db.QueryRow(fmt.Sprintf("SELECT prediction, std FROM %s('%s')", name, jsonVec(x))).Scan(&m, &s); err != nil {
						t.Fatal(err)
					}
					if !relNear(m, c.ZMean[z], 1e-9) || !relNear(s, c.ZStd[z], 1e-9) {
						t.Fatalf("%s %s new %d: %v %v, scikit-learn %v %v", name, c.Kernel, z, m, s, c.ZMean[z], c.ZStd[z])
					}
				}
				var lml float64
				if err := db.QueryRow("SELECT value FROM ksql_model('" + name + "') WHERE name = 'log_marginal_likelihood'").Scan(&lml); err != nil {
					t.Fatal(err)
				}
				if math.Abs(lml-c.LML) > 1e-9*math.Abs(c.LML) {
					t.Fatalf("%s %s: LML %v, scikit-learn %v", name, c.Kernel, lml, c.LML)
				}
			}
		})
	}
}

// gpLoad makes table name(id, v, y), ids 0..n−1, in one INSERT of
// literals (the loadable library's test driver takes no parameters).
func gpLoad(t *testing.T, db *sql.DB, name string, v []string, y []float64) {
	q := "CREATE TABLE " + name + "(id INTEGER PRIMARY KEY, v TEXT, y REAL); INSERT INTO " + name + " VALUES "
	for i := range v {
		if i > 0 {
			q += ", "
		}
		q += fmt.Sprintf("(%d, '%s', %s)", i, v[i], strconv.FormatFloat(y[i], 'g', -1, 64))
	}
	mustExec(t, db, q)
}

// gpDocs are short texts with labels for the string-kernel check.
func gpDocs(n int) (texts []string, y []float64) {
	r := rand.New(rand.NewPCG(3, 5))
	words := []string{"kernel", "sqlite", "gauss", "process", "ridge", "table", "vector", "noise"}
	for i := 0; i < n; i++ {
		s := ""
		for w := 0; w < 2+r.IntN(4); w++ {
			s += words[r.IntN(len(words))] + " "
		}
		texts = append(texts, s)
		y = append(y, float64(len(s)%7)+0.5*r.Float64())
	}
	return texts, y
}

// TestGPStringKernel: on texts with normalize(ngram(n=3)), the posterior
// mean equals krr's prediction with alpha = noise, and the standard
// deviation of stored rows and of a new text equals the formula
// sqrt(K_ii − k_iᵀ(K + noise·I)⁻¹k_i), computed here from kernel() values
// with an explicit inverse.
func TestGPStringKernel(t *testing.T) {
	const spec, noise = "normalize(ngram(n=3))", 0.05
	texts, y := gpDocs(40)
	n := len(texts)
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			gpLoad(t, db, "docs", texts, y)
			mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE g USING gp(table=docs, id=id, column=v, label=y, kernel='%s', noise=%v)", spec, noise))
			mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE k USING krr(table=docs, id=id, column=v, label=y, kernel='%s', alpha=%v)", spec, noise))
			const z = "gauss process kernel"
			inv, K, kz, kzz := gpStringFormula(t, db, spec, z, n, noise)
			rows, err := queryRows(db, "SELECT g.prediction, g.std, k.prediction FROM g JOIN k USING (id) ORDER BY g.id")
			if err != nil || len(rows) != n {
				t.Fatalf("%d rows, %v", len(rows), err)
			}
			for i, row := range rows {
				ki := mat.NewVecDense(n, K[i*n:(i+1)*n])
				var a mat.VecDense
				a.MulVec(inv, ki)
				want := math.Sqrt(K[i*n+i] - mat.Dot(ki, &a))
				if !relNear(row[0].(float64), row[2].(float64), 1e-9) || !relNear(row[1].(float64), want, 1e-9) {
					t.Fatalf("row %d: gp %v %v, krr %v, formula std %v", i, row[0], row[1], row[2], want)
				}
			}
			var gm, gs, km float64
			if err := db.QueryRow(fmt.Sprintf("SELECT g.prediction, g.std, k.prediction FROM g('%[1]s') AS g, k('%[1]s') AS k", z)).Scan(&gm, &gs, &km); err != nil {
				t.Fatal(err)
			}
			var a mat.VecDense
			a.MulVec(inv, mat.NewVecDense(n, kz))
			if want := math.Sqrt(kzz - mat.Dot(mat.NewVecDense(n, kz), &a)); !relNear(gm, km, 1e-9) || !relNear(gs, want, 1e-9) {
				t.Fatalf("new text: gp %v %v, krr %v, formula std %v", gm, gs, km, want)
			}
		})
	}
}

// gpStringFormula reads the kernel values through kernel(): the Gram
// matrix K, the inverse of K + noise·I, and a new text's values.
func gpStringFormula(t *testing.T, db *sql.DB, spec, z string, n int, noise float64) (*mat.Dense, []float64, []float64, float64) {
	K := make([]float64, n*n)
	rows, err := queryRows(db, fmt.Sprintf("SELECT a.id, b.id, kernel('%s', a.v, b.v) FROM docs a, docs b", spec))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		K[int(r[0].(int64))*n+int(r[1].(int64))] = r[2].(float64)
	}
	A := mat.NewDense(n, n, append([]float64(nil), K...))
	for i := 0; i < n; i++ {
		A.Set(i, i, A.At(i, i)+noise)
	}
	var inv mat.Dense
	if err := inv.Inverse(A); err != nil {
		t.Fatal(err)
	}
	kz := make([]float64, n)
	rows, err = queryRows(db, fmt.Sprintf("SELECT id, kernel('%s', v, '%s') FROM docs", spec, z))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		kz[r[0].(int64)] = r[1].(float64)
	}
	var kzz float64
	if err := db.QueryRow(fmt.Sprintf("SELECT kernel('%[1]s', '%[2]s', '%[2]s')", spec, z)).Scan(&kzz); err != nil {
		t.Fatal(err)
	}
	return &inv, K, kz, kzz
}

// TestGPStored: a reopened database answers from the stored fit (its
// Cholesky factor included: new objects too) with the same bits and no
// refit.
func TestGPStored(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gp.db")
			db := openFile(t, drv, "file:"+path)
			vs, y := make([]string, 150), make([]float64, 150)
			for i := range vs {
				vs[i], y[i] = jsonVec([]float64{math.Sin(float64(i)), float64(i%7) / 3}), float64(i%5)+0.1*float64(i%3)
			}
			gpLoad(t, db, "pts", vs, y)
			mustExec(t, db, "CREATE VIRTUAL TABLE g USING gp(table=pts, id=id, column=v, label=y, kernel='matern(sigma=0.5, nu=2.5)', noise=0.01, normalize_y=true, folds=3)")
			answers := func(db *sql.DB) [][]any {
				var out [][]any
				for _, q := range []string{"SELECT * FROM g", "SELECT prediction, std FROM g('[0.3, 1.1]')",
					"SELECT value FROM ksql_model('g') WHERE name IN ('log_marginal_likelihood', 'cv_mse')"} {
					rows, err := queryRows(db, q)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, rows...)
				}
				return out
			}
			want := answers(db)
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := answers(db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			if got := fitCount(t, db); got != 0 {
				t.Fatalf("fit_count after reopen = %d, want 0", got)
			}
		})
	}
}

// BenchmarkGPFit2000: CREATE (the fit: Gram matrix, Cholesky, means, the
// standard deviations of every row, the stored fit) and one read of all
// rows, 2,000 rows of 8 values, gauss(sigma=2), noise 0.1.
// testdata/sklearn_gp_bench.py times GaussianProcessRegressor.fit +
// predict(return_std=True) on the same data.
func BenchmarkGPFit2000(b *testing.B) {
	X, y := gpBenchData(2000)
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadLabelled(b, db, "pts", "y REAL", X, y, false)
			benchCreate(b, db, "gp(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=2)', noise=0.1)", len(X))
		})
	}
}

// gpBenchData is sklearn_gp_bench.py's data: x uniform in [−2, 2]⁸ from
// a fixed generator, y = x₁ + sin(x₂); both scripts make it the same way
// (a linear congruential generator, written out in each).
func gpBenchData(n int) ([][]float64, []any) {
	state := uint64(12345)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	X, y := make([][]float64, n), make([]any, n)
	for i := range X {
		X[i] = make([]float64, 8)
		for j := range X[i] {
			X[i][j] = 4*next() - 2
		}
		y[i] = X[i][0] + math.Sin(X[i][1])
	}
	return X, y
}

// TestGPInterrupted cancels gp fits of 5,000 rows (seconds of Cholesky,
// then seconds of standard deviations) at random moments, CREATE and
// 'refit': each fails as interrupted within a moment of the cancel, the
// cancelled CREATE leaves no table and the refit leaves the stored fit.
func TestGPInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("fits big inputs")
	}
	const small, big = 200, 5000
	const using = "gp(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=0.05)', noise=1e-3)"
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := openFile(t, drv, "file:"+filepath.Join(t.TempDir(), "int.db"))
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL, c TEXT)`)
			loadPoints(t, db, 0, small)
			mustExec(t, db, "CREATE VIRTUAL TABLE t USING "+using)
			stored := fitParts(t, db, "t")
			loadPoints(t, db, small, big)
			r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
			for _, q := range []string{"INSERT INTO t(t) VALUES ('refit')", "CREATE VIRTUAL TABLE t2 USING " + using} {
				d := time.Duration(200+r.IntN(800)) * time.Millisecond // inside the fit even on a quiet machine
				late := cancelled(t, db, q, d)
				t.Logf("%s: cancelled at %v, returned %v later", q, d, late)
				if late > 3*time.Second {
					t.Errorf("%s: returned %v after the cancel", q, late)
				}
			}
			if got := fitParts(t, db, "t"); !reflect.DeepEqual(got, stored) {
				t.Errorf("the stored fit changed after an interrupted refit")
			}
			var tables int
			if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('t2', 't2_fit')`).Scan(&tables); err != nil || tables != 0 {
				t.Errorf("after the interrupted CREATE: %d tables named t2 or t2_fit (%v)", tables, err)
			}
		})
	}
}
