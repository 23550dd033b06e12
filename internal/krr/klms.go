package krr

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Mode is how KLMS visits the samples.
type Mode int

const (
	// Batch updates every coefficient from the whole residual each epoch:
	// β ← β + step·(y − Kβ), β₀ = 0 (the notes' gradient step on ½‖y − Kβ‖²
	// in the dual, descent direction taken in the coefficient space).
	Batch Mode = iota
	// Online takes the samples one at a time in row order:
	// β_i ← β_i + step·(y_i − Σ_j K_ij β_j), so each update sees the ones
	// before it in the same epoch (the LMS rule of notes 003).
	Online
)

// ErrEigenOverflow is a kernel matrix whose entries are finite but whose
// largest eigenvalue, which bounds the step, passes float64's range.
var ErrEigenOverflow = errors.New("the kernel matrix's largest eigenvalue passes float64's range")

// DivergenceError says the iteration cannot converge with this step:
// batch KLMS converges only for step < 2/λ_max(K).
type DivergenceError struct {
	Step, MaxStable float64
	Epoch           int // the epoch where an online run blew up, or 0
}

func (e *DivergenceError) Error() string {
	if e.Epoch > 0 {
		return fmt.Sprintf("step %v diverges (the error grew without bound at epoch %d); try a step below %v", e.Step, e.Epoch, e.MaxStable)
	}
	return fmt.Sprintf("step %v diverges: it must be below 2/λ_max(K) = %v", e.Step, e.MaxStable)
}

// LMSResult is a fitted KLMS model.
type LMSResult struct {
	Beta []float64
	// MSE[e] is the training mean squared error after epoch e+1.
	MSE []float64
	// MaxStable is 2/λ_max(K), the largest step batch KLMS converges with.
	MaxStable float64
}

// FitLMS runs epochs passes of KLMS over the n×n kernel matrix K
// (row-major, full: both triangles read) and labels y. interrupt, when
// not nil, is polled every few milliseconds of work (an epoch over 10,000
// objects is a tenth of a second) and its error returned.
func FitLMS(K, y []float64, step float64, epochs int, mode Mode, interrupt func() error) (*LMSResult, error) {
	n := len(y)
	if !(step > 0) || math.IsInf(step, 0) {
		return nil, &ParamError{Name: "step", Value: step}
	}
	if epochs < 1 {
		return nil, &ParamError{Name: "epochs", Value: float64(epochs)}
	}
	if len(K) != n*n {
		return nil, fmt.Errorf("krr: K has %d values for %d labels", len(K), n)
	}
	if err := checkFinite("label", y); err != nil {
		return nil, err
	}
	if err := checkFinite("kernel", K); err != nil {
		return nil, err
	}
	mt := &meter{poll: pollOrNone(interrupt)}
	lmax, err := maxEigen(K, n, mt)
	if err != nil {
		return nil, err
	}
	if math.IsInf(lmax, 0) || math.IsNaN(lmax) { // 2/λ_max would read as "no step is stable"
		return nil, ErrEigenOverflow
	}
	res := &LMSResult{Beta: make([]float64, n), MaxStable: 2 / lmax}
	if mode == Batch && step >= res.MaxStable {
		return nil, &DivergenceError{Step: step, MaxStable: res.MaxStable}
	}
	r := make([]float64, n) // residual y − Kβ
	for e := 1; e <= epochs; e++ {
		if mode == Batch {
			if err := residual(K, y, res.Beta, r, mt); err != nil {
				return nil, err
			}
			for i := range res.Beta {
				res.Beta[i] += step * r[i]
			}
		} else {
			for i := 0; i < n; i++ {
				if err := mt.add(n); err != nil {
					return nil, err
				}
				res.Beta[i] += step * (y[i] - Predict(res.Beta, K[i*n:(i+1)*n]))
			}
		}
		if err := residual(K, y, res.Beta, r, mt); err != nil {
			return nil, err
		}
		mse := 0.0
		for _, v := range r {
			mse += v * v
		}
		mse /= float64(n)
		if math.IsNaN(mse) || math.IsInf(mse, 0) {
			return nil, &DivergenceError{Step: step, MaxStable: res.MaxStable, Epoch: e}
		}
		res.MSE = append(res.MSE, mse)
	}
	return res, nil
}

func residual(K, y, beta, r []float64, mt *meter) error {
	n := len(y)
	for i := range r {
		if err := mt.add(n); err != nil {
			return err
		}
		r[i] = y[i] - Predict(beta, K[i*n:(i+1)*n])
	}
	return nil
}

// meter calls poll once per pollWork multiply–adds (a few milliseconds).
type meter struct {
	poll func() error
	work int
}

const pollWork = 1 << 22

func (m *meter) add(work int) error {
	if m.work += work; m.work < pollWork {
		return nil
	}
	m.work = 0
	return m.poll()
}

// maxEigen estimates λ_max of the symmetric PSD matrix K by power
// iteration from a fixed start (deterministic), to 1e-6 relative; it
// errs high by design (Rayleigh quotient bound plus a margin) so that the
// refused steps include every divergent one.
func maxEigen(K []float64, n int, mt *meter) (float64, error) {
	v := make([]float64, n)
	w := make([]float64, n)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(n))
	}
	lambda := 0.0
	for it := 0; it < 1000; it++ {
		for i := range w {
			if err := mt.add(n); err != nil {
				return 0, err
			}
			w[i] = Predict(v, K[i*n:(i+1)*n])
		}
		// scaled: the sum of squares overflows once λ_max passes 1e154
		norm := floats.Norm(w, 2)
		if norm == 0 {
			return math.SmallestNonzeroFloat64, nil
		}
		for i := range v {
			v[i] = w[i] / norm
		}
		if math.Abs(norm-lambda) <= 1e-9*norm {
			lambda = norm
			break
		}
		lambda = norm
	}
	return lambda * (1 + 1e-9), nil
}
