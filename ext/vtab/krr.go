package vtab

import (
	"errors"
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/dense"
	"github.com/ksql/ksql/internal/kernels"
	"strings"

	"github.com/ksql/ksql/internal/kpca"
	"github.com/ksql/ksql/internal/krr"
	"github.com/ksql/ksql/internal/nystrom"
)

// krrKind is krr(id, label, prediction, cv_prediction, input HIDDEN):
// kernel ridge regression in the dual, α = (K + alpha·I)⁻¹y, prediction
// Σ α_i k(x_i, z), as scikit-learn's KernelRidge (no intercept).
var krrKind = modelKind{
	name:      "krr",
	keys:      []string{"alpha", "method", "landmarks", "seed", "folds"},
	extra:     []extraColumn{{key: "label", doc: "the number to predict for each row"}},
	configure: configureKRR,
	decode:    decodeRegress,
}

type krrModel struct {
	alpha     float64
	nystrom   bool
	landmarks int
	seed      uint64
	folds     int
}

func configureKRR(opts options) (model, error) {
	alpha, err := opts.real("alpha", 1, func(f float64) bool { return f > 0 }, "a finite number > 0 (the ridge penalty; default 1)")
	if err != nil {
		return nil, err
	}
	m := &krrModel{alpha: alpha}
	method, _, err := opts.text("method")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(method) {
	case "", "exact":
		if _, ok := opts["landmarks"]; ok {
			return nil, errors.New("landmarks= applies to method=nystrom only")
		}
	case "nystrom", "nyström":
		m.nystrom = true
	default:
		return nil, fmt.Errorf("method=%s: allowed exact (default) or nystrom", method)
	}
	landmarks, err := opts.integer("landmarks", defaultLandmarks, 1, 1<<24)
	if err != nil {
		return nil, err
	}
	m.landmarks = int(landmarks)
	m.folds, m.seed, err = foldsOption(opts)
	return m, err
}

func (m *krrModel) columns() []string {
	return []string{"label REAL", "prediction REAL", "cv_prediction REAL"}
}

func (m *krrModel) fit(f *fitting) (fitted, error) {
	fit, err := m.fitModel(f)
	return finiteFit(f, fit, err)
}

func (m *krrModel) fitModel(f *fitting) (fitted, error) {
	y, err := numericLabels(f)
	if err != nil {
		return nil, err
	}
	if m.nystrom {
		return m.fitNystrom(f, y)
	}
	K, release, err := fullGram(f, "krr")
	if err != nil {
		return nil, err
	}
	defer release()
	n := len(y)
	r := &regressFit{labels: y, f: f, figures: [][2]any{{"method", "exact"}, {"alpha", m.alpha}}}
	if m.folds > 0 {
		r.cv, err = crossPredict(n, m.folds, m.seed, func(train []int) (func(int) float64, error) {
			c, err := krr.FitPolled(dense.SubMatrix(K, n, train, train), pick(y, train), m.alpha, f.err)
			if err != nil {
				return nil, krrError(f, err)
			}
			return func(o int) float64 { return krr.Predict(c, dense.SubMatrix(K, n, []int{o}, train)) }, nil
		})
		if err != nil {
			return nil, err
		}
	}
	if r.coef, err = krr.FitPolled(K, y, m.alpha, f.err); err != nil {
		return nil, krrError(f, err)
	}
	r.pred = make([]float64, n)
	for i := range r.pred { // (K + αI)c = y, so Kc = y − αc exactly
		r.pred[i] = y[i] - m.alpha*r.coef[i]
	}
	return r, nil
}

// lean: a Nyström fit without folds reads its objects in passes
// (stream.go); folds need the n×m kernel values of every fold's rows.
func (m *krrModel) lean() bool { return m.nystrom && m.folds == 0 }

func (m *krrModel) fitNystrom(f *fitting, y []float64) (fitted, error) {
	n := len(y)
	if f.snap.lean || krrNystromBytes(n, min(n, m.landmarks)) > f.maxBytes() {
		return m.fitStreamed(f, y)
	}
	marks, err := kpca.SampleLandmarks(n, m.landmarks, m.seed)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	nl := len(marks)
	basis, err := f.landmarkObjects(marks)
	if err != nil {
		return nil, err
	}
	C, err := f.cross(basis, marks)
	if err != nil {
		return nil, err
	}
	W := dense.SubMatrix(C, nl, marks, seq(nl))
	r := &regressFit{labels: y, f: f, basisRows: marks,
		figures: [][2]any{{"method", "nystrom"}, {"alpha", m.alpha}, {"landmarks", int64(nl)}}}
	if m.folds > 0 {
		// The folds keep the landmarks (their objects, not their labels).
		r.cv, err = crossPredict(n, m.folds, m.seed, func(train []int) (func(int) float64, error) {
			b, err := krr.FitNystromWPolled(dense.SubMatrix(C, nl, train, seq(nl)), W, pick(y, train), m.alpha, f.err)
			if err != nil {
				return nil, krrError(f, err)
			}
			return func(o int) float64 { return krr.Predict(b, C[o*nl:(o+1)*nl]) }, nil
		})
		if err != nil {
			return nil, err
		}
	}
	if r.coef, err = krr.FitNystromWPolled(C, W, y, m.alpha, f.err); err != nil {
		return nil, krrError(f, err)
	}
	r.pred = make([]float64, n)
	for i := range r.pred {
		r.pred[i] = krr.Predict(r.coef, C[i*nl:(i+1)*nl])
	}
	return r, nil
}

// fitStreamed is the Nyström fit in passes (stream.go): the landmarks are
// read, then two passes over the objects — the source read again, for a
// lean snapshot — give the sums CᵀC and Cᵀy (nystrom.Sums) and the
// predictions, every block on its own core. Folds would need a CᵀC per
// fold; streamTooMany refuses them.
func (m *krrModel) fitStreamed(f *fitting, y []float64) (fitted, error) {
	n := len(y)
	marks, err := kpca.SampleLandmarks(n, m.landmarks, m.seed)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	nl := len(marks)
	if err := m.streamTooMany(n, nl, f.maxBytes()); err != nil {
		return nil, err
	}
	basis, W, err := f.landmarkSet(marks)
	if err != nil {
		return nil, err
	}
	total := krr.NystromSums(nl)
	pre := krr.StartWMap(W, nl, f.err) // beside the sums pass
	defer pre.Wait()                   // not left running when the pass fails
	if err := f.streamSums(basis, marks, total, func() *nystrom.Sums { return krr.NystromSums(nl) }, y, krr.BlockError); err != nil {
		return nil, krrError(f, err)
	}
	r := &regressFit{labels: y, f: f, basisRows: marks,
		figures: [][2]any{{"method", "nystrom"}, {"alpha", m.alpha}, {"landmarks", int64(nl)}}}
	if r.coef, err = krr.FinishNystrom(total, W, pre, m.alpha, f.err); err != nil {
		return nil, krrError(f, err)
	}
	out, err := f.outputs("krr_predictions", 1)
	if err != nil {
		return nil, err
	}
	if out != nil {
		return r, predictTo(f, r, out, basis, marks)
	}
	r.pred = make([]float64, n)
	err = f.streamKernel(basis, marks, nil, func(b *passBlock, lo, rows int) error {
		for i := range rows {
			r.pred[lo+i] = krr.Predict(r.coef, b.C[i*nl:(i+1)*nl])
		}
		return nil
	}, nil, krr.BlockError)
	if err != nil {
		return nil, krrError(f, err)
	}
	return r, nil
}

// predictTo is the predictions' pass of a fit being stored: each block's
// predictions go, in order, to the shadow table's pieces (chunks.go), not
// to memory, checked finite and their squared errors added in the order
// mse adds them, so that train_mse is the same bits.
func predictTo(f *fitting, r *regressFit, out *chunkWriter, basis []kernels.Object, marks []int) error {
	nl := len(marks)
	var sse float64
	err := f.streamTo(out, basis, marks, func(b *passBlock, rows int, dst []float64) error {
		for i := range rows {
			dst[i] = krr.Predict(r.coef, b.C[i*nl:(i+1)*nl])
		}
		return nil
	}, func(b *passBlock, p []float64) error {
		for i, v := range p {
			o := b.idx[i]
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return overflowFailure(f, o, v, r.labels)
			}
			sse += (v - r.labels[o]) * (v - r.labels[o])
		}
		return nil
	}, krr.BlockError)
	if err != nil {
		return krrError(f, err)
	}
	idx, err := out.finish()
	r.pieces, r.trainMSE = pieces{out: idx}, sse/float64(len(r.labels))
	return err
}

// krrNystromBytes is a Nyström fit's memory with its n×m kernel values held.
func krrNystromBytes(n, nl int) int64 { return 8 * (int64(n)*int64(nl) + 3*int64(nl)*int64(nl)) }

// streamTooMany is the error of a streamed Nyström fit past max (nil when
// it fits): a block, the m×m products, labels and predictions; folds,
// which would need a CᵀC per fold, are refused.
func (m *krrModel) streamTooMany(n, nl int, max int64) error {
	if need := 8 * (int64(min(n, krr.StreamRows))*int64(nl) + 6*int64(nl)*int64(nl) + 2*int64(n)); need > max {
		return fmt.Errorf("method=nystrom with %d landmarks on %d objects needs %s even streamed (the m×m products), more than max_gram_bytes = %d; "+
			"%s", nl, n, sizeText(need), max, landmarksFix(need))
	}
	if m.folds > 0 {
		return fmt.Errorf("folds=%d with method=nystrom on %d objects: their kernel values pass max_gram_bytes = %d and are streamed, "+
			"and a streamed fit does not cross-validate; drop folds= or raise max_gram_bytes", m.folds, n, max)
	}
	return nil
}

// krrError words the krr package's errors for SQL.
func krrError(f *fitting, err error) error {
	var se *krr.SingularError
	var nf *krr.NonFiniteError
	switch {
	case errors.As(err, &se):
		return fitFailure{fmt.Errorf("K + alpha·I is not positive definite with alpha=%v: the kernel is not positive semi-definite "+
			"on the data or alpha is too small for its rounding; raise alpha", se.Alpha)}
	case errors.Is(err, krr.ErrNystromOverflow):
		return fitFailure{fmt.Errorf("%v; scale the kernel down (a factor such as 1e-200*linear), divide the labels by a power of ten, "+
			"or use method=exact", err)}
	case errors.As(err, &nf) && nf.What == "kernel":
		return fitFailure{fmt.Errorf("a kernel value is %v; a fit needs finite values (use normalize(...) for long texts)", nf.Value)}
	}
	return f.fitError(err)
}

func pick(y []float64, rows []int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = y[r]
	}
	return out
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// KRR is the krr module.
var KRR = newModelModule(&krrKind)
