package sqltests

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// trustTables are pairs of model tables on one source whose arguments
// differ in a way that changes the fit's shape or values: the fit of the
// second is copied into the first's shadow table.
var trustTables = []struct {
	name, other string
	module      string
	args        [2]string // the table's arguments and the other's
	read        string    // what the test compares
	// shape: the two fits differ in shape, so that even a forged copy
	// (its checksum recomputed) is found out. A forger who copies a fit
	// of the same shape gets what they wrote: a checksum is not a
	// signature, and the database is theirs.
	shape bool
}{
	{"pa", "pb", "kpca", [2]string{"components=2", "components=1"}, "SELECT id, pc1, pc2 FROM pa", true},
	{"ka", "kb", "kfda", [2]string{"label=class, components=1", "label=class, components=2"}, "SELECT id, f1 FROM ka", true},
	{"s", "s2", "svm", [2]string{"label=class, C=1", "label=class, C=1, kernel='gauss(sigma=0.5)'"}, "SELECT id, prediction, decision FROM s", false},
	{"t2", "t3", "tsne", [2]string{"dims=2, perplexity=5, iterations=250", "dims=3, perplexity=5, iterations=250, method=exact"}, "SELECT id, x1, x2 FROM t2", true},
	{"ra", "rb", "krr", [2]string{"label=y, alpha=0.5", "label=y, alpha=10"}, "SELECT id, prediction FROM ra", false},
}

func trustCreate(t *testing.T, db *sql.DB) {
	mustExec(t, db, `CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, class TEXT, y REAL)`)
	for i := 1; i <= 24; i++ {
		mustExec(t, db, fmt.Sprintf("INSERT INTO pts VALUES (%d, '[%g, %g]', '%c', %g)",
			i, float64(i%5)+0.1*float64(i), float64(i%7)*0.5, 'a'+rune(i%3), float64(i%4)-0.3*float64(i%5)))
	}
	for _, tt := range trustTables {
		for k, name := range []string{tt.name, tt.other} {
			args := tt.args[k]
			if !strings.Contains(args, "kernel=") {
				args += ", kernel='linear'"
			}
			mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE %s USING %s(table=pts, id=id, column=v, %s)", name, tt.module, args))
		}
	}
}

// shadowParts reads a shadow table into name → data.
func shadowParts(t *testing.T, db *sql.DB, table string) map[string][]byte {
	t.Helper()
	rows, err := queryRows(db, "SELECT part, data FROM "+table+"_fit")
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string][]byte{}
	for _, r := range rows {
		b, _ := r[1].([]byte)
		if s, ok := r[1].(string); ok {
			b = []byte(s)
		}
		parts[fmt.Sprint(r[0])] = b
	}
	return parts
}

// writeParts replaces a shadow table's rows, through SQL literals (the
// loadable library's proxy takes no parameters).
func writeParts(t *testing.T, db *sql.DB, table string, parts map[string][]byte) {
	t.Helper()
	mustExec(t, db, "DELETE FROM "+table+"_fit")
	for name, data := range parts {
		mustExec(t, db, fmt.Sprintf("INSERT INTO %s_fit VALUES ('%s', x'%s')", table, name, hex.EncodeToString(data)))
	}
}

// forge recomputes the checksum as ksql does (SHA-256 over the parts in
// name order), written out here so that a forged fit passes it.
func forge(parts map[string][]byte) {
	delete(parts, "checksum")
	var names []string
	for n := range parts {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(parts[n]))
		h.Write(parts[n])
	}
	parts["checksum"] = h.Sum(nil)
}

func modelValue(t *testing.T, db *sql.DB, table, name string) string {
	t.Helper()
	rows, err := queryRows(db, fmt.Sprintf("SELECT value FROM ksql_model('%s') WHERE name = '%s'", table, name))
	if err != nil {
		t.Fatalf("ksql_model(%s): %v", table, err)
	}
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprint(rows[0][0])
}

// TestStoredFitAnswersOnlyForItsTable: the fit of another table copied
// into a shadow table (the same source, other arguments) is never used,
// even with its checksum and arguments forged to pass: the table refits,
// answers as before, never panics, and ksql_model says why.
func TestStoredFitAnswersOnlyForItsTable(t *testing.T) {
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			dsn := "file:" + filepath.Join(t.TempDir(), "trust.db")
			db := openFile(t, drv, dsn)
			trustCreate(t, db)
			want := map[string][][]any{}
			args := map[string][]byte{}
			for _, tt := range trustTables {
				args[tt.name] = shadowParts(t, db, tt.name)["arguments"]
				rows, err := queryRows(db, tt.read)
				if err != nil {
					t.Fatal(err)
				}
				want[tt.name] = rows
			}
			for _, tt := range trustTables {
				writeParts(t, db, tt.name, shadowParts(t, db, tt.other))
			}
			db.Close()
			for _, forged := range []bool{false, true} {
				db = openFile(t, drv, dsn)
				for _, tt := range trustTables {
					if forged && !tt.shape {
						continue
					}
					rows, err := queryRows(db, tt.read)
					if err != nil {
						t.Fatalf("forged=%v: %s: %v", forged, tt.read, err)
					}
					if !reflect.DeepEqual(rows, want[tt.name]) {
						t.Errorf("forged=%v: %s answers from another fit:\n got %v\nwant %v", forged, tt.name, rows, want[tt.name])
					}
					note := modelValue(t, db, tt.name, "stored_fit")
					wantNote := "other arguments"
					if forged {
						wantNote = "does not match the table"
					}
					if fit := modelValue(t, db, tt.name, "fit"); !strings.Contains(note, wantNote) || fit != "fitted on this connection" {
						t.Errorf("forged=%v: ksql_model(%s): fit %q, stored_fit %q; want a refit and a note with %q", forged, tt.name, fit, note, wantNote)
					}
				}
				if !forged {
					// the other table's parts, with this table's arguments and a checksum that passes
					for _, tt := range trustTables {
						other := shadowParts(t, db, tt.other)
						other["arguments"] = args[tt.name]
						forge(other)
						writeParts(t, db, tt.name, other)
					}
				}
				db.Close()
			}
		})
	}
}
