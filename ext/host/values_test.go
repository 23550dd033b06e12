package host

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
)

func TestParseJSONVector(t *testing.T) {
	good := []struct {
		in   string
		want []float64
	}{
		{"[1, 2.5, -3]", []float64{1, 2.5, -3}},
		{" [ 1e-2 ,\n2E3 ] ", []float64{0.01, 2000}},
		{"[1e-400]", []float64{0}},
	}
	for _, tc := range good {
		got, err := ParseJSONVector(tc.in)
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%q: %v %v", tc.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q[%d] = %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
	bad := map[string]string{
		"[]":        "empty vector",
		"[1,2,":     "ends early",
		`[1,"a"]`:   "element 2 of the vector is not a number",
		"[1 2]":     "expected ',' or ']' after element 1",
		"[1e999]":   "outside the float64 range",
		"[NaN]":     "not a number",
		"[[1]]":     "not a number",
		"{}":        "must be a JSON array",
		"[1],":      "unexpected text after",
		"[+1]":      "not a valid number",
		"[1.2.3]":   "not a valid number",
		"":          "must be a JSON array",
		"[1,,2]":    "element 2 of the vector is not a number",
		"[-]":       "not a valid number",
		"[0x10]":    "expected ',' or ']'",
		"[1, 2]  x": "unexpected text after",
	}
	for in, want := range bad {
		_, err := ParseJSONVector(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to contain %q", in, err, want)
		}
	}
}

// TestLargeJSONVector: a 10 MB JSON vector decodes (SQLite's own string
// limit, 1e9 bytes by default, is the bound).
func TestLargeJSONVector(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	n := 0
	for b.Len() < 10<<20 {
		if n > 0 {
			b.WriteString(",")
		}
		b.WriteString("0.123456789")
		n++
	}
	b.WriteString("]")
	v, err := ParseJSONVector(b.String())
	if err != nil || len(v) != n || v[n-1] != 0.123456789 {
		t.Fatalf("10 MB vector: len %d (want %d), err %v", len(v), n, err)
	}
}

func TestDecodeVectorBlob(t *testing.T) {
	blob := make([]byte, 8)
	binary.LittleEndian.PutUint32(blob, math.Float32bits(1.5))
	binary.LittleEndian.PutUint32(blob[4:], math.Float32bits(float32(math.NaN())))
	var v kernels.Vec
	ok, err := DecodeVector(blob, &v)
	if err != nil || !ok || v.Len() != 2 || v.At(0) != 1.5 {
		t.Fatalf("DecodeVector: %v %v %v", v, ok, err)
	}
	if err := CheckFinite(v); err == nil || !strings.Contains(err.Error(), "element 2") {
		t.Errorf("CheckFinite: %v", err)
	}
	if _, err := DecodeVector(blob[:5], &v); err == nil || !strings.Contains(err.Error(), "multiple of 4") {
		t.Errorf("5-byte blob: %v", err)
	}
	if ok, err := DecodeVector(nil, &v); ok || err != nil {
		t.Errorf("NULL: %v %v", ok, err)
	}
	if _, err := DecodeVector(int64(3), &v); err == nil || !strings.Contains(err.Error(), "got INTEGER") {
		t.Errorf("integer: %v", err)
	}
}

func FuzzDecodeVector(f *testing.F) {
	f.Add("[1, 2.5, -3]", []byte{0, 0, 128, 63})
	f.Add("[1,2,", []byte{1, 2, 3})
	f.Add(`[1,"a"]`, []byte{})
	f.Fuzz(func(t *testing.T, s string, b []byte) {
		if v, err := ParseJSONVector(s); err == nil {
			if len(v) == 0 {
				t.Fatalf("%q: empty vector accepted", s)
			}
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%q: non-finite %v accepted", s, x)
				}
			}
		}
		var v kernels.Vec
		if ok, err := DecodeVector(b, &v); err == nil && ok && v.Len()*4 != len(b) {
			t.Fatalf("blob of %d bytes gave %d elements", len(b), v.Len())
		}
	})
}

// TestCheckFinite: every non-finite float32 at every position of vectors
// up to 20 long is found and named by its 1-based position (the first
// one when there are two), and the extreme finite values pass.
func TestCheckFinite(t *testing.T) {
	finite := []float64{0, math.Copysign(0, -1), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1}
	for n := 1; n <= 20; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = finite[i%len(finite)]
		}
		if err := CheckFinite(kernels.Vec{F32: Float32Blob(x)}); err != nil {
			t.Fatalf("n=%d finite: %v", n, err)
		}
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			for at := range n {
				y := append([]float64(nil), x...)
				y[at] = bad
				if at+2 < n {
					y[at+2] = bad
				}
				err := CheckFinite(kernels.Vec{F32: Float32Blob(y)})
				want := fmt.Sprintf("element %d of the vector is %v;", at+1, float32(bad))
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("n=%d, %v at %d: %v, want %q", n, bad, at+1, err, want)
				}
			}
		}
	}
}
