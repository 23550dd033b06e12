package functions

import (
	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// LinearKernel is linear_kernel(x, z): ⟨x, z⟩.
var LinearKernel = host.Func{Name: "linear_kernel", MinArgs: 2, MaxArgs: 2, Deterministic: true,
	Usage: "linear_kernel(x, z)", Body: linearKernel}

// PolyKernel is poly_kernel(x, z, degree [, r]): (⟨x, z⟩ + r)^degree.
var PolyKernel = host.Func{Name: "poly_kernel", MinArgs: 3, MaxArgs: 4, Deterministic: true,
	Usage: "poly_kernel(x, z, degree [, r])", Body: polyKernel}

// GaussKernel is gauss_kernel(x, z, sigma): exp(−‖x−z‖²/(2σ²)).
var GaussKernel = host.Func{Name: "gauss_kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "gauss_kernel(x, z, sigma)", Body: distKernel(kernels.SqDist, kernels.GaussAt, gaussSigma)}

// LaplaceKernel is laplace_kernel(x, z, sigma): exp(−‖x−z‖₁/σ).
var LaplaceKernel = host.Func{Name: "laplace_kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "laplace_kernel(x, z, sigma)", Body: distKernel(kernels.L1Dist, kernels.LaplaceAt, laplaceSigma)}

func linearKernel(c *host.Conn, args []any) (any, error) {
	var x, z kernels.Vec
	null, err := twoVectors(args, &x, &z)
	if err != nil || null {
		return nil, err
	}
	dot, err := finite(kernels.Dot(x, z), x, z)
	if err != nil {
		return nil, err
	}
	return kernels.LinearAt(x, z, dot), nil
}

func polyKernel(c *host.Conn, args []any) (any, error) {
	var x, z kernels.Vec
	null, err := twoVectors(args, &x, &z)
	if err != nil || null || AnyNull(args) {
		return nil, err
	}
	deg, err := KernelParam(args, 2, polyDegree)
	if err != nil {
		return nil, err
	}
	r := polyR.Default
	if len(args) == 4 {
		if r, err = KernelParam(args, 3, polyR); err != nil {
			return nil, err
		}
	}
	dot, err := finite(kernels.Dot(x, z), x, z)
	if err != nil {
		return nil, err
	}
	return kernels.PolyAt(x, z, dot, int(deg), r), nil
}

// The parameters of the vector kernels, as the kernel table defines them.
var (
	polyDegree   = kernels.MustLookup("poly").Param("degree")
	polyR        = kernels.MustLookup("poly").Param("r")
	gaussSigma   = kernels.MustLookup("gauss").Param("sigma")
	laplaceSigma = kernels.MustLookup("laplace").Param("sigma")
)

// distKernel builds gauss_kernel and laplace_kernel: a distance, then a
// decay with sigma (which recomputes the distance in scaled form when it
// or sigma is at the edge of float64).
func distKernel(dist func(a, b kernels.Vec) float64, decay func(x, z kernels.Vec, d, sigma float64) float64, sigmaParam *kernels.Param) func(*host.Conn, []any) (any, error) {
	return func(c *host.Conn, args []any) (any, error) {
		var x, z kernels.Vec
		null, err := twoVectors(args, &x, &z)
		if err != nil || null || AnyNull(args) {
			return nil, err
		}
		sigma, err := KernelParam(args, 2, sigmaParam)
		if err != nil {
			return nil, err
		}
		d, err := finite(dist(x, z), x, z)
		if err != nil {
			return nil, err
		}
		return decay(x, z, d, sigma), nil
	}
}
