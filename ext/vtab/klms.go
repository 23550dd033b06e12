package vtab

import (
	"errors"
	"fmt"
	"github.com/ksql/ksql/internal/dense"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/krr"
)

// MaxKLMSEpochs bounds klms's epochs=: each is an O(n²) pass.
var MaxKLMSEpochs = &host.Setting{Name: "max_klms_epochs", Default: 100_000, Min: 1, Max: 1 << 40,
	Doc: "largest epochs= a klms table may run"}

// klmsKind is klms(id, label, prediction, cv_prediction, input HIDDEN):
// kernel least mean squares (notes 003), β ← β + step·(y − Kβ) for epochs
// passes, prediction Σ β_i k(x_i, z).
var klmsKind = modelKind{
	name:      "klms",
	keys:      []string{"step", "epochs", "mode", "seed", "folds"},
	extra:     []extraColumn{{key: "label", doc: "the number to predict for each row"}},
	configure: configureKLMS,
	decode:    decodeRegress,
}

type klmsModel struct {
	step   float64
	epochs int64
	mode   krr.Mode
	seed   uint64
	folds  int
}

func configureKLMS(opts options) (model, error) {
	if _, ok := opts["step"]; !ok {
		return nil, errors.New("missing argument step= (the learning rate, a number > 0, such as step=0.1)")
	}
	step, err := opts.real("step", 0, func(f float64) bool { return f > 0 }, "a finite number > 0")
	if err != nil {
		return nil, err
	}
	m := &klmsModel{step: step}
	if m.epochs, err = opts.integer("epochs", 20, 1, 1<<40); err != nil {
		return nil, err
	}
	mode, _, err := opts.text("mode")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(mode) {
	case "", "batch":
	case "online":
		m.mode = krr.Online
	default:
		return nil, fmt.Errorf("mode=%s: allowed batch (default) or online", mode)
	}
	m.folds, m.seed, err = foldsOption(opts)
	return m, err
}

func (m *klmsModel) columns() []string {
	return []string{"label REAL", "prediction REAL", "cv_prediction REAL"}
}

func (m *klmsModel) fit(f *fitting) (fitted, error) {
	fit, err := m.fitModel(f)
	return finiteFit(f, fit, err)
}

func (m *klmsModel) fitModel(f *fitting) (fitted, error) {
	if max := MaxKLMSEpochs.Get(f.hc); m.epochs > max {
		return nil, fmt.Errorf("epochs=%d is more than max_klms_epochs = %d; raise it with SELECT ksql_config('max_klms_epochs', N)", m.epochs, max)
	}
	y, err := numericLabels(f)
	if err != nil {
		return nil, err
	}
	K, release, err := fullGram(f, "klms")
	if err != nil {
		return nil, err
	}
	defer release()
	n := len(y)
	res, err := krr.FitLMS(K, y, m.step, int(m.epochs), m.mode, f.err)
	if err != nil {
		return nil, klmsError(f, err)
	}
	r := &regressFit{labels: y, f: f, coef: res.Beta, pred: make([]float64, n)}
	for i := range r.pred {
		r.pred[i] = krr.Predict(res.Beta, K[i*n:(i+1)*n])
	}
	modeName := "batch"
	if m.mode == krr.Online {
		modeName = "online"
	}
	r.figures = [][2]any{{"mode", modeName}, {"step", m.step}, {"epochs", m.epochs}, {"largest_stable_step", res.MaxStable}}
	for e, v := range res.MSE {
		r.figures = append(r.figures, [2]any{fmt.Sprintf("mse[epoch %d]", e+1), v})
	}
	if m.folds > 0 {
		r.cv, err = crossPredict(n, m.folds, m.seed, func(train []int) (func(int) float64, error) {
			res, err := krr.FitLMS(dense.SubMatrix(K, n, train, train), pick(y, train), m.step, int(m.epochs), m.mode, f.err)
			if err != nil {
				return nil, klmsError(f, err)
			}
			return func(o int) float64 { return krr.Predict(res.Beta, dense.SubMatrix(K, n, []int{o}, train)) }, nil
		})
	}
	return r, err
}

// klmsError words divergence with the largest stable step.
func klmsError(f *fitting, err error) error {
	if errors.Is(err, krr.ErrEigenOverflow) {
		return fitFailure{fmt.Errorf("the kernel matrix's largest eigenvalue, which bounds step=, overflows float64: the kernel values are too large; "+
			"scale the kernel down (a factor such as 1e-10*linear), or %s", finiteHint)}
	}
	var de *krr.DivergenceError
	if errors.As(err, &de) {
		if de.Epoch > 0 && de.Step < de.MaxStable { // a stable step: the values themselves leave float64
			return fitFailure{fmt.Errorf("the training error overflowed at epoch %d although step=%v is below the largest stable step %.6g: "+
				"the labels or kernel values are too large for float64 arithmetic; divide the labels by a power of ten, or %s",
				de.Epoch, de.Step, de.MaxStable, finiteHint)}
		}
		if de.Epoch > 0 {
			return fitFailure{fmt.Errorf("step=%v diverges (the training error overflowed at epoch %d); lower step= (batch mode converges below %.6g)",
				de.Step, de.Epoch, de.MaxStable)}
		}
		return fitFailure{fmt.Errorf("step=%v diverges: batch klms converges only for step < 2/λ_max(K) = %.6g; lower step=",
			de.Step, de.MaxStable)}
	}
	return krrError(f, err)
}

// KLMS is the klms module.
var KLMS = newModelModule(&klmsKind)
