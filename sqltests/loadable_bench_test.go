package sqltests

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkLoadableCLI measures the per-call cost of a ksql function in the
// loadable library on Debian's sqlite3 CLI: a self-join of 1,000 float32
// BLOBs of 16 dimensions (10^6 calls per op), against the C built-in
// length() and sqlite-vec's vec_distance_l2 on the same pairs, CLI start
// included (a few ms). ns/call is per pair.
func BenchmarkLoadableCLI(b *testing.B) {
	cli, err := exec.LookPath("sqlite3")
	if err != nil {
		b.Skip("no sqlite3 CLI")
	}
	so, err := loadableLib()
	if err != nil {
		b.Skip(err)
	}
	db := filepath.Join(b.TempDir(), "bench.db")
	mk := `CREATE TABLE p(id INTEGER PRIMARY KEY, v BLOB);
WITH RECURSIVE i(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM i WHERE k < 1000)
INSERT INTO p SELECT k, vec_f32((SELECT json_group_array(((k * 7919 + j * 104729) % 1000) / 1000.0)
  FROM (WITH RECURSIVE d(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM d WHERE j < 16) SELECT j FROM d))) FROM i;
SELECT count(*) FROM p WHERE length(v) = 64;`
	out, err := exec.Command(cli, db, ".load "+loadable.vec, mk).CombinedOutput()
	if err != nil || string(out) != "1000\n" {
		b.Fatalf("making the table: %v: %s", err, out)
	}
	for _, c := range []struct{ name, expr string }{
		{"length", "length(a.v) + length(b.v)"},
		{"vec_distance_l2", "vec_distance_l2(a.v, b.v)"},
		{"gauss_kernel", "gauss_kernel(a.v, b.v, 1.0)"},
		{"linear_kernel", "linear_kernel(a.v, b.v)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(cli, db, ".load "+loadable.vec, ".load "+so, "SELECT sum("+c.expr+") FROM p a, p b;")
				cmd.Stderr = os.Stderr
				if _, err := cmd.Output(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/call")
		})
	}
}
