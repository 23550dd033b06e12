package functions

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// argError says which argument was wrong.
func argError(i int, name string, err error) error {
	return fmt.Errorf("argument %d (%s): %w", i+1, name, err)
}

// Vector decodes argument i as a vector. null reports a NULL argument.
func Vector(args []any, i int, name string) (v kernels.Vec, null bool, err error) {
	null, err = vectorInto(args, i, name, &v)
	return v, null, err
}

// vectorInto is Vector writing into *out, for the per-row paths.
func vectorInto(args []any, i int, name string, out *kernels.Vec) (null bool, err error) {
	ok, err := host.DecodeVector(args[i], out)
	if err != nil {
		return false, argError(i, name, err)
	}
	return !ok, nil
}

// Number reads argument i as a finite number (INTEGER or REAL).
func Number(args []any, i int, name string) (float64, error) {
	switch x := args[i].(type) {
	case int64:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, argError(i, name, fmt.Errorf("must be a finite number, got %v", x))
		}
		return x, nil
	}
	return 0, argError(i, name, fmt.Errorf("must be a number, got %s", host.TypeName(args[i])))
}

// Integer reads argument i as a whole number in [lo, hi]; a REAL with no
// fractional part is accepted.
func Integer(args []any, i int, name string, lo, hi int64) (int64, error) {
	var v int64
	switch x := args[i].(type) {
	case int64:
		v = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return 0, argError(i, name, fmt.Errorf("must be a whole number from %d to %d, got %v", lo, hi, x))
		}
		v = int64(x)
	default:
		return 0, argError(i, name, fmt.Errorf("must be an integer, got %s", host.TypeName(args[i])))
	}
	if v < lo || v > hi {
		return 0, argError(i, name, fmt.Errorf("must be a whole number from %d to %d, got %d", lo, hi, v))
	}
	return v, nil
}

// Text reads argument i as TEXT. null reports a NULL argument.
func Text(args []any, i int, name string) (s string, null bool, err error) {
	a := host.ArgOf(args[i])
	return textArg(&a, i, name)
}

// textArg is Text of an unboxed argument.
func textArg(a *host.Arg, i int, name string) (s string, null bool, err error) {
	if a.IsNull() {
		return "", true, nil
	}
	if s, ok := a.Text(); ok {
		return s, false, nil
	}
	return "", false, argError(i, name, fmt.Errorf("must be TEXT, got %s", a.TypeName()))
}

// AnyNull reports whether any argument is NULL: NULL in gives NULL out.
func AnyNull(args []any) bool {
	for _, a := range args {
		if a == nil {
			return true
		}
	}
	return false
}

// twoVectors decodes x and z for a vector kernel and checks their lengths.
func twoVectors(args []host.Arg, x, z *kernels.Vec) (null bool, err error) {
	if host.SameLengthBlobs(&args[0], &args[1], x, z) {
		return false, nil
	}
	nx, err := vectorArg(args, 0, "x", x)
	if err != nil {
		return false, err
	}
	nz, err := vectorArg(args, 1, "z", z)
	if err != nil || nx || nz {
		return nx || nz, err
	}
	if x.Len() != z.Len() {
		return false, fmt.Errorf("vectors differ in length (%d and %d)", x.Len(), z.Len())
	}
	return false, nil
}

// vectorArg is vectorInto of an unboxed argument.
func vectorArg(args []host.Arg, i int, name string, out *kernels.Vec) (null bool, err error) {
	ok, err := host.DecodeArg(&args[i], out)
	if err != nil {
		return false, argError(i, name, err)
	}
	return !ok, nil
}

// anyNullArg is AnyNull of unboxed arguments.
func anyNullArg(args []host.Arg) bool {
	for i := range args {
		if args[i].IsNull() {
			return true
		}
	}
	return false
}

// finite returns v, or an error naming the non-finite element of a float32
// BLOB when v is not finite. Checking the result instead of every element
// keeps the BLOB loops tight: a NaN or Inf element always shows in it.
func finite(v float64, x, z kernels.Vec) (float64, error) {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v, nil
	}
	if err := host.CheckFinite(x); err != nil {
		return 0, argError(0, "x", err)
	}
	if err := host.CheckFinite(z); err != nil {
		return 0, argError(1, "z", err)
	}
	return v, nil
}
