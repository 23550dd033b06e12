package vtab

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/cv"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
)

// What krr and klms share: numeric labels, the exact Gram matrix as a
// full n×n array, k-fold cv_prediction, and their fitted form — a
// coefficient per basis object, prediction Σ c_i·k(basis_i, z).

// numericLabels returns the label of every object as a float64. NULL,
// TEXT, BLOB and infinite labels are refused, naming the row by its id: a
// regression learns finite numbers, and skipping rows would change n
// silently.
func numericLabels(f *fitting) ([]float64, error) {
	if y := f.extraReals("label"); y != nil && !slices.ContainsFunc(y, func(x float64) bool { return math.IsInf(x, 0) || math.IsNaN(x) }) {
		return slices.Clone(y), nil
	}
	labels := f.extra("label")
	y := make([]float64, len(labels))
	for o, v := range labels {
		id := idText(f.snap.id(f.snap.rowOf(o)))
		switch x := v.(type) {
		case int64:
			y[o] = float64(x)
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, fitFailure{fmt.Errorf("the label of row id=%s is %v; the label must be a finite number "+
					"(leave such rows out with query=)", id, x)}
			}
			y[o] = x
		default:
			what := "NULL"
			if v != nil {
				what = host.TypeName(v)
			}
			return nil, fitFailure{fmt.Errorf("the label of row id=%s is %s; the label must be a number "+
				"(leave such rows out with query=)", id, what)}
		}
	}
	return y, nil
}

// gramTooBig is the max_gram_bytes error of an exact fit on n objects.
func gramTooBig(module string, n int, need, max int64) error {
	return fmt.Errorf("the exact method on %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
		"%s", n, n, n, sizeText(need), max, gramFix(need, nystromHint(module)))
}

// exactTooMany is boundedModel's check for models that build the exact
// Gram matrix: the source read stops keeping rows past the bound.
func exactTooMany(module string, n int, max int64) error {
	if need := kpca.ExactBytes(n); need > max {
		return gramTooBig(module, n, need, max)
	}
	return nil
}

// fullGram returns the exact Gram matrix with both triangles filled.
func fullGram(f *fitting, module string) ([]float64, func(), error) {
	K, err := f.gram(func(n int, need, max int64) error { return gramTooBig(module, n, need, max) })
	if err != nil {
		return nil, nil, err
	}
	U, n := K.Upper(), K.N()
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			U[j*n+i] = U[i*n+j]
		}
	}
	return U, K.Release, nil
}

func nystromHint(module string) string {
	if module == "krr" {
		return "use method=nystrom (with landmarks=m) for an approximation in O(n·m) memory"
	}
	return ""
}

// foldsOption reads seed= (which shuffles the folds, among what else a
// model draws) and folds= (0 when absent: no cross-validation).
func foldsOption(opts options) (int, uint64, error) {
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return 0, 0, err
	}
	k, err := opts.integer("folds", 0, 2, 1<<20)
	return int(k), uint64(seed), err
}

// crossPredict fills each object's prediction by the model fitted on the
// other folds: fit gets the training rows and returns a predictor of a
// held-out row.
func crossPredict(n, k int, seed uint64, fit func(train []int) (func(r int) float64, error)) ([]float64, error) {
	fold, err := cv.Folds(n, k, seed)
	if err != nil {
		var fe *cv.FoldsError
		if errors.As(err, &fe) {
			err = fmt.Errorf("folds=%d but the source has %d objects; allowed 2 ≤ folds ≤ objects", k, fe.Rows)
		}
		return nil, fitFailure{err}
	}
	out := make([]float64, n)
	for g := 0; g < k; g++ {
		train, test := cv.Split(fold, g)
		predict, err := fit(train)
		if err != nil {
			return nil, err
		}
		for _, r := range test {
			out[r] = predict(r)
		}
	}
	return out, nil
}

// regressFit is a fitted regression: coefficients over basis objects,
// and the stored rows' answers.
type regressFit struct {
	basisRows []int // the objects of the basis, as indices into the snapshot's objects
	coef      []float64
	labels    []float64
	pred, cv  []float64 // cv nil without folds=
	figures   [][2]any
	f         *fitting // for the basis objects of predict; read-only after fit
	// a streamed krr being stored keeps its predictions in the shadow
	// table's pieces (pred nil), and their mean squared error
	pieces   pieces
	trainMSE float64
}

var _ piecewise = (*regressFit)(nil)
var _ rowReader = (*regressFit)(nil)

func (r *regressFit) stored(o int, dst []any) { mustRow(r, o, dst) }

func (r *regressFit) storedRow(o int, dst []any) error {
	dst[0] = r.labels[o]
	if r.cv != nil {
		dst[2] = r.cv[o]
	}
	if r.pred != nil {
		dst[1] = r.pred[o]
		return nil
	}
	row, err := r.pieces.row(o)
	if err == nil {
		dst[1] = row[0]
	}
	return err
}

func (r *regressFit) pieceSet() *pieces { return &r.pieces }

func (r *regressFit) predict(z *newObject, dst []any) error {
	var basis []kernels.Object
	if r.basisRows != nil {
		var err error
		if basis, err = r.f.landmarkObjects(r.basisRows); err != nil {
			return err
		}
	} else {
		basis = r.f.objs()
	}
	kz, err := z.kernels(basis)
	if err != nil {
		return err
	}
	s := 0.0
	for i, c := range r.coef {
		s += c * kz[i]
	}
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return fmt.Errorf("input: its prediction is %v; a prediction needs finite values (%s)", s, finiteHint)
	}
	dst[1] = s
	return nil
}

// finiteFit passes on a regression fit whose coefficients and stored
// answers are finite. Labels near float64's limits overflow the solve
// (the solution is a label over a small pivot) although each is finite;
// such a fit is refused, naming a row, as its NaN or ±Inf answers would be
// NULLs or infinities where numbers are due.
func finiteFit(f *fitting, fit fitted, err error) (fitted, error) {
	r, ok := fit.(*regressFit)
	if err != nil || !ok {
		return fit, err
	}
	for k, vs := range [][]float64{r.pred, r.cv, r.coef} {
		o := firstNonFinite(vs)
		if o < 0 {
			continue
		}
		v := vs[o]
		if k == 2 && r.basisRows != nil { // a Nyström coefficient belongs to a landmark
			o = r.basisRows[o]
		}
		return nil, overflowFailure(f, o, v, r.labels)
	}
	return r, nil
}

// overflowFailure refuses a fit whose answer v for object o is not finite
// although the labels are.
func overflowFailure(f *fitting, o int, v float64, labels []float64) error {
	return fitFailure{fmt.Errorf("the fit of row id=%s overflows (%v): the labels (the largest |label| is %g) or kernel values "+
		"are too large for float64 arithmetic; divide the labels by a power of ten, or %s",
		idText(f.snap.id(f.snap.rowOf(o))), v, maxAbs(labels), finiteHint)}
}

func maxAbs(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, math.Abs(x))
	}
	return m
}

func (r *regressFit) report() [][2]any {
	out := append([][2]any(nil), r.figures...)
	if r.pred != nil {
		out = append(out, [2]any{"train_mse", mse(r.pred, r.labels)})
	} else {
		out = append(out, [2]any{"train_mse", r.trainMSE})
	}
	if r.cv != nil {
		out = append(out, [2]any{"cv_mse", mse(r.cv, r.labels)})
	}
	return out
}

func mse(p, y []float64) float64 {
	s := 0.0
	for i := range p {
		s += (p[i] - y[i]) * (p[i] - y[i])
	}
	return s / float64(len(p))
}

var (
	_ fitted   = (*regressFit)(nil)
	_ reporter = (*regressFit)(nil)
)

func (m *krrModel) tooMany(n int, max int64) error {
	if m.nystrom {
		nl := min(n, m.landmarks)
		if krrNystromBytes(n, nl) <= max {
			return nil
		}
		return m.streamTooMany(n, nl, max)
	}
	return exactTooMany("krr", n, max)
}

func (m *klmsModel) tooMany(n int, max int64) error { return exactTooMany("klms", n, max) }
func (m *kfdaModel) tooMany(n int, max int64) error { return exactTooMany("kfda", n, max) }
func (m *tsneModel) tooMany(n int, max int64) error { return exactTooMany("tsne", n, max) }

var (
	_ boundedModel = (*krrModel)(nil)
	_ boundedModel = (*klmsModel)(nil)
	_ boundedModel = (*kfdaModel)(nil)
	_ boundedModel = (*tsneModel)(nil)
)

// shapeChecked: decodeRegress checks every size stored reads (predictions,
// cross-validated answers, labels) against the snapshot.
func (r *regressFit) shapeChecked() {}
