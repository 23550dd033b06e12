package sqltests

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/gob"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/fda"
)

// kfdaCVLabels are the classes of loadKFDAPoints, in SQLite's order.
var kfdaCVLabels = []string{"p", "q", "r"}

// loadKFDAPoints makes pts(id, v, c): 60 points in the plane, 20 per
// class around three centres close enough that the classes overlap (so
// that some answers are wrong), from a fixed linear congruential stream.
func loadKFDAPoints(t testing.TB, db *sql.DB) []int {
	state := uint64(2024)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11)/float64(1<<53) - 0.5
	}
	centres := [][2]float64{{0, 0}, {1.2, 0.3}, {0.4, 1.1}}
	y := make([]int, 60)
	mustExec(t, db, "CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, c TEXT)")
	for i := range y {
		y[i] = i % 3
		c := centres[y[i]]
		mustExec(t, db, fmt.Sprintf("INSERT INTO pts VALUES (%d, '[%.6f, %.6f]', '%s')", i+1, c[0]+2*next(), c[1]+2*next(), kfdaCVLabels[y[i]]))
	}
	return y
}

const kfdaCVArgs = "kernel='gauss(sigma=0.7)', components=2, reg=0.01"

// TestKFDACrossValidation: each stored row's cv_prediction is the
// prediction of a table fitted on the rows outside its fold (query=
// leaving the fold's ids out; internal/cv's stratified folds), and
// cv_accuracy is the share of them equal to the label. On every driver.
func TestKFDACrossValidation(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			y := loadKFDAPoints(t, db)
			mustExec(t, db, "CREATE VIRTUAL TABLE cv_all USING kfda(table=pts, id=id, column=v, label=c, "+kfdaCVArgs+", folds=4, seed=11)")
			fold, err := cv.Stratified(y, 3, 4, 11)
			if err != nil {
				t.Fatal(err)
			}
			right := 0
			for g := 0; g < 4; g++ {
				train, test := cv.Split(fold, g)
				ids := make([]int, len(train))
				for i, r := range train {
					ids[i] = r + 1
				}
				mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE cv_part USING kfda(query='SELECT id, v, c FROM pts WHERE id IN (%s)', %s)",
					joinInts(ids), kfdaCVArgs))
				for _, r := range test {
					var cvp, want any
					if err := db.QueryRow(fmt.Sprintf("SELECT cv_prediction FROM cv_all WHERE id = %d", r+1)).Scan(&cvp); err != nil {
						t.Fatal(err)
					}
					if err := db.QueryRow(fmt.Sprintf("SELECT p.prediction FROM pts AS x, cv_part(x.v) AS p WHERE x.id = %d", r+1)).Scan(&want); err != nil {
						t.Fatal(err)
					}
					if cvp != want {
						t.Fatalf("row %d (fold %d): cv_prediction %v, the fit without its fold %v", r+1, g, cvp, want)
					}
					if cvp == kfdaCVLabels[y[r]] {
						right++
					}
				}
				mustExec(t, db, "DROP TABLE cv_part")
			}
			var acc float64
			if err := db.QueryRow("SELECT value FROM ksql_model('cv_all') WHERE name = 'cv_accuracy'").Scan(&acc); err != nil {
				t.Fatal(err)
			}
			if want := float64(right) / 60; acc != want {
				t.Fatalf("cv_accuracy %v, want %d/60", acc, right)
			}
			t.Logf("cv_accuracy %d/60", right)
			if right == 60 || right <= 20 {
				t.Fatalf("%d of 60 right: the data should make some held-out answers wrong, and fewer than chance would", right)
			}
		})
	}
}

// TestKFDANearestMean: the prediction of every stored row and of new
// points is the class whose mean of the stored rows' (f1, f2) is
// nearest, computed here; training_accuracy is the share right; and a
// fit with folds= stored in a file answers the same after reopening,
// restored, not refitted. On every driver.
func TestKFDANearestMean(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kfda.db")
			db := openFile(t, drv, "file:"+path)
			y := loadKFDAPoints(t, db)
			mustExec(t, db, "CREATE VIRTUAL TABLE m USING kfda(table=pts, id=id, column=v, label=c, "+kfdaCVArgs+", folds=3, seed=2)")
			rows, err := queryRows(db, "SELECT f1, f2, prediction FROM m ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			var means [3][2]float64
			for i, r := range rows {
				means[y[i]][0] += r[0].(float64) / 20
				means[y[i]][1] += r[1].(float64) / 20
			}
			nearest := func(p [2]float64) string {
				best, bestD := 0, math.Inf(1)
				for c, mu := range means {
					if d := (p[0]-mu[0])*(p[0]-mu[0]) + (p[1]-mu[1])*(p[1]-mu[1]); d < bestD {
						best, bestD = c, d
					}
				}
				return kfdaCVLabels[best]
			}
			right := 0
			for i, r := range rows {
				if want := nearest([2]float64{r[0].(float64), r[1].(float64)}); r[2] != want {
					t.Fatalf("row %d: prediction %v, nearest mean %s", i+1, r[2], want)
				}
				if r[2] == kfdaCVLabels[y[i]] {
					right++
				}
			}
			var acc float64
			if err := db.QueryRow("SELECT value FROM ksql_model('m') WHERE name = 'training_accuracy'").Scan(&acc); err != nil || acc != float64(right)/60 {
				t.Fatalf("training_accuracy %v (%v), want %d/60", acc, err, right)
			}
			for _, v := range []string{"[0, 0]", "[1.5, 0]", "[0.3, 1.6]", "[0.6, 0.5]", "[-3, 4]"} {
				var f1, f2 float64
				var pred string
				if err := db.QueryRow("SELECT f1, f2, prediction FROM m('"+v+"')").Scan(&f1, &f2, &pred); err != nil {
					t.Fatal(err)
				}
				if want := nearest([2]float64{f1, f2}); pred != want {
					t.Fatalf("new point %s: prediction %v, nearest mean %s", v, pred, want)
				}
			}
			read := func(db *sql.DB) [][]any {
				var out [][]any
				for _, q := range []string{"SELECT * FROM m ORDER BY id", "SELECT prediction FROM m('[0.6, 0.5]')",
					"SELECT name, value FROM ksql_model('m') WHERE name LIKE '%accuracy' OR name LIKE 'eigenvalue%'"} {
					r, err := queryRows(db, q)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					out = append(out, r...)
				}
				return out
			}
			want := read(db)
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := read(db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			var how string
			if err := db.QueryRow("SELECT value FROM ksql_model('m') WHERE name = 'fit'").Scan(&how); err != nil || how != "restored from m_fit" {
				t.Fatalf("fit = %q (%v), want restored", how, err)
			}
		})
	}
}

// TestKFDAOldStoredFit: a fit stored before the class means were part of
// the model (its kfda part rewritten here as that older gob, the shadow
// table's checksum recomputed as ext/vtab does) still loads, restored,
// and answers exactly as the fit that stored the means. On every driver.
func TestKFDAOldStoredFit(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			db := openFile(t, drv, "file:"+path)
			loadKFDAPoints(t, db)
			mustExec(t, db, "CREATE VIRTUAL TABLE m USING kfda(table=pts, id=id, column=v, label=c, "+kfdaCVArgs+")")
			read := func(db *sql.DB) [][]any {
				var out [][]any
				for _, q := range []string{"SELECT * FROM m ORDER BY id", "SELECT prediction FROM m('[0.6, 0.5]')",
					"SELECT name, value FROM ksql_model('m') WHERE name = 'training_accuracy'"} {
					r, err := queryRows(db, q)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					out = append(out, r...)
				}
				return out
			}
			want := read(db)
			var stored []byte
			if err := db.QueryRow("SELECT data FROM m_fit WHERE part = 'kfda'").Scan(&stored); err != nil {
				t.Fatal(err)
			}
			var m fda.Model
			if err := gob.NewDecoder(bytes.NewReader(stored)).Decode(&m); err != nil || m.Means == nil {
				t.Fatalf("stored model: %v, means %v", err, m.Means)
			}
			type Model struct { // fda.Model before Means
				N, Components            int
				Alpha, Eigenvalues, Proj []float64
			}
			var old bytes.Buffer
			if err := gob.NewEncoder(&old).Encode(Model{m.N, m.Components, m.Alpha, m.Eigenvalues, m.Proj}); err != nil {
				t.Fatal(err)
			}
			mustExec(t, db, fmt.Sprintf("UPDATE m_fit SET data = x'%x' WHERE part = 'kfda'", old.Bytes()))
			mustExec(t, db, fmt.Sprintf("UPDATE m_fit SET data = x'%x' WHERE part = 'checksum'", shadowChecksum(t, db, "m_fit")))
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := read(db); !reflect.DeepEqual(got, want) {
				t.Fatalf("from the older fit: answers differ\n got %v\nwant %v", got, want)
			}
			var how string
			if err := db.QueryRow("SELECT value FROM ksql_model('m') WHERE name = 'fit'").Scan(&how); err != nil || how != "restored from m_fit" {
				t.Fatalf("fit = %q (%v), want restored from the older fit", how, err)
			}
		})
	}
}

// shadowChecksum is ext/vtab's checksum of a shadow table: SHA-256 over
// the parts but checksum, in name order, each as name NUL length NUL data.
func shadowChecksum(t *testing.T, db *sql.DB, table string) []byte {
	rows, err := queryRows(db, "SELECT part, data FROM "+table+" WHERE part <> 'checksum'")
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(string) < rows[j][0].(string) })
	h := sha256.New()
	for _, r := range rows {
		data := r[1].([]byte)
		fmt.Fprintf(h, "%s\x00%d\x00", r[0], len(data))
		h.Write(data)
	}
	return h.Sum(nil)
}
