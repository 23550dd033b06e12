package vtab

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ksql/ksql/internal/fda"
)

// kfdaKind is kfda(id, label, f1 … fk, input HIDDEN): the multi-class
// Fisher discriminant in the kernel's feature space.
var kfdaKind = modelKind{
	name:      "kfda",
	keys:      []string{"components", "reg"},
	extra:     []extraColumn{{key: "label", doc: "the class of each row"}},
	configure: configureKFDA,
	decode:    decodeKFDA,
}

type kfdaModel struct {
	k   int
	reg float64
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
	return &kfdaModel{k: int(k), reg: reg}, err
}

func (m *kfdaModel) columns() []string {
	cols := []string{"label"}
	for j := 1; j <= m.k; j++ {
		cols = append(cols, "f"+strconv.Itoa(j)+" REAL")
	}
	return cols
}

type kfdaFit struct {
	m       *fda.Model
	classes []any
	labels  []any
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
		var se *fda.SingularError
		if errors.As(err, &se) && (math.IsInf(se.Scale, 0) || math.IsNaN(se.Scale)) {
			return nil, fitFailure{fmt.Errorf("the within-class scatter overflows float64 (its largest diagonal entry is %v): "+
				"the kernel values are too large for its sums of products; scale the kernel down (normalize(...), or a factor "+
				"such as 1e-200*linear), or bring the vectors to a smaller scale", se.Scale)}
		}
		if errors.As(err, &se) {
			return nil, fitFailure{fmt.Errorf("the within-class scatter is singular with reg=%v, against a scatter whose largest diagonal entry is %.3g; "+
				"raise reg to about %.1g (1e-6 of it), or scale the kernel down (normalize(...), or a factor such as 1e-20*poly(...))",
				m.reg, se.Scale, 1e-6*se.Scale)}
		}
		return nil, f.fitError(err)
	}
	return &kfdaFit{m: model, classes: classes, labels: labels, f: f}, nil
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
	for j := 0; j < k; j++ {
		dst[1+j] = fit.m.Proj[o*k+j]
	}
}

func (fit *kfdaFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(fit.f.objs())
	if err != nil {
		return err
	}
	proj := make([]float64, fit.m.Components)
	fit.m.Project(kz, proj)
	for j, v := range proj {
		dst[1+j] = v
	}
	return nil
}

func (fit *kfdaFit) report() [][2]any {
	out := [][2]any{{"classes", int64(len(fit.classes))}, {"components", int64(fit.m.Components)}}
	for j, v := range fit.m.Eigenvalues {
		out = append(out, [2]any{fmt.Sprintf("eigenvalue[f%d]", j+1), v})
	}
	return out
}

// KFDA is the kfda module.
var KFDA = newModelModule(&kfdaKind)

var (
	_ fitted   = (*kfdaFit)(nil)
	_ reporter = (*kfdaFit)(nil)
)
