package vtab

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/cluster"
)

// spectralKind is spectral(id, cluster, distance, input HIDDEN): spectral
// clustering (Ng, Jordan & Weiss) with the kernel matrix as affinity. It
// places no new object: the embedding is made of the eigenvectors of the
// stored objects' own affinities, which a new object would change, so
// input gives an error that says so.
var spectralKind = modelKind{
	name:      "spectral",
	keys:      clusterKeys,
	configure: func(opts options) (model, error) { return configureClusters(opts, "spectral") },
	decode:    decodeSpectral,
}

// spectralFit is a spectral partition; Dist2 is measured in the embedding
// (the rows of the top eigenvectors, scaled to unit length).
type spectralFit struct {
	res *cluster.SpectralResult
}

func fitSpectral(f *fitting, K []float64, opt cluster.Options) (fitted, error) {
	res, err := cluster.Spectral(K, len(f.objs()), opt)
	if err != nil {
		return nil, clusterError(f, err)
	}
	return &spectralFit{res: res}, nil
}

func (fit *spectralFit) stored(o int, dst []any) {
	dst[0], dst[1] = int64(fit.res.Labels[o]+1), math.Sqrt(fit.res.Dist2[o])
}

func (fit *spectralFit) predict(*newObject, []any) error {
	return fmt.Errorf("input: spectral clustering places only the objects it was fitted on (a new object would change the affinity matrix " +
		"whose eigenvectors are the embedding); refit with the object in the source, or use kkmeans, which assigns a new object to the nearest centre")
}

func (fit *spectralFit) report() [][2]any {
	out := clusterReport(&fit.res.Result)
	for j, v := range fit.res.Eigenvalues {
		out = append(out, [2]any{fmt.Sprintf("eigenvalue[%d]", j+1), v})
	}
	return out
}

func (fit *spectralFit) encode() ([]fitPart, error) {
	w := wireOf(&fit.res.Result)
	w.Eigen = fit.res.Eigenvalues
	return encodeCluster("spectral", w)
}

func decodeSpectral(mod model, f *fitting, s *storedFit) (fitted, error) {
	w, r, err := decodeCluster("spectral", mod, f, s)
	if err != nil {
		return nil, err
	}
	if len(w.Eigen) != len(w.Sizes) {
		return nil, fmt.Errorf("the stored spectral fit does not match its source")
	}
	return &spectralFit{res: &cluster.SpectralResult{Result: *r, Eigenvalues: w.Eigen}}, nil
}

// Spectral is the spectral module.
var Spectral = newModelModule(&spectralKind)

var (
	_ fitted     = (*spectralFit)(nil)
	_ reporter   = (*spectralFit)(nil)
	_ fitEncoder = (*spectralFit)(nil)
)
