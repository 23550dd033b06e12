package kernels

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// Another library's spelling of a kernel or argument gets, besides the
// error, what ksql writes for it.
func TestHabitErrors(t *testing.T) {
	cases := []struct{ spec, want string }{
		{"rbf(gamma=0.5)", `unknown kernel "rbf" (known: anova, `},
		{"rbf(gamma=0.5)", "; scikit-learn's rbf with gamma γ is gauss(sigma=1/√(2γ)))"},
		{"rbfdot", "kernlab's rbfdot(sigma=γ) is gauss(sigma=1/√(2γ))"},
		{"laplacedot", "is matern(sigma=1/s, nu=0.5)"},
		{"gauss(gamma=0.5)", "gauss has no argument gamma (allowed: sigma, over; scikit-learn's gamma γ is sigma=1/√(2γ))"},
		{"laplace(gamma=2)", "(allowed: sigma; scikit-learn's gamma γ is sigma=1/γ)"},
		{"poly(degree=3, coef0=1)", "γ^d*poly(degree=d, r=c/γ)"},
		{"sigmoid(gamma=1, coef0=1)", "scikit-learn's coef0 is r)"},
		{"periodic(sigma=1, periodicity=2)", "scikit-learn's periodicity is period)"},
		{"gauss(width=1)", "gauss has no argument width (allowed: sigma, over)"}, // no habit: no line
		{"foo", `unknown kernel "foo" (known: anova, `},
	}
	for _, c := range cases {
		_, err := Parse(c.spec)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.spec, err, c.want)
		}
	}
	if _, err := Parse("foo"); err == nil || strings.Contains(err.Error(), "scikit-learn") || strings.Contains(err.Error(), "kernlab") {
		t.Errorf("foo: %v, want no other library's line", err)
	}
}

// The lines say true things: each rewriting gives the other library's
// kernel, computed here from its definition, on a few pairs.
func TestHabitMappings(t *testing.T) {
	const g, c, s, d = 0.37, 1.5, 0.8, 3
	dot := func(x, z []float64) (v float64) {
		for i := range x {
			v += x[i] * z[i]
		}
		return v
	}
	dist := func(x, z []float64, p float64) (v float64) {
		for i := range x {
			v += math.Pow(math.Abs(x[i]-z[i]), p)
		}
		return math.Pow(v, 1/p)
	}
	cases := []struct {
		spec string
		ref  func(x, z []float64) float64
	}{
		{fmt.Sprintf("gauss(sigma=%v)", 1/math.Sqrt(2*g)), func(x, z []float64) float64 { return math.Exp(-g * math.Pow(dist(x, z, 2), 2)) }},
		{fmt.Sprintf("laplace(sigma=%v)", 1/g), func(x, z []float64) float64 { return math.Exp(-g * dist(x, z, 1)) }},
		{fmt.Sprintf("matern(sigma=%v, nu=0.5)", 1/s), func(x, z []float64) float64 { return math.Exp(-s * dist(x, z, 2)) }},
		{fmt.Sprintf("%v*poly(degree=%d, r=%v)", math.Pow(g, d), d, c/g), func(x, z []float64) float64 { return math.Pow(g*dot(x, z)+c, d) }},
		{fmt.Sprintf("sigmoid(gamma=%v, r=%v)", g, c), func(x, z []float64) float64 { return math.Tanh(g*dot(x, z) + c) }},
	}
	xs := [][]float64{{0.5, -1.25, 2}, {1, 0, -0.75}, {-2, 0.5, 0.25}}
	ws := &Workspace{}
	for _, k := range cases {
		spec := mustParse(t, k.spec)
		for i := range xs {
			for j := range xs {
				a, b := Object{Vec: Vec{F64: xs[i]}}, Object{Vec: Vec{F64: xs[j]}}
				got, err := spec.EvalFloat(&a, &b, ws)
				if err != nil {
					t.Fatal(err)
				}
				if want := k.ref(xs[i], xs[j]); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Errorf("%s on pair %d,%d: %.17g, the other library's kernel %.17g", k.spec, i, j, got, want)
				}
			}
		}
	}
}
