package functions

import (
	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// LinearKernel is linear_kernel(x, z): ⟨x, z⟩.
var LinearKernel = host.Func{Name: "linear_kernel", MinArgs: 2, MaxArgs: 2, Deterministic: true,
	Usage: "linear_kernel(x, z)", Number: linearKernel}

// PolyKernel is poly_kernel(x, z, degree [, r]): (⟨x, z⟩ + r)^degree.
var PolyKernel = host.Func{Name: "poly_kernel", MinArgs: 3, MaxArgs: 4, Deterministic: true,
	Usage: "poly_kernel(x, z, degree [, r])", Number: polyKernel}

// GaussKernel is gauss_kernel(x, z, sigma): exp(−‖x−z‖²/(2σ²)).
var GaussKernel = host.Func{Name: "gauss_kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "gauss_kernel(x, z, sigma)", Number: distKernel(kernels.SqDist, kernels.GaussAt, gaussSigma)}

// LaplaceKernel is laplace_kernel(x, z, sigma): exp(−‖x−z‖₁/σ).
var LaplaceKernel = host.Func{Name: "laplace_kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "laplace_kernel(x, z, sigma)", Number: distKernel(kernels.L1Dist, kernels.LaplaceAt, laplaceSigma)}

func linearKernel(c *host.Conn, args []host.Arg) (float64, bool, error) {
	var x, z kernels.Vec
	null, err := twoVectors(args, &x, &z)
	if err != nil || null {
		return 0, null, err
	}
	dot, err := finite(kernels.Dot(x, z), x, z)
	if err != nil {
		return 0, false, err
	}
	return kernels.LinearAt(x, z, dot), false, nil
}

func polyKernel(c *host.Conn, args []host.Arg) (float64, bool, error) {
	var x, z kernels.Vec
	null, err := twoVectors(args, &x, &z)
	if err != nil || null || anyNullArg(args) {
		return 0, err == nil, err
	}
	deg, err := kernelParam(&args[2], 2, polyDegree)
	if err != nil {
		return 0, false, err
	}
	r := polyR.Default
	if len(args) == 4 {
		if r, err = kernelParam(&args[3], 3, polyR); err != nil {
			return 0, false, err
		}
	}
	dot, err := finite(kernels.Dot(x, z), x, z)
	if err != nil {
		return 0, false, err
	}
	return kernels.PolyAt(x, z, dot, int(deg), r), false, nil
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
func distKernel(dist func(a, b kernels.Vec) float64, decay func(x, z kernels.Vec, d, sigma float64) float64, sigmaParam *kernels.Param) func(*host.Conn, []host.Arg) (float64, bool, error) {
	return func(c *host.Conn, args []host.Arg) (float64, bool, error) {
		var x, z kernels.Vec
		null, err := twoVectors(args, &x, &z)
		if err != nil || null || anyNullArg(args) {
			return 0, err == nil, err
		}
		sigma, err := kernelParam(&args[2], 2, sigmaParam)
		if err != nil {
			return 0, false, err
		}
		d, err := finite(dist(x, z), x, z)
		if err != nil {
			return 0, false, err
		}
		return decay(x, z, d, sigma), false, nil
	}
}
