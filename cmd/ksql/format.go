package main

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Vector display modes (.vectors).
const (
	vecAuto = "auto"
	vecOn   = "on"
	vecOff  = "off"
)

// valueFormat turns the values database/sql hands back (nil, int64, float64,
// string, []byte, and time.Time for DATE-typed columns) into text. Human
// modes (box, table, line, list) favour readability; machine modes (csv,
// json) keep every digit so that the output reads back to the same value.
// The append* forms write into a caller's buffer, so printing a result set
// allocates nothing per cell.
type valueFormat struct {
	null     string // what NULL prints as
	vectors  string // vecAuto, vecOn or vecOff
	vecWidth int    // elements shown before "…" in human modes
}

// isVector decides whether a BLOB is a float32 vector (sqlite-vec's format,
// which every ksql function returns). The rule, documented in .help vectors:
// the length must be a positive multiple of 4, and then
//   - .vectors on: always;
//   - .vectors auto (default): when the column is declared as a vector
//     (float[N], f32_blob, vector), or when every element is a finite float32
//     that is 0 or has magnitude in [1e-30, 1e30]: what real data gives, and
//     what arbitrary binary data (images, compressed text) almost never gives;
//   - .vectors off: never.
func (f *valueFormat) isVector(b []byte, decl string) bool {
	if len(b) == 0 || len(b)%4 != 0 || f.vectors == vecOff {
		return false
	}
	if f.vectors == vecOn || vectorDecl(decl) {
		return true
	}
	for i := 0; i < len(b); i += 4 {
		x := math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))
		a := math.Abs(float64(x))
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) || (a != 0 && (a < 1e-30 || a > 1e30)) {
			return false
		}
	}
	return true
}

// vectorDecl reports whether a declared column type names a float32 vector,
// as sqlite-vec's vec0 tables (float[N]) and common conventions do.
func vectorDecl(decl string) bool {
	if decl == "" {
		return false
	}
	d := strings.ToLower(strings.TrimSpace(decl))
	return strings.HasPrefix(d, "float[") || strings.HasPrefix(d, "f32") ||
		d == "vector" || strings.HasPrefix(d, "vector(") || strings.HasPrefix(d, "vector[")
}

func f32At(b []byte, i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])) }

// appendVector writes a float32 vector as [a, b, …]. limit < 1 shows every
// element; prec is the number of significant digits (-1: shortest exact).
func appendVector(dst, b []byte, limit, prec int) []byte {
	n := len(b) / 4
	dst = append(dst, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if limit > 0 && i == limit && n > limit {
			dst = append(dst, "…"...)
			break
		}
		dst = strconv.AppendFloat(dst, float64(f32At(b, i)), 'g', prec, 32)
	}
	return append(dst, ']')
}

// appendReal writes a REAL with prec significant digits (-1: the shortest
// text that reads back exactly), keeping a ".0" on whole numbers so that a
// REAL never looks like an INTEGER. Human modes use 15 digits, as sqlite3
// does, so 0.1+0.2 reads 0.3.
func appendReal(dst []byte, x float64, prec int) []byte {
	switch {
	case math.IsInf(x, 1):
		return append(dst, "Inf"...)
	case math.IsInf(x, -1):
		return append(dst, "-Inf"...)
	case math.IsNaN(x):
		return append(dst, "NaN"...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'g', prec, 64)
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// humanReal is appendReal with 15 digits, as a string.
func humanReal(x float64) string { return string(appendReal(nil, x, 15)) }

const hexDigits = "0123456789ABCDEF"

func appendHex(dst, b []byte) []byte {
	dst = append(dst, "X'"...)
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(dst, '\'')
}

func appendTime(dst []byte, t time.Time) []byte {
	switch {
	case t.Location() == time.UTC && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0:
		return t.AppendFormat(dst, "2006-01-02")
	case t.Location() == time.UTC:
		return t.AppendFormat(dst, "2006-01-02 15:04:05.999999999")
	}
	return t.AppendFormat(dst, "2006-01-02 15:04:05.999999999-07:00")
}

// appendHuman writes v for box, table, line and list modes and reports
// whether it is a number (numbers are right-aligned in tables).
func (f *valueFormat) appendHuman(dst []byte, v any, decl string) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, f.null...), false
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case float64:
		return appendReal(dst, x, 15), true
	case string:
		return append(dst, x...), false
	case []byte:
		if f.isVector(x, decl) {
			return appendVector(dst, x, f.vecWidth, 4), false
		}
		return appendHex(dst, x), false
	case time.Time:
		return appendTime(dst, x), false
	case bool:
		if x {
			return append(dst, '1'), true
		}
		return append(dst, '0'), true
	}
	return dst, false
}

// human is appendHuman as a string, for the few places that are not loops.
func (f *valueFormat) human(v any, decl string) (string, bool) {
	b, num := f.appendHuman(nil, v, decl)
	return string(b), num
}

// appendExact writes v for csv: every digit kept, vectors in full.
func (f *valueFormat) appendExact(dst []byte, v any, decl string) []byte {
	switch x := v.(type) {
	case float64:
		return appendReal(dst, x, -1)
	case []byte:
		if f.isVector(x, decl) {
			return appendVector(dst, x, 0, -1)
		}
	}
	dst, _ = f.appendHuman(dst, v, decl)
	return dst
}

// appendJSON writes v as a JSON value: numbers as numbers (±Inf as
// ±9.0e+999, as sqlite3 does, since JSON has no infinity), vectors as
// arrays, other BLOBs as hex strings.
func (f *valueFormat) appendJSON(dst []byte, v any, decl string) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendJSONNumber(dst, x, 64)
	case string:
		return appendJSONString(dst, x)
	case []byte:
		if !f.isVector(x, decl) {
			dst = append(dst, '"')
			return append(appendHex(dst, x), '"')
		}
		dst = append(dst, '[')
		for i := 0; i < len(x)/4; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONNumber(dst, float64(f32At(x, i)), 32)
		}
		return append(dst, ']')
	case time.Time:
		dst = append(dst, '"')
		return append(appendTime(dst, x), '"')
	case bool:
		dst, _ = f.appendHuman(dst, v, decl)
		return dst
	}
	return append(dst, "null"...)
}

func appendJSONNumber(dst []byte, x float64, bits int) []byte {
	switch {
	case math.IsInf(x, 1):
		return append(dst, "9.0e+999"...)
	case math.IsInf(x, -1):
		return append(dst, "-9.0e+999"...)
	case math.IsNaN(x):
		return append(dst, "null"...)
	case bits == 32:
		return strconv.AppendFloat(dst, x, 'g', -1, 32)
	}
	return appendReal(dst, x, -1)
}

// appendJSONString quotes s as a JSON string, escaping what JSON requires
// and nothing else, so that non-ASCII text stays readable. Bytes that are
// not UTF-8 become U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x80 && c != '"' && c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch r {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			if r < 0x20 || r == 0x2028 || r == 0x2029 {
				dst = append(dst, `\u`...)
				dst = append(dst, hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
				continue
			}
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}
