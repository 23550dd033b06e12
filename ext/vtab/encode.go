package vtab

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ksql/ksql/internal/fda"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
	"github.com/ksql/ksql/internal/svm"
	"github.com/ksql/ksql/internal/tsne"
)

// The stored forms of each model's fit (see stored.go). A fit stores what
// it computed; what the source itself holds (objects, labels) is re-read
// from the source, whose unchanged hash proves it is the same.

// appendFloats appends vs to b as little-endian float64 bits, the raw
// form of the parts that hold many numbers (gob writes a float as a
// reversed varint, slow to read back by the million).
func appendFloats(b []byte, vs []float64) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// readFloats appends to dst the float64s appendFloats wrote in b.
func readFloats(dst []float64, b []byte) []float64 {
	for ; len(b) >= 8; b = b[8:] {
		dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	return dst
}

func binaryPart(name string, m encoding.BinaryMarshaler) ([]fitPart, error) {
	b, err := m.MarshalBinary()
	return []fitPart{{name: name, data: b}}, err
}

// encode stores the projections as a part of their own (kpca.MarshalParts).
// A fit being stored whose projections went to pieces (chunks.go) stores
// their index instead.
func (f *kpcaFit) encode() ([]fitPart, error) {
	rest, proj, err := f.model.MarshalParts()
	if f.pieces.out != nil {
		return []fitPart{{name: "kpca", data: rest}, f.pieces.out.part()}, err
	}
	return []fitPart{{name: "kpca", data: rest}, {name: "kpca_projections", data: proj}}, err
}

func decodeKPCA(mod model, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("kpca")
	if err != nil {
		return nil, err
	}
	proj, _ := s.part("kpca_projections") // nil in a fit stored by an earlier ksql
	m := new(kpca.Model)
	if err := m.UnmarshalParts(b, proj); err != nil {
		return nil, err
	}
	n := f.n()
	if m.N() != n {
		return nil, errors.New("the stored kpca fit is for another number of objects")
	}
	if k := mod.(*kpcaModel).k; m.Components() != k {
		return nil, fmt.Errorf("the stored kpca fit has %d components, the table %d", m.Components(), k)
	}
	marks := m.Landmarks()
	if (marks != nil) != mod.(*kpcaModel).nystrom {
		return nil, errors.New("the stored kpca fit is of the other method")
	}
	if marks == nil {
		return &kpcaFit{model: m, basis: f.objs()}, nil
	}
	for _, i := range marks {
		if i < 0 || i >= n {
			return nil, errors.New("the stored kpca fit names a landmark out of range")
		}
	}
	// read when a new object needs them: a lean snapshot holds no objects
	fit := &kpcaFit{model: m, f: f, marks: marks}
	if m.HoldsProjections() {
		return fit, nil
	}
	idx, err := chunkIndexOf(s, "kpca_projections")
	switch {
	case err != nil:
		return nil, err
	case idx == nil || idx.rows != n || idx.width != m.Components():
		return nil, errors.New("the stored kpca fit lacks its projections, or they are of another shape")
	}
	fit.pieces, err = s.restoredPieces(f, idx)
	return fit, err
}

func (f *mapFit) encode() ([]fitPart, error) { return binaryPart("kernel_map", f.m) }

func decodeMap(_ model, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("kernel_map")
	if err != nil {
		return nil, err
	}
	m := new(kpca.Map)
	if err := m.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return &mapFit{m: m, basis: f.objs()}, nil
}

// svmWire is an svm fit's stored form: the model in scikit-learn's layout
// (its Type among its fields), the answers for the stored rows and, with
// probability=true, each pair's sigmoid (a fit stored before that option
// existed decodes with Platt nil, as a fit without it).
type svmWire struct {
	Model   *svm.Model
	Pred    []int
	Dec     []float64
	CVPred  []int
	CVValue []float64
	Platt   []svm.Sigmoid
}

func (fit *svmFit) encode() ([]fitPart, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(svmWire{fit.model, fit.pred, fit.dec, fit.cvPred, fit.cvValue, fit.platt})
	return []fitPart{{name: "svm", data: buf.Bytes()}}, err
}

func decodeSVM(mod model, f *fitting, s *storedFit) (fitted, error) {
	if mod.(*svmModel).nystrom {
		return decodeSVMNystrom(mod.(*svmModel), f, s)
	}
	b, err := s.part("svm")
	if err != nil {
		return nil, err
	}
	var w svmWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, err
	}
	m := mod.(*svmModel)
	fit := &svmFit{model: w.Model, pred: w.Pred, dec: w.Dec, cvPred: w.CVPred, cvValue: w.CVValue, platt: w.Platt}
	_, err = m.labelsOf(f, fit)
	n := len(f.objs())
	mismatch := errors.New("the stored svm fit does not match its source")
	if err != nil || w.Model == nil || w.Model.Type != m.typ || w.Model.Validate() != nil || len(w.Dec) != n*w.Model.NumPairs() {
		return nil, mismatch
	}
	if !plattMatches(w.Platt, m.probability, w.Model.NumPairs()) || (w.CVPred != nil || w.CVValue != nil) != (m.folds > 0) {
		return nil, mismatch // a fit of a table with folds= answers cv_prediction: it must hold them
	}
	if m.typ.Regression() {
		if w.Pred != nil || w.CVPred != nil || (w.CVValue != nil && len(w.CVValue) != n) {
			return nil, mismatch
		}
	} else if w.Model.Classes != len(fit.classes) || len(w.Pred) != n || (w.CVPred != nil && len(w.CVPred) != n) || w.CVValue != nil {
		return nil, mismatch
	}
	fit.basis = make([]kernels.Object, len(w.Model.Support))
	for i, o := range w.Model.Support {
		if o < 0 || o >= n {
			return nil, errors.New("the stored svm fit names a support vector out of range")
		}
		fit.basis[i] = f.objs()[o]
	}
	for _, c := range append(append([]int(nil), w.Pred...), w.CVPred...) {
		if c < 0 || c >= len(fit.classes) {
			return nil, errors.New("the stored svm fit predicts a class out of range")
		}
	}
	return fit, nil
}

// svmNystromWire is a method=nystrom fit's stored form: the landmarks
// (object indices), the map M from their kernel values to the features,
// the linear model and the stored rows' answers. Its own part name keeps
// it apart from the exact fit's.
type svmNystromWire struct {
	Landmarks []int
	Proj      []float64
	Float32   bool
	Model     *svm.LinearModel
	Pred      []int
	Dec       []float64
	CVPred    []int
	// answers kept in pieces (svm_answers, chunks.go): no Pred, Dec or
	// CVPred, and their accuracies
	TrainAcc, CVAcc float64
}

func (fit *svmNystromFit) encode() ([]fitPart, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(svmNystromWire{fit.marks, fit.proj, fit.float32, fit.model, fit.pred, fit.dec, fit.cvPred,
		fit.trainAcc, fit.cvAcc})
	parts := []fitPart{{name: "svm_nystrom", data: buf.Bytes()}}
	if fit.pieces.out != nil {
		parts = append(parts, fit.pieces.out.part())
	}
	return parts, err
}

// decLength says whether a method=nystrom fit's stored decision values
// are n (two classes), or none (more classes, whose decision column is
// NULL; an earlier ksql kept n per problem).
func decLength(got, n int, m *svm.LinearModel) bool {
	if m.Classes == 2 {
		return got == n
	}
	return got == 0 || got == n*m.Problems()
}

func decodeSVMNystrom(m *svmModel, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("svm_nystrom")
	if err != nil {
		return nil, err
	}
	var w svmNystromWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, err
	}
	fit := &svmNystromFit{labels: f.extra("label"), maxIter: m.maxIter, marks: w.Landmarks, proj: w.Proj, float32: w.Float32,
		model: w.Model, pred: w.Pred, dec: w.Dec, cvPred: w.CVPred}
	classes, _, err := svmClasses(f, fit.labels)
	n := f.n()
	mismatch := errors.New("the stored svm fit does not match its source")
	marks, merr := kpca.SampleLandmarks(n, m.landmarks, m.seed)
	fit.classes, fit.folds = classes, m.folds > 0
	idx, ierr := chunkIndexOf(s, "svm_answers")
	inPieces := idx != nil && w.Pred == nil && w.Dec == nil && w.CVPred == nil && idx.rows == n && idx.width == fit.answerWidth()
	held := idx == nil && len(w.Pred) == n && w.Model != nil && decLength(len(w.Dec), n, w.Model) &&
		(w.CVPred == nil || len(w.CVPred) == n) && (w.CVPred != nil) == fit.folds
	if err != nil || merr != nil || ierr != nil || w.Model == nil || w.Model.Validate() != nil || w.Model.Classes != len(classes) ||
		!slices.Equal(w.Landmarks, marks) || len(w.Proj) != len(w.Landmarks)*w.Model.Dim || !(inPieces || held) {
		return nil, mismatch
	}
	fit.f = f // the landmarks (the seed's own, so in range) are read when a new object needs them
	if inPieces {
		fit.trainAcc, fit.cvAcc = w.TrainAcc, w.CVAcc
		fit.pieces, err = s.restoredPieces(f, idx)
		return fit, err
	}
	if w.Model.Classes > 2 {
		fit.dec = nil // stored by an earlier ksql, not read
	}
	for _, c := range append(append([]int(nil), w.Pred...), w.CVPred...) {
		if c < 0 || c >= len(classes) {
			return nil, errors.New("the stored svm fit predicts a class out of range")
		}
	}
	return fit, nil
}

// plattMatches reports whether stored sigmoids fit the table: one finite
// pair (A, B) per pair with probability=true, none without.
func plattMatches(platt []svm.Sigmoid, probability bool, pairs int) bool {
	if !probability {
		return platt == nil
	}
	if len(platt) != pairs {
		return false
	}
	for _, s := range platt {
		if math.IsNaN(s.A) || math.IsInf(s.A, 0) || math.IsNaN(s.B) || math.IsInf(s.B, 0) {
			return false
		}
	}
	return true
}

var (
	_ fitEncoder = (*kpcaFit)(nil)
	_ fitEncoder = (*mapFit)(nil)
	_ fitEncoder = (*svmFit)(nil)
	_ fitEncoder = (*svmNystromFit)(nil)
)

// regressWire is a krr or klms fit's stored form. A streamed krr's
// predictions are pieces of their own (chunks.go): no Pred, and their
// mean squared error.
type regressWire struct {
	BasisRows      []int
	Coef, Pred, CV []float64
	FigNames       []string
	FigValues      []any
	TrainMSE       float64
}

func (r *regressFit) encode() ([]fitPart, error) {
	w := regressWire{BasisRows: r.basisRows, Coef: r.coef, Pred: r.pred, CV: r.cv, TrainMSE: r.trainMSE}
	for _, fg := range r.figures {
		w.FigNames, w.FigValues = append(w.FigNames, fg[0].(string)), append(w.FigValues, fg[1])
	}
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(w)
	parts := []fitPart{{name: "regression", data: buf.Bytes()}}
	if r.pieces.out != nil {
		parts = append(parts, r.pieces.out.part())
	}
	return parts, err
}

func decodeRegress(mod model, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("regression")
	if err != nil {
		return nil, err
	}
	var w regressWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, err
	}
	y, err := numericLabels(f)
	n := f.n()
	basis := n
	if w.BasisRows != nil {
		basis = len(w.BasisRows)
	}
	km, _ := mod.(*krrModel)
	nystrom := km != nil && km.nystrom
	idx, ierr := chunkIndexOf(s, "krr_predictions")
	inPieces := idx != nil && w.Pred == nil && idx.rows == n && idx.width == 1
	if err != nil || ierr != nil || (len(w.Pred) != n && !inPieces) || len(w.Coef) != basis || (w.CV != nil && len(w.CV) != n) || len(w.FigNames) != len(w.FigValues) ||
		(w.BasisRows != nil) != nystrom {
		return nil, errors.New("the stored regression does not match its source")
	}
	for _, i := range w.BasisRows {
		if i < 0 || i >= n {
			return nil, errors.New("the stored regression names a basis row out of range")
		}
	}
	r := &regressFit{basisRows: w.BasisRows, coef: w.Coef, labels: y, pred: w.Pred, cv: w.CV, f: f, trainMSE: w.TrainMSE}
	for i, name := range w.FigNames {
		r.figures = append(r.figures, [2]any{name, w.FigValues[i]})
	}
	if !inPieces {
		return r, nil
	}
	r.pieces, err = s.restoredPieces(f, idx)
	return r, err
}

var _ fitEncoder = (*regressFit)(nil)

// tsneWire is a t-SNE fit's stored form.
type tsneWire struct {
	E     *tsne.Embedding
	Diag  []float64
	Trust float64
}

func (fit *tsneFit) encode() ([]fitPart, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(tsneWire{fit.e, fit.diag, fit.trust})
	return []fitPart{{name: "tsne", data: buf.Bytes()}}, err
}

func decodeTSNE(mod model, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("tsne")
	if err != nil {
		return nil, err
	}
	var w tsneWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, err
	}
	n := len(f.objs())
	if w.E == nil || w.E.N != n || w.E.Dims != mod.(*tsneModel).opt.Dims || len(w.E.Y) != n*w.E.Dims || len(w.Diag) != n {
		return nil, errors.New("the stored t-SNE does not match its source")
	}
	return &tsneFit{e: w.E, diag: w.Diag, trust: w.Trust, basis: f.objs()}, nil
}

var _ fitEncoder = (*tsneFit)(nil)

// encode stores the model (with its class means) as part kfda, as before
// the means existed, and the cross-validated classes as part kfda_cv, so
// that a fit stored without either still loads.
func (fit *kfdaFit) encode() ([]fitPart, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(fit.m); err != nil {
		return nil, err
	}
	parts := []fitPart{{name: "kfda", data: buf.Bytes()}}
	if fit.cvPred != nil {
		var cvb bytes.Buffer
		if err := gob.NewEncoder(&cvb).Encode(fit.cvPred); err != nil {
			return nil, err
		}
		parts = append(parts, fitPart{name: "kfda_cv", data: cvb.Bytes()})
	}
	return parts, nil
}

func decodeKFDA(mod model, f *fitting, s *storedFit) (fitted, error) {
	b, err := s.part("kfda")
	if err != nil {
		return nil, err
	}
	var m fda.Model
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&m); err != nil {
		return nil, err
	}
	labels := f.extra("label")
	classes, y, err := svmClasses(f, labels)
	n, km := len(f.objs()), mod.(*kfdaModel)
	if err != nil || m.N != n || m.Components != km.k || len(m.Alpha) != n*m.Components || len(m.Proj) != n*m.Components ||
		(m.Means != nil && len(m.Means) != len(classes)*m.Components) {
		return nil, errors.New("the stored kfda does not match its source")
	}
	if m.Means == nil { // stored before the class means were
		m.Means = fda.ClassMeans(m.Proj, y, len(classes), m.Components)
	}
	fit := &kfdaFit{m: &m, classes: classes, labels: labels, y: y, f: f}
	if km.folds > 0 {
		if fit.cvPred, err = decodeKFDACV(s, n, len(classes)); err != nil {
			return nil, err
		}
	}
	return fit, nil
}

// decodeKFDACV reads the cross-validated classes that a fit with folds=
// stores.
func decodeKFDACV(s *storedFit, n, classes int) ([]int, error) {
	b, err := s.part("kfda_cv")
	if err != nil {
		return nil, err
	}
	var pred []int
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&pred); err != nil {
		return nil, err
	}
	if len(pred) != n {
		return nil, errors.New("the stored kfda does not match its source")
	}
	for _, c := range pred {
		if c < 0 || c >= classes {
			return nil, errors.New("the stored kfda does not match its source")
		}
	}
	return pred, nil
}

var _ fitEncoder = (*kfdaFit)(nil)
