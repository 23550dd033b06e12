package sqltests

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/ksql/ksql/ext/catalog"
)

// TestSourceCannotSet: every setting, set to a value in its range from a
// query= source, from a view a table= source reads, and from kpca_eigen's
// lookup of such a table, is refused while the source is read, and the
// settings stay as they were.
func TestSourceCannotSet(t *testing.T) {
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, "CREATE TABLE pts(id INTEGER PRIMARY KEY, v); INSERT INTO pts VALUES (1, '[0]'), (2, '[1]'), (3, '[3]')")
			before := configJSON(t, db)
			for i, s := range catalog.Extension.Settings {
				set := fmt.Sprintf("ksql_config('%s', %d)", s.Name, s.Min)
				// a model fits at CREATE: one whose source sets a setting is
				// refused then; one made while its view was harmless is
				// refused when the view starts to set one
				mustExec(t, db, fmt.Sprintf("CREATE VIEW v%d AS SELECT id, v FROM pts", i))
				mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE t%d USING kpca(table=v%d, id=id, column=v, kernel='linear', components=1)", i, i))
				mustExec(t, db, fmt.Sprintf("DROP VIEW v%d; CREATE VIEW v%d AS SELECT id, v FROM pts WHERE %s > 0", i, i, set))
				mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE g%d USING gram(query='SELECT id, v FROM pts WHERE %s > 0', kernel='linear')", i, strings.ReplaceAll(set, "'", "''")))
				for _, q := range []string{
					fmt.Sprintf("CREATE VIRTUAL TABLE q%d USING kpca(query='SELECT id, v FROM pts WHERE %s > 0', kernel='linear', components=1)", i, strings.ReplaceAll(set, "'", "''")),
					fmt.Sprintf("SELECT * FROM t%d", i), fmt.Sprintf("SELECT * FROM kpca_eigen('t%d')", i),
					fmt.Sprintf("SELECT * FROM g%d", i), fmt.Sprintf("SELECT value FROM g%d WHERE row_id = 1 AND col_id = 2", i),
				} {
					err := execOrQuery(db, q)
					if err == nil || !strings.Contains(err.Error(), "settings cannot change while a ksql module reads its source") {
						t.Errorf("%s (%s): error %v", q, s.Name, err)
					}
				}
				if after := configJSON(t, db); after != before {
					t.Fatalf("%s: settings changed from a source: %s, were %s", s.Name, after, before)
				}
				// The same call as a statement of its own works.
				if err := execOrQuery(db, "SELECT "+set); err != nil {
					t.Errorf("%s at top level: %v", set, err)
				}
				mustExec(t, db, fmt.Sprintf("SELECT ksql_config('%s', %d)", s.Name, s.Default))
			}
		})
	}
}

// configJSON renders every setting's value (not the statistics, which
// fits change).
func configJSON(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	for _, s := range catalog.Extension.Settings {
		var v int64
		if err := db.QueryRow("SELECT ksql_config(?)", s.Name).Scan(&v); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s=%d ", s.Name, v)
	}
	return b.String()
}
