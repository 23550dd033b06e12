package sqltests

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/cv"
)

// svmTypesRef is testdata/ref_svm_types.json (make_svm_types.py there:
// scikit-learn 1.2.1's NuSVC, OneClassSVM, SVR and NuSVR).
type svmTypesRef struct {
	Blobs, Wave struct {
		X    [][]float64 `json:"x"`
		Y    []float64   `json:"y"`
		NewX [][]float64 `json:"new_x"`
	}
	Cases map[string]struct {
		Data        string          `json:"data"`
		Type        string          `json:"type"`
		Nu          float64         `json:"nu"`
		C           float64         `json:"C"`
		Epsilon     float64         `json:"epsilon"`
		Classes     []string        `json:"classes"`
		Support     []int           `json:"support"`
		NSupport    []int           `json:"n_support"`
		Intercept   []float64       `json:"intercept"`
		Decision    json.RawMessage `json:"decision"`
		NewDecision json.RawMessage `json:"new_decision"`
		Predict     []float64       `json:"predict"`
		NewPredict  []float64       `json:"new_predict"`
	} `json:"cases"`
}

func loadSVMTypesRef(t *testing.T) *svmTypesRef {
	t.Helper()
	b, err := os.ReadFile("testdata/ref_svm_types.json")
	if err != nil {
		t.Fatal(err)
	}
	var r svmTypesRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// flatDecision reads a one-value-per-row decision_function; nil for the
// one-vs-one rows of several classes, which the decision column leaves NULL.
func flatDecision(raw json.RawMessage) []float64 {
	var d []float64
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	return d
}

// loadSVMTypesData creates blobs(id, v, class) and wave(id, v, y) from the
// reference's data, and the reuters and promoters texts.
func loadSVMTypesData(t *testing.T, db *sql.DB, r *svmTypesRef) {
	t.Helper()
	mustExec(t, db, "CREATE TABLE blobs(id INTEGER PRIMARY KEY, v TEXT, class INTEGER)")
	mustExec(t, db, "CREATE TABLE wave(id INTEGER PRIMARY KEY, v TEXT, y REAL)")
	// Literals, not parameters: the loadable library's proxy takes none.
	var b, w []string
	for i, y := range r.Blobs.Y {
		b = append(b, fmt.Sprintf("(%d, '%s', %d)", i, jsonVec(r.Blobs.X[i]), int64(y)))
	}
	for i, y := range r.Wave.Y {
		w = append(w, fmt.Sprintf("(%d, '%s', %s)", i, jsonVec(r.Wave.X[i]), strconv.FormatFloat(y, 'g', -1, 64)))
	}
	mustExec(t, db, "INSERT INTO blobs VALUES "+strings.Join(b, ", "))
	mustExec(t, db, "INSERT INTO wave VALUES "+strings.Join(w, ", "))
	for _, s := range []struct{ table, file, label, column string }{
		{"reuters", "../../examples/reuters.csv", "label", "text"},
		{"promoters", "../../examples/promoters.csv", "class", "sequence"},
	} {
		mustExec(t, db, fmt.Sprintf("CREATE TABLE %s(id INTEGER PRIMARY KEY, label TEXT, obj TEXT)", s.table))
		var rows []string
		for _, row := range testData(t, s.file) {
			rows = append(rows, fmt.Sprintf("(%s, %s, %s)", row[0], svmTypesLit(row[1]), svmTypesLit(row[2])))
		}
		mustExec(t, db, "INSERT INTO "+s.table+" VALUES "+strings.Join(rows, ", "))
	}
}

// svmTypesTable is the CREATE of a reference case's table.
func svmTypesTable(name, data, typ string, nu, c, eps float64) string {
	return fmt.Sprintf("CREATE VIRTUAL TABLE %s USING svm(%s)", name, svmTypesArgs(data, typ, nu, c, eps))
}

// svmTypesArgs are the svm arguments of a case: its data's source and
// kernel, type= and the options given (nu, C when > 0; epsilon for eps_svr).
func svmTypesArgs(data, typ string, nu, c, eps float64) string {
	src := map[string]string{
		"blobs":     "table=blobs, id=id, column=v, label=class, kernel='gauss(sigma=1)'",
		"blobs2":    "query='SELECT id, v, class AS label FROM blobs WHERE class < 2', kernel='gauss(sigma=1)'",
		"wave":      "table=wave, id=id, column=v, label=y, kernel='gauss(sigma=1)'",
		"reuters":   "table=reuters, id=id, column=obj, label=label, kernel='normalize(ngram(n=5))'",
		"promoters": "table=promoters, id=id, column=obj, label=label, kernel='normalize(ssk(p=3, lambda=0.5))'",
	}[data]
	if typ == "one_class" {
		src = strings.Replace(src, "label=class, ", "", 1)
		src = strings.Replace(src, "label=label, ", "", 1)
	}
	args := fmt.Sprintf("%s, type=%s, tol=1e-3", src, typ)
	if nu > 0 {
		args += fmt.Sprintf(", nu=%g", nu)
	}
	if c > 0 {
		args += fmt.Sprintf(", C=%g", c)
	}
	if typ == "eps_svr" {
		args += fmt.Sprintf(", epsilon=%g", eps)
	}
	return args
}

// TestSVMTypesAgainstScikitLearn: every type=, through SQL on every
// driver, against scikit-learn 1.2 on the same kernel and tolerance
// (string kernels through kernel='precomputed' fed ksql's own Gram): the
// stored rows' and new points' decision values within 1e-6 of their
// range, predictions equal (regression: within 1e-6 of the range), as
// many support vectors per class, and the intercept ksql_model reports.
func TestSVMTypesAgainstScikitLearn(t *testing.T) {
	r := loadSVMTypesRef(t)
	names := []string{"nu_svc3", "nu_svc2", "one_class", "eps_svr", "nu_svr", "reuters_nu_svc", "reuters_one_class", "promoters_nu_svc"}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadSVMTypesData(t, db, r)
			for i, name := range names {
				c := r.Cases[name]
				table := fmt.Sprintf("s%d", i)
				mustExec(t, db, svmTypesTable(table, c.Data, c.Type, c.Nu, c.C, c.Epsilon))
				got, err := queryRows(db, "SELECT prediction, decision FROM "+table+" ORDER BY id")
				if err != nil {
					t.Fatal(err)
				}
				checkSVMTypeAnswers(t, name+" stored rows", c.Type, c.Classes, got, c.Predict, flatDecision(c.Decision))
				var newGot [][]any
				newX := r.Blobs.NewX
				if c.Data == "wave" {
					newX = r.Wave.NewX
				}
				for _, z := range newX {
					if c.NewPredict == nil {
						break
					}
					row, err := queryRows(db, fmt.Sprintf("SELECT prediction, decision FROM %s('%s')", table, jsonVec(z)))
					if err != nil || len(row) != 1 {
						t.Fatalf("%s: new point: %v (%d rows)", name, err, len(row))
					}
					newGot = append(newGot, row[0])
				}
				if c.NewPredict != nil {
					checkSVMTypeAnswers(t, name+" new points", c.Type, c.Classes, newGot, c.NewPredict, flatDecision(c.NewDecision))
				}
				var nsv int
				if err := db.QueryRow("SELECT value FROM ksql_model('" + table + "') WHERE name = 'support_vectors'").Scan(&nsv); err != nil || nsv != len(c.Support) {
					t.Fatalf("%s: %d support vectors (%v), scikit-learn %d", name, nsv, err, len(c.Support))
				}
				if c.Type != "nu_svc" || len(c.Intercept) > 1 {
					continue
				}
				var icpt float64
				if err := db.QueryRow("SELECT value FROM ksql_model('" + table + "') WHERE name LIKE 'intercept%'").Scan(&icpt); err != nil || math.Abs(icpt-c.Intercept[0]) > 1e-6 {
					t.Fatalf("%s: intercept %v (%v), scikit-learn %v", name, icpt, err, c.Intercept[0])
				}
			}
		})
	}
}

// checkSVMTypeAnswers compares (prediction, decision) rows with the
// reference: classes by name (string cases) or number, one_class's ±1,
// regression's value; decisions to 1e-6 of their range.
func checkSVMTypeAnswers(t *testing.T, what, typ string, classes []string, got [][]any, pred, dec []float64) {
	t.Helper()
	if len(got) != len(pred) {
		t.Fatalf("%s: %d rows, scikit-learn %d", what, len(got), len(pred))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range append(append([]float64(nil), dec...), pred...) {
		lo, hi = min(lo, v), max(hi, v)
	}
	if dec == nil || typ == "eps_svr" || typ == "nu_svr" {
		dec = nil
		if typ == "eps_svr" || typ == "nu_svr" {
			dec = pred // SVR's predict is its decision value
		}
	}
	for i, row := range got {
		switch p := row[0].(type) {
		case float64:
			if math.Abs(p-pred[i]) > 1e-6*(hi-lo) {
				t.Fatalf("%s: row %d: prediction %v, scikit-learn %v", what, i, p, pred[i])
			}
		case int64:
			if float64(p) != pred[i] {
				t.Fatalf("%s: row %d: prediction %v, scikit-learn %v", what, i, p, pred[i])
			}
		case string:
			if classes == nil || p != classes[int(pred[i])] {
				t.Fatalf("%s: row %d: prediction %q, scikit-learn class %v of %v", what, i, p, pred[i], classes)
			}
		default:
			t.Fatalf("%s: row %d: prediction %v (%T)", what, i, row[0], row[0])
		}
		if dec == nil {
			if row[1] != nil && typ == "nu_svc" && len(classes) > 2 {
				t.Fatalf("%s: row %d: decision %v with more than two classes, want NULL", what, i, row[1])
			}
			continue
		}
		if d, ok := row[1].(float64); !ok || math.Abs(d-dec[i]) > 1e-6*(hi-lo) {
			t.Fatalf("%s: row %d: decision %v, scikit-learn %v", what, i, row[1], dec[i])
		}
	}
}

// TestSVMTypesCrossValidation: with folds=, each stored row's cv_prediction
// of eps_svr, one_class and nu_svc is the answer of a table fitted on the
// other folds (internal/cv's folds: plain for eps_svr and one_class,
// stratified for nu_svc), and eps_svr's cv_mse is their mean squared
// error.
func TestSVMTypesCrossValidation(t *testing.T) {
	r := loadSVMTypesRef(t)
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadSVMTypesData(t, db, r)
			cases := []struct {
				typ, table, label, args string
				fold                    func() ([]int, error)
			}{
				{"eps_svr", "wave", "y", "C=10, epsilon=0.1", func() ([]int, error) { return cv.Folds(100, 3, 7) }},
				{"one_class", "blobs", "", "nu=0.2", func() ([]int, error) { return cv.Folds(120, 3, 7) }},
				{"nu_svc", "blobs", "class", "nu=0.3", func() ([]int, error) {
					y := make([]int, 120)
					for i, v := range r.Blobs.Y {
						y[i] = int(v)
					}
					return cv.Stratified(y, 3, 3, 7)
				}},
			}
			for _, c := range cases {
				label, cols := "", "id, v"
				if c.label != "" {
					label, cols = ", label="+c.label, "id, v, "+c.label+" AS label"
				}
				mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE cv_all USING svm(table=%s, id=id, column=v%s, kernel='gauss(sigma=1)', type=%s, %s, folds=3, seed=7)",
					c.table, label, c.typ, c.args))
				fold, err := c.fold()
				if err != nil {
					t.Fatal(err)
				}
				var sq float64
				for g := 0; g < 3; g++ {
					train, test := cv.Split(fold, g)
					mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE cv_part USING svm(query='SELECT %s FROM %s WHERE id IN (%s)', kernel='gauss(sigma=1)', type=%s, %s)",
						cols, c.table, joinInts(train), c.typ, c.args))
					for _, id := range test {
						var cvp, want any
						if err := db.QueryRow(fmt.Sprintf("SELECT cv_prediction FROM cv_all WHERE id = %d", id)).Scan(&cvp); err != nil {
							t.Fatal(err)
						}
						if err := db.QueryRow(fmt.Sprintf("SELECT p.prediction FROM %s AS x, cv_part(x.v) AS p WHERE x.id = %d", c.table, id)).Scan(&want); err != nil {
							t.Fatal(err)
						}
						if c.typ == "eps_svr" {
							d := cvp.(float64) - r.Wave.Y[id]
							sq += d * d
							if math.Abs(cvp.(float64)-want.(float64)) > 1e-9 {
								t.Fatalf("%s: row %d: cv_prediction %v, the fit without its fold %v", c.typ, id, cvp, want)
							}
						} else if cvp != want {
							t.Fatalf("%s: row %d: cv_prediction %v, the fit without its fold %v", c.typ, id, cvp, want)
						}
					}
					mustExec(t, db, "DROP TABLE cv_part")
				}
				if c.typ == "eps_svr" {
					var mse float64
					if err := db.QueryRow("SELECT value FROM ksql_model('cv_all') WHERE name = 'cv_mse'").Scan(&mse); err != nil || math.Abs(mse-sq/100) > 1e-9 {
						t.Fatalf("cv_mse %v (%v), want %v", mse, err, sq/100)
					}
				}
				mustExec(t, db, "DROP TABLE cv_all")
			}
		})
	}
}

// svmTypesLit is s as an SQL string literal.
func svmTypesLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// TestSVMTypesStoredFits: a fit of every type made at CREATE answers a
// reopened database with the same values, restored (no refit), and
// ksql_model reports the same figures.
func TestSVMTypesStoredFits(t *testing.T) {
	r := loadSVMTypesRef(t)
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "types.db")
			db := openFile(t, drv, "file:"+path)
			loadSVMTypesData(t, db, r)
			types := []struct{ table, data, typ string }{
				{"t_nu_svc", "blobs", "nu_svc"}, {"t_one", "blobs", "one_class"}, {"t_eps", "wave", "eps_svr"}, {"t_nusvr", "wave", "nu_svr"},
			}
			read := func(db *sql.DB) [][]any {
				var out [][]any
				for _, ty := range types {
					for _, q := range []string{
						"SELECT * FROM " + ty.table + " ORDER BY id",
						"SELECT prediction, decision FROM " + ty.table + "('[0.5, 0.5]')",
						"SELECT name, value FROM ksql_model('" + ty.table + "') WHERE name NOT IN ('fit', 'fit_seconds', 'fitted_at', 'stored_fit')",
					} {
						rows, err := queryRows(db, q)
						if err != nil {
							t.Fatalf("%s: %v", q, err)
						}
						out = append(out, rows...)
					}
				}
				return out
			}
			for _, ty := range types {
				nu, c := 0.3, 0.0
				if ty.typ == "eps_svr" {
					nu = 0
				}
				if strings.HasSuffix(ty.typ, "svr") {
					c = 3
				}
				mustExec(t, db, "CREATE VIRTUAL TABLE "+ty.table+" USING svm("+svmTypesArgs(ty.data, ty.typ, nu, c, 0.2)+", folds=3)")
			}
			want := read(db)
			db.Close()
			db = openFile(t, drv, "file:"+path)
			if got := read(db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			for _, ty := range types {
				var how string
				if err := db.QueryRow("SELECT value FROM ksql_model('" + ty.table + "') WHERE name = 'fit'").Scan(&how); err != nil || how != "restored from "+ty.table+"_fit" {
					t.Fatalf("%s: fit = %q (%v), want restored", ty.table, how, err)
				}
			}
		})
	}
}
