package sqltests

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
)

// A shadow table holding a well-formed exact kpca fit (no landmarks) with
// the nystrom table's arguments and a valid checksum: refused or used,
// never a panic.
func TestReviewExactFitInNystromShadow(t *testing.T) {
	for _, drv := range drivers { // BLOBs are bound as parameters, which the loadable proxy has not
		dsn := "file:" + filepath.Join(t.TempDir(), "h.db")
		db := openFile(t, drv, dsn)
		streamSource(t, func(q string, a ...any) { mustExec(t, db, q, a...) }, 50)
		mustExec(t, db, `CREATE VIRTUAL TABLE p USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2);
			CREATE VIRTUAL TABLE q USING kpca(table=s, id=id, column=v, kernel='gauss(sigma=2)', components=2, method=nystrom, landmarks=10)`)
		rvCount(t, db, "SELECT count(pc1) FROM p")
		rvCount(t, db, "SELECT count(pc1) FROM q")
		type part struct {
			name string
			data []byte
		}
		read := func(tbl string) []part {
			rows, err := db.Query("SELECT part, data FROM " + tbl)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []part
			for rows.Next() {
				var p part
				if err := rows.Scan(&p.name, &p.data); err != nil {
					t.Fatal(err)
				}
				out = append(out, p)
			}
			return out
		}
		pp, qp := read("p_fit"), read("q_fit")
		var qargs []byte
		for _, p := range qp {
			if p.name == "arguments" {
				qargs = p.data
			}
		}
		var parts []part
		for _, p := range pp {
			switch p.name {
			case "checksum":
				continue
			case "arguments":
				p.data = qargs
			}
			parts = append(parts, p)
		}
		sort.Slice(parts, func(i, j int) bool { return parts[i].name < parts[j].name })
		h := sha256.New()
		for _, p := range parts {
			fmt.Fprintf(h, "%s\x00%d\x00", p.name, len(p.data))
			h.Write(p.data)
		}
		mustExec(t, db, "DELETE FROM q_fit")
		for _, p := range append(parts, part{"checksum", h.Sum(nil)}) {
			mustExec(t, db, "INSERT INTO q_fit(part, data) VALUES (?, ?)", p.name, p.data)
		}
		db.Close()
		db = openFile(t, drv, dsn)
		for range 2 {
			if rows, err := queryRows(db, "SELECT count(pc1), (SELECT pc1 FROM q('[1,2,3]')) FROM q"); err != nil || fmt.Sprint(rows[0][0]) != "50" {
				t.Errorf("%s: %v %v", driverLabel(drv), rows, err)
			}
		}
	}
}
