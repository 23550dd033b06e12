package sqltests

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// svmNystromRef is testdata/ref_svm_nystrom.json (make_svm_nystrom.py
// there: scikit-learn 1.2.1's LinearSVC(loss='hinge', dual=True) on the
// Nyström features of ksql's landmarks, built in numpy).
type svmNystromRef struct {
	Cases map[string]struct {
		Subset       []int     `json:"subset"`
		Landmarks    int       `json:"landmarks"`
		Seed         int       `json:"seed"`
		C            float64   `json:"C"`
		Sigma        float64   `json:"sigma"`
		LandmarkRows []int     `json:"landmark_rows"`
		Rank         int       `json:"rank"`
		Primal       []float64 `json:"primal"`
		Predict      []int64   `json:"predict"`
		Decision     []float64 `json:"decision"`
	} `json:"cases"`
}

// loadDigitsTable creates digits(id, label, p0..p63) from testdata/digits.csv
// (ids 0..1796 in the file's order) and d38, its threes and eights.
func loadDigitsTable(t testing.TB, db *sql.DB) {
	t.Helper()
	rows := testData(t, "digits.csv")
	cols := make([]string, 64)
	for j := range cols {
		cols[j] = fmt.Sprintf("p%d REAL", j)
	}
	mustExec(t, db, "CREATE TABLE digits(id INTEGER PRIMARY KEY, label INTEGER, "+strings.Join(cols, ", ")+")")
	for lo := 0; lo < len(rows); lo += 200 {
		var vals []string
		for _, r := range rows[lo:min(lo+200, len(rows))] {
			vals = append(vals, "("+strings.Join(r, ", ")+")") // literals: the loadable library's proxy takes no parameters
		}
		mustExec(t, db, "INSERT INTO digits VALUES "+strings.Join(vals, ", "))
	}
	mustExec(t, db, "CREATE TABLE d38 AS SELECT * FROM digits WHERE label IN (3, 8) ORDER BY id")
}

func loadSVMNystromRef(t *testing.T) *svmNystromRef {
	t.Helper()
	b, err := os.ReadFile("testdata/ref_svm_nystrom.json")
	if err != nil {
		t.Fatal(err)
	}
	var r svmNystromRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// modelFigures reads ksql_model(table) as name → value.
func modelFigures(t *testing.T, db *sql.DB, table string) map[string]any {
	t.Helper()
	rows, err := queryRows(db, "SELECT name, value FROM ksql_model('"+table+"')")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, r := range rows {
		out[fmt.Sprint(r[0])] = r[1]
	}
	return out
}

// TestSVMNystromAgainstScikitLearn: method=nystrom on the digits (two
// classes and ten) has, per one-vs-rest problem, the primal objective of
// scikit-learn's LinearSVC on the same features and tolerance within 1e-4
// relative (LinearSVC exposes no dual variables, so the primal is what
// both report; at the optimum it equals the dual), the same number of
// features (the landmarks' rank, so the same landmarks), and predictions
// that agree on at least 99.5% of the rows.
func TestSVMNystromAgainstScikitLearn(t *testing.T) {
	r := loadSVMNystromRef(t)
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadDigitsTable(t, db)
			for name, c := range r.Cases {
				src := "digits"
				if c.Subset != nil {
					src = "d38"
				}
				mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE n_%s USING svm(table=%s, id=id, columns=p0..p63, label=label, "+
					"kernel='gauss(sigma=%g)', method=nystrom, landmarks=%d, seed=%d, C=%g)", name, src, c.Sigma, c.Landmarks, c.Seed, c.C))
				fig := modelFigures(t, db, "n_"+name)
				worst := 0.0
				if fig["features"] != int64(c.Rank) || fig["landmarks"] != int64(c.Landmarks) {
					t.Fatalf("%s: features %v landmarks %v, want %d and %d", name, fig["features"], fig["landmarks"], c.Rank, c.Landmarks)
				}
				for p, want := range c.Primal {
					key := "primal_objective"
					if len(c.Primal) > 1 {
						key += fmt.Sprintf("[%d vs rest]", p)
					}
					got, ok := fig[key].(float64)
					if !ok || math.Abs(got-want) > 1e-4*want {
						t.Errorf("%s: %s = %v, scikit-learn %.10g", name, key, fig[key], want)
					}
					worst = math.Max(worst, math.Abs(got-want)/want)
				}
				got, err := queryRows(db, "SELECT prediction FROM n_"+name+" ORDER BY id")
				if err != nil || len(got) != len(c.Predict) {
					t.Fatalf("%s: %d rows (%v), want %d", name, len(got), err, len(c.Predict))
				}
				agree := 0
				for i, row := range got {
					if row[0] == c.Predict[i] {
						agree++
					}
				}
				if float64(agree) < 0.995*float64(len(got)) {
					t.Errorf("%s: predictions agree on %d of %d rows", name, agree, len(got))
				}
				t.Logf("%s: predictions agree on %d of %d rows; primal objectives within %.2g relative", name, agree, len(got), worst)
			}
		})
	}
}

// TestSVMNystromFoldsAndStored: folds= keeps the fit on all rows the same
// (the folds share its landmarks and features) and fills cv_prediction
// with an accuracy near the training one; the fit is stored, so a reopened
// database answers stored rows, a new object and ksql_model identically
// without refitting.
func TestSVMNystromFoldsAndStored(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nys.db")
			db := openFile(t, drv, "file:"+path)
			loadDigitsTable(t, db)
			args := "table=digits, id=id, columns=p0..p63, label=label, kernel='gauss(sigma=20)', method=nystrom, landmarks=120, seed=4"
			mustExec(t, db, "CREATE VIRTUAL TABLE plain USING svm("+args+")")
			mustExec(t, db, "CREATE VIRTUAL TABLE folded USING svm("+args+", folds=4)")
			a, b := modelFigures(t, db, "plain"), modelFigures(t, db, "folded")
			for _, k := range []string{"primal_objective[3 vs rest]", "intercept[9 vs rest]", "training_accuracy", "features"} {
				if a[k] == nil || a[k] != b[k] {
					t.Fatalf("%s: %v without folds, %v with", k, a[k], b[k])
				}
			}
			cvAcc, ok := b["cv_accuracy"].(float64)
			if !ok || cvAcc < 0.9 || cvAcc > a["training_accuracy"].(float64) {
				t.Fatalf("cv_accuracy %v (training %v)", b["cv_accuracy"], a["training_accuracy"])
			}
			read := func(db *sql.DB) [][]any {
				var out [][]any
				for _, q := range []string{
					"SELECT * FROM folded ORDER BY id",
					"SELECT prediction FROM folded((SELECT json_array(" + digitColumns() + ") FROM digits WHERE id = 5))",
					"SELECT name, value FROM ksql_model('folded') WHERE name NOT IN ('fit', 'fit_seconds', 'fitted_at', 'stored_fit')",
				} {
					rows, err := queryRows(db, q)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					out = append(out, rows...)
				}
				return out
			}
			want := read(db)
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := read(db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ")
			}
			var how string
			if err := db.QueryRow("SELECT value FROM ksql_model('folded') WHERE name = 'fit'").Scan(&how); err != nil || how != "restored from folded_fit" {
				t.Fatalf("fit = %q (%v), want restored", how, err)
			}
		})
	}
}

func digitColumns() string {
	cols := make([]string, 64)
	for j := range cols {
		cols[j] = fmt.Sprintf("p%d", j)
	}
	return strings.Join(cols, ", ")
}
