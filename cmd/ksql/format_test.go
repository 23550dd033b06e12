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

func TestHumanValues(t *testing.T) {
	f := valueFormat{null: "NULL", vectors: vecAuto, vecWidth: 3}
	tests := []struct {
		name string
		v    any
		decl string
		want string
		num  bool
	}{
		{"null", nil, "", "NULL", false},
		{"int", int64(-42), "", "-42", true},
		{"real keeps point", 2.0, "", "2.0", true},
		{"real 15 digits", 0.30000000000000004, "", "0.3", true},
		{"third", 1.0 / 3, "", "0.333333333333333", true},
		{"big", 1e20, "", "1e+20", true},
		{"small", 1.5e-7, "", "1.5e-07", true},
		{"inf", math.Inf(1), "", "Inf", true},
		{"text", "совсем новый", "", "совсем новый", false},
		{"vector", f32blob(0.12, -0.5), "", "[0.12, -0.5]", false},
		{"vector cut", f32blob(1, 2, 3, 4, 5), "", "[1, 2, 3, …]", false},
		{"vector digits", f32blob(1.0/3, 12345.678), "", "[0.3333, 1.235e+04]", false},
		{"odd blob", []byte{1, 2, 3}, "", "X'010203'", false},
		{"NaN bits", []byte{0, 0, 0xC0, 0x7F}, "", "X'0000C07F'", false},
		{"tiny floats are not data", []byte{1, 0, 0, 0}, "", "X'01000000'", false},
		{"declared vector", []byte{1, 0, 0, 0}, "float[1]", "[1.401e-45]", false},
		{"time", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), "DATE", "2024-03-01", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, num := f.human(tc.v, tc.decl)
			if got != tc.want || num != tc.num {
				t.Errorf("human(%v) = %q, %v; want %q, %v", tc.v, got, num, tc.want, tc.num)
			}
		})
	}
}

func TestVectorModes(t *testing.T) {
	blob := []byte{1, 0, 0, 0, 2, 0, 0, 0} // tiny subnormals: binary, not data
	for _, tc := range []struct {
		mode, want string
	}{
		{vecAuto, "X'0100000002000000'"},
		{vecOn, "[1.401e-45, 2.803e-45]"},
		{vecOff, "X'0100000002000000'"},
	} {
		f := valueFormat{vectors: tc.mode, vecWidth: 8}
		if got, _ := f.human(blob, ""); got != tc.want {
			t.Errorf(".vectors %s: got %q, want %q", tc.mode, got, tc.want)
		}
	}
	f := valueFormat{vectors: vecOff}
	if got, _ := f.human(f32blob(1, 2), "float[2]"); got != "X'0000803F00000040'" {
		t.Errorf(".vectors off must print even declared vectors as hex, got %q", got)
	}
}

func TestMachineValues(t *testing.T) {
	f := valueFormat{vectors: vecAuto, vecWidth: 2}
	a, b := 0.1, 0.2 // variables, so that the sum is rounded as at run time
	tests := []struct {
		v          any
		csv, json_ string
	}{
		{nil, "", "null"},
		{a + b, "0.30000000000000004", "0.30000000000000004"},
		{3.0, "3.0", "3.0"},
		{math.Inf(-1), "-Inf", "-9.0e+999"},
		{"a\"b\n\x01", "a\"b\n\x01", `"a\"b\n\u0001"`},
		{f32blob(0.1, 2, 3), "[0.1, 2, 3]", "[0.1,2,3]"},
		{[]byte{0xff}, "X'FF'", `"X'FF'"`},
		{int64(7), "7", "7"},
	}
	for _, tc := range tests {
		if got := string(f.appendExact(nil, tc.v, "")); got != tc.csv {
			t.Errorf("exact(%v) = %q, want %q", tc.v, got, tc.csv)
		}
		if got := string(f.appendJSON(nil, tc.v, "")); got != tc.json_ {
			t.Errorf("jsonValue(%v) = %q, want %q", tc.v, got, tc.json_)
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
		got, w := p.fit(buf, len("prefix"))
		if string(got) != "prefix"+tc.want || w != tc.width {
			t.Errorf("fit(%q, max %d) = %q, width %d; want %q, width %d", tc.in, tc.max, got[6:], w, tc.want, tc.width)
		}
	}
}
