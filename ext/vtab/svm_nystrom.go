package vtab

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"

	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
	"github.com/ksql/ksql/internal/nystrom"
	"github.com/ksql/ksql/internal/offheap"
	"github.com/ksql/ksql/internal/svm"
)

// svmMaxIter is the linear solver's default bound on outer iterations
// per problem, LinearSVC's max_iter default.
const svmMaxIter = 1000

// configureMethod reads method= and landmarks=. method=nystrom is a
// linear SVM (LinearSVC's hinge loss, one-vs-rest) on Nyström features,
// so it takes type=c_svc's C= and tol= and nothing of libsvm's own.
func (m *svmModel) configureMethod(opts options) error {
	method, _, err := opts.text("method")
	if err != nil {
		return err
	}
	switch strings.ToLower(method) {
	case "", "exact":
		for _, key := range []string{"landmarks", "max_iter"} {
			if _, ok := opts[key]; ok {
				return fmt.Errorf("%s= applies to method=nystrom only", key)
			}
		}
		return nil
	case "nystrom", "nyström":
		m.nystrom = true
	default:
		return fmt.Errorf("method=%s: allowed exact (default, libsvm's SMO on the kernel) or nystrom (a linear SVM on Nyström features)", method)
	}
	if m.typ != svm.CSVC {
		return fmt.Errorf("method=nystrom is for type=c_svc (LinearSVC's hinge loss), not type=%v", m.typ)
	}
	for _, key := range []string{"class_weight", "probability"} {
		if _, ok := opts[key]; ok {
			return fmt.Errorf("%s= is not supported with method=nystrom; use method=exact", key)
		}
	}
	landmarks, err := opts.integer("landmarks", defaultLandmarks, 1, 1<<24)
	if err != nil {
		return err
	}
	maxIter, err := opts.integer("max_iter", svmMaxIter, 1, 1<<30)
	m.landmarks, m.maxIter = int(landmarks), int(maxIter)
	return err
}

// lean: method=nystrom reads its objects in passes (stream.go).
func (m *svmModel) lean() bool { return m.nystrom }

// svmNystromFit is a linear SVM on the Nyström features of landmarks:
// φ(x) = k_L(x)ᵀM, decision w_p·φ(x) + b_p per one-vs-rest problem.
type svmNystromFit struct {
	model   *svm.LinearModel
	maxIter int // the bound the problems ran under, for the report
	classes []any
	labels  []any
	marks   []int     // the landmarks, as object indices
	f       *fitting  // whose snapshot holds their objects (landmarkObjects)
	proj    []float64 // M = U_r·Σ_r^(−1/2), landmarks × rank
	float32 bool      // the features were held as float32 (past max_gram_bytes in float64)
	pred    []int
	dec     []float64 // one per object with two classes, else nil
	cvPred  []int
	// a fit being stored keeps its answers (class, decision with two
	// classes, cross-validated class with folds=) in the shadow table's
	// pieces instead of pred, dec and cvPred, and their accuracies
	pieces          pieces
	trainAcc, cvAcc float64
	folds           bool // cross-validated answers were made (folds=)
}

var _ piecewise = (*svmNystromFit)(nil)
var _ rowReader = (*svmNystromFit)(nil)

func (fit *svmNystromFit) pieceSet() *pieces { return &fit.pieces }

func (m *svmModel) fitNystrom(f *fitting) (fitted, error) {
	fit := &svmNystromFit{labels: f.extra("label"), maxIter: m.maxIter}
	classes, y, err := svmClasses(f, fit.labels)
	if err != nil {
		return nil, err
	}
	fit.classes = classes
	n, k := len(y), len(classes)
	problems := k
	if k == 2 {
		problems = 1
	}
	if need := int64(n) * int64(problems) * 8; need > f.maxBytes() {
		return nil, fmt.Errorf("the %d stored rows' decision values for %d classes need %s, more than max_gram_bytes = %d; "+
			"%s", n, k, sizeText(need), f.maxBytes(), gramFix(need, "merge classes"))
	}
	if fit.marks, err = kpca.SampleLandmarks(n, m.landmarks, m.seed); err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	// The landmarks' Gram matrix is the fit's largest before the features
	// (with its copy and the eigensolver's workspace, a few times more):
	// 20,000 landmarks were 3.2 GB each and an out-of-memory crash.
	if nl := int64(len(fit.marks)); 8*nl*nl > f.maxBytes() {
		return nil, fmt.Errorf("method=nystrom: the Gram matrix of %d landmarks (%d×%d, %s) is more than max_gram_bytes = %d; "+
			"%s", nl, nl, nl, sizeText(8*nl*nl), f.maxBytes(), landmarksFix(8*nl*nl))
	}
	fit.f = f
	basis, W, err := f.landmarkSet(fit.marks)
	if err != nil {
		return nil, err
	}
	r, err := fit.landmarkMap(f, W)
	if err != nil {
		return nil, err
	}
	features := func(X any) error { return fit.features(f, basis, X) }
	nl := len(fit.marks)
	// The features live outside Go's heap (offheap): the collector would
	// let a heap holding them grow to twice their size.
	switch need := int64(n) * int64(r); {
	case 8*need <= f.maxBytes():
		X := offheap.Alloc[float64](n * r)
		defer X.Free()
		return fit, nystromSolve(m, f, fit, y, features, X.Values)
	case 4*need <= f.maxBytes():
		fit.float32 = true
		X := offheap.Alloc[float32](n * r)
		defer X.Free()
		return fit, nystromSolve(m, f, fit, y, features, X.Values)
	default:
		return nil, fmt.Errorf("method=nystrom: the %d objects' features (%d each from %d landmarks) need %s even as float32, "+
			"more than max_gram_bytes = %d; %s", n, r, nl, sizeText(4*need), f.maxBytes(), landmarksFix(4*need))
	}
}

// landmarkMap computes the map W^(−1/2) of the landmarks' Gram matrix W,
// returning the features' count r.
func (fit *svmNystromFit) landmarkMap(f *fitting, W []float64) (int, error) {
	nl := len(fit.marks)
	for a := 0; a < nl; a++ {
		for b := a + 1; b < nl; b++ {
			W[a*nl+b] = W[a*nl+b]/2 + W[b*nl+a]/2 // halves first: the sum of two values near ±1e308 overflows
		}
	}
	M, r, _, err := svm.NystromMap(W, nl, f.err)
	var kv *svm.KernelValueError
	if errors.As(err, &kv) {
		return 0, svmError(f, &svm.KernelValueError{Row: fit.marks[kv.Row], Col: fit.marks[kv.Col], Value: kv.Value})
	}
	if err != nil {
		var le *svm.LengthError
		if errors.As(err, &le) {
			return 0, err
		}
		if ierr := f.err(); ierr != nil {
			return 0, ierr
		}
		if errors.Is(err, nystrom.ErrOverflow) {
			return 0, fitFailure{fmt.Errorf("method=nystrom: %v; scale the kernel down (a factor such as 1e-200*linear) or bring the vectors to a smaller scale", err)}
		}
		return 0, fitFailure{fmt.Errorf("method=nystrom: %v; the kernel is not positive semi-definite or is zero on them",
			strings.TrimPrefix(err.Error(), "svm: "))}
	}
	fit.proj = M
	return r, nil
}

// features fills X ([]float64 or []float32, n×r) with the objects'
// Nyström features against the landmarks' objects basis, by a pass (stream.go), every block on its own core.
func (fit *svmNystromFit) features(f *fitting, basis []kernels.Object, X any) error {
	nl := len(fit.marks)
	r := len(fit.proj) / nl
	newP := func() any { return make([]float64, streamRows*r) }
	err := f.streamKernel(basis, fit.marks, newP, func(b *passBlock, lo, rows int) error {
		P := b.aux.([]float64)
		switch X := X.(type) {
		case []float64:
			return svm.NystromRows(b.C, rows, nl, fit.proj, r, P, X[lo*r:(lo+rows)*r])
		case []float32:
			return svm.NystromRows(b.C, rows, nl, fit.proj, r, P, X[lo*r:(lo+rows)*r])
		}
		return nil
	}, nil, func(err error, lo int) error {
		var kv *svm.KernelValueError
		if errors.As(err, &kv) {
			kv.Row += lo
		}
		return err
	})
	var kv *svm.KernelValueError
	if errors.As(err, &kv) {
		return svmError(f, &svm.KernelValueError{Row: kv.Row, Col: fit.marks[kv.Col], Value: kv.Value})
	}
	return err
}

// nystromSolve fills X with the features, fits the machine (and, with
// folds=, one per fold on the same features: the folds share the
// landmarks) and answers the stored rows.
func nystromSolve[F float32 | float64](m *svmModel, f *fitting, fit *svmNystromFit, y []int, features func(X any) error, X []F) error {
	n, k := len(y), len(fit.classes)
	r := len(fit.proj) / len(fit.marks)
	if err := features(X); err != nil {
		return err
	}
	opt := svm.LinearOptions{C: m.c, Tol: m.tol, MaxIter: m.maxIter, Seed: m.seed, Workers: runtime.GOMAXPROCS(0), Interrupt: f.err}
	var err error
	if fit.model, err = linearFit(f, X, r, nil, y, k, opt); err != nil {
		return err
	}
	if m.folds > 0 {
		fold, err := m.folds_(y, n, fit.classes)
		if err != nil {
			return err
		}
		fit.cvPred, fit.folds = make([]int, n), true
		for g := 0; g < m.folds; g++ {
			tr, test := cv.Split(fold, g)
			model, err := linearFit(f, X, r, tr, y, k, opt)
			if err != nil {
				return err
			}
			err = linearAnswers(f, model, X, test, func(i, c int, _ []float64) error {
				fit.cvPred[i] = c
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	if out, err := f.outputs("svm_answers", fit.answerWidth()); err != nil || out != nil {
		if err != nil {
			return err
		}
		return answersTo(fit, f, X, out)
	}
	fit.pred = make([]int, n)
	if k == 2 { // the decision column: NULL for more classes, so not kept
		fit.dec = make([]float64, n)
	}
	return linearAnswers(f, fit.model, X, nil, func(i, c int, d []float64) error {
		fit.pred[i] = c
		if fit.dec != nil {
			fit.dec[i] = d[0]
		}
		return nil
	})
}

// answerWidth is how many values a stored row's answers take in pieces:
// the class, the decision with two classes, the cross-validated class
// with folds=.
func (fit *svmNystromFit) answerWidth() int {
	w := 1
	if len(fit.classes) == 2 {
		w++
	}
	if fit.folds {
		w++
	}
	return w
}

// answersTo is the stored rows' answers of a fit being stored: written, in
// order, to the shadow table's pieces (chunks.go), the accuracies counted
// as accuracy counts them.
func answersTo[F float32 | float64](fit *svmNystromFit, f *fitting, X []F, out *chunkWriter) error {
	row := make([]float64, 0, fit.answerWidth())
	right, cvRight := 0, 0
	emit := func(i, c int, d []float64) error {
		row = append(row[:0], float64(c))
		if len(fit.classes) == 2 {
			row = append(row, d[0])
		}
		if compareValues(fit.classes[c], fit.labels[i]) == 0 {
			right++
		}
		if fit.cvPred != nil {
			row = append(row, float64(fit.cvPred[i]))
			if compareValues(fit.classes[fit.cvPred[i]], fit.labels[i]) == 0 {
				cvRight++
			}
		}
		return out.add(row)
	}
	if err := linearAnswers(f, fit.model, X, nil, emit); err != nil {
		return err
	}
	idx, err := out.finish()
	n := math.Max(1, float64(len(fit.labels)))
	fit.pieces, fit.trainAcc, fit.cvAcc = pieces{out: idx}, float64(right)/n, float64(cvRight)/n
	fit.cvPred = nil
	return err
}

// linearFit is svm.FitLinear with its errors worded and its weights
// checked: features near float64's limits could overflow them.
func linearFit[F float32 | float64](f *fitting, X []F, r int, rows, y []int, k int, opt svm.LinearOptions) (*svm.LinearModel, error) {
	model, err := svm.FitLinear(X, r, rows, y, k, opt)
	if err != nil {
		return nil, svmError(f, err)
	}
	if model.Validate() != nil {
		return nil, fitFailure{fmt.Errorf("method=nystrom: the linear SVM's weights are not finite; %s", finiteHint)}
	}
	return model, nil
}

// linearAnswers predicts the rows given (nil: all, in order) from their
// features, handing emit each row's index, class and decision values.
func linearAnswers[F float32 | float64](f *fitting, model *svm.LinearModel, X []F, rows []int, emit func(i, class int, d []float64) error) error {
	r, np := model.Dim, model.Problems()
	x, d := make([]float64, r), make([]float64, np)
	n := len(X) / r
	count := n
	if rows != nil {
		count = len(rows)
	}
	for t := 0; t < count; t++ {
		i := t
		if rows != nil {
			i = rows[t]
		}
		for j, v := range X[i*r : (i+1)*r] {
			x[j] = float64(v)
		}
		if err := model.Decision(x, d); err != nil {
			return err
		}
		if j := firstNonFinite(d); j >= 0 {
			return fitFailure{fmt.Errorf("the decision value of row id %s is %v; svm needs finite values (%s)",
				idText(f.snap.id(f.snap.rowOf(i))), d[j], finiteHint)}
		}
		if err := emit(i, model.Vote(d), d); err != nil {
			return err
		}
		if t%4096 == 4095 {
			if err := f.err(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (fit *svmNystromFit) stored(o int, dst []any) { mustRow(fit, o, dst) }

func (fit *svmNystromFit) storedRow(o int, dst []any) error {
	dst[0] = fit.labels[o]
	if fit.pred != nil {
		var dec []float64
		if fit.dec != nil {
			dec = fit.dec[o : o+1]
		}
		fit.answer(fit.pred[o], dec, dst)
		if fit.cvPred != nil {
			dst[3] = fit.classes[fit.cvPred[o]]
		}
		return nil
	}
	row, err := fit.pieces.row(o)
	if err != nil {
		return err
	}
	class, cv := int(row[0]), 0
	if fit.folds {
		cv = int(row[len(row)-1])
	}
	if class < 0 || class >= len(fit.classes) || cv < 0 || cv >= len(fit.classes) {
		return errors.New("the stored svm fit predicts a class out of range")
	}
	fit.answer(class, row[1:], dst)
	if fit.folds {
		dst[3] = fit.classes[cv]
	}
	return nil
}

func (fit *svmNystromFit) predict(z *newObject, dst []any) error {
	basis, err := fit.f.landmarkObjects(fit.marks)
	if err != nil {
		return err
	}
	kz, err := z.kernels(basis)
	if err != nil {
		return err
	}
	r := fit.model.Dim
	phi, dec := make([]float64, r), make([]float64, fit.model.Problems())
	svm.NystromFeature(kz, fit.proj, r, phi)
	if err := fit.model.Decision(phi, dec); err != nil {
		return err
	}
	if i := firstNonFinite(dec); i >= 0 {
		return fmt.Errorf("input: its decision value is %v; a prediction needs finite values (%s)", dec[i], finiteHint)
	}
	fit.answer(fit.model.Vote(dec), dec, dst)
	return nil
}

// answer fills prediction and decision (NULL with more than two classes,
// as for method=exact).
func (fit *svmNystromFit) answer(class int, dec []float64, dst []any) {
	dst[1] = fit.classes[class]
	if fit.model.Classes == 2 {
		dst[2] = dec[0]
	}
}

// report is what ksql_model shows: per problem (two classes: one, named
// plainly; more: [class vs rest]) LIBLINEAR's figures and the intercept
// decision adds (LinearSVC's intercept_, the bias feature's weight).
func (fit *svmNystromFit) report() [][2]any {
	m := fit.model
	storage := "float64"
	if fit.float32 {
		storage = "float32"
	}
	out := [][2]any{{"type", "c_svc"}, {"method", "nystrom"}, {"landmarks", int64(len(fit.marks))},
		{"features", int64(m.Dim)}, {"feature_storage", storage}, {"classes", int64(m.Classes)}}
	for p := 0; p < m.Problems(); p++ {
		key := ""
		if m.Classes > 2 {
			key = "[" + idText(fit.classes[p]) + " vs rest]"
		}
		out = append(out, [2]any{"iterations" + key, int64(m.Iterations[p])}, [2]any{"support_vectors" + key, int64(m.NSV[p])},
			[2]any{"dual_objective" + key, m.Dual[p]}, [2]any{"primal_objective" + key, m.Primal[p]},
			[2]any{"intercept" + key, m.W[(p+1)*(m.Dim+1)-1]})
	}
	switch {
	case fit.pred == nil:
		out = append(out, [2]any{"training_accuracy", fit.trainAcc})
		if fit.folds {
			out = append(out, [2]any{"cv_accuracy", fit.cvAcc})
		}
	default:
		out = append(out, [2]any{"training_accuracy", accuracy(fit.classes, fit.pred, fit.labels)})
		if fit.cvPred != nil {
			out = append(out, [2]any{"cv_accuracy", accuracy(fit.classes, fit.cvPred, fit.labels)})
		}
	}
	for p, ok := range m.Converged {
		if !ok {
			what := "the problem"
			if m.Classes > 2 {
				what = "class " + idText(fit.classes[p]) + " vs rest"
			}
			out = append(out, [2]any{"warning", fmt.Sprintf("%s reached max_iter = %d outer iterations before tol (LinearSVC's ConvergenceWarning); raise max_iter= or tol=, or lower C=",
				what, fit.maxIter)})
		}
	}
	return out
}

// accuracy is the share of rows whose class is their label.
func accuracy(classes []any, pred []int, labels []any) float64 {
	right := 0
	for o, c := range pred {
		if compareValues(classes[c], labels[o]) == 0 {
			right++
		}
	}
	return float64(right) / math.Max(1, float64(len(pred)))
}

var (
	_ fitted   = (*svmNystromFit)(nil)
	_ reporter = (*svmNystromFit)(nil)
)
