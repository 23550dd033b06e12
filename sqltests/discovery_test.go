package sqltests

import (
	"testing"
	"time"
)

// TestDiscoveryInterrupt: a long permutation test stops when the
// statement is cancelled, on every driver.
func TestDiscoveryInterrupt(t *testing.T) {
	queries := []string{
		"SELECT count(*) FROM kernel_mmd('gauss(sigma=0.3)', 'SELECT v FROM pts WHERE id % 2', 'SELECT v FROM pts WHERE id % 2 = 0', 1000000)",
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, "CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, y REAL, c TEXT)")
			loadPoints(t, db, 0, 1500)
			for _, q := range queries {
				if late := cancelled(t, db, q, 200*time.Millisecond); late > 2*time.Second {
					t.Errorf("%s: returned %v after the cancel", q, late)
				}
			}
		})
	}
}
