package vtab

import (
	"errors"
	"fmt"
	"github.com/ksql/ksql/internal/dense"
	"math"
	"strings"

	"github.com/ksql/ksql/internal/gp"
	"github.com/ksql/ksql/internal/kernels"
)

// gpKind is gp(id, label, prediction, std, cv_prediction, input HIDDEN):
// Gaussian process regression with the kernel and noise as given, as
// scikit-learn's GaussianProcessRegressor(alpha=noise, optimizer=None):
// prediction is the posterior mean, std the posterior standard deviation
// of the function (without the noise).
var gpKind = modelKind{
	name:      "gp",
	keys:      []string{"noise", "normalize_y", "folds", "seed"},
	extra:     []extraColumn{{key: "label", doc: "the number to predict for each row"}},
	configure: configureGP,
	decode:    decodeGP,
}

type gpModel struct {
	noise     float64
	normalize bool
	folds     int
	seed      uint64
}

func configureGP(opts options) (model, error) {
	if _, ok := opts["noise"]; !ok {
		return nil, errors.New("noise= is required: the noise variance added to the kernel matrix's diagonal " +
			"(scikit-learn's alpha), a finite number > 0")
	}
	noise, err := opts.real("noise", 0, func(f float64) bool { return f > 0 },
		"a finite number > 0 (the noise variance added to the kernel matrix's diagonal)")
	if err != nil {
		return nil, err
	}
	m := &gpModel{noise: noise}
	if m.normalize, err = boolOption(opts, "normalize_y"); err != nil {
		return nil, err
	}
	m.folds, m.seed, err = foldsOption(opts)
	return m, err
}

// boolOption reads true/false (or 1/0), false when absent.
func boolOption(opts options, key string) (bool, error) {
	v, ok, err := opts.text(key)
	if err != nil || !ok {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s=%s: allowed true or false (default false)", key, v)
}

func (m *gpModel) columns() []string {
	return []string{"label REAL", "prediction REAL", "std REAL", "cv_prediction REAL"}
}

// tooMany is the max_gram_bytes error of a fit on n objects (boundedModel):
// the fit holds the n×n kernel matrix, then its Cholesky factor.
func (m *gpModel) tooMany(n int, max int64) error { return exactTooMany("gp", n, max) }

func (m *gpModel) fit(f *fitting) (fitted, error) {
	y, err := numericLabels(f)
	if err != nil {
		return nil, err
	}
	K, release, err := fullGram(f, "gp")
	if err != nil {
		return nil, err
	}
	n := len(y)
	r := &gpFit{labels: y, basis: f.objs(), normalize: m.normalize}
	if m.folds > 0 {
		r.cv, err = crossPredict(n, m.folds, m.seed, func(train []int) (func(int) float64, error) {
			g, err := gp.Fit(dense.SubMatrix(K, n, train, train), pick(y, train), m.noise, m.normalize, f.err)
			if err != nil {
				return nil, gpError(f, err, train)
			}
			return func(o int) float64 { return g.Mean(dense.SubMatrix(K, n, []int{o}, train)) }, nil
		})
		if err != nil {
			release()
			return nil, err
		}
	}
	// The model keeps K's storage, factored in place: it is not released.
	if r.model, err = gp.Fit(K, y, m.noise, m.normalize, f.err); err != nil {
		release()
		return nil, gpError(f, err, nil)
	}
	r.pred = r.model.TrainMean(y)
	if r.std, err = r.model.TrainStd(f.err); err != nil {
		return nil, f.fitError(err)
	}
	if err := r.finite(f); err != nil {
		return nil, err
	}
	return r, nil
}

// finite refuses a fit whose coefficients or stored answers are not
// finite, naming a row: labels near float64's limits overflow them
// although each is finite, and they would be NULLs or infinities where
// numbers are due.
func (r *gpFit) finite(f *fitting) error {
	for _, vs := range [][]float64{r.pred, r.std, r.cv, r.model.Alpha} {
		if o := firstNonFinite(vs); o >= 0 {
			return overflowFailure(f, o, vs[o], r.labels)
		}
	}
	return nil
}

// gpError words the gp package's errors for SQL; rows maps the rows of
// a fold's fit to the objects (nil: the identity).
func gpError(f *fitting, err error, rows []int) error {
	var np *gp.NotPDError
	var nf *gp.NonFiniteError
	var ne *gp.NoiseError
	obj := func(i int) int {
		if rows != nil {
			return rows[i]
		}
		return i
	}
	switch {
	case errors.As(err, &ne):
		return fitFailure{fmt.Errorf("noise=%v is too large for the kernel: allowed up to %g times the largest kernel value k(x, x) "+
			"on the data (%v here, so noise ≤ %v); past it the predictions and std lose their digits to rounding "+
			"(they are then about 0 and √k(x, x))", ne.Noise, gp.NoiseRatio, ne.MaxDiag, ne.Limit)}
	case errors.As(err, &np):
		return fitFailure{fmt.Errorf("K + noise·I is not positive definite with noise=%v: the kernel is not positive semi-definite "+
			"on the data or noise is too small for its rounding; raise noise", np.Noise)}
	case errors.As(err, &nf) && nf.What == "kernel":
		return fitFailure{f.objError(obj(nf.Row), obj(nf.Col), fmt.Errorf("the kernel value is %v; a fit needs finite values "+
			"(use normalize(...) for long texts)", nf.Value))}
	}
	return f.fitError(err)
}

// gpFit is a fitted gp table.
type gpFit struct {
	model                 *gp.Model
	labels, pred, std, cv []float64 // cv nil without folds=
	normalize             bool
	basis                 []kernels.Object // the snapshot's objects; read-only
}

func (r *gpFit) stored(o int, dst []any) {
	dst[0], dst[1], dst[2] = r.labels[o], r.pred[o], r.std[o]
	if r.cv != nil {
		dst[3] = r.cv[o]
	}
}

func (r *gpFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(r.basis)
	if err != nil {
		return err
	}
	kzz, err := z.kernels([]kernels.Object{z.z})
	if err != nil {
		return err
	}
	mean, std := r.model.Predict(kz, kzz[0])
	for _, v := range [2]float64{mean, std} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("input: its prediction or std is %v; a prediction needs finite values (%s)", v, finiteHint)
		}
	}
	dst[1], dst[2] = mean, std
	return nil
}

func (r *gpFit) report() [][2]any {
	out := [][2]any{{"noise", r.model.Noise}, {"normalize_y", fmt.Sprint(r.normalize)},
		{"log_marginal_likelihood", r.model.LML}, mseFigure("train_mse", r.pred, r.labels)}
	if r.cv != nil {
		out = append(out, mseFigure("cv_mse", r.cv, r.labels))
	}
	return out
}

var (
	_ fitted       = (*gpFit)(nil)
	_ reporter     = (*gpFit)(nil)
	_ boundedModel = (*gpModel)(nil)
)

// GP is the gp module.
var GP = newModelModule(&gpKind)

// mseFigure is ksql_model's row for a mean squared error: labels near
// ±1e308 fit (normalize_y, svm's bounded dual), but their squared errors
// pass float64's range, which the row says in words rather than as Inf.
func mseFigure(name string, p, y []float64) [2]any {
	if v := mse(p, y); !math.IsInf(v, 0) && !math.IsNaN(v) {
		return [2]any{name, v}
	}
	return [2]any{name, fmt.Sprintf("overflows float64: the squared errors of labels up to %g pass its range; divide the labels by a power of ten", maxAbs(y))}
}
