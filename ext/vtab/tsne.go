package vtab

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/tsne"
)

// tsneKind is tsne(id, x1 … xd, input HIDDEN): a t-SNE picture of the
// kernel's feature space, on the distances d²(x, z) = k(x,x) − 2k(x,z) +
// k(z,z); a new object is placed against the fixed embedding.
var tsneKind = modelKind{
	name:      "tsne",
	keys:      []string{"dims", "perplexity", "seed", "iterations", "method"},
	configure: configureTSNE,
	decode:    decodeTSNE,
}

type tsneModel struct{ opt tsne.Options }

func configureTSNE(opts options) (model, error) {
	dims, err := opts.integer("dims", 2, 1, 3)
	if err != nil {
		return nil, err
	}
	perp, err := opts.real("perplexity", 30, func(f float64) bool { return f > 0 }, "a number > 0 and below the number of objects − 1 (default 30)")
	if err != nil {
		return nil, err
	}
	seed, err := opts.integer("seed", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	iters, err := opts.integer("iterations", 1000, 250, tsne.MaxIterations)
	if err != nil {
		return nil, err
	}
	m := &tsneModel{opt: tsne.Options{Dims: int(dims), Perplexity: perp, Seed: uint64(seed), Iterations: int(iters)}}
	method, _, err := opts.text("method")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(method) {
	case "":
	case "exact":
		m.opt.Method = tsne.Exact
	case "barnes_hut", "barnes-hut":
		if dims != 2 {
			return nil, fmt.Errorf("method=barnes_hut works in dims=2 only; use method=exact for dims=%d", dims)
		}
		m.opt.Method = tsne.BarnesHut
	default:
		return nil, fmt.Errorf("method=%s: allowed barnes_hut (the default above %d objects in 2 dimensions) or exact", method, tsne.BarnesHutAbove)
	}
	return m, nil
}

func (m *tsneModel) columns() []string {
	cols := make([]string, m.opt.Dims)
	for c := range cols {
		cols[c] = "x" + strconv.Itoa(c+1) + " REAL"
	}
	return cols
}

// tsneFit is an embedding with what placing a new object needs.
type tsneFit struct {
	e     *tsne.Embedding
	diag  []float64 // k(x_i, x_i)
	trust float64   // NaN when n ≤ 10
	basis []kernels.Object
}

func (m *tsneModel) fit(f *fitting) (fitted, error) {
	n := len(f.objs())
	if need := tsne.Bytes(n, m.opt) + int64(n)*int64(n)*8; need > f.maxBytes() {
		// Past the setting's largest value, raising it cannot help: only
		// fewer objects can.
		fix := gramFix(need, "")
		if need > MaxGramBytes.Ceiling() {
			// a sample by something stored, not random(): a replicated
			// CREATE (rqlite) must fit the same rows on every node
			fix += "; fit a sample of the objects, as query='SELECT id, v FROM t WHERE id % 100 = 0'"
		}
		return nil, fmt.Errorf("t-SNE of %d objects needs %s (the kernel's n×n matrix, and n² affinities with method=exact), more than max_gram_bytes = %d; %s",
			n, sizeText(need), f.maxBytes(), fix)
	}
	K, release, err := fullGram(f, "tsne")
	if err != nil {
		return nil, err
	}
	defer release()
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = K[i*n+i]
	}
	rows := func(i int, dst []float64) error {
		for j := range dst {
			dst[j] = diag[i] + diag[j] - 2*K[i*n+j]
		}
		return nil
	}
	opt := m.opt
	opt.Interrupt = f.err
	e, err := tsne.Fit(n, rows, opt)
	if err != nil {
		return nil, tsneError(f, err, K)
	}
	fit := &tsneFit{e: e, diag: diag, trust: math.NaN(), basis: f.objs()}
	if n > 10 {
		if fit.trust, err = tsne.Trustworthiness(e, rows, 5, f.err); err != nil {
			return nil, tsneError(f, err, K)
		}
	}
	return fit, nil
}

// tsneScaleHint is what brings kernel values near 1e308 back into range.
const tsneScaleHint = "scale the kernel down (a factor such as 1e-10*linear) or bring the vectors to a smaller scale"

// tsneError words an error of internal/tsne; K is the n×n Gram matrix the
// squared distances came from.
func tsneError(f *fitting, err error, K []float64) error {
	var pe *tsne.ParamError
	var de *tsne.DistanceError
	switch {
	case errors.As(err, &pe) && pe.Name == "objects":
		return fitFailure{fmt.Errorf("the source has %v objects; t-SNE needs at least 4", pe.Value)}
	case errors.As(err, &pe):
		return fitFailure{fmt.Errorf("%s=%v: allowed %s", pe.Name, pe.Value, pe.Allowed)}
	case errors.As(err, &de):
		return fitFailure{tsneDistanceError(f, de, K)}
	}
	return f.fitError(err)
}

// tsneDistanceError names the cause of a squared distance that is not
// finite: a kernel value that is not, or, when k(x,x), k(z,z) and k(x,z)
// all are, the sum k(x,x) + k(z,z) − 2k(x,z) passing float64's range
// (kernel values near 1e308), which no finite input cures.
func tsneDistanceError(f *fitting, de *tsne.DistanceError, K []float64) error {
	n, i, j := len(f.objs()), de.Row, de.Col
	if i < 0 || j < 0 || i >= n || j >= n || len(K) != n*n {
		return f.objError(i, j, fmt.Errorf("the feature-space distance² is %v; a picture needs finite kernel values", de.Value))
	}
	largest := 0.0
	for _, p := range [3][2]int{{i, i}, {j, j}, {i, j}} {
		v := K[p[0]*n+p[1]]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return f.objError(p[0], p[1], fmt.Errorf("the kernel value is %v; a picture needs finite kernel values (use normalize(...) for long texts)", v))
		}
		largest = max(largest, math.Abs(v))
	}
	return f.objError(i, j, fmt.Errorf("the feature-space distance² k(x,x) + k(z,z) − 2k(x,z) overflows float64: "+
		"the kernel values (up to %.6g in magnitude) are too large; %s", largest, tsneScaleHint))
}

func (fit *tsneFit) stored(o int, dst []any) {
	d := fit.e.Dims
	for c := range dst {
		dst[c] = fit.e.Y[o*d+c]
	}
}

func (fit *tsneFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(fit.basis)
	if err != nil {
		return err
	}
	kzz, err := z.kernels([]kernels.Object{z.z})
	if err != nil {
		return err
	}
	d2 := make([]float64, len(kz))
	for j := range kz {
		d2[j] = kzz[0] + fit.diag[j] - 2*kz[j]
	}
	pos := make([]float64, fit.e.Dims)
	if err := fit.e.Place(d2, pos); err != nil {
		var de *tsne.DistanceError
		if errors.As(err, &de) && de.Col >= 0 && de.Col < len(kz) {
			// The kernel values are finite (z.kernels refuses others), so
			// their sum overflowed.
			largest := max(math.Abs(kzz[0]), math.Abs(fit.diag[de.Col]), math.Abs(kz[de.Col]))
			return fmt.Errorf("input: its feature-space distance² to a fitted object, k(x,x) + k(z,z) − 2k(x,z), overflows float64: "+
				"the kernel values (up to %.6g in magnitude) are too large; %s", largest, tsneScaleHint)
		}
		return fmt.Errorf("input: %v", err)
	}
	for c, v := range pos {
		dst[c] = v
	}
	return nil
}

func (fit *tsneFit) report() [][2]any {
	method := "exact"
	if fit.e.Method == tsne.BarnesHut {
		method = "barnes_hut"
	}
	out := [][2]any{{"method", method}, {"perplexity", fit.e.Perplexity}, {"iterations", int64(fit.e.Iterations)},
		{"kl_divergence", fit.e.KL}}
	if !math.IsNaN(fit.trust) {
		out = append(out, [2]any{"trustworthiness", fit.trust})
	}
	return out
}

// TSNE is the tsne module.
var TSNE = newModelModule(&tsneKind)

var (
	_ fitted   = (*tsneFit)(nil)
	_ reporter = (*tsneFit)(nil)
)
