package vtab

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
	"github.com/ksql/ksql/internal/nystrom"
)

// kpcaKind is kpca(id, pc1..pck, input HIDDEN): kernel PCA of a source.
var kpcaKind = modelKind{
	name:      "kpca",
	keys:      []string{"components", "method", "landmarks", "seed"},
	configure: configureKPCA,
	decode:    decodeKPCA,
}

// maxComponents bounds components=: each is a column of the table.
const maxComponents = 1000

// defaultLandmarks is m for method=nystrom without landmarks=.
const defaultLandmarks = 500

// kpcaModel is a kpca table's arguments.
type kpcaModel struct {
	k         int
	nystrom   bool
	landmarks int
	seed      uint64
}

// kpcaFit is a model and the objects a new object is compared with: all
// objects (exact, basis) or the landmarks (Nyström, marks), read from f's
// snapshot when a new object needs them.
type kpcaFit struct {
	model *kpca.Model
	basis []kernels.Object
	f     *fitting
	marks []int
	// a model that does not hold its projections keeps them in the
	// shadow table's pieces (chunks.go)
	pieces pieces
}

var _ piecewise = (*kpcaFit)(nil)
var _ rowReader = (*kpcaFit)(nil)

func configureKPCA(opts options) (model, error) {
	if _, ok := opts["components"]; !ok {
		return nil, fmt.Errorf("missing argument components= (the number of principal components, such as components=2)")
	}
	// any integer here: the range is checked below, with its own words
	k, err := opts.integer("components", 0, math.MinInt64, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	if k < 1 || k > maxComponents {
		return nil, fmt.Errorf("components=%d: allowed 1 to %d", k, maxComponents)
	}
	m := &kpcaModel{k: int(k)}
	method, _, err := opts.text("method")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(method) {
	case "", "exact":
	case "nystrom", "nyström":
		m.nystrom = true
	default:
		return nil, fmt.Errorf("method=%s: allowed exact (default) or nystrom", method)
	}
	if !m.nystrom {
		for _, key := range []string{"landmarks", "seed"} {
			if _, ok := opts[key]; ok {
				return nil, fmt.Errorf("%s= applies to method=nystrom only", key)
			}
		}
	}
	landmarks, err := opts.integer("landmarks", defaultLandmarks, 1, 1<<24)
	if err != nil {
		return nil, err
	}
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	m.landmarks, m.seed = int(landmarks), uint64(seed)
	return m, nil
}

func (m *kpcaModel) columns() []string {
	cols := make([]string, m.k)
	for j := range cols {
		cols[j] = "pc" + strconv.Itoa(j+1) + " REAL"
	}
	return cols
}

func (m *kpcaModel) fit(f *fitting) (fitted, error) {
	if m.nystrom {
		return m.fitNystrom(f)
	}
	K, err := f.gram(exactTooBig)
	if err != nil {
		return nil, err
	}
	model, err := K.Fit(kpca.Options{Components: m.k, Interrupt: f.err})
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	return &kpcaFit{model: model, basis: f.objs()}, nil
}

// lean: a Nyström fit reads its objects in passes (stream.go).
func (m *kpcaModel) lean() bool { return m.nystrom }

func (m *kpcaModel) fitNystrom(f *fitting) (fitted, error) {
	n := f.n()
	if !f.snap.lean && kpca.NystromBytes(n, min(n, m.landmarks), m.k) <= f.maxBytes() {
		return m.fitInMemory(f)
	}
	return m.fitStreamed(f)
}

// fitInMemory is the Nyström fit on objects held in memory (scale=,
// model_search) whose n×m kernel values fit max_gram_bytes: computed
// once, not once a pass.
func (m *kpcaModel) fitInMemory(f *fitting) (fitted, error) {
	landmarks, err := kpca.SampleLandmarks(f.n(), m.landmarks, m.seed)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	basis, err := f.landmarkObjects(landmarks)
	if err != nil {
		return nil, err
	}
	C, err := f.cross(basis, landmarks)
	if err != nil {
		return nil, err
	}
	model, err := kpca.FitNystromMatrix(C, landmarks, kpca.Options{Components: m.k, Interrupt: f.err})
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	return &kpcaFit{model: model, f: f, marks: landmarks}, nil
}

// fitStreamed is the Nyström fit in passes (stream.go): the landmarks are
// read, then two passes over the objects — the source read again, for a
// lean snapshot — give the sums (nystrom.Sums) and the projections, every
// block on its own core.
func (m *kpcaModel) fitStreamed(f *fitting) (fitted, error) {
	n := f.n()
	marks, err := kpca.SampleLandmarks(n, m.landmarks, m.seed)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	if err := m.tooMany(n, f.maxBytes()); err != nil {
		return nil, err
	}
	basis, W, err := f.landmarkSet(marks)
	if err != nil {
		return nil, err
	}
	nl := len(marks)
	total := kpca.NystromSums(W, nl)
	lm := kpca.StartLandmarkMap(W, marks, f.err) // beside the sums pass
	defer lm.Wait()                              // not left running when the pass fails
	err = f.streamSums(basis, marks, total, func() *nystrom.Sums { return kpca.NystromSums(W, nl) }, nil, kpca.BlockError)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	opt := kpca.Options{Components: m.k, Interrupt: f.err}
	out, err := f.outputs("kpca_projections", m.k)
	if err != nil {
		return nil, err
	}
	if out != nil {
		return m.finishTo(f, out, lm, total, basis, marks, opt)
	}
	project := func(mean, coef, proj []float64) error {
		coefT := kpca.Transpose(coef, nl)
		return f.streamKernel(basis, marks, nil, func(b *passBlock, lo, rows int) error {
			return kpca.ProjectRows(b.C, rows, mean, coefT, proj[lo*m.k:(lo+rows)*m.k])
		}, nil, kpca.BlockError)
	}
	model, err := kpca.FinishNystrom(lm, total, marks, project, opt)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	return &kpcaFit{model: model, f: f, marks: marks}, nil
}

// finishTo is the projections' pass of a fit being stored: each block's
// projections go, in order, to the shadow table's pieces (out), not to
// memory.
func (m *kpcaModel) finishTo(f *fitting, out *chunkWriter, lm *kpca.LandmarkMap, total *nystrom.Sums, basis []kernels.Object, marks []int, opt kpca.Options) (fitted, error) {
	project := func(mean, coef []float64, signs *kpca.SignRule) error {
		coefT := kpca.Transpose(coef, len(marks))
		return f.streamTo(out, basis, marks, func(b *passBlock, rows int, dst []float64) error {
			return kpca.ProjectRows(b.C, rows, mean, coefT, dst)
		}, func(_ *passBlock, p []float64) error {
			signs.Add(p)
			return nil
		}, kpca.BlockError)
	}
	model, err := kpca.FinishNystromTo(lm, total, marks, project, opt)
	if err != nil {
		return nil, f.fitError(kpcaError(err))
	}
	idx, err := out.finish()
	if err != nil {
		return nil, err
	}
	return &kpcaFit{model: model, f: f, marks: marks, pieces: pieces{out: idx}}, nil
}

// tooMany is the max_gram_bytes error of a fit on n objects, nil when it
// fits (boundedModel).
func (m *kpcaModel) tooMany(n int, max int64) error {
	if !m.nystrom {
		if need := kpca.ExactBytes(n); need > max {
			return exactTooBig(n, need, max)
		}
		return nil
	}
	// A fit whose n×m kernel values pass the bound streams them
	// (fitStreamed): it needs blocks, the m×m products and the n×k
	// projections.
	nl := min(n, m.landmarks)
	if need := kpca.StreamBytes(n, nl, m.k); need > max {
		return fmt.Errorf("method=nystrom with %d landmarks on %d objects needs %s even streamed (the m×m products and n×k projections), more than max_gram_bytes = %d; "+
			"%s", nl, n, sizeText(need), max, landmarksFix(need))
	}
	return nil
}

func exactTooBig(n int, need, max int64) error {
	return fmt.Errorf("the exact method on %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
		"%s", n, n, n, sizeText(need), max, gramFix(need, "use method=nystrom (with landmarks=m) for an approximation in O(n·m) memory"))
}

// kpcaError words the kpca package's *ComponentsError in the module's
// arguments; other errors pass.
func kpcaError(err error) error {
	var ce *kpca.ComponentsError
	var pe *kpca.PrecisionError
	switch {
	case errors.As(err, &pe):
		return fitFailure{fmt.Errorf("the kernel values (up to %.6g) differ across the objects by no more than their float64 rounding "+
			"(centred, at most %.3g): the objects are identical or nearly so, relative to their size; "+
			"centre or rescale the data, or use a kernel of differences such as gauss(sigma=..., over=linear)", pe.MaxAbs, pe.MaxCentered)}
	case errors.As(err, &ce):
		return fitFailure{componentsError(ce)}
	case errors.Is(err, kpca.ErrExactOverflow):
		return fitFailure{fmt.Errorf("%v; scale the kernel down (a factor such as 1e-200*linear) or bring the vectors to a smaller scale", err)}
	case errors.Is(err, kpca.ErrNystromOverflow):
		return fitFailure{fmt.Errorf("%v; scale the kernel down (a factor such as 1e-200*linear), bring the vectors to a smaller scale, "+
			"or use method=exact", err)}
	}
	return err
}

func componentsError(e *kpca.ComponentsError) error {
	switch {
	case e.Requested <= 0:
		return fmt.Errorf("components=%d: at least 1 component is needed", e.Requested)
	case e.TooFewLandmarks():
		return fmt.Errorf("components=%d but there are only %d landmarks (at most %d components with method=nystrom; raise landmarks)",
			e.Requested, e.Landmarks, e.Landmarks)
	case e.Rank < 0 && e.Objects == 1:
		return fmt.Errorf("components=%d but there is only 1 object (a single object has no variance to analyse)", e.Requested)
	case e.Rank < 0:
		return fmt.Errorf("components=%d but there are only %d objects (at most %d components: centring removes one dimension)",
			e.Requested, e.Objects, e.Objects-1)
	}
	return fmt.Errorf("components=%d but %s", e.Requested, e.RankText())
}

// shapeChecked: decodeKPCA checks the model's objects against the
// snapshot's and its components against the table's columns, and stored
// reads nothing else.
func (f *kpcaFit) shapeChecked() {}

func (f *kpcaFit) stored(o int, dst []any) { mustRow(f, o, dst) }

func (f *kpcaFit) storedRow(o int, dst []any) error {
	if f.model.HoldsProjections() {
		for j := range dst {
			dst[j] = f.model.ProjectionAt(o, j)
		}
		return nil
	}
	row, err := f.pieces.row(o)
	if err != nil {
		return err
	}
	for j, flip := range f.model.Flipped() {
		if v := row[j]; flip {
			dst[j] = -v
		} else {
			dst[j] = v
		}
	}
	return nil
}

func (f *kpcaFit) pieceSet() *pieces { return &f.pieces }

func (f *kpcaFit) predict(z *newObject, dst []any) error {
	basis := f.basis
	if f.marks != nil {
		var err error
		if basis, err = f.f.landmarkObjects(f.marks); err != nil {
			return err
		}
	}
	kz, err := z.kernels(basis)
	if err != nil {
		return err
	}
	proj, err := f.model.Project(kz, nil)
	if err != nil {
		return fmt.Errorf("input: %v", err)
	}
	for j, v := range proj {
		dst[j] = v
	}
	return nil
}

func (f *kpcaFit) eigen() (values, ratios []float64) {
	return f.model.Eigenvalues, f.model.ExplainedRatio
}
