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
// string, []byte, and time.Time for DATE-typed columns) into text, the way
// the sqlite3 shell prints them: REALs with 15 significant digits in the
// display modes, and with every digit in the modes that are read back by
// programs (quote, insert, json). The append* forms write into a caller's
// buffer, so printing a result set allocates nothing per cell.
type valueFormat struct {
	null     string // what NULL prints as
	vectors  string // vecAuto, vecOn or vecOff
	vecWidth int    // elements shown before "…" in display modes
}

// isVector decides whether a BLOB prints as a float32 vector: its length is
// a positive multiple of 4, and .vectors is on, or it is auto and the
// column is a vector column (see column.vector). Other BLOBs print as the
// sqlite3 shell prints them.
func (f *valueFormat) isVector(b []byte, c *column) bool {
	if len(b) == 0 || len(b)%4 != 0 || f.vectors == vecOff {
		return false
	}
	return f.vectors == vecOn || c.vector
}

// vectorDecl reports whether a declared column type names a float32 vector,
// as sqlite-vec's vec0 tables (float[N]) and common conventions do.
func vectorDecl(decl string) bool {
	d := strings.ToLower(strings.TrimSpace(decl))
	return strings.HasPrefix(d, "float[") || strings.HasPrefix(d, "f32") || strings.HasPrefix(d, "float32") ||
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

// appendReal writes a REAL as SQLite's printf("%!.*g") does: prec
// significant digits (-1: the shortest text that reads back exactly), an
// exponent of at least two digits, and always a decimal point, so that a
// REAL never looks like an INTEGER (2.0, 1.0e+20). With 15 digits this is
// the text the sqlite3 shell shows, so 0.1+0.2 reads 0.3.
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
	e := -1
	for i, c := range dst[start:] {
		switch c {
		case '.':
			return dst
		case 'e':
			e = start + i
		}
	}
	if e < 0 {
		return append(dst, ".0"...)
	}
	// 1e+20 → 1.0e+20: open a gap of two bytes before the exponent.
	dst = append(dst, 0, 0)
	copy(dst[e+2:], dst[e:len(dst)-2])
	dst[e], dst[e+1] = '.', '0'
	return dst
}

// appendExactReal writes x so that it reads back as the same double in SQL
// and JSON: infinities as 1e999 (SQLite's own way to write them).
func appendExactReal(dst []byte, x float64) []byte {
	switch {
	case math.IsInf(x, 1):
		return append(dst, "1e999"...)
	case math.IsInf(x, -1):
		return append(dst, "-1e999"...)
	}
	return appendReal(dst, x, -1)
}

// humanReal is appendReal with 15 digits, as a string.
func humanReal(x float64) string { return string(appendReal(nil, x, 15)) }

const hexDigits = "0123456789ABCDEF"

// appendHex writes b as an SQL BLOB literal, X'0a1b…', in lower case as
// the sqlite3 shell writes them.
func appendHex(dst, b []byte) []byte {
	const lower = "0123456789abcdef"
	dst = append(dst, "X'"...)
	for _, c := range b {
		dst = append(dst, lower[c>>4], lower[c&15])
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

// appendText writes v as the display modes show it (list, csv, tabs,
// line, html and the columnar modes) and reports whether it is a number
// (numbers are right-aligned in columns). A BLOB that is not a vector is
// written as its bytes, as the sqlite3 shell does.
func (f *valueFormat) appendText(dst []byte, v any, c *column) ([]byte, bool) {
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
		if f.isVector(x, c) {
			return appendVector(dst, x, f.vecWidth, 4), false
		}
		return append(dst, x...), false
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

// appendCSV is appendText with vectors in full, every element with the
// digits that read back as the same float32: csv is read by programs.
func (f *valueFormat) appendCSV(dst []byte, v any, c *column) []byte {
	if b, ok := v.([]byte); ok && f.isVector(b, c) {
		return appendVector(dst, b, 0, -1)
	}
	dst, _ = f.appendText(dst, v, c)
	return dst
}

// text is appendText as a string, for the few places that are not loops.
func (f *valueFormat) text(v any, c *column) (string, bool) {
	b, num := f.appendText(nil, v, c)
	return string(b), num
}

// appendSQL writes v as an SQL literal (quote and insert modes, .dump):
// every digit of a REAL, text in single quotes, BLOBs (vectors too) as
// X'…'. With escapeNewlines, text that holds line breaks is written as
// replace('a\nb','\n',char(10)), as the sqlite3 shell's insert mode does,
// so that each row stays on one line.
func appendSQL(dst []byte, v any, escapeNewlines bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "NULL"...)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendExactReal(dst, x)
	case string:
		return appendSQLString(dst, x, escapeNewlines)
	case []byte:
		return appendHex(dst, x)
	case time.Time:
		return appendSQLString(dst, string(appendTime(nil, x)), false)
	case bool:
		if x {
			return append(dst, '1')
		}
		return append(dst, '0')
	}
	return append(dst, "NULL"...)
}

// appendSQLString quotes s as an SQL string literal.
func appendSQLString(dst []byte, s string, escapeNewlines bool) []byte {
	if !escapeNewlines || !strings.ContainsAny(s, "\n\r") {
		dst = append(dst, '\'')
		dst = append(dst, strings.ReplaceAll(s, "'", "''")...)
		return append(dst, '\'')
	}
	// Pick markers that do not occur in s, as sqlite3 does: \n, else \012,
	// else (\n1), (\n2), …
	nl, cr := unusedMarker(s, `\n`, `\012`), unusedMarker(s, `\r`, `\015`)
	body := strings.ReplaceAll(s, "'", "''")
	if strings.Contains(s, "\n") {
		body = strings.ReplaceAll(body, "\n", nl)
	}
	if strings.Contains(s, "\r") {
		body = strings.ReplaceAll(body, "\r", cr)
	}
	expr := "'" + body + "'"
	if strings.Contains(s, "\r") {
		expr = "replace(" + expr + ",'" + cr + "',char(13))"
	}
	if strings.Contains(s, "\n") {
		expr = "replace(" + expr + ",'" + nl + "',char(10))"
	}
	return append(dst, expr...)
}

func unusedMarker(s, first, second string) string {
	if !strings.Contains(s, first) {
		return first
	}
	if !strings.Contains(s, second) {
		return second
	}
	for i := 1; ; i++ {
		m := "(" + first + strconv.Itoa(i) + ")"
		if !strings.Contains(s, m) {
			return m
		}
	}
}

// appendJSON writes v as a JSON value: numbers as numbers (infinities as
// ±1e999, as sqlite3 writes them, since JSON has no infinity), vectors as
// arrays, other BLOBs as a string of their bytes (as sqlite3 does).
func (f *valueFormat) appendJSON(dst []byte, v any, c *column) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendExactReal(dst, x)
	case string:
		return appendJSONString(dst, x)
	case []byte:
		if !f.isVector(x, c) {
			return appendJSONString(dst, string(x))
		}
		dst = append(dst, '[')
		for i := 0; i < len(x)/4; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			e := float64(f32At(x, i))
			if math.IsNaN(e) {
				dst = append(dst, "null"...)
				continue
			}
			if math.IsInf(e, 0) {
				dst = appendExactReal(dst, e)
				continue
			}
			dst = strconv.AppendFloat(dst, e, 'g', -1, 32)
		}
		return append(dst, ']')
	case time.Time:
		dst = append(dst, '"')
		return append(appendTime(dst, x), '"')
	case bool:
		dst, _ = f.appendText(dst, v, c)
		return dst
	}
	return append(dst, "null"...)
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
			if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
				dst = append(dst, `\u`...)
				dst = append(dst, hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
				continue
			}
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

// appendHTML writes s with the five characters HTML gives meaning escaped,
// as sqlite3's html mode does.
func appendHTML(dst []byte, s []byte) []byte {
	for _, c := range s {
		switch c {
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '&':
			dst = append(dst, "&amp;"...)
		case '"':
			dst = append(dst, "&quot;"...)
		case '\'':
			dst = append(dst, "&#39;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
