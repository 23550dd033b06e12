package main

import (
	"math"
	"testing"
	"time"
)

// f32blob builds the little-endian float32 bytes by hand, independently of
// the decoding under test.
func f32blob(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		u := math.Float32bits(x)
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
	return b
}

// sqlite3Reals are REALs as the sqlite3 shell 3.40.1 prints them in list
// mode, from: sqlite3 :memory: "select 0.1+0.2, 1.0/3, 1e20, …" (the
// expressions are the Go ones below).
var sqlite3Reals = []struct {
	x    float64
	want string
}{
	{0.1 + 0.2, "0.3"}, {1.0 / 3, "0.333333333333333"}, {1e20, "1.0e+20"}, {2.0, "2.0"},
	{1.5e-7, "1.5e-07"}, {100.0, "100.0"}, {1e15, "1.0e+15"}, {123456789012345.6, "123456789012346.0"},
	{0.0001, "0.0001"}, {0.00001, "1.0e-05"}, {1e16, "1.0e+16"}, {4.9e-324, "4.94065645841247e-324"},
	{1.7976931348623157e308, "1.79769313486232e+308"}, {1e100, "1.0e+100"}, {12.5e-5, "0.000125"},
	{-2.5, "-2.5"}, {999999999999999.0, "999999999999999.0"}, {math.Inf(1), "Inf"}, {math.Inf(-1), "-Inf"},
	{3.14159265358979, "3.14159265358979"}, {2.0 / 3, "0.666666666666667"}, {1e-5 * 3, "3.0e-05"},
}

func TestRealsAsSqlite3(t *testing.T) {
	for _, tc := range sqlite3Reals {
		if got := humanReal(tc.x); got != tc.want {
			t.Errorf("humanReal(%v) = %q, sqlite3 prints %q", tc.x, got, tc.want)
		}
	}
}

func TestTextValues(t *testing.T) {
	f := valueFormat{null: "NULL", vectors: vecAuto, vecWidth: 3}
	vec := &column{vector: true}
	tests := []struct {
		name string
		v    any
		col  *column
		want string
		num  bool
	}{
		{"null", nil, &column{}, "NULL", false},
		{"int", int64(-42), &column{}, "-42", true},
		{"real", 2.5, &column{}, "2.5", true},
		{"text", "совсем новый", &column{}, "совсем новый", false},
		{"vector", f32blob(0.12, -0.5), vec, "[0.12, -0.5]", false},
		{"vector cut", f32blob(1, 2, 3, 4, 5), vec, "[1, 2, 3, …]", false},
		{"vector digits", f32blob(1.0/3, 12345.678), vec, "[0.3333, 1.235e+04]", false},
		{"blob not in a vector column", []byte("abcd"), &column{}, "abcd", false},
		{"odd blob in a vector column", []byte{1, 2, 3}, vec, "\x01\x02\x03", false},
		{"time", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), &column{}, "2024-03-01", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, num := f.text(tc.v, tc.col)
			if got != tc.want || num != tc.num {
				t.Errorf("text(%v) = %q, %v; want %q, %v", tc.v, got, num, tc.want, tc.num)
			}
		})
	}
}

func TestVectorModes(t *testing.T) {
	blob := f32blob(1, 2)
	for _, tc := range []struct {
		mode   string
		vector bool
		want   string
	}{
		{vecAuto, false, string(blob)},
		{vecAuto, true, "[1, 2]"},
		{vecOn, false, "[1, 2]"},
		{vecOff, true, string(blob)},
	} {
		f := valueFormat{vectors: tc.mode, vecWidth: 8}
		if got, _ := f.text(blob, &column{vector: tc.vector}); got != tc.want {
			t.Errorf(".vectors %s, vector column %v: got %q, want %q", tc.mode, tc.vector, got, tc.want)
		}
	}
}

func TestVectorDecl(t *testing.T) {
	for decl, want := range map[string]bool{
		"float[4]": true, "FLOAT[128]": true, "f32_blob(4)": true, "vector": true, "VECTOR(3)": true,
		"float32 blob": true, "BLOB": false, "": false, "FLOAT": false, "vectors": false,
	} {
		if got := vectorDecl(decl); got != want {
			t.Errorf("vectorDecl(%q) = %v, want %v", decl, got, want)
		}
	}
}

// TestSQLValues checks quote and insert modes: literals that SQLite reads
// back as the same value (the REALs checked by parsing them again).
func TestSQLValues(t *testing.T) {
	a, b := 0.1, 0.2 // variables, so that the sum is rounded as at run time
	tests := []struct {
		v      any
		insert bool
		want   string
	}{
		{nil, false, "NULL"},
		{a + b, false, "0.30000000000000004"},
		{3.0, false, "3.0"},
		{1e20, false, "1.0e+20"},
		{math.Inf(-1), false, "-1e999"},
		{"it's", false, "'it''s'"},
		{"a\nb", false, "'a\nb'"},
		{"a\nb", true, "replace('a\\nb','\\n',char(10))"},
		{`x\ny` + "\nz", true, `replace('x\ny\012z','\012',char(10))`},
		{"cr\rx", true, `replace('cr\rx','\r',char(13))`},
		{"both\r\n", true, `replace(replace('both\r\n','\r',char(13)),'\n',char(10))`},
		{[]byte{0xab, 0xcd}, false, "X'abcd'"},
		{int64(7), false, "7"},
	}
	for _, tc := range tests {
		if got := string(appendSQL(nil, tc.v, tc.insert)); got != tc.want {
			t.Errorf("appendSQL(%q, %v) = %q, want %q", tc.v, tc.insert, got, tc.want)
		}
	}
}

func TestJSONValues(t *testing.T) {
	f := valueFormat{vectors: vecAuto}
	a, b := 0.1, 0.2
	tests := []struct {
		v    any
		col  *column
		want string
	}{
		{nil, &column{}, "null"},
		{a + b, &column{}, "0.30000000000000004"},
		{1e20, &column{}, "1.0e+20"},
		{math.Inf(1), &column{}, "1e999"},
		{"a\"b\n\x01é", &column{}, `"a\"b\n\u0001é"`},
		{f32blob(0.1, 2, 3), &column{vector: true}, "[0.1,2,3]"},
		{[]byte("abc"), &column{}, `"abc"`},
		{int64(7), &column{}, "7"},
	}
	for _, tc := range tests {
		if got := string(f.appendJSON(nil, tc.v, tc.col)); got != tc.want {
			t.Errorf("appendJSON(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestInferKinds(t *testing.T) {
	recs := [][]string{
		{"1", "1.5", "007", "", "x", "-3", "1e3"},
		{"22", "2", "8", "", "1", "+4", "nan"},
	}
	got := inferKinds(recs, 7)
	want := []colKind{kindInt, kindReal, kindText, kindText, kindText, kindInt, kindText}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d: %s, want %s", i, kindSQL[got[i]], kindSQL[want[i]])
		}
	}
}

func TestGridFit(t *testing.T) {
	tests := []struct {
		in    string
		max   int
		want  string
		width int
	}{
		{"plain", 0, "plain", 5},
		{"plain text", 6, "plain…", 6},
		{"exactly", 7, "exactly", 7},
		{"two\nlines\tand\x00\x1b\x01", 0, `two\nlines\tand\0\e\x01`, 23},
		{"héllo 你好", 8, "héllo …", 7},
		{"你好你好", 5, "你好…", 5},
		{"bad \xff byte", 0, "bad \uFFFD byte", 10},
		{"совсем новый текст", 10, "совсем но…", 10},
	}
	for _, tc := range tests {
		p := &gridPrinter{o: &outputOptions{maxWidth: tc.max}}
		buf := []byte("prefix" + tc.in)
		got, w := p.fit(buf, len("prefix"), tc.max)
		if string(got) != "prefix"+tc.want || w != tc.width {
			t.Errorf("fit(%q, max %d) = %q, width %d; want %q, width %d", tc.in, tc.max, got[6:], w, tc.want, tc.width)
		}
	}
}
