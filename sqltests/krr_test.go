package sqltests

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
)

// krrRef is internal/krr/testdata/ref.json (scikit-learn KernelRidge and a
// numpy KLMS iterate on wine; make_ref.py there says how).
type krrRef struct {
	Cases []struct {
		Kernel, Spec string
		Alpha        float64
		Train, Test  []float64
	} `json:"cases"`
	KLMS struct {
		Spec   string
		Step   float64
		Epochs int
		MSE    []float64
		Test   []float64
	} `json:"klms"`
}

// wineTable loads wine with features z-scored (population std) as make_ref.py
// does: wine(id, v, alcohol).
func wineTable(t *testing.T, drv string) (*sql.DB, [][]float64) {
	rows := testData(t, "../../internal/krr/testdata/wine.csv")
	X := make([][]float64, len(rows))
	for i, r := range rows {
		for _, s := range r[3:] {
			v, _ := strconv.ParseFloat(s, 64)
			X[i] = append(X[i], v)
		}
	}
	zscore(X)
	db := OpenDB(t, drv)
	loadLabelled(t, db, "wine", "alcohol REAL", X, column(rows, 2), false)
	return db, X
}

func relNear(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

// TestKRRAgainstScikitLearn: krr predictions for stored rows and for new
// objects through the hidden input agree with KernelRidge to 1e-8, for
// rbf and poly kernels and two alphas; klms batch equals numpy's iterate
// to 1e-9, its per-epoch MSE included.
func TestKRRAgainstScikitLearn(t *testing.T) {
	b, err := os.ReadFile("../internal/krr/testdata/ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref krrRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db, X := wineTable(t, drv)
			for i, c := range ref.Cases {
				name := fmt.Sprintf("r%d", i)
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING krr(query='SELECT id, v, alcohol FROM wine WHERE id < 150',
					kernel='%s', alpha=%v)`, name, c.Spec, c.Alpha))
				got, err := queryRows(db, "SELECT prediction FROM "+name+" ORDER BY id")
				if err != nil || len(got) != 150 {
					t.Fatalf("%s: %d rows, %v", name, len(got), err)
				}
				for r, row := range got {
					if !relNear(row[0].(float64), c.Train[r], 1e-8) {
						t.Fatalf("%s %s alpha %v row %d: %v, scikit-learn %v", name, c.Kernel, c.Alpha, r, row[0], c.Train[r])
					}
				}
				for r, want := range c.Test {
					var p float64
					if err := db.QueryRow("SELECT prediction FROM "+name+"(?)", jsonVec(X[150+r])).Scan(&p); err != nil {
						t.Fatal(err)
					}
					if !relNear(p, want, 1e-8) {
						t.Fatalf("%s new row %d: %v, scikit-learn %v", name, r, p, want)
					}
				}
			}
			k := ref.KLMS
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE l USING klms(query='SELECT id, v, alcohol FROM wine WHERE id < 150',
				kernel='%s', step=%v, epochs=%d)`, k.Spec, k.Step, k.Epochs))
			for r, want := range k.Test {
				var p float64
				if err := db.QueryRow("SELECT prediction FROM l(?)", jsonVec(X[150+r])).Scan(&p); err != nil {
					t.Fatal(err)
				}
				if !relNear(p, want, 1e-9) {
					t.Fatalf("klms new row %d: %v, numpy %v", r, p, want)
				}
			}
			for e, want := range k.MSE {
				var v float64
				if err := db.QueryRow("SELECT value FROM ksql_model('l') WHERE name = ?", fmt.Sprintf("mse[epoch %d]", e+1)).Scan(&v); err != nil {
					t.Fatal(err)
				}
				if !relNear(v, want, 1e-9) {
					t.Fatalf("klms mse epoch %d: %v, numpy %v", e+1, v, want)
				}
			}
		})
	}
}
