package svm

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/par"
)

// ClassCountError is returned by Fit when the labels name fewer than two
// classes: a classifier needs at least two.
type ClassCountError struct {
	Classes int // how many distinct classes the labels hold (0 or 1)
}

func (e *ClassCountError) Error() string {
	return fmt.Sprintf("svm: the labels hold %d class(es); at least 2 are needed", e.Classes)
}

// LabelError is a label that is not a class index: labels are 0..k−1,
// with k = the largest label + 1, and every class must have a row (so
// k ≤ n).
type LabelError struct {
	Problem LabelProblem
	Row     int // the row of the bad label, or −1 for EmptyClass
	Label   int // the label (for EmptyClass, the class without rows)
	Classes int // k, for EmptyClass; n (the number of rows) for LabelTooLarge
}

// LabelProblem says what is wrong with a label.
type LabelProblem int

const (
	// NegativeLabel: a label below 0.
	NegativeLabel LabelProblem = iota + 1
	// LabelTooLarge: a label ≥ n, which would leave a class without rows.
	LabelTooLarge
	// EmptyClass: a class index below the largest label that no row has.
	EmptyClass
)

func (e *LabelError) Error() string {
	switch e.Problem {
	case EmptyClass:
		return fmt.Sprintf("svm: class %d of 0..%d has no rows; labels must be class indices with every class present", e.Label, e.Classes-1)
	case LabelTooLarge:
		return fmt.Sprintf("svm: label %d of row %d is not below the number of rows (%d); labels must be class indices 0..k−1 with every class present", e.Label, e.Row, e.Classes)
	}
	return fmt.Sprintf("svm: label %d of row %d is negative; labels must be class indices 0..k−1", e.Label, e.Row)
}

// ParamError is an option outside its allowed range.
type ParamError struct {
	Name    string  // the Options field: "C", "Tol", "ClassWeight", "CacheBytes", "MaxIter"
	Index   int     // for ClassWeight, the class (−1: the length is wrong); otherwise 0
	Value   float64 // the value given (for a wrong ClassWeight length, the length)
	Allowed string  // the allowed range, e.g. "finite and > 0"
}

func (e *ParamError) Error() string {
	if e.Name == "ClassWeight" && e.Index < 0 {
		return fmt.Sprintf("svm: ClassWeight has %g weight(s); allowed: %s", e.Value, e.Allowed)
	}
	if e.Name == "ClassWeight" {
		return fmt.Sprintf("svm: ClassWeight[%d] = %g; allowed: %s", e.Index, e.Value, e.Allowed)
	}
	return fmt.Sprintf("svm: %s = %g; allowed: %s", e.Name, e.Value, e.Allowed)
}

// KernelValueError is a kernel value the solver cannot use: NaN, ±Inf, or
// beyond the float32 range of the column cache (|K| > 3.4e38; a normalised
// kernel never is).
type KernelValueError struct {
	Row, Col int // training rows
	Value    float64
}

// CacheLimit is the largest |K| the solver takes: its column cache holds
// float32s.
const CacheLimit = math.MaxFloat32

// Finite says the value was refused for leaving the cache's float32
// range, not for being NaN or ±Inf.
func (e *KernelValueError) Finite() bool { return !math.IsNaN(e.Value) && !math.IsInf(e.Value, 0) }

func (e *KernelValueError) Error() string {
	return fmt.Sprintf("svm: kernel value K(%d, %d) = %g is not a finite number within ±3.4e38", e.Row, e.Col, e.Value)
}

// ColumnError is a failure of the kernel callback while computing the
// values K(x_Row, ·).
type ColumnError struct {
	Row int
	Err error
}

func (e *ColumnError) Error() string {
	return fmt.Sprintf("svm: kernel column of row %d: %v", e.Row, e.Err)
}

// Unwrap returns the callback's error.
func (e *ColumnError) Unwrap() error { return e.Err }

// LengthError is a slice of the wrong length given to a Model method.
type LengthError struct {
	Name      string // the argument
	Got, Want int
}

func (e *LengthError) Error() string {
	return fmt.Sprintf("svm: %s has length %d, want %d", e.Name, e.Got, e.Want)
}

// PanicError is a panic inside a worker goroutine (most likely in the
// kernel callback), turned into an error for the fit's caller by
// internal/par, which runs the workers: Func names the fit ("svm.Fit",
// "svm.FitOneClass", "svm.FitRegression").
type PanicError = par.PanicError

// NuInfeasibleError is a ν that no ν-SVC solution can meet for the pair
// of classes A and B (libsvm's "specified nu is infeasible"): ν·(n_A +
// n_B)/2 must not exceed the smaller class's rows.
type NuInfeasibleError struct {
	Nu             float64
	A, B           int // the class indices
	CountA, CountB int // their rows
}

func (e *NuInfeasibleError) Error() string {
	return fmt.Sprintf("svm: ν = %g is infeasible for classes %d (%d rows) and %d (%d rows): ν·(n_a + n_b)/2 must be ≤ min(n_a, n_b)",
		e.Nu, e.A, e.CountA, e.B, e.CountB)
}

// NuMarginError is a ν-SVC pair whose solution is degenerate: libsvm's r
// is not a finite number > 0 (typically with ν at the feasibility bound,
// where every variable of a class sits at a bound and r = +Inf), so the
// rescaling by 1/r that gives the classifier is not finite. scikit-learn
// fails on such a fit too (non-finite coefficients); a smaller ν avoids it.
type NuMarginError struct {
	Nu   float64
	A, B int
	R    float64
}

func (e *NuMarginError) Error() string {
	return fmt.Sprintf("svm: ν = %g gives classes %d and %d a degenerate solution (r = %g), whose classifier is not finite; use a smaller ν", e.Nu, e.A, e.B, e.R)
}

// RhoError is a one-class or regression solution whose offset ρ is not
// finite: every variable sits at a bound (one-class with ν = 1 puts every
// α at 1), so libsvm's ρ, the middle of an unbounded interval, is ±Inf.
// scikit-learn fails on such a fit too.
type RhoError struct {
	Type Type
	Rho  float64
}

func (e *RhoError) Error() string {
	return fmt.Sprintf("svm: the %v solution has every variable at a bound, so its offset ρ = %g is not finite", e.Type, e.Rho)
}

// TargetError is a regression target that is not a finite number.
type TargetError struct {
	Row   int
	Value float64
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("svm: target %g of row %d is not a finite number", e.Value, e.Row)
}

// NotClassifierError is a class asked of a regression model.
type NotClassifierError struct {
	Type Type
}

func (e *NotClassifierError) Error() string {
	return fmt.Sprintf("svm: a %v model predicts values, not classes; use DecisionBatch", e.Type)
}

var (
	_ error = (*NuInfeasibleError)(nil)
	_ error = (*NuMarginError)(nil)
	_ error = (*RhoError)(nil)
	_ error = (*TargetError)(nil)
	_ error = (*NotClassifierError)(nil)
	_ error = (*ClassCountError)(nil)
	_ error = (*LabelError)(nil)
	_ error = (*ParamError)(nil)
	_ error = (*KernelValueError)(nil)
	_ error = (*ColumnError)(nil)
	_ error = (*LengthError)(nil)
	_ error = (*PanicError)(nil)
)
