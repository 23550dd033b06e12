package vtab

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/svm"
)

// MaxSVMCacheBytes bounds the svm solver's cache of kernel columns when
// the Gram matrix is not built whole (sources past max_gram_bytes).
var MaxSVMCacheBytes = &host.Setting{Name: "max_svm_cache_bytes", Default: svm.DefaultCacheBytes,
	Min: 1 << 20, Max: 1 << 40,
	Doc: "largest cache of kernel columns an svm fit keeps when its Gram matrix exceeds max_gram_bytes"}

// svmKind is svm(id, label, prediction, decision, cv_prediction
// [, probability, probabilities], input HIDDEN): support vector machines as
// libsvm formulates them (scikit-learn's SVC, NuSVC, OneClassSVM, SVR,
// NuSVR), chosen by type=; probability=true adds libsvm's Platt estimates.
var svmKind = modelKind{
	name:      "svm",
	keys:      []string{"type", "C", "nu", "epsilon", "tol", "class_weight", "folds", "seed", "probability", "method", "landmarks", "max_iter"},
	extra:     []extraColumn{svmLabel},
	extraFor:  svmExtra,
	configure: configureSVM,
	decode:    decodeSVM,
}

var svmLabel = extraColumn{key: "label", doc: "the class of each row; for type=eps_svr and nu_svr its number"}

// svmTypes are type='s values, libsvm's names.
var svmTypes = []svm.Type{svm.CSVC, svm.NuSVC, svm.OneClass, svm.EpsilonSVR, svm.NuSVR}

func svmType(opts options) (svm.Type, error) {
	v, given, err := opts.text("type")
	if err != nil || !given {
		return svm.CSVC, err
	}
	for _, t := range svmTypes {
		if strings.EqualFold(v, t.String()) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("type=%s: allowed c_svc (the default), nu_svc, one_class, eps_svr or nu_svr", v)
}

// svmExtra reads a label except for type=one_class, which learns from the
// objects alone.
func svmExtra(opts options) ([]extraColumn, error) {
	t, err := svmType(opts)
	if err != nil || t != svm.OneClass {
		return []extraColumn{svmLabel}, err
	}
	if _, ok := opts["label"]; ok {
		return nil, errors.New("label= is not read by type=one_class, which learns from the objects alone; leave it out")
	}
	return nil, nil
}

// svmModel is an svm table's arguments.
type svmModel struct {
	typ            svm.Type
	c, nu, epsilon float64
	tol            float64
	balanced       bool
	folds          int // 0: no cross-validation
	seed           uint64
	probability    bool // Platt's sigmoids fitted, the probability columns declared
	nystrom        bool // method=nystrom: a linear SVM on Nyström features (svm_nystrom.go)
	landmarks      int
	maxIter        int // method=nystrom's bound on passes per problem
}

// cvKey is the ksql_model figure model_search scores the type by.
func (m *svmModel) cvKey() string {
	switch {
	case m.typ == svm.OneClass:
		return "cv_outlier_fraction"
	case m.typ.Regression():
		return "cv_mse"
	}
	return "cv_accuracy"
}

func configureSVM(opts options) (model, error) {
	typ, err := svmType(opts)
	if err != nil {
		return nil, err
	}
	m := &svmModel{typ: typ}
	if err := m.configureType(opts); err != nil {
		return nil, err
	}
	if err := m.configureMethod(opts); err != nil {
		return nil, err
	}
	positive := func(f float64) bool { return f > 0 }
	tol, tolText := 1e-3, "a finite number > 0 (the stopping tolerance; default 1e-3)"
	if m.nystrom { // LinearSVC's default
		tol, tolText = 1e-4, "a finite number > 0 (the stopping tolerance; default 1e-4 with method=nystrom)"
	}
	if m.tol, err = opts.real("tol", tol, positive, tolText); err != nil {
		return nil, err
	}
	w, given, err := opts.text("class_weight")
	if err != nil {
		return nil, err
	}
	if given && typ != svm.CSVC {
		return nil, fmt.Errorf("class_weight= is for type=c_svc only (it scales C, which type=%v does not have or weigh by class)", typ)
	}
	if given && !strings.EqualFold(w, "balanced") {
		return nil, fmt.Errorf("class_weight=%s: allowed balanced (C scaled by n / (classes · rows of the class)), or leave it out", w)
	}
	m.balanced = given
	folds, err := opts.integer("folds", 0, 2, 1<<20)
	if err != nil {
		return nil, err
	}
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	m.folds, m.seed = int(folds), uint64(seed)
	if m.probability, err = boolOption(opts, "probability"); err != nil {
		return nil, err
	}
	if m.probability && typ != svm.CSVC && typ != svm.NuSVC {
		return nil, fmt.Errorf("probability=true is for the classifiers, type=c_svc and nu_svc; type=%v has no classes to give probabilities of (leave probability out)", typ)
	}
	return m, nil
}

// configureType reads C=, nu= and epsilon=, each allowed only for the
// types that use it.
func (m *svmModel) configureType(opts options) error {
	usesC := m.typ == svm.CSVC || m.typ.Regression()
	usesNu := m.typ == svm.NuSVC || m.typ == svm.OneClass || m.typ == svm.NuSVR
	if _, hasC := opts["c"]; hasC && !usesC {
		return fmt.Errorf("C= is not read by type=%v, where nu= takes its place; leave it out", m.typ)
	}
	if _, ok := opts["nu"]; ok && !usesNu {
		return fmt.Errorf("nu= is read by type=nu_svc, one_class and nu_svr, not type=%v", m.typ)
	}
	if _, ok := opts["epsilon"]; ok && m.typ != svm.EpsilonSVR {
		return fmt.Errorf("epsilon= is read by type=eps_svr only, not type=%v (nu_svr finds its own)", m.typ)
	}
	var err error
	if usesC {
		if m.c, err = opts.real("C", 1, func(f float64) bool { return f > 0 }, "a finite number > 0 (default 1, as in scikit-learn and kernlab)"); err != nil {
			return err
		}
	}
	if usesNu {
		if m.nu, err = opts.real("nu", 0.5, func(f float64) bool { return f > 0 && f <= 1 },
			"a number with 0 < nu ≤ 1 (a bound on the fraction of margin errors and of support vectors; default 0.5)"); err != nil {
			return err
		}
	}
	if m.typ == svm.EpsilonSVR {
		if m.epsilon, err = opts.real("epsilon", 0.1, func(f float64) bool { return f >= 0 },
			"a finite number ≥ 0 (the half-width of the tube without loss; default 0.1)"); err != nil {
			return err
		}
	}
	return nil
}

func (m *svmModel) columns() []string {
	switch {
	case m.typ == svm.OneClass:
		return []string{"prediction", "decision REAL", "cv_prediction"}
	case m.typ.Regression():
		return []string{"label", "prediction REAL", "decision REAL", "cv_prediction REAL"}
	}
	if m.probability {
		return []string{"label", "prediction", "decision REAL", "cv_prediction", "probability REAL", "probabilities TEXT"}
	}
	return []string{"label", "prediction", "decision REAL", "cv_prediction"}
}

// svmFit is a fitted machine with its answers for the stored rows.
// Classifiers and one_class have classes (one_class: −1 and 1, outliers
// and inliers); regression has targets, and its decision values are its
// predictions.
type svmFit struct {
	model   *svm.Model
	classes []any     // the distinct labels in SQLite's order
	labels  []any     // each object's label; nil for one_class
	targets []float64 // regression: each object's label as a number
	basis   []kernels.Object
	pred    []int         // each object's predicted class; nil for regression
	dec     []float64     // each object's decision values, NumPairs per object
	cvPred  []int         // each object's class predicted without its fold; nil without folds=
	cvValue []float64     // regression: each object's value predicted without its fold
	platt   []svm.Sigmoid // each pair's Platt sigmoid (libsvm's probA, probB); nil without probability=true
}

// options are the solver's options for this table.
func (m *svmModel) options(f *fitting) svm.Options {
	return svm.Options{Type: m.typ, C: m.c, Nu: m.nu, Epsilon: m.epsilon, Tol: m.tol,
		CacheBytes: MaxSVMCacheBytes.Get(f.hc), Workers: runtime.GOMAXPROCS(0), Interrupt: f.err}
}

// train fits kern's n objects: classes y, or targets t for regression.
func train(kern svm.Kernel, n int, y []int, t []float64, opt svm.Options) (*svm.Model, error) {
	switch {
	case opt.Type == svm.OneClass:
		return svm.FitOneClass(kern, n, opt)
	case opt.Type.Regression():
		return svm.FitRegression(kern, t, opt)
	}
	return svm.Fit(kern, y, opt)
}

// svmOutliers are one_class's classes: libsvm's −1 (outlier) and 1.
var svmOutliers = []any{int64(-1), int64(1)}

// labelsOf reads the table's labels for its type: classes, targets, or
// nothing (one_class).
func (m *svmModel) labelsOf(f *fitting, fit *svmFit) ([]int, error) {
	var err error
	switch {
	case m.typ == svm.OneClass:
		fit.classes = svmOutliers
		return nil, nil
	case m.typ.Regression():
		fit.labels = f.extra("label")
		if fit.targets, err = numericLabels(f); err != nil {
			return nil, fmt.Errorf("type=%v: %w", m.typ, err)
		}
		return nil, nil
	}
	fit.labels = f.extra("label")
	var y []int
	fit.classes, y, err = svmClasses(f, fit.labels)
	return y, err
}

func (m *svmModel) fit(f *fitting) (fitted, error) {
	if m.nystrom {
		return m.fitNystrom(f)
	}
	fit := &svmFit{}
	y, err := m.labelsOf(f, fit)
	if err != nil {
		return nil, err
	}
	n := len(f.objs())
	if err := answersTooBig(n, max(len(fit.classes), 2), f.maxBytes()); err != nil {
		return nil, err
	}
	kern, release, err := svmKernel(f)
	if err != nil {
		return nil, err
	}
	defer release()
	opt := m.options(f)
	if m.balanced {
		opt.ClassWeight = svm.BalancedWeights(y, len(fit.classes))
	}
	if fit.model, err = train(kern, n, y, fit.targets, opt); err != nil {
		return nil, m.svmError(f, fit, err)
	}
	if m.folds > 0 {
		if err := m.crossValidate(f, kern, y, fit, opt); err != nil {
			return nil, err
		}
	}
	if m.probability {
		if fit.platt, err = svm.FitPlatt(kern, y, len(fit.classes), opt, m.seed); err != nil {
			return nil, m.plattError(f, fit, err)
		}
	}
	fit.basis = make([]kernels.Object, len(fit.model.Support))
	for s, o := range fit.model.Support {
		fit.basis[s] = f.objs()[o]
	}
	if err := fit.trainingAnswers(f); err != nil {
		return nil, err
	}
	return fit, nil
}

// answersTooBig is the error of a fit whose stored answers (each row's
// decision value of every pair) would pass max_gram_bytes, checked before
// fitting: everything else a fit keeps is bounded by max_gram_bytes,
// max_svm_cache_bytes or O(classes·rows).
func answersTooBig(n, classes int, max int64) error {
	pairs := int64(classes) * int64(classes-1) / 2
	if need := int64(n) * pairs * 8; need > max {
		return fmt.Errorf("the %d stored rows' decision values for %d classes (%d pairs each) need %s, more than max_gram_bytes = %d; "+
			"%s", n, classes, pairs, sizeText(need), max, gramFix(need, "merge classes"))
	}
	return nil
}

// answerBlockBytes bounds the kernel values that the stored rows' answers
// are computed from at a time (a block of rows against every support
// vector; max_gram_bytes when lower): large enough that a block keeps
// every core busy, small enough to stay in memory whatever n is.
const answerBlockBytes = 64 << 20

// trainingAnswers predicts every stored object once, at fit time, so a
// scan reads them instead of evaluating kernels per row. It works block
// by block, so its memory is O(block·support vectors), not O(n·support
// vectors): any fit that succeeds answers.
func (fit *svmFit) trainingAnswers(f *fitting) error {
	n, ns, np := len(f.objs()), len(fit.basis), fit.model.NumPairs()
	rows := n
	if ns > 0 {
		rows = max(1, min(n, int(min(answerBlockBytes, f.maxBytes())/int64(8*ns))))
	}
	block, err := f.crossBlocks(fit.basis, fit.model.Support)
	if err != nil {
		return err
	}
	kv := make([]float64, rows*ns)
	fit.dec = make([]float64, n*np)
	regression := fit.model.Type.Regression()
	if !regression {
		fit.pred = make([]int, n)
	}
	for lo := 0; lo < n; lo += rows {
		hi := min(lo+rows, n)
		kb := kv[:(hi-lo)*ns]
		if err := block(lo, hi, kb); err != nil {
			return err
		}
		if i := firstNonFinite(kb); i >= 0 {
			return svmError(f, &svm.KernelValueError{Row: lo + i/ns, Col: fit.model.Support[i%ns], Value: kb[i]})
		}
		dec := fit.dec[lo*np : hi*np]
		if regression {
			err = fit.model.DecisionBatch(kb, dec)
		} else {
			err = fit.model.PredictBatch(kb, dec, fit.pred[lo:hi])
		}
		if err != nil {
			return err
		}
		if i := firstNonFinite(dec); i >= 0 {
			return fitFailure{fmt.Errorf("the decision value of row id %s is %v; svm needs finite values (%s)",
				idText(f.snap.id(f.snap.rowOf(lo+i/np))), dec[i], finiteHint)}
		}
		if err := f.err(); err != nil {
			return err
		}
	}
	return nil
}

// firstNonFinite returns the index of the first NaN or ±Inf in v, or −1.
func firstNonFinite(v []float64) int {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i
		}
	}
	return -1
}

// crossValidate predicts each object with the model fitted without its
// fold: classes (folds stratified by class, internal/cv's documented
// rule), one_class's ±1 or regression's value (plain folds).
func (m *svmModel) crossValidate(f *fitting, kern svm.Kernel, y []int, fit *svmFit, opt svm.Options) error {
	n := len(f.objs())
	fold, err := m.folds_(y, n, fit.classes)
	if err != nil {
		return err
	}
	regression := m.typ.Regression()
	if regression {
		fit.cvValue = make([]float64, n)
	} else {
		fit.cvPred = make([]int, n)
	}
	for g := 0; g < m.folds; g++ {
		tr, test := cv.Split(fold, g)
		var yt []int
		var tt []float64
		for _, r := range tr {
			if y != nil {
				yt = append(yt, y[r])
			}
			if regression {
				tt = append(tt, fit.targets[r])
			}
		}
		if m.balanced {
			opt.ClassWeight = svm.BalancedWeights(yt, len(fit.classes))
		}
		model, err := train(svm.Restrict(kern, tr), len(tr), yt, tt, opt)
		if err != nil {
			return m.svmError(f, fit, err)
		}
		sv := make([]int, len(model.Support))
		for s, p := range model.Support {
			sv[s] = tr[p]
		}
		kv, dec := make([]float64, len(sv)), make([]float64, model.NumPairs())
		for _, r := range test {
			if err := kern.Column(r, sv, kv); err != nil {
				return m.svmError(f, fit, err)
			}
			if regression {
				err = model.DecisionBatch(kv, dec)
				fit.cvValue[r] = dec[0]
			} else {
				fit.cvPred[r], err = model.Predict(kv, dec)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// folds_ assigns the objects to folds: stratified by class for the
// classifiers, plain for one_class and regression.
func (m *svmModel) folds_(y []int, n int, classes []any) ([]int, error) {
	var fold []int
	var err error
	if y != nil {
		fold, err = cv.Stratified(y, len(classes), m.folds, m.seed)
	} else {
		fold, err = cv.Folds(n, m.folds, m.seed)
	}
	if err != nil {
		var fe *cv.FoldsError
		if errors.As(err, &fe) && fe.Class >= 0 {
			err = fmt.Errorf("folds=%d but class %s has %d rows; each class needs at least as many rows as folds",
				m.folds, idText(classes[fe.Class]), fe.ClassRows)
		} else if errors.As(err, &fe) {
			err = fmt.Errorf("folds=%d but the source has %d objects; allowed 2 ≤ folds ≤ objects", m.folds, fe.Rows)
		}
		return nil, fitFailure{err}
	}
	return fold, nil
}

// svmClasses sorts the distinct labels as SQLite sorts them and returns
// each object's class index. A NULL label is refused: a row without a
// class cannot be learned from, and skipping it silently would change n.
func svmClasses(f *fitting, labels []any) ([]any, []int, error) {
	for o, v := range labels {
		if v == nil {
			return nil, nil, fitFailure{fmt.Errorf("the label of row id=%v is NULL; every row needs a class "+
				"(leave such rows out with query=)", f.snap.id(f.snap.rowOf(o)))}
		}
	}
	classes := distinctValues(labels)
	if len(classes) < 2 {
		return nil, nil, fitFailure{fmt.Errorf("the labels hold one class (%v); svm needs at least two", classes[0])}
	}
	y := make([]int, len(labels))
	for o, v := range labels {
		y[o] = searchValue(classes, v)
	}
	return classes, y, nil
}

// svmKernel gives the solver its kernel columns: from the whole Gram
// matrix when it fits in max_gram_bytes (computed once, on all cores),
// otherwise evaluated on demand behind the solver's bounded cache.
func svmKernel(f *fitting) (svm.Kernel, func(), error) {
	objs := f.objs()
	n := len(objs)
	if need := int64(n) * int64(n) * 8; need <= f.maxBytes() {
		K, err := f.gram(func(int, int64, int64) error { return nil })
		if err != nil {
			return nil, nil, err
		}
		U := K.Upper()
		col := func(i int, idx []int, dst []float64) error {
			row := U[i*n : (i+1)*n]
			for t, j := range idx {
				if j >= i {
					dst[t] = row[j]
				} else {
					dst[t] = U[j*n+i]
				}
			}
			return nil
		}
		return svm.KernelFunc(col), K.Release, nil
	}
	p := f.spec().Prepare(objs)
	opt, err := gramOptions(f.hc, f.spec())
	if err != nil {
		return nil, nil, err
	}
	col := func(i int, idx []int, dst []float64) error {
		ws := kernels.Workspace{MaxCells: opt.MaxCells, Check: f.hc.Err, Env: opt.Env}
		for t, j := range idx {
			v, err := p.Eval(i, p, j, &ws)
			if err != nil {
				return f.objError(i, j, err)
			}
			dst[t] = v
		}
		return f.err()
	}
	return svm.KernelFunc(col), func() {}, nil
}

// svmError words the solver's errors for SQL.
func svmError(f *fitting, err error) error {
	var kv *svm.KernelValueError
	var ce *svm.ColumnError
	switch {
	case errors.As(err, &kv) && kv.Finite():
		return f.fitError(fitFailure{f.objError(kv.Row, kv.Col, fmt.Errorf(
			"the kernel value %v is beyond the float32 range (±%.2g) in which svm caches kernel values; "+
				"scale the vectors or the kernel", kv.Value, svm.CacheLimit))})
	case errors.As(err, &kv):
		return f.fitError(fitFailure{f.objError(kv.Row, kv.Col, fmt.Errorf(
			"the kernel value is %v; a fit needs finite values (use normalize(...) for long texts)", kv.Value))})
	case errors.As(err, &ce):
		return ce.Err
	}
	return f.fitError(err)
}

// svmError words the errors that name the table's options: an
// infeasible ν names the classes as SQL literals and the largest ν that
// is feasible for them.
func (m *svmModel) svmError(f *fitting, fit *svmFit, err error) error {
	var ne *svm.NuInfeasibleError
	if errors.As(err, &ne) {
		most := 2 * float64(min(ne.CountA, ne.CountB)) / float64(ne.CountA+ne.CountB)
		return fitFailure{fmt.Errorf("nu=%g is infeasible for classes %s (%d rows) and %s (%d rows): nu·(rows of both)/2 must not exceed "+
			"the rows of the smaller (libsvm's \"specified nu is infeasible\"); allowed nu ≤ %.6g for them",
			m.nu, idText(fit.classes[ne.A]), ne.CountA, idText(fit.classes[ne.B]), ne.CountB, most)}
	}
	var me *svm.NuMarginError
	if errors.As(err, &me) {
		return fitFailure{fmt.Errorf("nu=%g gives classes %s and %s a degenerate solution (libsvm's r = %g, so the classifier 1/r scales is not finite; "+
			"scikit-learn fails on it too): use a smaller nu", m.nu, idText(fit.classes[me.A]), idText(fit.classes[me.B]), me.R)}
	}
	var re *svm.RhoError
	if errors.As(err, &re) {
		hint := "use nu < 1"
		if m.typ != svm.OneClass {
			hint = "use a smaller C or nu"
		}
		return fitFailure{fmt.Errorf("type=%v: every row's dual variable is at its bound, so the offset rho = %g is not finite "+
			"(scikit-learn fails on it too): %s", m.typ, re.Rho, hint)}
	}
	return svmError(f, err)
}

func (fit *svmFit) stored(o int, dst []any) {
	np := fit.model.NumPairs()
	class := 0
	if fit.pred != nil {
		class = fit.pred[o]
	}
	fit.answer(class, fit.dec[o*np:(o+1)*np], dst)
	switch {
	case fit.model.Type == svm.OneClass:
		if fit.cvPred != nil {
			dst[2] = fit.classes[fit.cvPred[o]]
		}
		return
	case fit.cvPred != nil:
		dst[3] = fit.classes[fit.cvPred[o]]
	case fit.cvValue != nil:
		dst[3] = fit.cvValue[o]
	}
	dst[0] = fit.labels[o]
}

// predict refuses a new object whose decision values are not finite (its
// kernel values are checked by z.kernels), as the fit refuses such
// training rows: a vote on NaN or ±Inf would name a class nothing chose.
func (fit *svmFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(fit.basis)
	if err != nil {
		return err
	}
	dec := make([]float64, fit.model.NumPairs())
	if err := fit.model.DecisionBatch(kz, dec); err != nil {
		return err
	}
	if i := firstNonFinite(dec); i >= 0 {
		return fmt.Errorf("input: its decision value is %v; a prediction needs finite values (%s)", dec[i], finiteHint)
	}
	class := 0
	if !fit.model.Type.Regression() {
		class = fit.model.Vote(dec)
	}
	fit.answer(class, dec, dst)
	return nil
}

// warningText words a warning of the solver, its classes as SQL literals.
func (fit *svmFit) warningText(w svm.Warning) string {
	if w.A < 0 {
		return fmt.Sprintf("%v (count %d, value %g)", w.Kind, w.Count, w.Value)
	}
	return fmt.Sprintf("%v (classes %s vs %s, count %d, value %g)", w.Kind, idText(fit.classes[w.A]), idText(fit.classes[w.B]), w.Count, w.Value)
}

// finiteHint says what to do about a kernel or decision value that is not
// finite.
const finiteHint = "bring the vectors to a smaller scale, or use a bounded kernel such as normalize(...) or gauss(...)"

// answer fills prediction and decision; decision is NULL with more than
// two classes, where one number cannot say which class won. Regression
// predicts its decision value; one_class has no label column.
func (fit *svmFit) answer(class int, dec []float64, dst []any) {
	switch {
	case fit.model.Type.Regression():
		dst[1], dst[2] = dec[0], dec[0]
	case fit.model.Type == svm.OneClass:
		dst[0], dst[1] = fit.classes[class], dec[0]
	default:
		dst[1] = fit.classes[class]
		if fit.model.Classes == 2 && !math.IsNaN(dec[0]) {
			dst[2] = dec[0]
		}
		if fit.platt != nil {
			dst[4], dst[5] = fit.probabilities(dec)
		}
	}
}

// probabilities are libsvm's estimates for decision values dec: the
// larger label's with two classes (as decision is its value; NULL with
// more), and a JSON object of every class's, keyed by the class as a SQL
// literal as ksql_model names it (1, '1' and x'31' are three keys), in
// the classes' order.
func (fit *svmFit) probabilities(dec []float64) (any, any) {
	k := fit.model.Classes
	p := make([]float64, k+svm.CoupleWork(k))
	svm.Probabilities(k, dec, fit.platt, p[:k], p[k:])
	b := make([]byte, 0, 24*k)
	b = append(b, '{')
	for c := 0; c < k; c++ {
		if c > 0 {
			b = append(b, ',')
		}
		key, _ := json.Marshal(idText(fit.classes[c])) // a string always marshals
		b = append(append(b, key...), ':')
		b = strconv.AppendFloat(b, p[c], 'g', -1, 64)
	}
	b = append(b, '}')
	var one any
	if k == 2 {
		one = p[1]
	}
	return one, string(b)
}

// plattError words a failure of the cross-validation that fits the
// sigmoids, naming the pair and the fold; interrupts and bounds pass as
// they are, so that a retry works.
func (m *svmModel) plattError(f *fitting, fit *svmFit, err error) error {
	var pe *svm.PlattError
	if !errors.As(err, &pe) {
		return m.svmError(f, fit, err)
	}
	inner := m.svmError(f, fit, pe.Err)
	var ff fitFailure
	if !errors.As(inner, &ff) {
		return inner
	}
	return fitFailure{fmt.Errorf("probability=true: the fit on fold %d of %d that calibrates classes %s vs %s failed "+
		"(libsvm's cross-validation for the sigmoid, rows of the two classes shuffled by seed=%d): %w",
		pe.Fold+1, svm.PlattFolds, idText(fit.classes[pe.A]), idText(fit.classes[pe.B]), m.seed, ff.error)}
}

// report is what ksql_model shows of an svm fit.
func (fit *svmFit) report() [][2]any {
	m := fit.model
	if m.Type == svm.OneClass || m.Type.Regression() {
		return fit.reportSingle()
	}
	out := [][2]any{{"type", m.Type.String()}, {"classes", int64(m.Classes)}, {"support_vectors", int64(len(m.Support))}}
	for c, ns := range m.NSupport {
		out = append(out, [2]any{"support_vectors[" + idText(fit.classes[c]) + "]", int64(ns)})
	}
	out = append(out, [2]any{"iterations", int64(m.Iterations())})
	// The intercept is the one decision adds (scikit-learn's intercept_):
	// with two classes positive for the second class, with more for the
	// first of the pair.
	for q, p := range m.Pairs {
		key := "[" + idText(fit.classes[p.A]) + " vs " + idText(fit.classes[p.B]) + "]"
		out = append(out, [2]any{"dual_objective" + key, -p.Objective}, [2]any{"intercept" + key, m.Intercept[q]})
		if m.Type == svm.NuSVC {
			out = append(out, [2]any{"rho" + key, p.Rho}, [2]any{"bounded_support_vectors" + key, int64(p.NBSV)})
		}
	}
	for q, s := range fit.platt { // scikit-learn's probA_, probB_: on libsvm's value, positive for the first class
		key := "[" + idText(fit.classes[m.Pairs[q].A]) + " vs " + idText(fit.classes[m.Pairs[q].B]) + "]"
		out = append(out, [2]any{"probA" + key, s.A}, [2]any{"probB" + key, s.B})
	}
	out = append(out, [2]any{"training_accuracy", accuracy(fit.classes, fit.pred, fit.labels)})
	if fit.cvPred != nil {
		out = append(out, [2]any{"cv_accuracy", accuracy(fit.classes, fit.cvPred, fit.labels)})
	}
	return fit.warnings(out)
}

// reportSingle is the report of one_class and regression: one decision
// function, libsvm's ρ (decision = Σ coef·K − ρ), and how the training
// rows (and, with folds=, the held-out rows) fare.
func (fit *svmFit) reportSingle() [][2]any {
	m := fit.model
	p := m.Pairs[0]
	out := [][2]any{{"type", m.Type.String()}, {"support_vectors", int64(len(m.Support))},
		{"bounded_support_vectors", int64(p.NBSV)}, {"iterations", int64(m.Iterations())},
		{"dual_objective", -p.Objective}, {"rho", p.Rho}, {"intercept", m.Intercept[0]}}
	if m.Type == svm.NuSVR {
		out = append(out, [2]any{"epsilon", -p.R}) // the tube ν chose
	}
	if m.Type == svm.OneClass {
		out = append(out, [2]any{"training_outlier_fraction", outlierFraction(fit.pred)})
		if fit.cvPred != nil {
			out = append(out, [2]any{"cv_outlier_fraction", outlierFraction(fit.cvPred)})
		}
		return fit.warnings(out)
	}
	out = append(out, mseFigure("train_mse", fit.dec, fit.targets))
	if fit.cvValue != nil {
		out = append(out, mseFigure("cv_mse", fit.cvValue, fit.targets))
	}
	return fit.warnings(out)
}

// outlierFraction is the share of one_class answers that are −1 (class 0).
func outlierFraction(pred []int) float64 {
	out := 0
	for _, c := range pred {
		if c == 0 {
			out++
		}
	}
	return float64(out) / float64(len(pred))
}

func (fit *svmFit) warnings(out [][2]any) [][2]any {
	for _, w := range fit.model.Warnings {
		out = append(out, [2]any{"warning", fit.warningText(w)})
	}
	return out
}

// SVM is the svm module.
var SVM = newModelModule(&svmKind)

var (
	_ host.Module = SVM
	_ fitted      = (*svmFit)(nil)
	_ reporter    = (*svmFit)(nil)
)
