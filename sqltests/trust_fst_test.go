package sqltests

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestFSTAttachedOtherConnection: a transducer in an attached database,
// changed by another connection, is seen by the next statement of the
// connection that attached it (the main database's data_version does not
// move for it). The reader is every driver, the loadable library's
// included; the writer is modernc on the database file.
func TestFSTAttachedOtherConnection(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fst.db")
			w := openFile(t, "ksql", path)
			mustExec(t, w, `CREATE TABLE tr(src INTEGER, dst INTEGER, input TEXT, output TEXT, weight REAL);
				INSERT INTO tr VALUES (0, 1, 'a', 'a', 1), (1, NULL, NULL, NULL, 1)`)
			r := OpenDB(t, drv)
			mustExec(t, r, fmt.Sprintf("ATTACH '%s' AS aux", strings.ReplaceAll(path, "'", "''")))
			read := func(want string) {
				t.Helper()
				var k, tw float64
				var loads int64
				q := "SELECT kernel('rational(fst=tr)', 'a', 'a'), transducer_weight('tr', 'a', 'a'), ksql_config('transducer_loads')"
				if err := r.QueryRow(q).Scan(&k, &tw, &loads); err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprintf("%v|%v|%v", k, tw, loads); got != want {
					t.Errorf("K(a, a)|T(a, a)|loads = %s, want %s", got, want)
				}
			}
			read("1|1|1")
			mustExec(t, w, "UPDATE tr SET weight = 2 WHERE dst = 1")
			read("4|2|2")
			// Rewritten to the same content: read again, not composed again.
			mustExec(t, w, "DELETE FROM tr; INSERT INTO tr VALUES (0, 1, 'a', 'a', 2), (1, NULL, NULL, NULL, 1)")
			read("4|2|2")
			mustExec(t, w, "UPDATE tr SET weight = 3 WHERE dst IS NULL")
			read("36|6|3")
		})
	}
}

// TestFSTComposeMemory: a transducer whose T∘T⁻¹ would hold tens of GB
// (1,000 states, 30,000 arcs on one symbol) is refused under max_fst_bytes
// with the setting named, and the process's peak resident memory (reset
// before the call) grows by about the bound, not by the composition. The
// Go drivers only: the loadable library runs in another process.
func TestFSTComposeMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self")
	}
	const bound = 64 << 20
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, fmt.Sprintf(`CREATE TABLE dense(src INTEGER, dst INTEGER, input TEXT, output TEXT, weight REAL);
				WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < 29999)
				INSERT INTO dense SELECT k / 30, (k * 7919 + 1) %% 1000, 'a', 'a', 0.5 FROM i;
				INSERT INTO dense VALUES (999, NULL, NULL, NULL, 1);
				SELECT ksql_config('max_fst_bytes', %d)`, bound))
			runtime.GC()
			if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
				t.Skipf("cannot reset the peak resident size: %v", err)
			}
			before := procStatus(t, "VmRSS")
			var v float64
			err := db.QueryRow("SELECT kernel('rational(fst=dense)', 'aa', 'aa')").Scan(&v)
			peak := procStatus(t, "VmHWM")
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than max_fst_bytes = %d bytes; raise it with ksql_config('max_fst_bytes', N)", bound)) {
				t.Fatalf("err = %v", err)
			}
			if grew := peak - before; grew > 3*bound {
				t.Errorf("peak resident memory grew by %d MiB for a bound of %d MiB", grew>>20, bound>>20)
			} else {
				t.Logf("peak resident memory grew by %d MiB for a bound of %d MiB", grew>>20, bound>>20)
			}
		})
	}
}

// procStatus returns a field of /proc/self/status in bytes.
func procStatus(t *testing.T, field string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// BenchmarkRationalCalls: kernel('rational(fst=...)') over a 100-pair
// self-join, the transducer unchanged: each call reads the table again (to
// see it as SQL does) and composes nothing. ns/call for a 9-row table and
// a 4,000-row one (whose extra rows lie on no accepting path, so that the
// kernel itself costs the same).
func BenchmarkRationalCalls(b *testing.B) {
	for _, drv := range drivers {
		db := OpenDB(b, drv)
		mustExec(b, db, `CREATE TABLE bigram(src INTEGER, dst INTEGER, input TEXT, output TEXT, weight REAL);
			WITH s(c) AS (VALUES ('a'), ('b'))
			INSERT INTO bigram SELECT 0, 0, c, '', NULL FROM s UNION ALL SELECT 0, 1, c, c, NULL FROM s
			  UNION ALL SELECT 1, 2, c, c, NULL FROM s UNION ALL SELECT 2, 2, c, NULL, 1 FROM s;
			INSERT INTO bigram VALUES (2, NULL, NULL, NULL, 1);
			CREATE TABLE big AS SELECT * FROM bigram;
			WITH RECURSIVE i(k) AS (SELECT 3 UNION ALL SELECT k + 1 FROM i WHERE k < 4000)
			INSERT INTO big SELECT k, k, 'c', 'c', 1 FROM i;
			CREATE TABLE ten(s TEXT);
			WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < 9)
			INSERT INTO ten SELECT substr('abbaababba', 1 + k) FROM i;`)
		for _, tab := range []string{"bigram", "big"} {
			q := fmt.Sprintf("SELECT sum(kernel('rational(fst=%s)', a.s, b.s)) FROM ten a, ten b", tab)
			b.Run(driverLabel(drv)+"/"+tab, func(b *testing.B) {
				for b.Loop() {
					var s float64
					if err := db.QueryRow(q).Scan(&s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
			})
		}
	}
}
