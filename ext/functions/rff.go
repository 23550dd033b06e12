package functions

import (
	"errors"
	"fmt"
	"math"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/rff"
)

// MaxRFFDim bounds rff_embed (ksql_config name max_rff_dim).
var MaxRFFDim = &host.Setting{Name: "max_rff_dim", Default: 16384, Min: 2, Max: rff.MaxDim,
	Doc: "largest dim rff_embed accepts"}

// MaxRFFMapBytes bounds rff_embed (ksql_config name max_rff_map_bytes).
var MaxRFFMapBytes = &host.Setting{Name: "max_rff_map_bytes", Default: rff.DefaultCacheLimit, Min: 1 << 10, Max: 1 << 40, Memory: true,
	Doc: "largest frequency matrix (dim/2 × input dimension × 8 bytes, padded) rff_embed may draw and cache"}

// RFFEmbed is rff_embed(x, dim, sigma | spec [, seed]): random Fourier features.
var RFFEmbed = host.Func{Name: "rff_embed", MinArgs: 3, MaxArgs: 4, Deterministic: true,
	Usage: "rff_embed(x, dim, sigma | 'gauss(sigma=..)' | 'laplace(sigma=..)' [, seed])", Body: rffEmbed}

// rffEmbed returns random Fourier features of x as a float32 BLOB. The
// frequency matrix is drawn once per (kernel, σ, input dimension, dim,
// seed) and cached by internal/rff, so the cost per row is one projection.
func rffEmbed(c *host.Conn, args []any) (any, error) {
	if AnyNull(args) {
		return nil, nil
	}
	x, _, err := Vector(args, 0, "x")
	if err != nil {
		return nil, err
	}
	dim, err := rffDim(c, args)
	if err != nil {
		return nil, err
	}
	kind, sigma, err := rffKernel(args)
	if err != nil {
		return nil, err
	}
	var seed int64
	if len(args) == 4 {
		if seed, err = rffSeed(args[3]); err != nil {
			return nil, argError(3, "seed", err)
		}
	}
	if err := rffMapFits(c, x.Len(), dim); err != nil {
		return nil, err
	}
	m, err := rff.Get(kind, sigma, x.Len(), dim, uint64(seed))
	if err != nil {
		return nil, err
	}
	out := make([]byte, 4*dim)
	if x.F32 != nil {
		err = m.EmbedF32(x.F32, out)
	} else {
		err = m.EmbedF64(x.F64, out)
	}
	if errors.Is(err, rff.ErrNonFinite) {
		if ferr := host.CheckFinite(x); ferr != nil {
			return nil, argError(0, "x", ferr)
		}
		return nil, argError(0, "x", errors.New("the vector is too large: its projections overflow"))
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// rffSeed accepts any 64-bit integer (a negative one stands for its
// two's-complement uint64), or a REAL with no fractional part.
func rffSeed(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
			return int64(x), nil
		}
		return 0, fmt.Errorf("must be an integer, got %v", x)
	}
	return 0, fmt.Errorf("must be an integer, got %s", host.TypeName(v))
}

func rffDim(c *host.Conn, args []any) (int, error) {
	d, err := Integer(args, 1, "dim", math.MinInt64, math.MaxInt64)
	if err != nil {
		return 0, err
	}
	limit := MaxRFFDim.Get(c)
	switch {
	case d <= 0:
		return 0, argError(1, "dim", fmt.Errorf("must be a positive even number, got %d", d))
	case d%2 != 0:
		return 0, argError(1, "dim", fmt.Errorf("must be even (the cos and sin of dim/2 frequencies), got %d", d))
	case d > MaxRFFDim.Ceiling():
		return 0, argError(1, "dim", fmt.Errorf("%d is beyond what ksql allows: max_rff_dim = %d, and the setting's largest value is %d; use a smaller dim",
			d, limit, MaxRFFDim.Ceiling()))
	case d > limit:
		return 0, argError(1, "dim", fmt.Errorf("%d is past max_rff_dim = %d; raise it with SELECT ksql_config('max_rff_dim', %d)", d, limit, d))
	}
	return int(d), nil
}

// rffMapFits bounds the frequency matrix of dim features of inDim-
// dimensional vectors by max_rff_map_bytes, suggesting the setting's
// needed value only where ksql_config accepts it.
func rffMapFits(c *host.Conn, inDim, dim int) error {
	b, limit := rff.MapBytes(inDim, dim), MaxRFFMapBytes.Get(c)
	switch {
	case b <= limit:
		return nil
	case b > MaxRFFMapBytes.Ceiling():
		return fmt.Errorf("the frequency matrix for dim %d and %d-dimensional vectors takes %d bytes, past max_rff_map_bytes = %d "+
			"and beyond what ksql allows (the setting's largest value is %s); use a smaller dim or vectors of fewer dimensions",
			dim, inDim, b, limit, MaxRFFMapBytes.CeilingText())
	}
	return fmt.Errorf("the frequency matrix for dim %d and %d-dimensional vectors takes %d bytes, past max_rff_map_bytes = %d; use a smaller dim or raise it with SELECT ksql_config('max_rff_map_bytes', %d)",
		dim, inDim, b, limit, b)
}

// rffKernel reads argument 3: a σ for gauss, or a spec text naming gauss
// or laplace — the shift-invariant kernels whose spectral density
// internal/rff samples.
func rffKernel(args []any) (rff.Kind, float64, error) {
	if _, ok := args[2].(string); !ok {
		sigma, err := KernelParam(args, 2, gaussSigma)
		return rff.Gauss, sigma, err
	}
	spec, err := Spec(args, 2)
	if err != nil {
		return 0, 0, argError(2, "spec", err)
	}
	if spec.Domain() != kernels.VectorDomain {
		return 0, 0, argError(2, "spec", fmt.Errorf("%q is a string kernel; random Fourier features exist only for the shift-invariant vector kernels 'gauss(sigma=..)' and 'laplace(sigma=..)'", spec.String()))
	}
	name, sigma, ok := spec.ShiftInvariant()
	if !ok {
		return 0, 0, argError(2, "spec", fmt.Errorf("%q is not allowed; random Fourier features exist only for the shift-invariant kernels 'gauss(sigma=..)' and 'laplace(sigma=..)'", spec.String()))
	}
	if name == "laplace" {
		return rff.Laplace, sigma, nil
	}
	return rff.Gauss, sigma, nil
}
