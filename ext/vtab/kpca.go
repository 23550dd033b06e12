package vtab

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/kpca"
	"gonum.org/v1/gonum/mat"
)

// kpcaKind is kpca(id, pc1..pck, input HIDDEN): kernel PCA of a source.
var kpcaKind = modelKind{
	name:      "kpca",
	keys:      []string{"components", "method", "landmarks", "seed"},
	configure: configureKPCA,
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
// objects (exact) or the landmarks (Nyström).
type kpcaFit struct {
	model *kpca.Model
	basis []kernels.Object
}

func configureKPCA(opts options) (model, error) {
	if _, ok := opts["components"]; !ok {
		return nil, fmt.Errorf("missing argument components= (the number of principal components, such as components=2)")
	}
	k, err := opts.integer("components", 0, -1<<31, 1<<31)
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
	n := len(f.objs())
	if need, max := kpca.ExactBytes(n), f.maxBytes(); need > max {
		return nil, fmt.Errorf("the exact method on %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
			"raise it with SELECT ksql_config('max_gram_bytes', N), or use method=nystrom (with landmarks=m) for an approximation in O(n·m) memory",
			n, n, n, sizeText(need), max)
	}
	K, err := gramMatrix(f.hc, f.spec(), f.snap)
	if err != nil {
		return nil, err
	}
	model, err := kpca.Fit(K, kpca.Options{Components: m.k, Interrupt: f.err})
	if err != nil {
		return nil, fitError(err)
	}
	return &kpcaFit{model: model, basis: f.objs()}, nil
}

// gramMatrix computes the Gram matrix of the snapshot's objects (upper
// triangle, as the kpca package reads it), in storage from kpca.NewGram,
// which the fit recycles.
func gramMatrix(hc *host.Conn, spec *kernels.Spec, snap *snapshot) (*mat.SymDense, error) {
	n := len(snap.objs)
	K := kpca.NewGram(n)
	data := K.RawSymmetric().Data
	if err := spec.Gram(snap.objs, data, gramOptions(hc)); err != nil {
		return nil, pairError(snap, err)
	}
	for i := 0; i < n; i++ {
		for j, v := range data[i*n+i : (i+1)*n] {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, pairError(snap, &kernels.PairError{Row: i, Col: i + j, Err: nonFinite(v)})
			}
		}
	}
	return K, nil
}

// nonFinite explains a kernel value that a fit cannot use.
func nonFinite(v float64) error {
	return fmt.Errorf("the kernel value is %v; a fit needs finite values (raw string kernels overflow on long texts: use normalize(...) or gauss(sigma=..., over=...))", v)
}

func (m *kpcaModel) fitNystrom(f *fitting) (fitted, error) {
	n := len(f.objs())
	landmarks, err := kpca.SampleLandmarks(n, m.landmarks, m.seed)
	if err != nil {
		return nil, fitError(err)
	}
	nl := len(landmarks)
	if need, max := kpca.NystromBytes(n, nl, m.k), f.maxBytes(); need > max {
		return nil, fmt.Errorf("method=nystrom with %d landmarks on %d objects needs %s, more than max_gram_bytes = %d; "+
			"lower landmarks= or raise the setting with SELECT ksql_config('max_gram_bytes', N)", nl, n, sizeText(need), max)
	}
	basis := make([]kernels.Object, nl)
	for l, i := range landmarks {
		basis[l] = f.objs()[i]
	}
	opt := gramOptions(f.hc)
	workers := runtime.GOMAXPROCS(0)
	wss := make([]kernels.Workspace, workers)
	for w := range wss {
		wss[w] = kernels.Workspace{MaxCells: opt.MaxCells, Check: f.hc.Err}
	}
	objs, marks := f.spec().Prepare(f.objs()), f.spec().Prepare(basis)
	row := func(w, i int, dst []float64) error {
		for l := range dst {
			v, err := objs.Eval(i, marks, l, &wss[w])
			if err == nil && (math.IsInf(v, 0) || math.IsNaN(v)) {
				err = nonFinite(v)
			}
			if err != nil {
				return f.objError(i, landmarks[l], err)
			}
			dst[l] = v
		}
		return nil
	}
	model, err := kpca.FitNystrom(n, landmarks, row, kpca.Options{Components: m.k, Interrupt: f.err, Workers: workers})
	if err != nil {
		return nil, fitError(err)
	}
	return &kpcaFit{model: model, basis: basis}, nil
}

// fitError keeps interrupts recognisable and passes the kpca package's
// messages on, which already say what was wrong and what is allowed.
func fitError(err error) error {
	if errors.Is(err, host.ErrInterrupted) {
		return host.ErrInterrupted
	}
	if errors.Is(err, kpca.ErrNoObjects) {
		return errors.New("the source has no rows; there is nothing to fit")
	}
	return fitFailure{err}
}

func (f *kpcaFit) stored(o int, dst []any) {
	for j := range dst {
		dst[j] = f.model.ProjectionAt(o, j)
	}
}

func (f *kpcaFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(f.basis)
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
