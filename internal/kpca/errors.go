package kpca

import "fmt"

// ComponentsError reports a number of components the data cannot support.
// Its fields let a caller word the error in its own terms; Error gives a
// plain description.
type ComponentsError struct {
	Requested int // the components asked for
	Objects   int // n
	Landmarks int // m for a Nyström fit, 0 for an exact one
	// Rank is the number of eigenvalues of the centred Gram matrix that are
	// not zero by ZeroTol, counted among the first Requested (so at most Requested);
	// −1 when the request was refused before solving.
	Rank int
	// Negative is the most negative eigenvalue found, 0 if none: a kernel
	// that is not positive semi-definite on the data.
	Negative float64
}

// TooFewLandmarks reports a Nyström request refused because it asks for
// more components than there are landmarks.
func (e *ComponentsError) TooFewLandmarks() bool {
	return e.Rank < 0 && e.Landmarks > 0 && e.Requested > e.Landmarks && e.Landmarks < e.Objects
}

// Error says how many components were asked for and how many the data allows.
func (e *ComponentsError) Error() string {
	switch {
	case e.Requested <= 0:
		return fmt.Sprintf("%d components requested: at least 1 is needed", e.Requested)
	case e.TooFewLandmarks():
		return fmt.Sprintf("%d components requested but there are only %d landmarks (at most %d components)",
			e.Requested, e.Landmarks, e.Landmarks)
	case e.Rank < 0 && e.Objects == 1:
		return fmt.Sprintf("%d components requested but there is only 1 object (a single object has no variance to analyse)", e.Requested)
	case e.Rank < 0:
		return fmt.Sprintf("%d components requested but there are only %d objects (at most %d components: centring removes one dimension)",
			e.Requested, e.Objects, e.Objects-1)
	}
	return fmt.Sprintf("%d components requested but %s", e.Requested, e.RankText())
}

// RankText describes a rank shortfall: "the centred Gram matrix of the 4
// objects has only 1 positive eigenvalues (at most 1 components)", with
// the negative eigenvalue when there is one.
func (e *ComponentsError) RankText() string {
	what := "centred Gram matrix"
	if e.Landmarks > 0 {
		what = fmt.Sprintf("centred Nyström approximation (%d landmarks)", e.Landmarks)
	}
	msg := fmt.Sprintf("the %s of the %d objects has only %d positive eigenvalues (at most %d components)",
		what, e.Objects, e.Rank, e.Rank)
	if e.Negative < 0 {
		msg += fmt.Sprintf("; the kernel is not positive semi-definite on this data (eigenvalue %.6g)", e.Negative)
	}
	return msg
}

// NonFiniteError is a NaN or infinite kernel value found in a Gram matrix
// (Row, Col: object indices, upper triangle) or in a Nyström fit's kernel
// values (Row: an object, Col: the object that is landmark number
// Landmark).
type NonFiniteError struct {
	Row, Col int
	Landmark int // −1 for a Gram matrix entry
	Value    float64
}

func (e *NonFiniteError) Error() string {
	if e.Landmark >= 0 {
		return fmt.Sprintf("kernel value between object %d and landmark %d is %v; kernel values must be finite", e.Row, e.Landmark, e.Value)
	}
	return fmt.Sprintf("Gram matrix entry (%d, %d) is %v; kernel values must be finite", e.Row, e.Col, e.Value)
}

// PrecisionError reports kernel values that vary across the objects by
// less than their own float64 rounding: the centred Gram matrix (computed
// exactly from the rounded values) is at the level of that rounding, so
// its eigenvectors would be noise. Objects that are identical up to the
// rounding of their kernel values (K(a,b) one ulp from K(a,a)) end here
// too. A caller can suggest centring or rescaling the data, or a kernel of
// differences.
type PrecisionError struct {
	MaxAbs      float64 // the largest |K_ij|
	MaxCentered float64 // the largest |K̃_ij|, centred with compensated sums
}

func (e *PrecisionError) Error() string {
	return fmt.Sprintf("the kernel values (up to %.6g) differ across the objects by no more than their float64 rounding "+
		"(centred, at most %.3g), so principal components would be rounding noise", e.MaxAbs, e.MaxCentered)
}
