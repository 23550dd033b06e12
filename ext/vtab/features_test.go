package vtab

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
)

func TestParseColumns(t *testing.T) {
	cases := []struct {
		in   string
		want []columnItem
		err  string
	}{
		{"p0", []columnItem{{"p0", ""}}, ""},
		{"p0,p1, p2", []columnItem{{"p0", ""}, {"p1", ""}, {"p2", ""}}, ""},
		{"p0..p63", []columnItem{{"p0", "p63"}}, ""},
		{` a , "my col"..[x;y] ,b`, []columnItem{{"a", ""}, {"my col", "x;y"}, {"b", ""}}, ""},
		{"`a``b` .. c", []columnItem{{"a`b", "c"}}, ""},
		{"p0 p1", nil, `unexpected "p1"`},
		{"p0,", nil, "columns= needs a name"},
		{"p0..", nil, "columns= needs a name"},
		{"..p1", nil, "columns= needs a name"},
		{"p0...p1", nil, "columns= needs a name"},
		{`"open`, nil, "unterminated"},
	}
	for _, c := range cases {
		got, err := parseColumns(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestFeatureValue(t *testing.T) {
	cases := []struct {
		in   any
		want float64
		err  string
	}{
		{int64(-3), -3, ""},
		{2.5, 2.5, ""},
		{" 1e-3 ", 1e-3, ""},
		{"+.5", 0.5, ""},
		{"7.", 7, ""},
		{"-0", 0, ""},
		{"0x10", 0, "not a number"},
		{"inf", 0, "not a number"},
		{"NaN", 0, "not a number"},
		{"1_000", 0, "not a number"},
		{"1e", 0, "not a number"},
		{".", 0, "not a number"},
		{"1.2.3", 0, "not a number"},
		{"", 0, "not a number"},
		{"1e999", 0, "outside the float64 range"},
		{math.Inf(-1), 0, "is -Inf"},
		{[]byte{0}, 0, "holds a BLOB"},
		{nil, 0, "is NULL"},
	}
	for _, c := range cases {
		got, err := featureValue(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%#v: %v, %v; want error %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%#v: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// TestFitScale: means and population deviations against a direct
// computation; a constant coordinate keeps deviation 1, also where its
// computed variance is a rounding error rather than 0; float32 BLOBs
// are scaled into float64 vectors; apply scales a new vector the same way.
func TestFitScale(t *testing.T) {
	rows := [][]float64{{1, 0, -4}, {2, 0, 0}, {4, 0, 10}, {9, 0, 2}, {-3, 0, 7}, {6, 0, 1}}
	// Six 1.1s average to 1.0999999999999999: the computed variance of a
	// constant is a rounding error there, and exactly 0 for 0.5.
	for _, constant := range []float64{1.1, 0.5} {
		for i := range rows {
			rows[i][1] = constant
		}
		testFitScale(t, rows)
	}
}

func testFitScale(t *testing.T, rows [][]float64) {
	var objs []kernels.Object
	for i, r := range rows {
		v := kernels.Vec{F64: slices.Clone(r)}
		if i%2 == 1 && r[1] == 0.5 { // float32 holds these exactly
			v = f32Vec(r)
		}
		objs = append(objs, kernels.Object{Vec: v})
	}
	sc := fitScale(objs)
	for k := range 3 {
		var s, ss float64
		for _, r := range rows {
			s += r[k]
		}
		m := s / float64(len(rows))
		for _, r := range rows {
			ss += (r[k] - m) * (r[k] - m)
		}
		sd := math.Sqrt(ss / float64(len(rows)))
		if k == 1 {
			if (ss == 0) != (rows[0][1] == 0.5) {
				t.Fatalf("constant %v: computed variance %v", rows[0][1], ss)
			}
			sd = 1
		}
		if math.Abs(sc.mean[k]-m) > 1e-15 || math.Abs(sc.std[k]-sd) > 1e-15 {
			t.Errorf("coordinate %d: mean %v std %v, want %v %v", k, sc.mean[k], sc.std[k], m, sd)
		}
	}
	spec, err := kernels.ParseCached("linear")
	if err != nil {
		t.Fatal(err)
	}
	sc.applyAll(spec, objs)
	for i, o := range objs {
		if o.Vec.F32 != nil || o.Vec.F64 == nil {
			t.Fatalf("object %d still a float32 BLOB", i)
		}
		for k := range 3 {
			if want := (rows[i][k] - sc.mean[k]) / sc.std[k]; math.Abs(o.Vec.F64[k]-want) > 1e-15 {
				t.Errorf("object %d coordinate %d: %v, want %v", i, k, o.Vec.F64[k], want)
			}
		}
	}
	if got := sc.apply(kernels.Vec{F64: []float64{0, rows[0][1], 0}}, nil); math.Abs(got[1]) > 1e-15 || got[0] != -sc.mean[0]/sc.std[0] {
		t.Errorf("apply: %v", got)
	}
}

func f32Vec(x []float64) kernels.Vec {
	b := make([]byte, 0, 4*len(x))
	for _, f := range x {
		u := math.Float32bits(float32(f))
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
	return kernels.Vec{F32: b}
}
