package sqltests

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/cv"
)

// svmRef is scikit-learn's SVC fit as internal/svm/testdata/make_ref.py
// writes it (copied into testdata, see its README).
type svmRef struct {
	C        float64 `json:"C"`
	Sigma    float64 `json:"sigma"`
	Tol      float64 `json:"tol"`
	NSupport []int   `json:"n_support"`
	Predict  []int   `json:"predict"`
}

func loadSVMRef(t *testing.T, name string) *svmRef {
	t.Helper()
	b, err := os.ReadFile("testdata/ref_svm_" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var r svmRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func loadGzFloats(t *testing.T, path string) []float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	buf := make([]byte, 1<<16)
	for {
		n, err := z.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	var out []float64
	for _, line := range strings.Fields(sb.String()) {
		v, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestSVMDigitsAgainstScikitLearn: the svm table on the raw digits pixels
// (gauss σ = √500, i.e. gamma = 0.001, C = 1, tol = 1e-5) predicts every
// row as scikit-learn's SVC does and keeps as many support vectors per
// class; on the two-class subset {3, 8} its decision values agree with
// SVC's decision_function to 1e-3 of their range.
func TestSVMDigitsAgainstScikitLearn(t *testing.T) {
	rows := testData(t, "digits.csv")
	X := features(t, rows, 2, 66, 1)
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadLabelled(t, db, "digits", "digit INTEGER", X, column(rows, 1), true)
			ref := loadSVMRef(t, "digits")
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING svm(table=digits, id=id, column=v, label=digit,
				kernel='gauss(sigma=%v)', C=%v, tol=%v)`, ref.Sigma, ref.C, ref.Tol))
			got, err := queryRows(db, "SELECT id, prediction FROM s ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			agree := 0
			for i, r := range got {
				if r[1].(int64) == int64(ref.Predict[i]) {
					agree++
				}
			}
			if agree < len(ref.Predict)*999/1000 {
				t.Fatalf("predictions agree on %d of %d rows, want ≥ 99.9%%", agree, len(ref.Predict))
			}

			ref38 := loadSVMRef(t, "digits38")
			dec := loadGzFloats(t, "testdata/dec_svm_digits38.csv.gz")
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s38 USING svm(
				query='SELECT id, v, digit FROM digits WHERE digit IN (3, 8)',
				kernel='gauss(sigma=%v)', C=%v, tol=%v)`, ref38.Sigma, ref38.C, ref38.Tol))
			got, err = queryRows(db, "SELECT prediction, decision FROM s38 ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(dec) {
				t.Fatalf("%d rows, want %d", len(got), len(dec))
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, d := range dec {
				lo, hi = math.Min(lo, d), math.Max(hi, d)
			}
			for i, r := range got {
				want := int64(3)
				if ref38.Predict[i] == 1 {
					want = 8
				}
				if r[0].(int64) != want {
					t.Fatalf("row %d: prediction %v, want %d", i, r[0], want)
				}
				if d := r[1].(float64); math.Abs(d-dec[i]) > 1e-3*(hi-lo) {
					t.Fatalf("row %d: decision %v, scikit-learn %v", i, d, dec[i])
				}
			}
		})
	}
}

// TestSVMCrossValidation: each row's cv_prediction is what an svm fitted
// on the other folds alone (a table of its own over a query= of those
// rows) predicts for it, on iris (three classes, stratified folds).
func TestSVMCrossValidation(t *testing.T) {
	rows := testData(t, "iris.csv")
	X := features(t, rows, 1, 5, 1)
	y := make([]int, len(rows))
	names := map[string]int{"setosa": 0, "versicolor": 1, "virginica": 2}
	for i, r := range rows {
		y[i] = names[r[5]]
	}
	const k, seed = 3, 7
	fold, err := cv.Stratified(y, 3, k, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadLabelled(t, db, "iris", "species TEXT", X, column(rows, 5), false)
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING svm(table=iris, id=id, column=v, label=species,
				kernel='gauss(sigma=0.7)', C=0.5, folds=%d, seed=%d)`, k, seed))
			got, err := queryRows(db, "SELECT id, v, cv_prediction FROM s JOIN iris USING (id) ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			wrong := 0
			for g := 0; g < k; g++ {
				var train []string
				for r, f := range fold {
					if f != g {
						train = append(train, strconv.Itoa(r))
					}
				}
				name := fmt.Sprintf("f%d", g)
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE %s USING svm(
					query='SELECT id, v, species FROM iris WHERE id IN (%s)', kernel='gauss(sigma=0.7)', C=0.5)`,
					name, strings.Join(train, ",")))
				for r, f := range fold {
					if f != g {
						continue
					}
					var want string
					if err := db.QueryRow("SELECT prediction FROM "+name+"(?)", got[r][1]).Scan(&want); err != nil {
						t.Fatal(err)
					}
					if got[r][2] != want {
						t.Fatalf("row %d (fold %d): cv_prediction %v, the fold's own model says %v", r, g, got[r][2], want)
					}
					if want != rows[r][5] {
						wrong++
					}
				}
			}
			var acc float64
			if err := db.QueryRow("SELECT value FROM ksql_model('s') WHERE name = 'cv_accuracy'").Scan(&acc); err != nil {
				t.Fatal(err)
			}
			if want := 1 - float64(wrong)/float64(len(rows)); math.Abs(acc-want) > 1e-12 || acc < 0.9 {
				t.Fatalf("cv_accuracy %v, want %v (and ≥ 0.9 on iris)", acc, want)
			}
		})
	}
}

// TestSVMStringsAgainstScikitLearn: on the promoters (normalize(ssk(p=3,
// lambda=0.5))) and Reuters (normalize(ngram(n=5))) texts, the svm table's
// decision values agree to 1e-3 of their range with scikit-learn's
// SVC(kernel='precomputed') fed ksql's own Gram matrix
// (testdata/make_svm_strings.py): a check of the solver on string kernels.
func TestSVMStringsAgainstScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/ref_svm_strings.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]json.RawMessage
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, file, column, label, kernel string }{
		{"promoters", "../../examples/promoters.csv", "sequence", "class", "normalize(ssk(p=3, lambda=0.5))"},
		{"reuters", "../../examples/reuters.csv", "text", "label", "normalize(ngram(n=5))"},
	} {
		var r struct {
			Decision []float64 `json:"decision"`
			NSupport []int     `json:"n_support"`
		}
		if err := json.Unmarshal(ref[c.name], &r); err != nil {
			t.Fatal(err)
		}
		rows := testData(t, c.file)
		for _, drv := range drivers {
			t.Run(c.name+"/"+driverLabel(drv), func(t *testing.T) {
				db := OpenDB(t, drv)
				mustExec(t, db, fmt.Sprintf("CREATE TABLE src(id INTEGER PRIMARY KEY, %s TEXT, %s TEXT)", c.label, c.column))
				for _, row := range rows {
					mustExec(t, db, "INSERT INTO src VALUES (?, ?, ?)", row[0], row[1], row[2])
				}
				mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING svm(table=src, id=id, column=%s, label=%s,
					kernel='%s', C=10, tol=1e-5)`, c.column, c.label, c.kernel))
				got, err := queryRows(db, "SELECT decision FROM s ORDER BY id")
				if err != nil || len(got) != len(r.Decision) {
					t.Fatalf("%d rows (%v), want %d", len(got), err, len(r.Decision))
				}
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, d := range r.Decision {
					lo, hi = math.Min(lo, d), math.Max(hi, d)
				}
				for i, row := range got {
					if d := row[0].(float64); math.Abs(d-r.Decision[i]) > 1e-3*(hi-lo) {
						t.Fatalf("row %d: decision %v, scikit-learn %v", i, d, r.Decision[i])
					}
				}
				var nsv int
				if err := db.QueryRow("SELECT value FROM ksql_model('s') WHERE name = 'support_vectors'").Scan(&nsv); err != nil {
					t.Fatal(err)
				}
				if nsv != r.NSupport[0]+r.NSupport[1] {
					t.Fatalf("%d support vectors, scikit-learn %v", nsv, r.NSupport)
				}
			})
		}
	}
}

// TestTSNEDigitsAgainstScikitLearn: the tsne table's picture of all 1,797
// digits (gauss σ = 30, Barnes–Hut) is as trustworthy as scikit-learn's
// TSNE on the same distances (internal/tsne/testdata/ref_digits.json), to
// 0.005, with a KL divergence within 10%.
func TestTSNEDigitsAgainstScikitLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("a full t-SNE of 1,797 objects per driver")
	}
	b, err := os.ReadFile("../internal/tsne/testdata/ref_digits.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Runs []struct{ KL, Trustworthiness float64 } `json:"runs"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	X := features(t, testData(t, "digits.csv"), 2, 66, 1)
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadVectors(t, db, "digits", X, true)
			mustExec(t, db, `CREATE VIRTUAL TABLE tp USING tsne(table=digits, id=id, column=v, kernel='gauss(sigma=30)', perplexity=30, seed=0)`)
			var tw, kl float64
			if err := db.QueryRow("SELECT value FROM ksql_model('tp') WHERE name = 'trustworthiness'").Scan(&tw); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow("SELECT value FROM ksql_model('tp') WHERE name = 'kl_divergence'").Scan(&kl); err != nil {
				t.Fatal(err)
			}
			t.Logf("trustworthiness %.5f (scikit-learn %.5f), KL %.4f (%.4f)", tw, ref.Runs[0].Trustworthiness, kl, ref.Runs[0].KL)
			if math.Abs(tw-ref.Runs[0].Trustworthiness) > 0.005 || math.Abs(kl-ref.Runs[0].KL) > 0.1*ref.Runs[0].KL {
				t.Fatalf("trustworthiness %v, KL %v against scikit-learn's %+v", tw, kl, ref.Runs[0])
			}
		})
	}
}

// TestKFDAIrisAgainstScipy: kfda on iris (gauss σ = 1, reg = 0.1, rows
// with id % 5 ≠ 0) gives the projections, of stored rows and of the held
// out rows through the hidden input, of an independent scipy solution
// (internal/fda/testdata/make_ref.py), to 1e-6.
func TestKFDAIrisAgainstScipy(t *testing.T) {
	b, err := os.ReadFile("../internal/fda/testdata/ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			Train [][]float64 `json:"train"`
			Test  [][]float64 `json:"test"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	rows := testData(t, "iris.csv")
	X := features(t, rows, 1, 5, 1)
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadLabelled(t, db, "iris", "species TEXT", X, column(rows, 5), false)
			mustExec(t, db, `CREATE VIRTUAL TABLE f USING kfda(query='SELECT id, v, species FROM iris WHERE id % 5 <> 0',
				kernel='gauss(sigma=1)', components=2, reg=0.1)`)
			got, err := queryRows(db, "SELECT f1, f2 FROM f ORDER BY id")
			if err != nil || len(got) != 120 {
				t.Fatalf("%d rows, %v", len(got), err)
			}
			near := func(what string, g any, w float64) {
				if math.Abs(g.(float64)-w) > 1e-6*math.Max(1, math.Abs(w)) {
					t.Fatalf("%s: %v, scipy %v", what, g, w)
				}
			}
			for i, r := range got {
				near("f1", r[0], ref.Cases[0].Train[i][0])
				near("f2", r[1], ref.Cases[0].Train[i][1])
			}
			for k := 0; k < 30; k++ {
				var f1, f2 float64
				if err := db.QueryRow("SELECT f1, f2 FROM f(?)", jsonVec(X[5*k])).Scan(&f1, &f2); err != nil {
					t.Fatal(err)
				}
				near("new f1", f1, ref.Cases[0].Test[k][0])
				near("new f2", f2, ref.Cases[0].Test[k][1])
			}
		})
	}
}
