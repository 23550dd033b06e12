package vtab

import (
	"errors"
	"fmt"
	"math"
	"runtime"
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

// svmKind is svm(id, label, prediction, decision, input HIDDEN): C-support
// vector classification (libsvm's formulation, as scikit-learn's SVC).
var svmKind = modelKind{
	name:      "svm",
	keys:      []string{"c", "tol", "class_weight", "folds", "seed"},
	extra:     []extraColumn{{key: "label", doc: "the class of each row"}},
	configure: configureSVM,
	decode:    decodeSVM,
}

// svmModel is an svm table's arguments.
type svmModel struct {
	c, tol   float64
	balanced bool
	folds    int // 0: no cross-validation
	seed     uint64
}

func configureSVM(opts options) (model, error) {
	positive := func(f float64) bool { return f > 0 }
	c, err := opts.real("c", 1, positive, "a finite number > 0 (default 1, as in scikit-learn and kernlab)")
	if err != nil {
		return nil, err
	}
	tol, err := opts.real("tol", 1e-3, positive, "a finite number > 0 (the stopping tolerance; default 1e-3)")
	if err != nil {
		return nil, err
	}
	w, given, err := opts.text("class_weight")
	if err != nil {
		return nil, err
	}
	if given && !strings.EqualFold(w, "balanced") {
		return nil, fmt.Errorf("class_weight=%s: allowed balanced (C scaled by n / (classes · rows of the class)), or leave it out", w)
	}
	folds, err := opts.integer("folds", 0, 2, 1<<20)
	if err != nil {
		return nil, err
	}
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	return &svmModel{c: c, tol: tol, balanced: given, folds: int(folds), seed: uint64(seed)}, nil
}

func (m *svmModel) columns() []string {
	return []string{"label", "prediction", "decision REAL", "cv_prediction"}
}

// svmFit is a fitted classifier with its answers for the stored rows.
type svmFit struct {
	model   *svm.Model
	classes []any // the distinct labels in SQLite's order
	labels  []any // each object's label
	basis   []kernels.Object
	pred    []int     // each object's predicted class
	dec     []float64 // each object's decision values, NumPairs per object
	cvPred  []int     // each object's class predicted without its fold; nil without folds=
}

func (m *svmModel) fit(f *fitting) (fitted, error) {
	labels := f.extra("label")
	classes, y, err := svmClasses(f, labels)
	if err != nil {
		return nil, err
	}
	if err := answersTooBig(len(y), len(classes), f.maxBytes()); err != nil {
		return nil, err
	}
	kern, release, err := svmKernel(f)
	if err != nil {
		return nil, err
	}
	defer release()
	opt := svm.Options{C: m.c, Tol: m.tol, CacheBytes: MaxSVMCacheBytes.Get(f.hc),
		Workers: runtime.GOMAXPROCS(0), Interrupt: f.err}
	if m.balanced {
		opt.ClassWeight = svm.BalancedWeights(y, len(classes))
	}
	model, err := svm.Fit(kern, y, opt)
	if err != nil {
		return nil, svmError(f, err)
	}
	fit := &svmFit{model: model, classes: classes, labels: labels}
	if m.folds > 0 {
		if fit.cvPred, err = m.crossValidate(f, kern, y, classes, opt); err != nil {
			return nil, err
		}
	}
	fit.basis = make([]kernels.Object, len(model.Support))
	for s, o := range model.Support {
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
			"raise it with SELECT ksql_config('max_gram_bytes', N), or merge classes", n, classes, pairs, sizeText(need), max)
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
	fit.pred, fit.dec = make([]int, n), make([]float64, n*np)
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
		if err := fit.model.PredictBatch(kb, dec, fit.pred[lo:hi]); err != nil {
			return err
		}
		if i := firstNonFinite(dec); i >= 0 {
			return fitFailure{fmt.Errorf("the decision value of row id %s is %v; svm needs finite values (%s)",
				idText(f.snap.ids[f.snap.rows[lo+i/np]]), dec[i], finiteHint)}
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
// fold; folds are stratified by class (internal/cv's documented rule).
func (m *svmModel) crossValidate(f *fitting, kern svm.Kernel, y []int, classes []any, opt svm.Options) ([]int, error) {
	fold, err := cv.Stratified(y, len(classes), m.folds, m.seed)
	if err != nil {
		var fe *cv.FoldsError
		if errors.As(err, &fe) && fe.Class >= 0 {
			err = fmt.Errorf("folds=%d but class %s has %d rows; each class needs at least as many rows as folds",
				m.folds, idText(classes[fe.Class]), fe.ClassRows)
		} else if errors.As(err, &fe) {
			err = fmt.Errorf("folds=%d but the source has %d labelled objects; allowed 2 ≤ folds ≤ objects", m.folds, fe.Rows)
		}
		return nil, fitFailure{err}
	}
	pred := make([]int, len(y))
	for g := 0; g < m.folds; g++ {
		train, test := cv.Split(fold, g)
		yt := make([]int, len(train))
		for s, r := range train {
			yt[s] = y[r]
		}
		if m.balanced {
			opt.ClassWeight = svm.BalancedWeights(yt, len(classes))
		}
		model, err := svm.Fit(svm.Restrict(kern, train), yt, opt)
		if err != nil {
			return nil, svmError(f, err)
		}
		sv := make([]int, len(model.Support))
		for s, p := range model.Support {
			sv[s] = train[p]
		}
		kv, dec := make([]float64, len(sv)), make([]float64, model.NumPairs())
		for _, r := range test {
			if err := kern.Column(r, sv, kv); err != nil {
				return nil, svmError(f, err)
			}
			if pred[r], err = model.Predict(kv, dec); err != nil {
				return nil, err
			}
		}
	}
	return pred, nil
}

// svmClasses sorts the distinct labels as SQLite sorts them and returns
// each object's class index. A NULL label is refused: a row without a
// class cannot be learned from, and skipping it silently would change n.
func svmClasses(f *fitting, labels []any) ([]any, []int, error) {
	classes := make([]any, 0, 8)
	for o, v := range labels {
		if v == nil {
			return nil, nil, fitFailure{fmt.Errorf("the label of row id=%v is NULL; every row needs a class "+
				"(leave such rows out with query=)", f.snap.ids[f.snap.rows[o]])}
		}
		classes = append(classes, v)
	}
	classes = sortDistinct(classes)
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
	case errors.As(err, &kv):
		return f.fitError(fitFailure{f.objError(kv.Row, kv.Col, fmt.Errorf(
			"the kernel value is %v; a fit needs finite values (use normalize(...) for long texts)", kv.Value))})
	case errors.As(err, &ce):
		return ce.Err
	}
	return f.fitError(err)
}

func (fit *svmFit) stored(o int, dst []any) {
	np := fit.model.NumPairs()
	fit.answer(fit.pred[o], fit.dec[o*np:(o+1)*np], dst)
	dst[0] = fit.labels[o]
	if fit.cvPred != nil {
		dst[3] = fit.classes[fit.cvPred[o]]
	}
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
	c, err := fit.model.Predict(kz, dec)
	if err != nil {
		return err
	}
	if i := firstNonFinite(dec); i >= 0 {
		return fmt.Errorf("input: its decision value is %v; a prediction needs finite values (%s)", dec[i], finiteHint)
	}
	fit.answer(c, dec, dst)
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
// two classes, where one number cannot say which class won.
func (fit *svmFit) answer(class int, dec []float64, dst []any) {
	dst[1] = fit.classes[class]
	if fit.model.Classes == 2 && !math.IsNaN(dec[0]) {
		dst[2] = dec[0]
	}
}

// report is what ksql_model shows of an svm fit.
func (fit *svmFit) report() [][2]any {
	m := fit.model
	out := [][2]any{{"classes", int64(m.Classes)}, {"support_vectors", int64(len(m.Support))}}
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
	}
	correct := 0
	for o, c := range fit.pred {
		if compareValues(fit.classes[c], fit.labels[o]) == 0 {
			correct++
		}
	}
	out = append(out, [2]any{"training_accuracy", float64(correct) / float64(len(fit.pred))})
	if fit.cvPred != nil {
		right := 0
		for o, c := range fit.cvPred {
			if compareValues(fit.classes[c], fit.labels[o]) == 0 {
				right++
			}
		}
		out = append(out, [2]any{"cv_accuracy", float64(right) / float64(len(fit.cvPred))})
	}
	for _, w := range m.Warnings {
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
