package kernels

import (
	"errors"
	"fmt"
	"github.com/ksql/ksql/internal/strkernel"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ksql/ksql/internal/par"
	"github.com/ksql/ksql/internal/xfloat"
)

// weights is a test Env: "weight" names resolve to numbers.
type weights map[string]float64

func (w weights) Resolve(kind, name string) (any, error) {
	if v, ok := w[name]; ok && kind == "weight" {
		return v, nil
	}
	return nil, fmt.Errorf("no %s named %s", kind, name)
}

// lenprodDef is a throwaway string kernel registered the way the built-in
// ones are: K(s, t) = scale·w·|s|·|t|, |s| counted in the spec's unit and
// w the weight its table= parameter names, resolved from the workspace's
// Env at evaluation time (rank one, so a kernel). With ParseEnv its
// builder also checks, at parse time, that the name resolves.
var lenprodDef = Def{
	Name:   "lenprod",
	Domain: StringDomain,
	Params: []Param{
		{Name: "scale", Kind: Real, Default: 1, Lo: 0, LoOpen: true, Hi: math.Inf(1)},
		{Name: "table", Kind: Ident, Required: true},
	},
	Examples: []Example{{"lenprod(table=w)", "scale·w·|s|·|t| (a test kernel)"}},
	Build: func(a *Args) (Evaluator, error) {
		if a.Env != nil {
			if _, err := a.Env.Resolve("weight", a.Name("table")); err != nil {
				return nil, err
			}
		}
		return &lenprodKernel{scale: a.Float("scale"), table: a.Name("table"), unit: int(a.Unit())}, nil
	},
}

type lenprodKernel struct {
	scale float64
	table string
	unit  int
}

func (k *lenprodKernel) Eval(a, b *Object, ws *Workspace) (xfloat.F, error) {
	if ws.Env == nil {
		return xfloat.F{}, fmt.Errorf("lenprod: nothing to resolve table=%s with", k.table)
	}
	w, err := ws.Env.Resolve("weight", k.table)
	if err != nil {
		return xfloat.F{}, err
	}
	return xfloat.New(k.scale * w.(float64) * float64(a.Seq(strkernel.Unit(k.unit)).Len()*b.Seq(strkernel.Unit(k.unit)).Len())), nil
}

// TestRegisterKernel adds a kernel through Register, the path of the
// built-in table, and checks that the whole language knows it: parsing,
// parameter checks, identifier parameters, operators, evaluation with an
// Env, Gram matrices, the shell's words and help.
func TestRegisterKernel(t *testing.T) {
	if _, err := ParseCached("lenprod(table=w)"); err == nil || !strings.Contains(err.Error(), `unknown kernel "lenprod"`) {
		t.Fatalf("before Register: %v", err)
	}
	Register(&lenprodDef)
	defer Unregister("lenprod")

	// The cached "unknown kernel" error above is gone.
	spec, err := ParseCached("lenprod(scale=2, table=w)")
	if err != nil {
		t.Fatal(err)
	}
	if spec.Domain() != StringDomain {
		t.Errorf("domain %v", spec.Domain())
	}
	if refs := spec.References(); !slices.Equal(refs, []Reference{{"lenprod", "table", "w"}}) {
		t.Errorf("References() = %v", refs)
	}
	env := weights{"w": 3, "v": 0.5}
	ws := &Workspace{Env: env}
	for _, tc := range []struct {
		spec, s, t string
		want       float64
	}{
		{"lenprod(scale=2, table=w)", "abcd", "xyz", 2 * 3 * 4 * 3},
		{"lenprod(table=v)", "абв", "", 0},                                       // code points, default scale
		{"lenprod(table=w, unit=word)", "one two three", "four five", 3 * 3 * 2}, // words
		{"normalize(lenprod(table=w))", "ab", "abcdef", 1},                       // rank one
		{"lenprod(table=v) + ngram(n=1)", "aab", "ab", 0.5*3*2 + 3},
		{"0.5*lenprod(table=w) * subseq(p=1)", "ab", "b", 0.5 * 3 * 2 * 1 * 1},
		{"gauss(sigma=1, over=lenprod(table=w))", "ab", "abc", math.Exp(-3.0 * (2 - 3) * (2 - 3) / 2)},
	} {
		sp, err := Parse(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		a, b := sp.PrepareString(tc.s), sp.PrepareString(tc.t)
		got, err := sp.EvalFloat(&a, &b, ws)
		if err != nil || math.Abs(got-tc.want) > 1e-12*math.Abs(tc.want) {
			t.Errorf("%s(%q, %q) = %v, %v; want %v", tc.spec, tc.s, tc.t, got, err, tc.want)
		}
	}

	// Its parameters are checked by the table, with the language's words.
	for _, tc := range []struct {
		spec string
		pos  int
		msg  string
	}{
		{"lenprod(scale=0, table=w)", 9, "lenprod: scale must be a positive finite number, got 0"},
		{"lenprod(scale=2)", 1, "lenprod needs table=..."},
		{"lenprod(table=3)", 9, "lenprod: table must be a name"},
		{"lenprod(table=w())", 9, "lenprod: table must be a name"},
		{"lenprod(table=w, size=2)", 18, "lenprod has no argument size (allowed: scale, table, unit)"},
		{"lenprod(table=w) + linear", 18, "cannot combine a string kernel with a vector kernel"},
	} {
		_, err := Parse(tc.spec)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Pos != tc.pos || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("Parse(%q): %v; want position %d %q", tc.spec, err, tc.pos, tc.msg)
		}
	}

	// A builder sees the Env given to ParseEnv; evaluation without one
	// fails with the kernel's own error.
	if _, err := ParseEnv("normalize(lenprod(table=missing))", env); err == nil ||
		!strings.Contains(err.Error(), "at position 11: lenprod: no weight named missing") {
		t.Errorf("ParseEnv with an unknown table: %v", err)
	}
	a, b := spec.PrepareString("a"), spec.PrepareString("b")
	if _, err := spec.Eval(&a, &b, &Workspace{}); err == nil || !strings.Contains(err.Error(), "nothing to resolve table=w") {
		t.Errorf("Eval without an Env: %v", err)
	}

	// Gram matrices pass GramOptions.Env to every worker.
	texts := []string{"a", "bb", "ccc", "", "dddd", "ee"}
	objs := make([]Object, len(texts))
	for i, s := range texts {
		objs[i] = spec.PrepareString(s)
	}
	for _, workers := range []int{1, 3} {
		dst := make([]float64, len(objs)*len(objs))
		if err := spec.Gram(objs, dst, GramOptions{Workers: workers, Env: env}); err != nil {
			t.Fatal(err)
		}
		for i := range texts {
			for j := i; j < len(texts); j++ {
				if want := 6 * float64(len(texts[i])*len(texts[j])); dst[i*len(texts)+j] != want {
					t.Errorf("workers=%d: Gram[%d][%d] = %v, want %v", workers, i, j, dst[i*len(texts)+j], want)
				}
			}
		}
	}

	// The shell's words and help come from the table.
	if w := Words(); !slices.Contains(w, "lenprod") || !slices.Contains(w, "scale") || !slices.Contains(w, "table") {
		t.Errorf("Words() lacks the new kernel's words: %v", w)
	}
	if h := Help(); !strings.Contains(h, "lenprod(table=w)") || strings.Index(h, "lenprod") > strings.Index(h, "unit=char") {
		t.Errorf("Help() does not list lenprod among the string kernels:\n%s", h)
	}

	// Names must be new and definitions well formed.
	for _, bad := range []*Def{
		{Name: "lenprod", Build: lenprodDef.Build},
		{Name: "normalize", Build: lenprodDef.Build},
		{Name: "2x", Build: lenprodDef.Build},
		{Name: "nobuild"},
		{Name: "dup", Params: []Param{{Name: "unit", Kind: Real, Hi: 1}}, Domain: StringDomain, Build: lenprodDef.Build},
		{Name: "empty", Params: []Param{{Name: "x", Kind: Real, Lo: 2, Hi: 1}}, Build: lenprodDef.Build},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%s) accepted a bad definition", bad.Name)
				}
			}()
			Register(bad)
		}()
	}
}

// TestGramWorkerPanic: a kernel that panics on one pair makes Gram and
// Cross return an error naming the function, whatever the worker count,
// and the process goes on.
func TestGramWorkerPanic(t *testing.T) {
	Register(&Def{Name: "boom", Domain: VectorDomain, Build: func(*Args) (Evaluator, error) { return boomKernel{}, nil }})
	defer Unregister("boom")
	spec, err := Parse("boom")
	if err != nil {
		t.Fatal(err)
	}
	objs, _ := randomVecs(300, 4, false, 9)
	objs[123].Vec.F64[0] = 42
	for _, workers := range []int{1, 2, 4} {
		opt := GramOptions{Workers: workers}
		for name, run := range map[string]func() error{
			"kernels.Gram":  func() error { return spec.Gram(objs, make([]float64, 300*300), opt) },
			"kernels.Cross": func() error { return spec.Cross(objs, objs[:40], make([]float64, 300*40), opt) },
		} {
			err := run()
			var pe *par.PanicError
			if !errors.As(err, &pe) || pe.Func != name || !strings.HasPrefix(err.Error(), name+": ") ||
				!strings.Contains(err.Error(), "boom at 42") {
				t.Errorf("workers=%d: %s returned %v, want a panic error naming it", workers, name, err)
			}
		}
	}
}

type boomKernel struct{}

func (boomKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	if a.Vec.F64[0] == 42 {
		panic("boom at 42")
	}
	return xfloat.New(Dot(a.Vec, b.Vec)), nil
}

// TestParamCheck: the one range check, at and around each bound of the
// built-in parameters.
func TestParamCheck(t *testing.T) {
	for _, tc := range []struct {
		kernel, param string
		ok, bad       []float64
	}{
		{"poly", "degree", []float64{1, 2, 1000}, []float64{0, 1.5, 1001, -1, math.NaN(), math.Inf(1)}},
		{"poly", "r", []float64{0, 1, 1e300}, []float64{-1e-300, math.Inf(1), math.NaN()}},
		{"gauss", "sigma", []float64{1e-300, 1, 1e300}, []float64{0, -1, math.Inf(1), math.NaN()}},
		{"laplace", "sigma", []float64{5e-324, 2}, []float64{0, math.Inf(1)}},
		{"ssk", "lambda", []float64{1, 0.5, 1e-300}, []float64{0, 1.0000000000000002, -0.5}},
		{"ssk", "p", []float64{1, MaxStrParam}, []float64{0, MaxStrParam + 1, 2.5}},
		{"subseq", "p", []float64{1, 3}, []float64{0, -3}},
		{"ngram", "n", []float64{1, 7}, []float64{0, 0.5}},
	} {
		p := MustLookup(tc.kernel).Param(tc.param)
		for _, v := range tc.ok {
			if err := p.Check(v); err != nil {
				t.Errorf("%s %s=%v: %v", tc.kernel, tc.param, v, err)
			}
		}
		for _, v := range tc.bad {
			var re *RangeError
			if err := p.Check(v); !errors.As(err, &re) || re.Param != p || !(re.Value == v || v != v) {
				t.Errorf("%s %s=%v: got %v, want a RangeError", tc.kernel, tc.param, v, err)
			}
		}
	}
}
