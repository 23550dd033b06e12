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
	Usage: "gauss_kernel(x, z, sigma)", Body: distKernel(kernels.SqDist, kernels.GaussOf)}

// LaplaceKernel is laplace_kernel(x, z, sigma): exp(−‖x−z‖₁/σ).
var LaplaceKernel = host.Func{Name: "laplace_kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "laplace_kernel(x, z, sigma)", Body: distKernel(kernels.L1Dist, kernels.LaplaceOf)}

func linearKernel(c *host.Conn, args []any) (any, error) {
	var x, z kernels.Vec
	null, err := twoVectors(args, &x, &z)
	if err != nil || null {
		return nil, err
	}
	return finite(kernels.Dot(x, z), x, z)
}

func polyKernel(c *host.Conn, args []any) (any, error) {
	var x, z kernels.Vec
	null, err := twoVectors(args, &x, &z)
	if err != nil || null || AnyNull(args) {
		return nil, err
	}
	deg, err := Integer(args, 2, "degree", 1, kernels.MaxDegree)
	if err != nil {
		return nil, err
	}
	r := 1.0
	if len(args) == 4 {
		if r, err = Number(args, 3, "r"); err != nil {
			return nil, err
		}
		if r < 0 {
			return nil, argError(3, "r", errNegativeR)
		}
	}
	dot, err := finite(kernels.Dot(x, z), x, z)
	if err != nil {
		return nil, err
	}
	return kernels.PolyOf(dot, int(deg), r), nil
}

var errNegativeR = errorString("must be ≥ 0")

type errorString string

func (e errorString) Error() string { return string(e) }

// distKernel builds gauss_kernel and laplace_kernel: a distance, then a
// decay with sigma.
func distKernel(dist func(a, b kernels.Vec) float64, decay func(d, sigma float64) float64) func(*host.Conn, []any) (any, error) {
	return func(c *host.Conn, args []any) (any, error) {
		var x, z kernels.Vec
		null, err := twoVectors(args, &x, &z)
		if err != nil || null || AnyNull(args) {
			return nil, err
		}
		sigma, err := Positive(args, 2, "sigma")
		if err != nil {
			return nil, err
		}
		d, err := finite(dist(x, z), x, z)
		if err != nil {
			return nil, err
		}
		return decay(d, sigma), nil
	}
}
