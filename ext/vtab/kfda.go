package vtab

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/fda"
)

// kfdaKind is kfda(id, label, f1 … fk, prediction, cv_prediction, input
// HIDDEN): the multi-class Fisher discriminant in the kernel's feature
// space, classifying by the nearest class mean of the projections.
var kfdaKind = modelKind{
	name:      "kfda",
	keys:      []string{"components", "reg", "folds", "seed"},
	extra:     []extraColumn{{key: "label", doc: "the class of each row"}},
	configure: configureKFDA,
	decode:    decodeKFDA,
}

type kfdaModel struct {
	k     int
	reg   float64
	folds int // 0: no cross-validation
	seed  uint64
}

func configureKFDA(opts options) (model, error) {
	if _, ok := opts["components"]; !ok {
		return nil, errors.New("missing argument components= (the number of discriminant directions, at most classes − 1, such as components=2)")
	}
	k, err := opts.integer("components", 0, 1, maxComponents)
	if err != nil {
		return nil, err
	}
	reg, err := opts.real("reg", 1e-3, func(f float64) bool { return f > 0 }, "a finite number > 0 (the within-class regulariser; default 1e-3)")
	if err != nil {
		return nil, err
	}
	folds, seed, err := foldsOption(opts)
	return &kfdaModel{k: int(k), reg: reg, folds: folds, seed: seed}, err
}

func (m *kfdaModel) columns() []string {
	cols := []string{"label"}
	for j := 1; j <= m.k; j++ {
		cols = append(cols, "f"+strconv.Itoa(j)+" REAL")
	}
	return append(cols, "prediction", "cv_prediction")
}

// kfdaFit is a fitted discriminant; a class is the nearest class mean of
// the projections (fda.Model.Nearest).
type kfdaFit struct {
	m       *fda.Model
	classes []any
	labels  []any
	y       []int // each stored object's class index
	cvPred  []int // each object's class by the fit without its fold; nil without folds=
	f       *fitting
}

func (m *kfdaModel) fit(f *fitting) (fitted, error) {
	labels := f.extra("label")
	classes, y, err := svmClasses(f, labels)
	if err != nil {
		return nil, kfdaClassError(err)
	}
	if m.k > len(classes)-1 {
		return nil, fitFailure{fmt.Errorf("components=%d but the labels hold %d classes (at most classes − 1 = %d directions)", m.k, len(classes), len(classes)-1)}
	}
	K, release, err := fullGram(f, "kfda")
	if err != nil {
		return nil, err
	}
	defer release()
	model, err := fda.FitPolled(K, y, len(classes), m.k, m.reg, f.err)
	if err != nil {
		return nil, m.fitError(f, err)
	}
	fit := &kfdaFit{m: model, classes: classes, labels: labels, y: y, f: f}
	if m.folds > 0 {
		fold, err := m.foldsOf(y, classes)
		if err != nil {
			return nil, err
		}
		if fit.cvPred, err = fda.CrossPredict(K, y, len(classes), m.k, m.reg, fold, m.folds, f.err); err != nil {
			return nil, m.fitError(f, err)
		}
	}
	return fit, nil
}

// foldsOf assigns the objects to folds stratified by class (internal/cv's
// documented rule, as svm's), so that every fold's fit sees every class.
func (m *kfdaModel) foldsOf(y []int, classes []any) ([]int, error) {
	fold, err := cv.Stratified(y, len(classes), m.folds, m.seed)
	var fe *cv.FoldsError
	switch {
	case errors.As(err, &fe) && fe.Class >= 0:
		return nil, fitFailure{fmt.Errorf("folds=%d but class %s has %d rows; each class needs at least as many rows as folds",
			m.folds, idText(classes[fe.Class]), fe.ClassRows)}
	case errors.As(err, &fe):
		return nil, fitFailure{fmt.Errorf("folds=%d but the source has %d objects; allowed 2 ≤ folds ≤ objects", m.folds, fe.Rows)}
	}
	return fold, err
}

// fitError words the solver's errors; a fold's fit is named, as its
// scatter is not the full fit's.
func (m *kfdaModel) fitError(f *fitting, err error) error {
	where := ""
	var fe *fda.FoldError
	if errors.As(err, &fe) {
		where = fmt.Sprintf(" (in the fit without fold %d of %d, seed=%d)", fe.Fold+1, m.folds, m.seed)
	}
	var se *fda.SingularError
	if errors.As(err, &se) && (math.IsInf(se.Scale, 0) || math.IsNaN(se.Scale)) {
		return fitFailure{fmt.Errorf("the within-class scatter overflows float64 (its largest diagonal entry is %v)%s: "+
			"the kernel values are too large for its sums of products; scale the kernel down (normalize(...), or a factor "+
			"such as 1e-200*linear), or bring the vectors to a smaller scale", se.Scale, where)}
	}
	if errors.As(err, &se) {
		return fitFailure{fmt.Errorf("the within-class scatter is singular with reg=%v, against a scatter whose largest diagonal entry is %.3g%s; "+
			"raise reg to about %.1g (1e-6 of it), or scale the kernel down (normalize(...), or a factor such as 1e-20*poly(...))",
			m.reg, se.Scale, where, 1e-6*se.Scale)}
	}
	var pe *fda.ParamError
	if fe != nil && errors.As(err, &pe) {
		return fitFailure{fmt.Errorf("the fit without fold %d of %d failed: %v", fe.Fold+1, m.folds, fe.Err)}
	}
	return f.fitError(err)
}

// kfdaClassError words svmClasses's errors for kfda.
func kfdaClassError(err error) error {
	var ff fitFailure
	if errors.As(err, &ff) {
		return fitFailure{errors.New(strings.ReplaceAll(ff.Error(), "svm needs", "kfda needs"))}
	}
	return err
}

func (fit *kfdaFit) stored(o int, dst []any) {
	dst[0] = fit.labels[o]
	k := fit.m.Components
	proj := fit.m.Proj[o*k : (o+1)*k]
	for j, v := range proj {
		dst[1+j] = v
	}
	dst[1+k] = fit.class(fit.m.Nearest(proj))
	if fit.cvPred != nil {
		dst[2+k] = fit.classes[fit.cvPred[o]]
	}
}

// class is the label of class c, or NULL for −1: a projection that is
// not finite is near no class.
func (fit *kfdaFit) class(c int) any {
	if c < 0 {
		return nil
	}
	return fit.classes[c]
}

func (fit *kfdaFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(fit.f.objs())
	if err != nil {
		return err
	}
	proj := make([]float64, fit.m.Components)
	fit.m.Project(kz, proj)
	for j, v := range proj {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("input: its projection f%d is %v; a model answers only for finite values (%s)", j+1, v, finiteHint)
		}
		dst[1+j] = v
	}
	dst[1+len(proj)] = fit.class(fit.m.Nearest(proj))
	return nil
}

// report gives the share of stored rows whose nearest class mean is their
// own class, and with folds= the share whose fit without their fold says
// so.
func (fit *kfdaFit) report() [][2]any {
	out := [][2]any{{"classes", int64(len(fit.classes))}, {"components", int64(fit.m.Components)}}
	for j, v := range fit.m.Eigenvalues {
		out = append(out, [2]any{fmt.Sprintf("eigenvalue[f%d]", j+1), v})
	}
	k, right := fit.m.Components, 0
	for o, c := range fit.y {
		if fit.m.Nearest(fit.m.Proj[o*k:(o+1)*k]) == c {
			right++
		}
	}
	out = append(out, [2]any{"training_accuracy", float64(right) / float64(len(fit.y))})
	if fit.cvPred != nil {
		right = 0
		for o, c := range fit.cvPred {
			if c == fit.y[o] {
				right++
			}
		}
		out = append(out, [2]any{"cv_accuracy", float64(right) / float64(len(fit.y))})
	}
	return out
}

// KFDA is the kfda module.
var KFDA = newModelModule(&kfdaKind)

var (
	_ fitted   = (*kfdaFit)(nil)
	_ reporter = (*kfdaFit)(nil)
)
