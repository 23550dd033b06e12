package sqltests

import (
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// columnsRef is testdata/ref_columns.json (make_columns_ref.py):
// StandardScaler then SVC on the iris rows that are not setosa.
type columnsRef struct {
	IDs  []int64        `json:"ids"`
	RBF  columnsRefCase `json:"rbf"`
	Poly columnsRefCase `json:"poly"`
}

type columnsRefCase struct {
	Mean        []float64   `json:"mean"`
	Scale       []float64   `json:"scale"`
	Decision    []float64   `json:"decision"`
	NewX        [][]float64 `json:"new_x"`
	NewDecision []float64   `json:"new_decision"`
}

// irisColumns loads the non-setosa iris rows into iris(id, species, the
// four measurements, k = 0.1), a table whose features are columns.
func irisColumns(t *testing.T, db *sql.DB) {
	t.Helper()
	mustExec(t, db, `CREATE TABLE iris(id INTEGER PRIMARY KEY, species TEXT, sepal_length REAL, sepal_width REAL,
		petal_length REAL, petal_width REAL, k REAL)`)
	for _, r := range testData(t, "iris.csv") {
		if r[5] == "setosa" {
			continue
		}
		mustExec(t, db, fmt.Sprintf("INSERT INTO iris VALUES (%s, %s, %s, %s, %s, %s, 0.1)", r[0], sqlText(r[5]), r[1], r[2], r[3], r[4]))
	}
}

// columnsSVMs are the two tables of TestColumnsScaledSVM and how each is
// asked about a new object (x: raw measurements, and k for poly).
var columnsSVMs = []struct {
	name, create string
	input        func(x []float64) string
}{
	{"srbf", `CREATE VIRTUAL TABLE srbf USING svm(table=iris, id=id, columns=sepal_length..petal_width, label=species,
		kernel='gauss(sigma=1)', tol=1e-12, scale=standard)`,
		func(x []float64) string { return jsonVec(x) }},
	{"spoly", `CREATE VIRTUAL TABLE spoly USING svm(table=iris, id=id, columns='sepal_length, sepal_width, petal_length, petal_width, k',
		label=species, kernel='poly(degree=2, r=1)', tol=1e-12, scale=standard)`,
		func(x []float64) string {
			return fmt.Sprintf(`{"k": %v, "sepal_length": %v, "SEPAL_WIDTH": %v, "petal_length": %v, "petal_width": %v}`, x[4], x[0], x[1], x[2], x[3])
		}},
}

// columnsAnswers reads every decision of the columnsSVMs tables: stored
// rows in id order, then the reference's new objects.
func columnsAnswers(t *testing.T, db *sql.DB, ref *columnsRef) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	for i, s := range columnsSVMs {
		c := []*columnsRefCase{&ref.RBF, &ref.Poly}[i]
		rows, err := queryRows(db, "SELECT id, decision FROM "+s.name+" ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range rows {
			if r[0].(int64) != ref.IDs[j] {
				t.Fatalf("%s: row %d has id %v, want %d", s.name, j, r[0], ref.IDs[j])
			}
			out[s.name] = append(out[s.name], r[1].(float64))
		}
		for _, x := range c.NewX {
			var d float64
			if err := db.QueryRow("SELECT decision FROM " + s.name + " WHERE input = " + sqlText(s.input(x))).Scan(&d); err != nil {
				t.Fatalf("%s(%s): %v", s.name, s.input(x), err)
			}
			out[s.name] = append(out[s.name], d)
		}
	}
	return out
}

// TestColumnsScaledSVM: svm over columns= with scale=standard gives
// scikit-learn's StandardScaler + SVC decision values to 1e-9, for the
// training rows and for new objects (a JSON array, a JSON object by column
// name); the constant column is centred and left undivided (the poly
// kernel would see anything else); the stored 'scale' part holds
// StandardScaler's mean_ and scale_; a new connection on the file answers
// from the stored fit with the same bits; a stored scaling that is not the
// source's is never used.
func TestColumnsScaledSVM(t *testing.T) {
	b, err := os.ReadFile("testdata/ref_columns.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref columnsRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "columns.db")
			db := openFile(t, drv, "file:"+path)
			irisColumns(t, db)
			for _, s := range columnsSVMs {
				mustExec(t, db, s.create)
			}
			first := columnsAnswers(t, db, &ref)
			for i, s := range columnsSVMs {
				c := []*columnsRefCase{&ref.RBF, &ref.Poly}[i]
				want := append(append([]float64(nil), c.Decision...), c.NewDecision...)
				if len(first[s.name]) != len(want) {
					t.Fatalf("%s: %d answers, want %d", s.name, len(first[s.name]), len(want))
				}
				for j, w := range want {
					if g := first[s.name][j]; math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
						t.Errorf("%s: answer %d: decision %.15g, scikit-learn %.15g", s.name, j, g, w)
					}
				}
				checkStoredScale(t, db, s.name, c)
			}
			db.Close()

			db = openFile(t, drv, "file:"+path)
			again := columnsAnswers(t, db, &ref)
			for _, s := range columnsSVMs {
				for j, g := range again[s.name] {
					if g != first[s.name][j] {
						t.Errorf("%s reopened: answer %d is %v, was %v", s.name, j, g, first[s.name][j])
					}
				}
				if fit := modelFigure(t, db, s.name, "fit"); fit != "restored from "+s.name+"_fit" {
					t.Errorf("%s reopened: fit %q, want it restored", s.name, fit)
				}
			}

			// Another scaling under a valid checksum: the fit is not used
			// (refitted in memory, with the same answers), and ksql_model
			// says why.
			forgeScale(t, db, "srbf")
			db.Close()
			db = openFile(t, drv, "file:"+path)
			forged := columnsAnswers(t, db, &ref)
			for j, g := range forged["srbf"] {
				if math.Abs(g-first["srbf"][j]) > 1e-12 {
					t.Errorf("srbf with a forged scale: answer %d is %v, was %v", j, g, first["srbf"][j])
				}
			}
			if note := modelFigure(t, db, "srbf", "stored_fit"); !strings.Contains(note, "scale part is not the source's scaling") {
				t.Errorf("srbf with a forged scale: stored_fit %q", note)
			}
		})
	}
}

// sqlText is s as a SQL string literal (the loadable driver takes no
// parameters).
func sqlText(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// modelFigure is ksql_model's value called name for table, "" if none.
func modelFigure(t *testing.T, db *sql.DB, table, name string) string {
	t.Helper()
	var v sql.NullString
	err := db.QueryRow("SELECT value FROM ksql_model(" + sqlText(table) + ") WHERE name = " + sqlText(name)).Scan(&v)
	if err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	return v.String
}

// storedScale decodes a shadow table's 'scale' part: the dimension, the
// means, the standard deviations (float64, little-endian).
func storedScale(t *testing.T, db *sql.DB, table string) (mean, std []float64) {
	t.Helper()
	var b []byte
	if err := db.QueryRow("SELECT data FROM " + table + "_fit WHERE part = 'scale'").Scan(&b); err != nil {
		t.Fatalf("%s_fit: %v", table, err)
	}
	d := int(binary.LittleEndian.Uint64(b))
	if len(b) != 8*(1+2*d) {
		t.Fatalf("%s_fit: scale part of %d bytes for dimension %d", table, len(b), d)
	}
	for i := range 2 * d {
		x := math.Float64frombits(binary.LittleEndian.Uint64(b[8*(1+i):]))
		if i < d {
			mean = append(mean, x)
		} else {
			std = append(std, x)
		}
	}
	return mean, std
}

func checkStoredScale(t *testing.T, db *sql.DB, table string, c *columnsRefCase) {
	t.Helper()
	mean, std := storedScale(t, db, table)
	if len(mean) != len(c.Mean) {
		t.Fatalf("%s: stored scale of dimension %d, want %d", table, len(mean), len(c.Mean))
	}
	for k := range mean {
		if math.Abs(mean[k]-c.Mean[k]) > 1e-12*math.Max(1, math.Abs(c.Mean[k])) || math.Abs(std[k]-c.Scale[k]) > 1e-12 {
			t.Errorf("%s: coordinate %d: stored mean %v std %v, StandardScaler %v %v", table, k, mean[k], std[k], c.Mean[k], c.Scale[k])
		}
	}
}

// forgeScale doubles the stored means of table's fit and rewrites its
// checksum as the core computes it (SHA-256 over every other part's name,
// length and data, in name order), so that only the scale check can
// refuse it.
func forgeScale(t *testing.T, db *sql.DB, table string) {
	t.Helper()
	mean, std := storedScale(t, db, table)
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(mean)))
	for _, x := range append(mean, std...) {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(2*x))
	}
	mustExec(t, db, fmt.Sprintf("UPDATE %s_fit SET data = x'%x' WHERE part = 'scale'", table, b))
	rows, err := queryRows(db, "SELECT part, data FROM "+table+"_fit WHERE part <> 'checksum'")
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(string) < rows[j][0].(string) })
	h := sha256.New()
	for _, r := range rows {
		data, _ := r[1].([]byte)
		fmt.Fprintf(h, "%s\x00%d\x00", r[0], len(data))
		h.Write(data)
	}
	mustExec(t, db, fmt.Sprintf("UPDATE %s_fit SET data = x'%x' WHERE part = 'checksum'", table, h.Sum(nil)))
}

// BenchmarkColumnsRead reads a 10,000-row source of 64 numbers a row per
// op (one gram entry: the whole source is read and hashed, the Gram entry
// is one kernel value), as 64 REAL columns, as JSON text and as float32
// BLOBs, so that B/op compares what the three forms keep while reading.
func BenchmarkColumnsRead(b *testing.B) {
	db := OpenDB(b, "ksql")
	cols := make([]string, 64)
	for k := range cols {
		cols[k] = fmt.Sprintf("p%d REAL", k)
	}
	mustExec(b, db, "CREATE TABLE wide(id INTEGER PRIMARY KEY, "+strings.Join(cols, ", ")+", v TEXT, b BLOB)")
	mustExec(b, db, `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10000)
		INSERT INTO wide(id) SELECT i FROM r`)
	for k := range cols {
		mustExec(b, db, fmt.Sprintf("UPDATE wide SET p%d = ((id * %d) %% 1000) / 250.0", k, 2*k+7))
	}
	var arr []string
	for k := range cols {
		arr = append(arr, fmt.Sprintf("p%d", k))
	}
	mustExec(b, db, "UPDATE wide SET v = json_array("+strings.Join(arr, ", ")+"), b = vec_f32(json_array("+strings.Join(arr, ", ")+"))")
	for _, c := range []struct{ name, arg string }{{"columns", "columns=p0..p63"}, {"json", "column=v"}, {"f32blob", "column=b"}} {
		mustExec(b, db, "CREATE VIRTUAL TABLE g_"+c.name+" USING gram(table=wide, id=id, "+c.arg+", kernel='gauss(sigma=8)')")
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v float64
				if err := db.QueryRow("SELECT value FROM g_" + c.name + " WHERE row_id = 1 AND col_id = 2").Scan(&v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
