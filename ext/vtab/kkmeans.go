package vtab

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/cluster"
	"github.com/ksql/ksql/internal/kernels"
)

// kkmeansKind is kkmeans(id, cluster, distance, input HIDDEN): kernel
// k-means, Lloyd's algorithm in the kernel's feature space on the exact
// Gram matrix; a new object goes to the nearest centre.
var kkmeansKind = modelKind{
	name:      "kkmeans",
	keys:      clusterKeys,
	configure: func(opts options) (model, error) { return configureClusters(opts, "kkmeans") },
	decode:    decodeKKMeans,
}

// clusterKeys are the arguments kkmeans and spectral share.
var clusterKeys = []string{"k", "seed", "n_init", "max_iter"}

// clusterModel is a kkmeans or spectral table's arguments.
type clusterModel struct {
	module string
	opt    cluster.Options
}

// maxClusters bounds k= before the source is read; the fit refuses a k
// above the number of objects.
const maxClusters = 1 << 20

func configureClusters(opts options, module string) (model, error) {
	if _, ok := opts["k"]; !ok {
		return nil, errors.New("missing argument k= (the number of clusters, such as k=3)")
	}
	k, err := opts.integer("k", 0, 1, maxClusters)
	if err != nil {
		return nil, err
	}
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	restarts, err := opts.integer("n_init", 10, 1, 1000)
	if err != nil {
		return nil, err
	}
	iters, err := opts.integer("max_iter", 300, 1, 1<<20)
	if err != nil {
		return nil, err
	}
	return &clusterModel{module: module, opt: cluster.Options{K: int(k), Seed: uint64(seed), Restarts: int(restarts), MaxIter: int(iters)}}, nil
}

func (m *clusterModel) columns() []string { return []string{"cluster INTEGER", "distance REAL"} }

// tooMany is the max_gram_bytes error of a fit on n objects (boundedModel):
// both methods hold the n×n kernel matrix.
func (m *clusterModel) tooMany(n int, max int64) error { return exactTooMany(m.module, n, max) }

func (m *clusterModel) fit(f *fitting) (fitted, error) {
	if n := len(f.objs()); m.opt.K > n {
		return nil, fitFailure{fmt.Errorf("k=%d but the source has %d objects; k can be at most the number of objects", m.opt.K, n)}
	}
	K, release, err := fullGram(f, m.module)
	if err != nil {
		return nil, err
	}
	defer release()
	opt := m.opt
	opt.Interrupt = f.err
	if m.module == "spectral" {
		return fitSpectral(f, K, opt)
	}
	res, err := cluster.KernelKMeans(K, len(f.objs()), opt)
	if err != nil {
		return nil, clusterError(f, err)
	}
	return &kkmeansFit{res: res, basis: f.objs()}, nil
}

// clusterError words the cluster package's errors for the module.
func clusterError(f *fitting, err error) error {
	var nf *cluster.NonFiniteError
	var ne *cluster.NegativeError
	var re *cluster.RangeError
	var ie *cluster.IsolatedError
	switch {
	case errors.As(err, &nf):
		return fitFailure{f.objError(nf.Row, nf.Col, fmt.Errorf("the kernel value is %v; clustering needs finite values "+
			"(raw string kernels overflow on long texts: use normalize(...) or gauss(sigma=..., over=...))", nf.Value))}
	case errors.As(err, &re):
		return fitFailure{fmt.Errorf("the largest |kernel value| is %g, past %g, beyond which the sums of the %d objects' kernel values overflow; "+
			"bring the vectors to a smaller scale or use a bounded kernel such as normalize(...) or gauss(...)", re.Max, re.Limit, len(f.objs()))}
	case errors.As(err, &ne):
		return fitFailure{f.objError(ne.Row, ne.Col, fmt.Errorf("the kernel value is %v; spectral clustering takes the kernel as an affinity, "+
			"which must be ≥ 0 (use a kernel with values ≥ 0, such as gauss(...), laplace(...) or normalize(ngram(...)))", ne.Value))}
	case errors.As(err, &ie) && len(f.objs()) == 1:
		return fitFailure{fmt.Errorf("the source has one object (row id %s); spectral clustering measures each object by its affinities to the others, so it needs at least two",
			idText(f.snap.id(f.snap.rowOf(0))))}
	case errors.As(err, &ie):
		return fitFailure{fmt.Errorf("row id %s has kernel value 0 with every other object, so spectral clustering cannot place it; "+
			"widen the kernel (a larger sigma) or leave the row out with query=", idText(f.snap.id(f.snap.rowOf(ie.Row))))}
	}
	return f.fitError(err)
}

// kkmeansFit is a kernel k-means partition and the objects a new object is
// compared with.
type kkmeansFit struct {
	res   *cluster.KernelResult
	basis []kernels.Object
}

func (fit *kkmeansFit) stored(o int, dst []any) {
	dst[0], dst[1] = int64(fit.res.Labels[o]+1), math.Sqrt(fit.res.Dist2[o])
}

func (fit *kkmeansFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(fit.basis)
	if err != nil {
		return err
	}
	kzz, err := z.kernels([]kernels.Object{z.z})
	if err != nil {
		return err
	}
	c, d2 := cluster.Nearest(kz, kzz[0], fit.res)
	if math.IsInf(d2, 0) || math.IsNaN(d2) {
		return fmt.Errorf("input: its distance to every centre overflows (%v); a model answers only for finite values (%s)", d2, finiteHint)
	}
	dst[0], dst[1] = int64(c+1), math.Sqrt(d2)
	return nil
}

func (fit *kkmeansFit) report() [][2]any { return clusterReport(&fit.res.Result) }

// clusterReport is what ksql_model shows of a partition.
func clusterReport(r *cluster.Result) [][2]any {
	out := [][2]any{{"clusters", int64(len(r.Sizes))}, {"objective", r.Objective}, {"iterations", int64(r.Iterations)}}
	for c, s := range r.Sizes {
		out = append(out, [2]any{fmt.Sprintf("size[%d]", c+1), int64(s)})
	}
	if r.Reseeded > 0 {
		out = append(out, [2]any{"reseeded_clusters", int64(r.Reseeded)})
	}
	return out
}

// clusterWire is a partition's stored form.
type clusterWire struct {
	Labels, Sizes        []int
	Dist2, Self, Eigen   []float64
	Objective            float64
	Iterations, Reseeded int
}

func wireOf(r *cluster.Result) clusterWire {
	return clusterWire{Labels: r.Labels, Sizes: r.Sizes, Dist2: r.Dist2, Objective: r.Objective, Iterations: r.Iterations, Reseeded: r.Reseeded}
}

func encodeCluster(name string, w clusterWire) ([]fitPart, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(w)
	return []fitPart{{name: name, data: buf.Bytes()}}, err
}

// decodeCluster reads a stored partition and checks its shape against
// the source's n objects and the table's k.
func decodeCluster(name string, mod model, f *fitting, s *storedFit) (*clusterWire, *cluster.Result, error) {
	b, err := s.part(name)
	if err != nil {
		return nil, nil, err
	}
	var w clusterWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, nil, err
	}
	n, k := len(f.objs()), mod.(*clusterModel).opt.K
	bad := fmt.Errorf("the stored %s fit does not match its source", name)
	if len(w.Labels) != n || len(w.Dist2) != n || len(w.Sizes) != k {
		return nil, nil, bad
	}
	count := make([]int, k)
	for _, l := range w.Labels {
		if l < 0 || l >= k {
			return nil, nil, bad
		}
		count[l]++
	}
	for c := range count {
		if count[c] != w.Sizes[c] || count[c] == 0 {
			return nil, nil, bad
		}
	}
	r := &cluster.Result{Labels: w.Labels, Sizes: w.Sizes, Dist2: w.Dist2, Objective: w.Objective, Iterations: w.Iterations, Reseeded: w.Reseeded}
	return &w, r, nil
}

func (fit *kkmeansFit) encode() ([]fitPart, error) {
	w := wireOf(&fit.res.Result)
	w.Self = fit.res.Self
	return encodeCluster("kkmeans", w)
}

func decodeKKMeans(mod model, f *fitting, s *storedFit) (fitted, error) {
	w, r, err := decodeCluster("kkmeans", mod, f, s)
	if err != nil {
		return nil, err
	}
	if len(w.Self) != len(w.Sizes) {
		return nil, errors.New("the stored kkmeans fit does not match its source")
	}
	return &kkmeansFit{res: &cluster.KernelResult{Result: *r, Self: w.Self}, basis: f.objs()}, nil
}

// KKMeans is the kkmeans module.
var KKMeans = newModelModule(&kkmeansKind)

var (
	_ fitted       = (*kkmeansFit)(nil)
	_ reporter     = (*kkmeansFit)(nil)
	_ fitEncoder   = (*kkmeansFit)(nil)
	_ boundedModel = (*clusterModel)(nil)
)
