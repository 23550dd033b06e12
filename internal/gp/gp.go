// Package gp fits Gaussian process regression with fixed hyperparameters
// (Rasmussen and Williams, Gaussian Processes for Machine Learning,
// Algorithm 2.1), as scikit-learn's GaussianProcessRegressor with
// optimizer=None and kernlab's gausspr do: the Cholesky factor of
// K + noise·I gives the posterior mean, the posterior standard deviation
// of the latent function (without the noise term) and the log marginal
// likelihood. It works on kernel values only and knows nothing of where
// they come from.
package gp

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/dense"
)

// ParamError is an argument out of its range.
type ParamError struct {
	Name  string
	Value float64
}

func (e *ParamError) Error() string { return fmt.Sprintf("%s = %v is out of range", e.Name, e.Value) }

// NotPDError says K + noise·I is not positive definite to working
// precision: the kernel is not positive semi-definite on the data, or the
// noise is too small for its rounding.
type NotPDError struct{ Noise float64 }

func (e *NotPDError) Error() string {
	return fmt.Sprintf("the kernel matrix plus noise·I is not positive definite with noise = %v", e.Noise)
}

// NoiseError is a noise so far above the kernel's diagonal that the
// answers at the training objects would lose their digits: they are
// computed from y − σ²α and σ² − σ⁴(A⁻¹)_ii, whose cancellation costs
// about ε·σ²/K_ii relative. Limit is NoiseRatio times MaxDiag, the largest
// kernel value K_ii.
type NoiseError struct{ Noise, MaxDiag, Limit float64 }

// NoiseRatio is the largest noise / max K_ii that Fit takes: the answers
// keep about 8 significant digits there.
const NoiseRatio = 1e8

func (e *NoiseError) Error() string {
	return fmt.Sprintf("noise = %v is more than %v times the largest kernel value K_ii = %v", e.Noise, NoiseRatio, e.MaxDiag)
}

// NonFiniteError is a label or kernel value that is NaN or ±Inf. Col is
// the other object of a kernel value (−1 for a label).
type NonFiniteError struct {
	What     string // "label" or "kernel"
	Row, Col int
	Value    float64
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("%s value %v of row %d is not finite", e.What, e.Value, e.Row)
}

// Model is a fitted Gaussian process. Labels enter as y' = (y − YMean) /
// YScale, and answers leave in y's units.
type Model struct {
	N     int
	Noise float64
	// U is the Cholesky factor of K + Noise·I, K = UᵀU − Noise·I: its
	// upper triangle, row-major with stride N. The strict lower triangle
	// is whatever the caller's matrix held there, never read.
	U      []float64
	Alpha  []float64 // (K + Noise·I)⁻¹ y'
	YMean  float64   // 0 without normalisation
	YScale float64   // 1 without normalisation
	LML    float64   // the log marginal likelihood of y' (scikit-learn's log_marginal_likelihood_value_)
}

// Fit fits the process on the n×n kernel matrix K (row-major, upper
// triangle read) and the labels y, which K's upper triangle is
// overwritten with the factor of and which the model keeps. With
// normalize, y is centred and divided by its (population) standard
// deviation first, as scikit-learn's normalize_y, a deviation below
// 10·ε counting as 1. poll (nil: none) is called every few milliseconds
// of work and its error returned.
func Fit(K, y []float64, noise float64, normalize bool, poll func() error) (*Model, error) {
	n := len(y)
	if !(noise > 0) || math.IsInf(noise, 0) {
		return nil, &ParamError{Name: "noise", Value: noise}
	}
	if len(K) != n*n {
		return nil, fmt.Errorf("gp: K has %d values for %d labels", len(K), n)
	}
	m := &Model{N: n, Noise: noise, U: K, YScale: 1}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, &NonFiniteError{What: "label", Row: i, Col: -1, Value: v}
		}
	}
	if normalize {
		m.YMean, m.YScale = meanStd(y)
	}
	if err := addNoise(K, n, noise); err != nil {
		return nil, err
	}
	ok, err := new(dense.CholWork).Cholesky(K, n, n, poll)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &NotPDError{Noise: noise}
	}
	yn := m.normalized(y)
	m.Alpha = append([]float64(nil), yn...)
	if err := dense.SolveUT(K, n, n, m.Alpha, 1, poll); err != nil {
		return nil, err
	}
	if err := dense.SolveU(K, n, n, m.Alpha, 1, poll); err != nil {
		return nil, err
	}
	m.LML = -0.5*dot(yn, m.Alpha) - float64(n)/2*math.Log(2*math.Pi)
	for i := 0; i < n; i++ {
		m.LML -= math.Log(K[i*n+i])
	}
	return m, nil
}

// addNoise checks the upper triangle of K for non-finite values and the
// noise against its diagonal, then adds noise to the diagonal.
func addNoise(K []float64, n int, noise float64) error {
	maxDiag := math.Inf(-1)
	for i := 0; i < n; i++ {
		for j, v := range K[i*n+i : (i+1)*n] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NonFiniteError{What: "kernel", Row: i, Col: i + j, Value: v}
			}
		}
		maxDiag = max(maxDiag, K[i*n+i])
	}
	// A negative diagonal is no positive semi-definite kernel: the
	// factorisation says so.
	if maxDiag >= 0 && noise > NoiseRatio*maxDiag {
		return &NoiseError{Noise: noise, MaxDiag: maxDiag, Limit: NoiseRatio * maxDiag}
	}
	for i := 0; i < n; i++ {
		K[i*n+i] += noise
	}
	return nil
}

// meanStd is numpy's mean and std (two passes, population), the
// deviation replaced by 1 below 10·ε as scikit-learn's
// _handle_zeros_in_scale does. The sums are taken in units of a power of
// two near the largest |y|: exact, so the figures are numpy's to the bit,
// yet labels near ±MaxFloat64 do not overflow the squares.
func meanStd(y []float64) (mean, std float64) {
	top := 0.0
	for _, v := range y {
		top = max(top, math.Abs(v))
	}
	_, e := math.Frexp(top)
	unit := math.Ldexp(1, e-1) // ≤ top, so never 2^1024
	for _, v := range y {
		mean += v / unit
	}
	mean /= float64(len(y))
	for _, v := range y {
		std += (v/unit - mean) * (v/unit - mean)
	}
	std = math.Sqrt(std/float64(len(y))) * unit
	if std < 10*0x1p-52 {
		std = 1
	}
	return mean * unit, std
}

func (m *Model) normalized(y []float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = (v - m.YMean) / m.YScale
	}
	return out
}

// Mean is the posterior mean at an object whose kernel values against
// the training objects are kz.
func (m *Model) Mean(kz []float64) float64 { return m.YScale*dot(kz, m.Alpha) + m.YMean }

// Predict is the posterior mean and standard deviation at an object
// whose kernel values against the training objects are kz and whose
// kernel value with itself is kzz: one triangular solve v = U⁻ᵀkz, and
// the variance kzz − ‖v‖², 0 when rounding makes it negative (as
// scikit-learn does). The difference is taken in units of a power of two
// near max |v_i| when that is past 1, exactly, so that ‖v‖² past float64 with a finite
// difference does not turn into an infinite (or zero) variance.
func (m *Model) Predict(kz []float64, kzz float64) (mean, std float64) {
	v := append([]float64(nil), kz...)
	_ = dense.SolveUT(m.U, m.N, m.N, v, 1, nil) // cannot fail without a poll
	top := 0.0
	for _, x := range v {
		top = max(top, math.Abs(x))
	}
	if math.IsInf(top, 0) || math.IsNaN(top) {
		return m.Mean(kz), math.NaN()
	}
	_, e := math.Frexp(top)
	unit := max(1, math.Ldexp(1, e-1)) // scaled down only: kzz/unit² must not overflow
	for i := range v {
		v[i] /= unit
	}
	return m.Mean(kz), m.YScale * math.Sqrt(max(0, kzz/unit/unit-dot(v, v))) * unit
}

// TrainMean is the posterior mean at the training objects, whose labels
// are y: K(K + σ²I)⁻¹y' = y' − σ²α exactly, so no product with K.
func (m *Model) TrainMean(y []float64) []float64 {
	out := m.normalized(y)
	for i := range out {
		out[i] = m.YScale*(out[i]-m.Noise*m.Alpha[i]) + m.YMean
	}
	return out
}

// TrainStd is the posterior standard deviation at the training objects.
// With A = K + σ²I and k_i = A·e_i − σ²e_i, the variance
// K_ii − k_iᵀA⁻¹k_i is σ² − σ⁴(A⁻¹)_ii: one diagonal of A⁻¹, n³/6
// multiply–adds, instead of a solve per object (n³/2). Its rounding is
// relative to σ² where scikit-learn's K_ii − ‖L⁻¹k_i‖² is relative to
// K_ii: with small noise it is far the more accurate (1e-8: 4e-14
// against 4e-8, TestSmallNoiseHighPrecision); with noise far above K_ii
// it loses about σ²/variance.
func (m *Model) TrainStd(poll func() error) ([]float64, error) {
	d, err := invDiag(m.U, m.N, poll)
	if err != nil {
		return nil, err
	}
	s2 := m.Noise
	for i, v := range d {
		d[i] = m.YScale * math.Sqrt(max(0, s2-s2*(s2*v))) // σ⁴ alone may overflow
	}
	return d, nil
}

func dot(a, b []float64) float64 {
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(a); i += 2 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
	}
	if i < len(a) {
		s0 += a[i] * b[i]
	}
	return s0 + s1
}
