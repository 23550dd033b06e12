package sqltests

import (
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
