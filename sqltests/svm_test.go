package sqltests

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
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

// noisyClasses is a deterministic stand-in for scikit-learn's
// make_classification(n, features, flip_y=flip): two classes whose means
// differ by 1.5 in the first half of the features, standard normal noise,
// and a fraction flip of the labels replaced by a fair coin, so that many
// rows become support vectors.
func noisyClasses(n, features int, flip float64, seed uint64) ([][]float64, []any) {
	r := rand.New(rand.NewPCG(seed, 1))
	X, y := make([][]float64, n), make([]any, n)
	for i := range X {
		c := int64(i % 2)
		X[i] = make([]float64, features)
		for j := range X[i] {
			X[i][j] = r.NormFloat64()
			if j < features/2 {
				X[i][j] += 1.5 * float64(c)
			}
		}
		if r.Float64() < flip {
			c = int64(r.IntN(2))
		}
		y[i] = c
	}
	return X, y
}

// TestSVMLargeKeepsFit: an svm whose stored rows' kernel values against
// its support vectors (n·support vectors) exceed max_gram_bytes is still
// stored at CREATE (its _fit shadow table has rows) and answers every row,
// the same as with a max_gram_bytes that holds the whole Gram matrix.
func TestSVMLargeKeepsFit(t *testing.T) {
	if testing.Short() {
		t.Skip("two 6,000-row svm fits per driver")
	}
	X, y := noisyClasses(6000, 8, 0.3, 7)
	const using = "svm(table=src, id=id, column=v, label=y, kernel='gauss(sigma=2)', C=1)"
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadLabelled(t, db, "src", "y INTEGER", X, y, false)
			scan := func(name string, maxBytes int64) ([][]any, int64) {
				mustExec(t, db, fmt.Sprintf("SELECT ksql_config('max_gram_bytes', %d)", maxBytes))
				mustExec(t, db, "CREATE VIRTUAL TABLE "+name+" USING "+using)
				var parts int64
				if err := db.QueryRow("SELECT count(*) FROM " + name + "_fit").Scan(&parts); err != nil {
					t.Fatal(err)
				}
				got, err := queryRows(db, "SELECT id, prediction, decision FROM "+name+" ORDER BY id")
				if err != nil || len(got) != len(X) {
					t.Fatalf("%s: %d rows, %v", name, len(got), err)
				}
				return got, parts
			}
			small, parts := scan("s_small", 64<<20)
			if parts == 0 {
				t.Fatal("the fit within max_gram_bytes = 64 MiB was not stored")
			}
			var nsv int
			if err := db.QueryRow("SELECT value FROM ksql_model('s_small') WHERE name = 'support_vectors'").Scan(&nsv); err != nil {
				t.Fatal(err)
			}
			if need := int64(len(X)) * int64(nsv) * 8; need <= 64<<20 {
				t.Fatalf("%d support vectors: the stored rows' kernel values (%d bytes) fit max_gram_bytes; the test needs more", nsv, need)
			}
			large, _ := scan("s_large", 1<<30)
			for i := range small {
				if small[i][1] != large[i][1] {
					t.Fatalf("row %d: prediction %v within 64 MiB, %v within 1 GiB", i, small[i][1], large[i][1])
				}
				if d := math.Abs(small[i][2].(float64) - large[i][2].(float64)); d > 1e-6 {
					t.Fatalf("row %d: decision %v within 64 MiB, %v within 1 GiB", i, small[i][2], large[i][2])
				}
			}
		})
	}
}

// TestSVMManyClassesAgainstScikitLearn: 70 classes (2,415 one-vs-one
// pairs, more than a vote's small fixed buffer) predict every training
// row and 200 new points as scikit-learn's SVC does, with its support
// vectors per class and its intercepts; with two classes the intercept
// has decision's sign, as scikit-learn's intercept_ and decision_function
// (testdata/make_svm_trust.py).
func TestSVMManyClassesAgainstScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/ref_svm_trust.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Sigma, C, Tol float64
		X             [][]float64
		NewX          [][]float64 `json:"new_x"`
		Y, Predict    []int64
		NewPredict    []int64 `json:"new_predict"`
		Intercept     []float64
		NSupport      []int     `json:"n_support"`
		TwoIntercept  float64   `json:"two_intercept"`
		TwoDecision   []float64 `json:"two_decision"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	y := make([]any, len(ref.Y))
	for i, c := range ref.Y {
		y[i] = c
	}
	const k = 70
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			loadLabelled(t, db, "src", "y INTEGER", ref.X, y, false)
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING svm(table=src, id=id, column=v, label=y,
				kernel='gauss(sigma=%v)', C=%v, tol=%v)`, ref.Sigma, ref.C, ref.Tol))
			got, err := queryRows(db, "SELECT prediction FROM s ORDER BY id")
			if err != nil || len(got) != len(ref.Predict) {
				t.Fatalf("%d rows, %v", len(got), err)
			}
			for i, r := range got {
				if r[0] != ref.Predict[i] {
					t.Fatalf("row %d: prediction %v, scikit-learn %d", i, r[0], ref.Predict[i])
				}
			}
			for i, x := range ref.NewX {
				var p int64
				if err := db.QueryRow("SELECT prediction FROM s(?)", jsonVec(x)).Scan(&p); err != nil {
					t.Fatal(err)
				}
				if p != ref.NewPredict[i] {
					t.Fatalf("new point %v: prediction %d, scikit-learn %d", x, p, ref.NewPredict[i])
				}
			}
			figure := func(table, name string) float64 {
				t.Helper()
				var v float64
				if err := db.QueryRow("SELECT value FROM ksql_model(?) WHERE name = ?", table, name).Scan(&v); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return v
			}
			for c := 0; c < k; c++ {
				if n := figure("s", fmt.Sprintf("support_vectors[%d]", c)); int(n) != ref.NSupport[c] {
					t.Fatalf("class %d: %v support vectors, scikit-learn %d", c, n, ref.NSupport[c])
				}
			}
			q := 0
			for a := 0; a < k; a++ {
				for b := a + 1; b < k; b++ {
					if v := figure("s", fmt.Sprintf("intercept[%d vs %d]", a, b)); math.Abs(v-ref.Intercept[q]) > 1e-4 {
						t.Fatalf("intercept[%d vs %d] = %v, scikit-learn %v", a, b, v, ref.Intercept[q])
					}
					q++
				}
			}

			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s2 USING svm(query='SELECT id, v, y FROM src WHERE y < 2',
				kernel='gauss(sigma=%v)', C=%v, tol=%v)`, ref.Sigma, ref.C, ref.Tol))
			if v := figure("s2", "intercept[0 vs 1]"); math.Abs(v-ref.TwoIntercept) > 1e-4 {
				t.Fatalf("two classes: intercept %v, scikit-learn %v", v, ref.TwoIntercept)
			}
			got, err = queryRows(db, "SELECT decision FROM s2 ORDER BY id")
			if err != nil || len(got) != len(ref.TwoDecision) {
				t.Fatalf("two classes: %d rows, %v", len(got), err)
			}
			for i, r := range got {
				if d := r[0].(float64); math.Abs(d-ref.TwoDecision[i]) > 1e-4 {
					t.Fatalf("two classes, row %d: decision %v, scikit-learn %v", i, d, ref.TwoDecision[i])
				}
			}
		})
	}
}
