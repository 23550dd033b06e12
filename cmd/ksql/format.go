package main

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
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
	d := strings.ToLower(strings.TrimSpace(decl))
	return strings.HasPrefix(d, "float[") || strings.HasPrefix(d, "f32") ||
		d == "vector" || strings.HasPrefix(d, "vector(") || strings.HasPrefix(d, "vector[")
}

// vectorText writes a float32 vector as [a, b, …]. limit < 1 shows every
// element; prec is the number of significant digits (-1: shortest exact).
func vectorText(b []byte, limit, prec int) string {
	n := len(b) / 4
	var sb strings.Builder
	sb.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		if limit > 0 && i == limit && n > limit {
			sb.WriteString("…")
			break
		}
		x := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		sb.WriteString(strconv.FormatFloat(float64(x), 'g', prec, 32))
	}
	sb.WriteByte(']')
	return sb.String()
}

// humanReal prints a REAL with 15 significant digits, as sqlite3 does, so
// 0.1+0.2 reads 0.3, and keeps a ".0" on whole numbers so that a REAL never
// looks like an INTEGER.
func humanReal(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	case math.IsNaN(x):
		return "NaN"
	}
	return withPoint(strconv.FormatFloat(x, 'g', 15, 64))
}

// exactReal prints the shortest text that reads back to the same float64.
func exactReal(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	case math.IsNaN(x):
		return "NaN"
	}
	return withPoint(strconv.FormatFloat(x, 'g', -1, 64))
}

func withPoint(s string) string {
	if strings.ContainsAny(s, ".eEn") {
		return s
	}
	return s + ".0"
}

func blobHex(b []byte) string { return "X'" + strings.ToUpper(hex.EncodeToString(b)) + "'" }

func timeText(t time.Time) string {
	if t.Location() == time.UTC && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	if t.Location() == time.UTC {
		return t.Format("2006-01-02 15:04:05.999999999")
	}
	return t.Format("2006-01-02 15:04:05.999999999-07:00")
}

// human formats v for box, table, line and list modes and reports whether
// it is a number (numbers are right-aligned in tables).
func (f *valueFormat) human(v any, decl string) (string, bool) {
	switch x := v.(type) {
	case nil:
		return f.null, false
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return humanReal(x), true
	case string:
		return x, false
	case []byte:
		if f.isVector(x, decl) {
			return vectorText(x, f.vecWidth, 4), false
		}
		return blobHex(x), false
	case time.Time:
		return timeText(x), false
	case bool:
		if x {
			return "1", true
		}
		return "0", true
	}
	return "", false
}

// exact formats v for csv: every digit kept, vectors in full as JSON arrays.
func (f *valueFormat) exact(v any, decl string) string {
	switch x := v.(type) {
	case nil:
		return f.null
	case float64:
		return exactReal(x)
	case []byte:
		if f.isVector(x, decl) {
			return vectorText(x, 0, -1)
		}
		return blobHex(x)
	}
	s, _ := f.human(v, decl)
	return s
}

// jsonValue formats v as a JSON value: numbers as numbers (Inf as
// ±9.0e+999, as sqlite3 does, since JSON has no infinity), vectors as
// arrays, other BLOBs as hex strings.
func (f *valueFormat) jsonValue(v any, decl string) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsInf(x, 1):
			return "9.0e+999"
		case math.IsInf(x, -1):
			return "-9.0e+999"
		case math.IsNaN(x):
			return "null"
		}
		return exactReal(x)
	case []byte:
		if f.isVector(x, decl) {
			return jsonVector(x)
		}
		return jsonString(blobHex(x))
	}
	s, _ := f.human(v, decl)
	return jsonString(s)
}

func jsonVector(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := 0; i < len(b); i += 4 {
		if i > 0 {
			sb.WriteByte(',')
		}
		x := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
		switch {
		case math.IsInf(x, 1):
			sb.WriteString("9.0e+999")
		case math.IsInf(x, -1):
			sb.WriteString("-9.0e+999")
		case math.IsNaN(x):
			sb.WriteString("null")
		default:
			sb.WriteString(strconv.FormatFloat(x, 'g', -1, 32))
		}
	}
	sb.WriteByte(']')
	return sb.String()
}

// jsonString quotes s as a JSON string, escaping what JSON requires and
// nothing else, so that non-ASCII text stays readable.
func jsonString(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x2028 || r == 0x2029 {
				sb.WriteString(`\u`)
				sb.WriteString(strconv.FormatInt(int64(r)+0x10000, 16)[1:])
				continue
			}
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
