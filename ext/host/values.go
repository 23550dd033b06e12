package host

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/ksql/ksql/internal/kernels"
)

// DecodeVector turns a SQL value into a vector in *out: JSON array text
// (parsed as float64) or a BLOB of little-endian float32 (sqlite-vec's
// format). The BLOB is not copied: out is valid as long as v is. A NULL
// gives ok=false and no error. Errors say what was wrong without naming
// the function; callers prefix the function and argument. The vector is
// written through out because a kernel's per-row cost is small enough that
// copying the returned struct through each layer shows.
func DecodeVector(v any, out *kernels.Vec) (ok bool, err error) {
	a := ArgOf(v)
	if a.typ == 0 {
		return false, notVector(TypeName(v))
	}
	return DecodeArg(&a, out)
}

// DecodeArg is DecodeVector of an unboxed argument.
func DecodeArg(a *Arg, out *kernels.Vec) (ok bool, err error) {
	switch a.typ {
	case argNull:
		return false, nil
	case argBlob:
		x, _ := a.Blob()
		if len(x) == 0 {
			return false, fmt.Errorf("empty BLOB; a vector needs at least one element")
		}
		if len(x)%4 != 0 {
			return false, fmt.Errorf("BLOB of %d bytes is not a float32 vector (length must be a multiple of 4)", len(x))
		}
		*out = kernels.Vec{F32: x}
		return true, nil
	case argText:
		x, _ := a.Text()
		f, err := ParseJSONVector(x)
		if err != nil {
			return false, err
		}
		*out = kernels.Vec{F64: f}
		return true, nil
	}
	return false, notVector(a.TypeName())
}

// SameLengthBlobs sets *x and *z from a and b when both are float32 BLOB
// vectors of one length, the per-row case of a vector kernel that needs
// none of DecodeArg's checks spelt out; it reports whether they were.
func SameLengthBlobs(a, b *Arg, x, z *kernels.Vec) bool {
	if a.typ != argBlob || b.typ != argBlob || a.n != b.n || a.n == 0 || a.n%4 != 0 {
		return false
	}
	x.F64, x.F32 = nil, unsafe.Slice((*byte)(a.p), int(a.n))
	z.F64, z.F32 = nil, unsafe.Slice((*byte)(b.p), int(b.n))
	return true
}

func notVector(typeName string) error {
	return fmt.Errorf("expected a vector (JSON array text or float32 BLOB), got %s", typeName)
}

// CheckFinite returns an error naming the first NaN or infinite element of a
// float32 BLOB vector. JSON vectors are checked while parsing.
func CheckFinite(v kernels.Vec) error {
	if i := kernels.FirstNonFinite(v.F32); i >= 0 {
		return fmt.Errorf("element %d of the vector is %v; vectors must be finite", i+1, v.At(i))
	}
	return nil
}

// TypeName names the SQL type of a driver value, for error messages.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "NULL"
	case int64:
		return "INTEGER"
	case float64:
		return "REAL"
	case string:
		return "TEXT"
	case []byte:
		return "BLOB"
	}
	return fmt.Sprintf("%T", v)
}

// ParseJSONVector parses a JSON array of numbers. It is a small hand-written
// scanner rather than encoding/json: it allocates only the result, and its
// errors say where the text went wrong.
func ParseJSONVector(s string) ([]float64, error) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return nil, fmt.Errorf("vector text must be a JSON array such as '[1, 2.5, -3]', got %s", excerpt(s))
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		if j := skipSpace(s, i+1); j != len(s) {
			return nil, fmt.Errorf("unexpected text after the JSON array at offset %d", j)
		}
		return nil, fmt.Errorf("empty vector '[]'; a vector needs at least one element")
	}
	// Commas only separate elements, so their count sizes the result
	// exactly: no growth by doubling, whose copies made a 400 MB text
	// hold several times its output. Valid text has at most one comma
	// per two bytes; more (",,,,") is an error found at the second one.
	out := make([]float64, 0, 1+min(strings.Count(s[i:], ","), len(s)/2))
	for {
		j := i
		for j < len(s) && (s[j] == '-' || s[j] == '+' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || (s[j] >= '0' && s[j] <= '9')) {
			j++
		}
		if j == i {
			if i >= len(s) {
				return nil, fmt.Errorf("vector text ends early; expected a number after element %d", len(out))
			}
			return nil, fmt.Errorf("element %d of the vector is not a number (found %s)", len(out)+1, excerpt(s[i:]))
		}
		f, err := strconv.ParseFloat(s[i:j], 64)
		if errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0) {
			return nil, fmt.Errorf("element %d of the vector (%s) is outside the float64 range", len(out)+1, cut(s[i:j]))
		}
		if (err != nil && !errors.Is(err, strconv.ErrRange)) || s[i] == '+' { // underflow to 0 is fine
			return nil, fmt.Errorf("element %d of the vector is not a valid number: %q", len(out)+1, cut(s[i:j]))
		}
		out = append(out, f)
		i = skipSpace(s, j)
		if i >= len(s) {
			return nil, fmt.Errorf("vector text ends early; expected ',' or ']' after element %d", len(out))
		}
		if s[i] == ']' {
			if k := skipSpace(s, i+1); k != len(s) {
				return nil, fmt.Errorf("unexpected text after the JSON array at offset %d", k)
			}
			return out, nil
		}
		if s[i] != ',' {
			return nil, fmt.Errorf("expected ',' or ']' after element %d, found %s", len(out), excerpt(s[i:]))
		}
		i = skipSpace(s, i+1)
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// cut shortens a number's text (ASCII) for an error message.
func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func excerpt(s string) string {
	if len(s) > 20 {
		s = s[:20] + "..."
	}
	return strconv.Quote(s)
}

// Float32Blob encodes values as a little-endian float32 BLOB, the form in
// which ksql returns vectors.
func Float32Blob(v []float64) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(x)))
	}
	return out
}
