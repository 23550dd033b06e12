package host

import "unsafe"

// Arg is one argument of a function call, unboxed. Adapters that read
// SQLite's values in C (ext/loadable, which mattn also goes through) hand
// a Func's Number body a slice of them that is SQLite's memory viewed in
// place: no allocation per argument, where a []any boxes each BLOB and
// REAL. The layout is ext/loadable's ksql_arg (a test there checks it).
type Arg struct {
	typ int32 // SQLite's fundamental type: argInteger … argNull
	n   int32 // bytes at p (TEXT, BLOB)
	i   int64
	f   float64
	p   unsafe.Pointer
}

// SQLite's codes for the fundamental types (SQLITE_INTEGER …), which C
// writes into Arg.typ; 0 is a value of a type SQL does not have.
const (
	argInteger = 1
	argFloat   = 2
	argText    = 3
	argBlob    = 4
	argNull    = 5
)

// ArgOf views a driver value (nil, int64, float64, string, []byte) as an
// Arg; text and BLOBs are not copied.
func ArgOf(v any) Arg {
	switch x := v.(type) {
	case nil:
		return Arg{typ: argNull}
	case int64:
		return Arg{typ: argInteger, i: x}
	case float64:
		return Arg{typ: argFloat, f: x}
	case string:
		return Arg{typ: argText, n: int32(len(x)), p: unsafe.Pointer(unsafe.StringData(x))}
	case []byte:
		return Arg{typ: argBlob, n: int32(len(x)), p: unsafe.Pointer(unsafe.SliceData(x))}
	}
	return Arg{}
}

// IsNull reports a SQL NULL.
func (a *Arg) IsNull() bool { return a.typ == argNull }

// Number returns an INTEGER or REAL argument as a float64; ok is false
// for other types.
func (a *Arg) Number() (v float64, ok bool) {
	switch a.typ {
	case argInteger:
		return float64(a.i), true
	case argFloat:
		return a.f, true
	}
	return 0, false
}

// Integer returns an INTEGER argument; ok is false for other types.
func (a *Arg) Integer() (v int64, ok bool) { return a.i, a.typ == argInteger }

// Text returns a TEXT argument (a view, valid during the call); ok is
// false for other types.
func (a *Arg) Text() (s string, ok bool) {
	if a.typ != argText {
		return "", false
	}
	return unsafe.String((*byte)(a.p), int(a.n)), true
}

// Blob returns a BLOB argument (a view, valid during the call; never nil,
// so that an empty BLOB is not taken for NULL); ok is false for other types.
func (a *Arg) Blob() (b []byte, ok bool) {
	if a.typ != argBlob {
		return nil, false
	}
	if a.n == 0 {
		return []byte{}, true
	}
	return unsafe.Slice((*byte)(a.p), int(a.n)), true
}

// Box returns the argument as a driver value (views of text and BLOBs),
// for the paths where an allocation does not matter, such as errors.
func (a *Arg) Box() any {
	switch a.typ {
	case argNull:
		return nil
	case argInteger:
		return a.i
	case argFloat:
		return a.f
	case argText:
		s, _ := a.Text()
		return s
	case argBlob:
		b, _ := a.Blob()
		return b
	}
	return unsupported{}
}

// unsupported stands for a value ArgOf could not view.
type unsupported struct{}

// TypeName names the SQL type of the argument, for error messages.
func (a *Arg) TypeName() string {
	if a.typ == 0 {
		return "a value of an unsupported type"
	}
	return TypeName(a.Box())
}
