package sqltests

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// clusterRef is one data set of testdata/ref_cluster.json, written by
// testdata/make_cluster_ref.py with scikit-learn 1.2.1.
type clusterRef struct {
	X              [][]float64 `json:"x"`
	Truth          []int       `json:"truth"`
	K              int         `json:"k"`
	Sigma          float64     `json:"sigma"`
	KMeansInertia  float64     `json:"kmeans_inertia"`
	SpectralLabels []int       `json:"spectral_labels"`
}

func loadClusterRefs(t *testing.T) map[string]clusterRef {
	t.Helper()
	b, err := os.ReadFile("testdata/ref_cluster.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs map[string]clusterRef
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	return refs
}

// adjustedRand is Hubert & Arabie's adjusted Rand index, from the
// contingency table of the two labellings.
func adjustedRand(a, b []int) float64 {
	type cell struct{ x, y int }
	nij, ai, bj := map[cell]float64{}, map[int]float64{}, map[int]float64{}
	for i := range a {
		nij[cell{a[i], b[i]}]++
		ai[a[i]]++
		bj[b[i]]++
	}
	pairs := func(m map[int]float64) (s float64) {
		for _, v := range m {
			s += v * (v - 1) / 2
		}
		return s
	}
	var sij float64
	for _, v := range nij {
		sij += v * (v - 1) / 2
	}
	sa, sb, n := pairs(ai), pairs(bj), float64(len(a))
	expected := sa * sb / (n * (n - 1) / 2)
	if top := (sa + sb) / 2; top != expected {
		return (sij - expected) / (top - expected)
	}
	return 1
}

// loadPointsTable creates name(id INTEGER PRIMARY KEY, v) holding X as
// JSON text, ids 0…n−1, in one statement (the loadable driver's proxy
// takes no transactions).
func loadPointsTable(t *testing.T, db *sql.DB, name string, X [][]float64) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s(id INTEGER PRIMARY KEY, v); INSERT INTO %s VALUES ", name, name)
	for i, x := range X {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, '%s')", i, jsonVec(x))
	}
	mustExec(t, db, b.String())
}

// clusterLabels reads a clustering table's cluster column in id order.
func clusterLabels(t *testing.T, db *sql.DB, table string) []int {
	t.Helper()
	rows, err := queryRows(db, "SELECT cluster FROM "+table+" ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(rows))
	for i, r := range rows {
		out[i] = int(r[0].(int64))
	}
	return out
}

// TestClusterAgainstScikitLearn: with the linear kernel kkmeans is k-means
// and reaches scikit-learn's best inertia of ten restarts to 0.1%; with a
// Gaussian kernel it finds two concentric circles, which scikit-learn's
// spectral clustering also separates; spectral gives scikit-learn's
// SpectralClustering labels on the same affinity (circles, moons, blobs).
// Cluster numbers follow the smallest id in every case.
func TestClusterAgainstScikitLearn(t *testing.T) {
	refs := loadClusterRefs(t)
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			for name, r := range refs {
				loadPointsTable(t, db, name, r.X)
			}
			for _, name := range []string{"iris", "blobs", "circles"} {
				r := refs[name]
				tab := name + "_km"
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING kkmeans(table=%s, id=id, column=v, kernel='linear', k=%d)`, tab, name, r.K))
				var obj float64
				if err := db.QueryRow(`SELECT value FROM ksql_model('` + tab + `') WHERE name = 'objective'`).Scan(&obj); err != nil {
					t.Fatal(err)
				}
				if obj > r.KMeansInertia*1.001 {
					t.Errorf("%s: kkmeans linear objective %v, scikit-learn KMeans %v", name, obj, r.KMeansInertia)
				}
				var sum float64
				if err := db.QueryRow(`SELECT sum(distance * distance) FROM ` + tab).Scan(&sum); err != nil || relDiff(sum, obj) > 1e-9 {
					t.Errorf("%s: Σ distance² %v, objective %v (%v)", name, sum, obj, err)
				}
				checkNumbering(t, clusterLabels(t, db, tab), name)
			}
			r := refs["circles"]
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE rings USING kkmeans(table=circles, id=id, column=v, kernel='gauss(sigma=%v)', k=2)`, r.Sigma))
			if a := adjustedRand(clusterLabels(t, db, "rings"), r.Truth); a < 0.99 || adjustedRand(r.SpectralLabels, r.Truth) < 0.99 {
				t.Errorf("circles: kkmeans gauss ARI %v against the truth", a)
			}
			for _, name := range []string{"circles", "moons", "blobs_sep"} {
				r := refs[name]
				tab := name + "_sp"
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING spectral(table=%s, id=id, column=v, kernel='gauss(sigma=%v)', k=%d)`, tab, name, r.Sigma, r.K))
				got := clusterLabels(t, db, tab)
				if a := adjustedRand(got, r.SpectralLabels); a < 0.99 {
					t.Errorf("%s: spectral ARI %v against scikit-learn's", name, a)
				}
				checkNumbering(t, got, name)
			}
		})
	}
}

func relDiff(a, b float64) float64 {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d / max(1, b, -b)
}

// checkNumbering: cluster 1 holds the first id, and each new number first
// appears after all the smaller ones.
func checkNumbering(t *testing.T, labels []int, name string) {
	t.Helper()
	next := 1
	for i, l := range labels {
		if l > next {
			t.Fatalf("%s: row %d is in cluster %d before any row of cluster %d", name, i, l, next)
		}
		if l == next {
			next++
		}
	}
}

// TestClusterStoredFits: the fits made at CREATE answer a reopened
// database bit for bit without refitting; a damaged shadow table is not
// trusted and the refit gives the same answers.
func TestClusterStoredFits(t *testing.T) {
	refs := loadClusterRefs(t)
	answers := func(t *testing.T, db *sql.DB) [][]any {
		var out [][]any
		for _, q := range []string{"SELECT id, cluster, distance FROM km", "SELECT cluster, distance FROM km('[0.5, 0.25]')",
			"SELECT id, cluster, distance FROM sp", "SELECT name, value FROM ksql_model('sp') WHERE name IN ('objective', 'iterations', 'size[1]', 'size[2]', 'eigenvalue[1]', 'eigenvalue[2]')"} {
			rows, err := queryRows(db, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			out = append(out, rows...)
		}
		return out
	}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cluster.db")
			db := openFile(t, drv, "file:"+path)
			loadPointsTable(t, db, "moons", refs["moons"].X)
			mustExec(t, db, `CREATE VIRTUAL TABLE km USING kkmeans(table=moons, id=id, column=v, kernel='gauss(sigma=0.5)', k=3, seed=5)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE sp USING spectral(table=moons, id=id, column=v, kernel='gauss(sigma=0.15)', k=2, n_init=4)`)
			want := answers(t, db)
			db.Close()

			db = openFile(t, drv, "file:"+path)
			if got := answers(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			if n := fitCount(t, db); n != 0 {
				t.Fatalf("fit_count after reopening = %d, want 0", n)
			}
			for _, tab := range []string{"km", "sp"} {
				var how string
				if err := db.QueryRow("SELECT value FROM ksql_model('" + tab + "') WHERE name = 'fit'").Scan(&how); err != nil || how != "restored from "+tab+"_fit" {
					t.Fatalf("%s: ksql_model fit = %q (%v)", tab, how, err)
				}
			}
			mustExec(t, db, "UPDATE km_fit SET data = substr(data, 1, length(data) - 8) || zeroblob(8) WHERE part = 'kkmeans'")
			mustExec(t, db, "DELETE FROM sp_fit WHERE part = 'spectral'")
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := answers(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after damaging the shadow tables: answers differ")
			}
			if n := fitCount(t, db); n != 2 {
				t.Fatalf("fit_count after damaging both shadow tables = %d, want 2 refits", n)
			}
		})
	}
}

// TestClusterInterrupted: a fit whose restarts take many seconds (cheap
// Gram matrix, many Lloyd passes) stops soon after its statement is
// cancelled, and the stored fit is untouched.
func TestClusterInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a big input")
	}
	for _, drv := range drivers {
		for _, using := range []string{
			"kkmeans(table=pts, id=id, column=v, kernel='gauss(sigma=0.05)', k=40, n_init=1000)",
			"spectral(table=pts, id=id, column=v, kernel='gauss(sigma=0.05)', k=40, n_init=1000)",
		} {
			module, _, _ := strings.Cut(using, "(")
			t.Run(driverLabel(drv)+"/"+module, func(t *testing.T) {
				db := openFile(t, drv, "file:"+filepath.Join(t.TempDir(), "int.db"))
				mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL, c TEXT)`)
				loadPoints(t, db, 0, 100)
				mustExec(t, db, "CREATE VIRTUAL TABLE t USING "+using)
				stored := fitParts(t, db, "t")
				loadPoints(t, db, 100, 2500)
				for _, q := range []string{`SELECT count(*) FROM t`, `INSERT INTO t(t) VALUES ('refit')`} {
					late := cancelAfter(t, db, q, 700*time.Millisecond)
					t.Logf("%s: returned %v after the cancel", q, late)
					if late > time.Second {
						t.Errorf("%s: returned %v after the cancel", q, late)
					}
				}
				if got := fitParts(t, db, "t"); !reflect.DeepEqual(got, stored) {
					t.Errorf("the stored fit changed after interrupted fits")
				}
			})
		}
	}
}

// cancelAfter runs q under a context cancelled after delay and returns how
// long after the cancel it returned; it must fail as interrupted.
func cancelAfter(t *testing.T, db *sql.DB, q string, delay time.Duration) time.Duration {
	t.Helper()
	start := time.Now() // before the deadline is set: an interrupt that returns at once is not "before the cancel"
	ctx, cancel := context.WithTimeout(context.Background(), delay)
	defer cancel()
	var err error
	if strings.HasPrefix(q, "SELECT") {
		var n int
		err = db.QueryRowContext(ctx, q).Scan(&n)
	} else {
		_, err = db.ExecContext(ctx, q)
	}
	took := time.Since(start)
	if err == nil {
		t.Fatalf("%s: finished in %v, before the cancel at %v", q, took, delay)
	}
	if !strings.Contains(err.Error(), "interrupt") && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%s: error %q does not say the statement was interrupted", q, err)
	}
	if took < delay {
		t.Fatalf("%s: failed before the cancel: %v", q, err)
	}
	return took - delay
}
