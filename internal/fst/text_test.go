package fst

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

func TestReadText(t *testing.T) {
	text := "0\t1\ta\t<eps>\t0.5\n" +
		"1 2 <U+0020> 0\r\n" + // spaces, CRLF, the digit 0 is a symbol
		"\n" +
		"2\t2\t<0xff>\tж\t-2e-3\n" +
		"2\t0.25\n" +
		"1\n"
	rows, err := ReadText(strings.NewReader(text), SymbolLabels)
	if err != nil {
		t.Fatal(err)
	}
	want := []TextRow{
		{Line: 1, Src: 0, Dst: 1, In: "a", Out: "", Weight: 0.5},
		{Line: 2, Src: 1, Dst: 2, In: " ", Out: "0", Weight: 1},
		{Line: 4, Src: 2, Dst: 2, In: "\xff", Out: "ж", Weight: -2e-3},
		{Line: 5, Src: 2, Final: true, Weight: 0.25},
		{Line: 6, Src: 1, Final: true, Weight: 1},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n%+v\nwant\n%+v", rows, want)
	}
	rows, err = ReadText(strings.NewReader("0 1 97 0\n1 2 0 1078 3\n2\n"), CodePointLabels)
	want = []TextRow{
		{Line: 1, Src: 0, Dst: 1, In: "a", Out: "", Weight: 1},
		{Line: 2, Src: 1, Dst: 2, In: "", Out: "ж", Weight: 3},
		{Line: 3, Src: 2, Final: true, Weight: 1},
	}
	if err != nil || !reflect.DeepEqual(rows, want) {
		t.Errorf("code points: %+v, %v", rows, err)
	}
}

func TestReadTextErrors(t *testing.T) {
	tests := []struct {
		text  string
		mode  LabelMode
		line  int
		field int
		msg   string
	}{
		{"0 1 a\n", SymbolLabels, 1, 0, "3 fields"},
		{"0 1 a b 1\n0 1 a b c d\n", SymbolLabels, 2, 0, "6 fields"},
		{"\n\n-1 2 a b\n", SymbolLabels, 3, 1, "integer ≥ 0"},
		{"0 x a b\n", SymbolLabels, 1, 2, "a state must be"},
		{"0 1 a b heavy\n", SymbolLabels, 1, 5, "finite number"},
		{"0 1 a b inf\n", SymbolLabels, 1, 5, "finite number"},
		{"0 NaN\n", SymbolLabels, 1, 2, "finite number"},
		{"0 1 <U+zz> b\n", SymbolLabels, 1, 3, "<U+hhhh>"},
		{"0 1 a <U+D800>\n", SymbolLabels, 1, 4, "<U+hhhh>"},
		{"0 1 <0x41> b\n", SymbolLabels, 1, 3, "<0xhh>"},
		{"0 1 a b\n0 1 97 -5\n", CodePointLabels, 1, 3, "integer ≥ 0"},
		{"0 1 97 1114112\n", CodePointLabels, 1, 4, "code point"},
	}
	for _, tc := range tests {
		_, err := ReadText(strings.NewReader(tc.text), tc.mode)
		var te *TextError
		if !errors.As(err, &te) || te.Line != tc.line || te.Field != tc.field || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v; want line %d field %d %q", tc.text, err, tc.line, tc.field, tc.msg)
		}
	}
	// ReadFST: text errors name the line, the Builder's errors the row.
	_, err := ReadFST(strings.NewReader("0 1 1 1\n1 2 x 1\n"))
	var te *TextError
	if !errors.As(err, &te) || te.Line != 2 || te.Field != 3 {
		t.Errorf("ReadFST: %v", err)
	}
	if _, err := ReadFST(strings.NewReader("0 1 1 1\n")); !errors.As(err, new(*NoFinalError)) {
		t.Errorf("ReadFST without a final state: %v", err)
	}
}

// TestTextRoundTrip: rows written and read back are the same rows; an FST
// written with integer labels and read back has the same T(x, y).
func TestTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	syms := []string{"", "a", "ж", " ", "\t", "\n", "0", "<", "<>", "\xff", "😀", "word", "<eps", "e\u0301"}
	for range 100 {
		var rows []TextRow
		for i := range 1 + r.IntN(10) {
			row := TextRow{Line: i + 1, Src: r.Int64N(5), Weight: []float64{1, 0.5, -3, 1e-300, 0.1}[r.IntN(5)]}
			if r.IntN(4) == 0 {
				row.Final = true
			} else {
				row.Dst, row.In, row.Out = r.Int64N(5), syms[r.IntN(len(syms))], syms[r.IntN(len(syms))]
			}
			rows = append(rows, row)
		}
		var buf bytes.Buffer
		if err := WriteRows(&buf, rows); err != nil {
			t.Fatal(err)
		}
		back, err := ReadText(&buf, SymbolLabels)
		if err != nil || !reflect.DeepEqual(back, rows) {
			t.Fatalf("rows %+v\nread back %+v, %v", rows, back, err)
		}
	}
	if err := WriteRows(new(bytes.Buffer), []TextRow{{Line: 7, In: "a b"}}); err == nil {
		t.Error("a symbol with a space was written")
	}
	for n := 0; n < 100; {
		raw := randomFST(r, 3)
		f, err := raw.build()
		if err != nil || raw.hasCycle(func(a rawArc) bool { return a.in == Epsilon && a.out == Epsilon }) {
			continue
		}
		var buf bytes.Buffer
		f.WriteText(&buf, nil)
		g, err := ReadFST(&buf)
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		mf, _ := Compile(f)
		mg, _ := Compile(g)
		for range 5 {
			x, y := randomString(r, 3, 5), randomString(r, 3, 5)
			a, _ := mf.Weight(x, y, nil, strkernel.Limits{})
			b, _ := mg.Weight(x, y, nil, strkernel.Limits{})
			if a != b {
				t.Fatalf("T(%v, %v): %v before writing, %v after", x, y, a.Float64(), b.Float64())
			}
		}
		n++
	}
}

// TestTransducerText: a transducer with symbols, written with its table
// and read back through TableBuilder, gives the same kernel.
func TestTransducerText(t *testing.T) {
	tr := bigramTable(t, strkernel.Char, []string{"a", "b", " ", "ж"})
	var buf bytes.Buffer
	if err := tr.FST().WriteText(&buf, tr.Symbols()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "0\t0\ta\t<eps>\n0\t1\ta\ta\n") || !strings.Contains(buf.String(), "<U+0020>") {
		t.Errorf("text:\n%s", buf.String())
	}
	rows, err := ReadText(&buf, SymbolLabels)
	if err != nil {
		t.Fatal(err)
	}
	b := NewTableBuilder(strkernel.Char)
	for _, r := range rows {
		if r.Final {
			err = b.Final(r.Src, r.Weight)
		} else {
			err = b.Arc(r.Src, r.Dst, r.In, r.Out, r.Weight)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	back, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	k1, _ := NewKernel(tr, Bound{})
	k2, _ := NewKernel(back, Bound{})
	for _, p := range [][2]string{{"ab ab", "b abж"}, {"жж ж", "ж жж"}} {
		a, _ := k1.Eval(p[0], p[1], nil, strkernel.Limits{})
		c, _ := k2.Eval(p[0], p[1], nil, strkernel.Limits{})
		if a != c || a.IsZero() {
			t.Errorf("%q: %v, read back %v", p, a.Float64(), c.Float64())
		}
	}
}
