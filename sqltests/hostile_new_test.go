package sqltests

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNewFitsCancelled: the newest fits (svm's types, probability and
// nystrom, kfda's folds) stop soon after their statement is cancelled, on
// every driver, and create nothing.
func TestNewFitsCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("long fits")
	}
	cases := []string{
		"svm(table=pts, id=id, column=v, label=c, kernel='gauss(sigma=0.05)', C=100, probability=true)",
		"svm(table=pts, id=id, column=v, label=c, kernel='gauss(sigma=0.05)', type=nu_svc, nu=0.2, folds=10)",
		"svm(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=0.05)', type=eps_svr, C=100, epsilon=0.001, folds=10)",
		"svm(table=pts, id=id, column=v, label=c, kernel='gauss(sigma=0.05)', method=nystrom, landmarks=2500, folds=10)",
		"kfda(table=pts, id=id, column=v, label=c, kernel='gauss(sigma=0.05)', components=2, folds=10)",
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, "CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL, c TEXT)")
			loadPoints(t, db, 0, 2500)
			for _, using := range cases {
				q := "CREATE VIRTUAL TABLE m USING " + using
				late := cancelled(t, db, q, 300*time.Millisecond)
				t.Logf("%s: returned %v after the cancel", using, late)
				if late > 2*time.Second {
					t.Errorf("%s: returned %v after the cancel", using, late)
				}
				var n int
				if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name IN ('m', 'm_fit')").Scan(&n); err != nil || n != 0 {
					t.Errorf("%s: after the cancel %d tables (%v)", using, n, err)
				}
			}
		})
	}
}

// gpWireMirror has the field names of the gp part's gob (ext/vtab's
// gpWire), so that a test can forge one.
type gpWireMirror struct {
	Alpha, Pred, Std, CV []float64
	YMean, YScale, LML   float64
	FactorParts          int
}

// TestForgedGPWithoutCV: a gp fit of a table with folds= whose stored
// part lacks the cross-validated answers (forged, its checksum
// recomputed) was taken: cv_prediction read NULL for every row. The decode
// refuses it and the table refits.
func TestForgedGPWithoutCV(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			dsn := "file:" + filepath.Join(t.TempDir(), "gp.db")
			db := openFile(t, drv, dsn)
			mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL)`)
			for i := 1; i <= 6; i++ {
				mustExec(t, db, fmt.Sprintf("INSERT INTO pts VALUES (%d, '[%d, %g]', %g)", i, i%4, 0.5*float64(i), float64(i*i%7)))
			}
			mustExec(t, db, `CREATE VIRTUAL TABLE g USING gp(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=1)', noise=0.1, folds=2)`)
			parts := shadowParts(t, db, "g")
			var w gpWireMirror
			if err := gob.NewDecoder(bytes.NewReader(parts["gp"])).Decode(&w); err != nil || len(w.CV) != 6 {
				t.Fatalf("the gp part: %v, %d cv answers", err, len(w.CV))
			}
			w.CV = nil
			var b bytes.Buffer
			if err := gob.NewEncoder(&b).Encode(w); err != nil {
				t.Fatal(err)
			}
			parts["gp"] = b.Bytes()
			forge(parts)
			writeParts(t, db, "g", parts)
			db.Close()
			db = openFile(t, drv, dsn)
			defer db.Close()
			var nulls int
			if err := db.QueryRow(`SELECT count(*) FROM g WHERE cv_prediction IS NULL`).Scan(&nulls); err != nil || nulls != 0 {
				t.Errorf("forged: %d NULL cv_prediction (%v)", nulls, err)
			}
			note := modelValue(t, db, "g", "stored_fit")
			if fit := modelValue(t, db, "g", "fit"); !strings.Contains(note, "does not match its source") || fit != "fitted on this connection" {
				t.Errorf("ksql_model(g): fit %q, stored_fit %q; want a refit", fit, note)
			}
		})
	}
}

// TestForgedSVMWithoutCV: a stored svm fit of a table with folds= whose
// last 8 bytes were overwritten (a NaN's bits; its checksum recomputed)
// decoded without its cross-validated answers and was taken: every
// cv_prediction read NULL. A fit must hold them exactly when the table has
// folds=, else the table refits.
func TestForgedSVMWithoutCV(t *testing.T) {
	for _, tc := range []struct{ using, part string }{
		{"svm(table=p, id=id, column=v, kernel='gauss(sigma=1)', type=one_class, nu=0.3, folds=2)", "svm"},
		{"svm(table=p, id=id, column=v, label=y, kernel='gauss(sigma=1)', method=nystrom, landmarks=3, folds=2)", "svm_nystrom"},
	} {
		for _, drv := range withLoadable(t) {
			t.Run(tc.part+"/"+driverLabel(drv), func(t *testing.T) {
				dsn := "file:" + filepath.Join(t.TempDir(), "svm.db")
				db := openFile(t, drv, dsn)
				mustExec(t, db, `CREATE TABLE p(id INTEGER PRIMARY KEY, v TEXT, y)`)
				mustExec(t, db, `INSERT INTO p VALUES (1,'[0,0]',1),(2,'[0,1]',1),(3,'[1,0]',2),(4,'[1,1]',2),(5,'[2,2]',3),(6,'[3,2]',3)`)
				mustExec(t, db, "CREATE VIRTUAL TABLE m USING "+tc.using)
				parts := shadowParts(t, db, "m")
				b := append([]byte(nil), parts[tc.part]...)
				copy(b[len(b)-8:], []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
				parts[tc.part] = b
				forge(parts)
				writeParts(t, db, "m", parts)
				db.Close()
				db = openFile(t, drv, dsn)
				defer db.Close()
				var nulls int
				if err := db.QueryRow(`SELECT count(*) FROM m WHERE cv_prediction IS NULL`).Scan(&nulls); err != nil || nulls != 0 {
					t.Errorf("forged: %d NULL cv_prediction (%v)", nulls, err)
				}
				if fit := modelValue(t, db, "m", "fit"); fit != "fitted on this connection" {
					t.Errorf("ksql_model(m): fit %q, stored_fit %q; want a refit", fit, modelValue(t, db, "m", "stored_fit"))
				}
			})
		}
	}
}
