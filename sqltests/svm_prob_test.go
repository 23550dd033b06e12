package sqltests

import (
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"
)

// svmProbAnswers reads the probability tables of TestSVMProbabilityStored:
// every stored row, a new object each, and the sigmoids ksql_model reports.
func svmProbAnswers(t *testing.T, db *sql.DB) [][]any {
	t.Helper()
	var out [][]any
	for _, q := range []string{
		"SELECT id, prediction, decision, probability, probabilities FROM p2",
		"SELECT prediction, probability, probabilities FROM p2('[1.5, 0.5]')",
		"SELECT id, prediction, probability, probabilities FROM p3",
		"SELECT prediction, probabilities FROM p3('[2, 2]')",
		"SELECT name, value FROM ksql_model('p3') WHERE name LIKE 'prob%'",
	} {
		rows, err := queryRows(db, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, rows...)
	}
	return out
}

// TestSVMProbabilityStored: probability=true fits store their sigmoids, so
// a reopened database answers with the same bits and no refit (new
// objects too); every driver, the loadable library included, gives the
// same bits for the same seed.
func TestSVMProbabilityStored(t *testing.T) {
	var first [][]any
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "prob.db")
			db := openFile(t, drv, "file:"+path)
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, class INTEGER);
				WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 44)
				INSERT INTO pts SELECT n, json_array((n * 37 % 101) / 40.0 + n % 3, (n * 53 % 97) / 40.0), n % 3 FROM i`)
			mustExec(t, db, `CREATE VIRTUAL TABLE p2 USING svm(query='SELECT id, v, class FROM pts WHERE class < 2',
				kernel='gauss(sigma=1)', probability=true, seed=11)`)
			mustExec(t, db, `CREATE VIRTUAL TABLE p3 USING svm(table=pts, id=id, column=v, label=class,
				kernel='gauss(sigma=1)', type=nu_svc, nu=0.3, probability=true, seed=5, folds=3)`)
			want := svmProbAnswers(t, db)
			if len(want) != 30+1+45+1+6 {
				t.Fatalf("%d answer rows, want 83", len(want))
			}
			db.Close()

			db = openFile(t, drv, "file:"+path)
			if got := svmProbAnswers(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopening: answers differ\n got %v\nwant %v", got, want)
			}
			if got := fitCount(t, db); got != 0 {
				t.Fatalf("fit_count after reopen = %d, want 0 (answered from the stored fits)", got)
			}
			mustExec(t, db, "INSERT INTO p3(p3) VALUES ('refit')")
			if got := svmProbAnswers(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("after 'refit': answers differ (the same seed must give the same sigmoids)")
			}
			if first == nil {
				first = want
			} else if !reflect.DeepEqual(want, first) {
				t.Fatalf("%s answers differently from the first driver\n got %v\nwant %v", drv, want, first)
			}
		})
	}
}
