package sqltests

import (
	"database/sql"
	"fmt"
	"github.com/ksql/ksql/internal/cputime"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ksql/ksql/internal/cv"
)

// searchCase is one model_search call: the module, its base arguments
// and grid, and the arguments each grid point must get, in grid order.
type searchCase struct {
	module, args, grid string
	points             []string
	cvKey              string // what ksql_model reports: cv_accuracy or cv_mse
	folds              int
	seed               uint64
}

var searchCases = []searchCase{
	{module: "svm", args: "table=iris, id=id, column=v, label=species, folds=5, seed=3",
		grid: `{"kernel": ["gauss(sigma=0.3)", "gauss(sigma=2)"], "C": [0.1, 1, 10]}`,
		points: []string{
			"kernel='gauss(sigma=0.3)', C=0.1", "kernel='gauss(sigma=0.3)', C=1", "kernel='gauss(sigma=0.3)', C=10",
			"kernel='gauss(sigma=2)', C=0.1", "kernel='gauss(sigma=2)', C=1", "kernel='gauss(sigma=2)', C=10"},
		cvKey: "cv_accuracy", folds: 5, seed: 3},
	{module: "svm", args: "table=iris, id=id, column=v, label=species, kernel='linear', seed=1",
		grid:   `{"folds": [3], "class_weight": ["balanced"], "C": [0.01, 1e0]}`,
		points: []string{"folds=3, class_weight='balanced', C=0.01", "folds=3, class_weight='balanced', C=1e0"},
		cvKey:  "cv_accuracy", folds: 3, seed: 1},
	{module: "svm", args: "table=iris, id=id, column=v, label=species, type=nu_svc, folds=3",
		grid:   `{"nu": [0.1, 0.3], "kernel": ["gauss(sigma=1)"]}`,
		points: []string{"nu=0.1, kernel='gauss(sigma=1)'", "nu=0.3, kernel='gauss(sigma=1)'"},
		cvKey:  "cv_accuracy", folds: 3},
	{module: "svm", args: "table=iris, id=id, column=x, label=petal_width, type=eps_svr, kernel='gauss(sigma=1)', folds=4, seed=5",
		grid:   `{"C": [1, 10], "epsilon": [0.05, 0.2]}`,
		points: []string{"C=1, epsilon=0.05", "C=1, epsilon=0.2", "C=10, epsilon=0.05", "C=10, epsilon=0.2"},
		cvKey:  "cv_mse", folds: 4, seed: 5},
	{module: "svm", args: "table=iris, id=id, column=v, type=one_class, folds=5, seed=1",
		grid:   `{"kernel": ["gauss(sigma=0.5)", "gauss(sigma=2)"], "nu": [0.05, 0.5]}`,
		points: []string{"kernel='gauss(sigma=0.5)', nu=0.05", "kernel='gauss(sigma=0.5)', nu=0.5", "kernel='gauss(sigma=2)', nu=0.05", "kernel='gauss(sigma=2)', nu=0.5"},
		cvKey:  "cv_outlier_fraction", folds: 5, seed: 1},
	{module: "krr", args: "table=iris, id=id, column=x, label=petal_width, kernel='gauss(sigma=1)', folds=4, seed=2",
		grid:   `{"alpha": [0.01, 0.1, 1]}`,
		points: []string{"alpha=0.01", "alpha=0.1", "alpha=1"}, cvKey: "cv_mse", folds: 4, seed: 2},
	{module: "klms", args: "table=iris, id=id, column=x, label=petal_width, folds=3, epochs=5",
		grid:   `{"kernel": ["gauss(sigma=1)", "gauss(sigma=2)"], "step": [0.001, 0.005]}`,
		points: []string{"kernel='gauss(sigma=1)', step=0.001", "kernel='gauss(sigma=1)', step=0.005", "kernel='gauss(sigma=2)', step=0.001", "kernel='gauss(sigma=2)', step=0.005"},
		cvKey:  "cv_mse", folds: 3},
	{module: "gp", args: "table=iris, id=id, column=x, label=petal_width, kernel='gauss(sigma=1)', folds=5",
		grid:   `{"noise": [0.01, 0.1], "normalize_y": [true, false]}`,
		points: []string{"noise=0.01, normalize_y=true", "noise=0.01, normalize_y=false", "noise=0.1, normalize_y=true", "noise=0.1, normalize_y=false"},
		cvKey:  "cv_mse", folds: 5},
	{module: "kfda", args: "table=iris, id=id, column=v, label=species, components=2, folds=5, seed=4",
		grid:   `{"kernel": ["gauss(sigma=0.5)", "gauss(sigma=2)"], "reg": [1e-3, 1]}`,
		points: []string{"kernel='gauss(sigma=0.5)', reg=1e-3", "kernel='gauss(sigma=0.5)', reg=1", "kernel='gauss(sigma=2)', reg=1e-3", "kernel='gauss(sigma=2)', reg=1"},
		cvKey:  "cv_accuracy", folds: 5, seed: 4},
}

// loadIris makes iris(id, v, x, petal_width, species): v the four
// measurements, x the first three (to predict petal_width from).
func loadIris(t testing.TB, db *sql.DB) {
	rows := testData(t, "iris.csv")
	var b strings.Builder
	b.WriteString("CREATE TABLE iris(id INTEGER PRIMARY KEY, v TEXT, x TEXT, petal_width REAL, species TEXT); INSERT INTO iris VALUES ")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%s, '[%s,%s,%s,%s]', '[%s,%s,%s]', %s, '%s')", r[0], r[1], r[2], r[3], r[4], r[1], r[2], r[3], r[4], r[5])
	}
	mustExec(t, db, b.String())
}

// TestModelSearchMatchesCreate: every row of model_search is the grid
// point's arguments in grid order (last key fastest, strings quoted,
// numbers as written); its cv_score is bit for bit what ksql_model
// reports for a table CREATEd with those arguments (cv_accuracy, −cv_mse,
// or 1 − cv_outlier_fraction for one_class); its cv_std is the population standard deviation over the
// folds of the scores computed here from that table's label and
// cv_prediction columns, with the folds drawn by internal/cv as the
// modules document (stratified by class for classifiers); ranks are 1 +
// the number of better scores. On every driver.
func TestModelSearchMatchesCreate(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadIris(t, db)
			for ci, c := range searchCases {
				q := fmt.Sprintf("SELECT arguments, cv_score, cv_std, fit_seconds, rank, error FROM model_search('%s', '%s', '%s')",
					c.module, strings.ReplaceAll(c.args, "'", "''"), c.grid)
				rows, err := queryRows(db, q)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				if len(rows) != len(c.points) {
					t.Fatalf("%s: %d rows, want %d", q, len(rows), len(c.points))
				}
				var scores []float64
				for _, r := range rows {
					scores = append(scores, r[1].(float64))
				}
				for i, r := range rows {
					want := c.args + ", " + c.points[i]
					if r[0] != want || r[5] != nil {
						t.Fatalf("case %d row %d: arguments %q (error %v), want %q", ci, i, r[0], r[5], want)
					}
					name := fmt.Sprintf("m%d_%d", ci, i)
					mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE %s USING %s(%s)", name, c.module, want))
					var reported float64
					if err := db.QueryRow(fmt.Sprintf("SELECT value FROM ksql_model('%s') WHERE name = '%s'", name, c.cvKey)).Scan(&reported); err != nil {
						t.Fatal(err)
					}
					switch c.cvKey {
					case "cv_mse":
						reported = -reported
					case "cv_outlier_fraction":
						reported = 1 - reported
					}
					if score := r[1].(float64); score != reported {
						t.Errorf("%s(%s): cv_score %v, ksql_model of the created table %v", c.module, want, score, reported)
					}
					if std := foldStd(t, db, name, c); math.Abs(r[2].(float64)-std) > 1e-12 {
						t.Errorf("%s(%s): cv_std %v, from the created table's folds %v", c.module, want, r[2], std)
					}
					better := int64(1)
					for _, s := range scores {
						if s > r[1].(float64) {
							better++
						}
					}
					if r[4] != better {
						t.Errorf("%s(%s): rank %v, want %d", c.module, want, r[4], better)
					}
					if s, ok := r[3].(float64); !ok || s < 0 {
						t.Errorf("fit_seconds %v", r[3])
					}
				}
			}
		})
	}
}

// foldStd scores table name's cv_prediction fold by fold and returns the
// population standard deviation of those scores.
func foldStd(t *testing.T, db *sql.DB, name string, c searchCase) float64 {
	label := "label"
	if c.cvKey == "cv_outlier_fraction" {
		label = "1" // one_class: a row scores when its held-out answer is 1, an inlier
	}
	rows, err := queryRows(db, "SELECT "+label+", cv_prediction FROM "+name+" ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var fold []int
	if c.cvKey == "cv_accuracy" {
		var classes []string
		for _, r := range rows {
			classes = append(classes, r[0].(string))
		}
		slices.Sort(classes)
		classes = slices.Compact(classes)
		y := make([]int, len(rows))
		for i, r := range rows {
			y[i] = slices.Index(classes, r[0].(string))
		}
		fold, err = cv.Stratified(y, len(classes), c.folds, c.seed)
	} else {
		fold, err = cv.Folds(len(rows), c.folds, c.seed)
	}
	if err != nil {
		t.Fatal(err)
	}
	sum, count := make([]float64, c.folds), make([]float64, c.folds)
	for i, r := range rows {
		count[fold[i]]++
		if c.cvKey != "cv_mse" {
			if r[0] == r[1] {
				sum[fold[i]]++
			}
		} else {
			d := r[0].(float64) - r[1].(float64)
			sum[fold[i]] -= d * d
		}
	}
	var mean, sq float64
	for g := range sum {
		sum[g] /= count[g]
		mean += sum[g] / float64(c.folds)
	}
	for _, s := range sum {
		sq += (s - mean) * (s - mean)
	}
	return math.Sqrt(sq / float64(c.folds))
}

// TestModelSearchCreate: create=NAME makes the first best point's table,
// which reports that point's arguments and score; a taken name is an
// error naming create=, and nothing else is made.
func TestModelSearchCreate(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadIris(t, db)
			q := `SELECT arguments, cv_score FROM model_search('svm', 'table=iris, id=id, column=v, label=species, folds=4, create=best', ` +
				`'{"kernel": ["gauss(sigma=0.1)", "gauss(sigma=1)"], "C": [0.01, 1]}') WHERE rank = 1 LIMIT 1`
			var args string
			var score float64
			if err := db.QueryRow(q).Scan(&args, &score); err != nil {
				t.Fatal(err)
			}
			var stored string
			var acc float64
			if err := db.QueryRow(`SELECT (SELECT value FROM ksql_model('best') WHERE name = 'arguments'), `+
				`(SELECT value FROM ksql_model('best') WHERE name = 'cv_accuracy')`).Scan(&stored, &acc); err != nil {
				t.Fatal(err)
			}
			if stored != args || acc != score {
				t.Fatalf("best: arguments %q cv %v; the search's best %q %v", stored, acc, args, score)
			}
			if _, err := db.Exec(strings.Replace(q, "WHERE rank = 1 LIMIT 1", "", 1)); err == nil || !strings.Contains(err.Error(), "model_search: create=best") {
				t.Fatalf("a second create=best: %v", err)
			}
		})
	}
}

// TestModelSearchInterrupted cancels a search of many grid points at a
// random moment: it fails as interrupted soon after (the figure is
// logged; the bound asserted is loose, for a loaded machine).
func TestModelSearchInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("a long search")
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL, c TEXT)`)
			loadPoints(t, db, 0, 1500)
			var cs []string
			for i := 0; i < 200; i++ {
				cs = append(cs, fmt.Sprint(0.5+float64(i)))
			}
			q := `SELECT count(*) FROM model_search('svm', 'table=pts, id=id, column=v, label=c, folds=10', '{"kernel": ["gauss(sigma=0.05)"], "C": [` +
				strings.Join(cs, ", ") + `]}')`
			r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
			for range 3 {
				d := time.Duration(150+r.IntN(500)) * time.Millisecond // inside the search even on a quiet machine
				late := cancelled(t, db, q, d)
				t.Logf("cancelled at %v, returned %v later", d, late)
				if late > 3*time.Second {
					t.Errorf("returned %v after the cancel", late)
				}
			}
		})
	}
}

// BenchmarkModelSearchDigits: all 1,797 digits, svm with gauss(sigma) for
// rbf gamma 0.0005, 0.001 and 0.002 × C 0.1, 1 and 10, 5 folds: 9 points,
// 54 fits (5 folds and all rows each), 3 Gram matrices.
// testdata/sklearn_search_bench.py times GridSearchCV(SVC(), n_jobs=-1)
// on the same grid.
func BenchmarkModelSearchDigits(b *testing.B) {
	X, y := digitsLabelled(b)
	var sigmas []string
	for _, g := range []float64{0.0005, 0.001, 0.002} {
		sigmas = append(sigmas, fmt.Sprintf(`"gauss(sigma=%v)"`, 1/math.Sqrt(2*g)))
	}
	q := `SELECT count(*) FROM model_search('svm', 'table=digits, id=id, column=v, label=y, folds=5', '{"kernel": [` +
		strings.Join(sigmas, ", ") + `], "C": [0.1, 1, 10]}') WHERE error IS NULL`
	for _, drv := range drivers {
		b.Run(driverLabel(drv), func(b *testing.B) {
			db := OpenDB(b, drv)
			loadLabelled(b, db, "digits", "y", X, y, false)
			b.ReportAllocs()
			cpu0 := cputime.Process().Seconds()
			for b.Loop() {
				var n int
				if err := db.QueryRow(q).Scan(&n); err != nil || n != 9 {
					b.Fatalf("%d rows fitted, %v", n, err)
				}
			}
			// CPU time as well as wall time: on a shared machine the
			// wall time mostly measures the other processes.
			b.ReportMetric((cputime.Process().Seconds()-cpu0)/float64(b.N), "cpu-s/op")
		})
	}
}
