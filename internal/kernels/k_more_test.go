package kernels

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/xfloat"
)

// Tests of sigmoid, rq, matern, periodic, chi2 and anova. Their reference
// values (moreRefCases, in more_ref_values_test.go) are scikit-learn's and
// kernlab's, made by testdata/make_more_ref.py.

type moreRefCase struct {
	data, spec, source string
	gram               [][]float64
}

func vecObjs(rows [][]float64) []Object {
	objs := make([]Object, len(rows))
	for i, r := range rows {
		objs[i] = Object{Vec: Vec{F64: r}}
	}
	return objs
}

// f32Objs returns rows as float32 BLOBs, and their exact float64 values.
func f32Objs(rows [][]float64) ([]Object, [][]float64) {
	objs, wide := make([]Object, len(rows)), make([][]float64, len(rows))
	for i, r := range rows {
		v := make([]float32, len(r))
		wide[i] = make([]float64, len(r))
		for k, x := range r {
			v[k] = float32(x)
			wide[i][k] = float64(v[k])
		}
		objs[i] = Object{Vec: Vec{F32: f32Blob(v)}}
	}
	return objs, wide
}

func mustParse(t testing.TB, text string) *Spec {
	t.Helper()
	s, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMoreAgainstReferences: every pair by Eval, the parallel Gram (upper
// triangle) and Cross, each within 1e-12 of the reference.
func TestMoreAgainstReferences(t *testing.T) {
	ws := &Workspace{}
	for _, c := range moreRefCases {
		spec := mustParse(t, c.spec)
		objs := vecObjs(moreRefSets[c.data])
		n := len(objs)
		gram, cross := make([]float64, n*n), make([]float64, n*n)
		if err := spec.Gram(objs, gram, GramOptions{Workers: 3}); err != nil {
			t.Fatal(err)
		}
		if err := spec.Cross(objs, objs, cross, GramOptions{}); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range n {
			for j := range n {
				want := c.gram[i][j]
				got, err := spec.EvalFloat(&objs[i], &objs[j], ws)
				if err != nil {
					t.Fatal(err)
				}
				vals := []float64{got, cross[i*n+j]}
				if j >= i {
					vals = append(vals, gram[i*n+j])
				}
				for _, v := range vals {
					rel := math.Abs(v-want) / math.Abs(want)
					worst = max(worst, rel)
					if !(rel <= 1e-12) {
						t.Errorf("%s on %s [%d][%d] = %.17g, %s %.17g (rel %.2g)", c.spec, c.data, i, j, v, c.source, want, rel)
					}
				}
			}
		}
		t.Logf("%-34s %-26s worst relative error %.2g", c.spec, c.source, worst)
	}
}

// TestMoreFloat32: float32 BLOBs give the values of the same numbers as
// float64 vectors, alone and mixed with them.
func TestMoreFloat32(t *testing.T) {
	ws := &Workspace{}
	eachLoop(func(asm bool) {
		for _, c := range moreRefCases {
			spec := mustParse(t, c.spec)
			blobs, wide := f32Objs(moreRefSets[c.data])
			plain := vecObjs(wide)
			for i := range blobs {
				for j := range blobs {
					want, err1 := spec.EvalFloat(&plain[i], &plain[j], ws)
					got, err2 := spec.EvalFloat(&blobs[i], &blobs[j], ws)
					mixed, err3 := spec.EvalFloat(&blobs[i], &plain[j], ws)
					if err1 != nil || err2 != nil || err3 != nil {
						t.Fatal(err1, err2, err3)
					}
					if !closeRel(got, want, 1e-12) || !closeRel(mixed, want, 1e-12) {
						t.Errorf("asm=%v %s [%d][%d]: BLOBs %v, mixed %v, float64 %v", asm, c.spec, i, j, got, mixed, want)
					}
				}
			}
		}
	})
}

// TestMoreParamErrors: each kernel's parameters are checked with errors
// that name the kernel, the parameter and the allowed range.
func TestMoreParamErrors(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"sigmoid", "sigmoid needs gamma=..."},
		{"sigmoid(gamma=0)", "sigmoid: gamma must be a positive finite number, got 0"},
		{"sigmoid(gamma=1, r=x)", "sigmoid: r must be a number"},
		{"sigmoid(gamma=1, over=linear)", "sigmoid has no argument over (allowed: gamma, r)"},
		{"rq(alpha=1)", "rq needs sigma=..."},
		{"rq(sigma=1, alpha=0)", "rq: alpha must be a positive finite number, got 0"},
		{"rq(sigma=-2)", "rq: sigma must be a positive finite number, got -2"},
		{"matern(sigma=1, nu=1)", "matern: nu must be 0.5, 1.5 or 2.5, got 1"},
		{"matern(sigma=1, nu=3.5)", "matern: nu must be 0.5, 1.5 or 2.5, got 3.5"},
		{"matern(nu=0.5)", "matern needs sigma=..."},
		{"periodic(sigma=1)", "periodic needs period=..."},
		{"periodic(sigma=1, period=0)", "periodic: period must be a positive finite number, got 0"},
		{"periodic(sigma=1, period=1, over=linear)", "periodic has no argument over (allowed: sigma, period)"},
		{"chi2(gamma=-1)", "chi2: gamma must be a positive finite number, got -1"},
		{"chi2(sigma=1)", "chi2 has no argument sigma (allowed: gamma)"},
		{"anova(degree=0)", "anova: degree must be a whole number from 1 to 1000, got 0"},
		{"anova(degree=1.5)", "anova: degree must be a whole number from 1 to 1000, got 1.5"},
		{"anova(sigma=0)", "anova: sigma must be a positive finite number, got 0"},
		{"chi2 + ngram(n=2)", "cannot combine a vector kernel with a string kernel"},
	} {
		_, err := Parse(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.spec, err, c.want)
		}
	}
}

// TestMoreEvalErrors: errors at evaluation name the kernel and the value.
func TestMoreEvalErrors(t *testing.T) {
	ws := &Workspace{}
	for _, c := range []struct {
		spec string
		x, z []float64
		want string
	}{
		{"chi2", []float64{1, -0.5}, []float64{1, 2}, "chi2: element 2 of a vector is -0.5; chi2 compares vectors of non-negative values"},
		{"chi2(gamma=2)", []float64{1, 2, 3}, []float64{1, 2, -3}, "chi2: element 3 of a vector is -3"},
		{"0.5*chi2 + linear", []float64{0, -1}, []float64{0, 0}, "chi2: element 2 of a vector is -1"},
		{"periodic(sigma=1, period=1)", []float64{1e13}, []float64{0}, "periodic: the vectors are 1e+13 apart, more than 2^40 periods (period=1)"},
		{"periodic(sigma=1, period=1e-300)", []float64{1}, []float64{0}, "more than 2^40 periods"},
		{"rq(sigma=1)", []float64{1, 2}, []float64{1, 2, 3}, "vectors differ in length (2 and 3)"},
		{"anova", []float64{1}, []float64{}, "vectors differ in length (1 and 0)"},
	} {
		spec := mustParse(t, c.spec)
		a, b := spec.PrepareVec(Vec{F64: c.x}), spec.PrepareVec(Vec{F64: c.z})
		_, err1 := spec.EvalFloat(&a, &b, ws)
		_, err2 := spec.Distance(&a, &b, ws)
		for _, err := range []error{err1, err2} {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s on %v, %v: error %v, want %q", c.spec, c.x, c.z, err, c.want)
			}
		}
	}
	// A Gram names the pair.
	spec := mustParse(t, "chi2")
	objs := vecObjs([][]float64{{1, 1}, {2, 0}, {1, -1e-300}})
	err := spec.Gram(objs, make([]float64, 9), GramOptions{})
	if err == nil || !strings.Contains(err.Error(), "element 2 of a vector is -1e-300") || !strings.Contains(err.Error(), "objects ") {
		t.Errorf("Gram: %v", err)
	}
}

// TestMoreEdges: values at the edges of float64, where the plain formulas
// overflow, underflow or take Inf·0 (and are wrong by far more than the
// 1e-12 allowed: 0 for 1/3, 1 for e^-1), against closed forms worked out
// by hand in the comments.
func TestMoreEdges(t *testing.T) {
	max64 := math.MaxFloat64
	for _, c := range []struct {
		spec string
		x, z []float64
		want float64
	}{
		// ⟨x,z⟩ = 3e-400 underflows; γ⟨x,z⟩ = 3e-100 and tanh(u) = u there.
		{"sigmoid(gamma=1e300, r=0)", []float64{1e-200}, []float64{3e-200}, 3e-100},
		// ⟨x,z⟩ = 1e400 − 1e400 = 0 (Inf − Inf in float64).
		{"sigmoid(gamma=1, r=0.5)", []float64{1e200, -1e200}, []float64{1e200, 1e200}, math.Tanh(0.5)},
		// γ⟨x,z⟩ = 1e-300·1e400 = 1e100: saturated.
		{"sigmoid(gamma=1e-300, r=-3)", []float64{1e200}, []float64{1e200}, 1},
		{"sigmoid(gamma=1e-300, r=-3)", []float64{1e200}, []float64{-1e200}, -1},
		// 2ασ² = 2e-900 underflows; u = 1/2e-900, α·ln(1+u) = 1e-300·2072.1: K = 1.
		{"rq(sigma=1e-300, alpha=1e-300)", []float64{1}, []float64{0}, 1},
		// ‖x−z‖² = 4e600 and 2σ² = 2e600 overflow; u = 2, K = 1/3.
		{"rq(sigma=1e300)", []float64{1e300}, []float64{-1e300}, 1.0 / 3},
		// u = 1e-600·... below float64; α·u = ‖x−z‖²/(2σ²) = 0.5: K = e^-0.5 to float64.
		{"rq(sigma=1, alpha=1e300)", []float64{1}, []float64{0}, math.Exp(-0.5)},
		// ‖x−z‖ = 2·MaxFloat64 overflows; t = √3·2·1.7976931348623157: K = (1+t)e^-t.
		{"matern(sigma=1e308, nu=1.5)", []float64{max64}, []float64{-max64}, maternRef(1.5, math.Sqrt(3)*2*(max64/1e308))},
		// ‖x−z‖² = 1e-600 underflows; t = √5.
		{"matern(sigma=1e-300, nu=2.5)", []float64{1e-300}, []float64{0}, maternRef(2.5, math.Sqrt(5))},
		// t = +Inf in float64: 0, not Inf·0.
		{"matern(sigma=1e-300, nu=2.5)", []float64{max64}, []float64{-max64}, 0},
		{"matern(sigma=1, nu=0.5)", []float64{3}, []float64{0}, math.Exp(-3)},
		// d = 1 period exactly: sin² = 0 however small σ (π·1 would leave 1.2e-16).
		{"periodic(sigma=1e-200, period=1)", []float64{1}, []float64{0}, 1},
		{"periodic(sigma=1e-200, period=1)", []float64{0.5}, []float64{0}, 0},
		{"periodic(sigma=1, period=4)", []float64{3}, []float64{2}, math.Exp(-1)}, // sin²(π/4) = 1/2
		{"periodic(sigma=1, period=1)", []float64{1e12}, []float64{0}, 1},
		// σ² = 1e-400 underflows: (sin/σ)² = 0.5/1e-400 is +Inf, K = 0.
		{"periodic(sigma=1e-200, period=4)", []float64{1}, []float64{0}, 0},
		// x + z = 1.5·MaxFloat64 overflows: the term is (M/2)·(1/3) = M/6.
		{"chi2(gamma=1e-308)", []float64{max64, 0}, []float64{max64 / 2, 0}, math.Exp(-(max64 / 6) * 1e-308)},
		// (x−z)² = 4e-600 underflows: the term is 1e-300, times γ = 1e300.
		{"chi2(gamma=1e300)", []float64{1e-300}, []float64{3e-300}, math.Exp(-1)},
		{"chi2", []float64{0, 0, 2}, []float64{0, 0, 2}, 1},
		{"chi2(gamma=0.5)", []float64{0, 1, 3}, []float64{0, 3, 1}, math.Exp(-0.5 * 2)}, // 4/4 + 4/4
		// x − z = 2·MaxFloat64 overflows: exp(−σ·4M²) = 0 for every σ > 0, and the other
		// coordinate gives 1.
		{"anova(sigma=5e-324)", []float64{max64, 1}, []float64{-max64, 1}, 1},
		{"anova(sigma=2, degree=3)", []float64{0, 1}, []float64{0.5, 1}, math.Pow(1+math.Exp(-0.5), 3)},
		// (x−z)² = 1e-320 is subnormal; σ·(x−z)² = 1.7976931348623157e-12.
		{"anova(sigma=1.7976931348623157e308)", []float64{1e-160}, []float64{0}, math.Exp(-1.7976931348623157e-12)},
		{"anova(degree=1000)", []float64{1, 2}, []float64{1, 2}, math.Ldexp(1, 1000)},
		{"anova(degree=1000)", []float64{1, 2, 3}, []float64{1, 2, 3}, math.Inf(1)}, // 3^1000
		{"normalize(anova(degree=1000))", []float64{1, 2, 3}, []float64{1, 2, 4}, math.Pow((2+math.Exp(-1))/3, 1000)},
	} {
		spec := mustParse(t, c.spec)
		a, b := spec.PrepareVec(Vec{F64: c.x}), spec.PrepareVec(Vec{F64: c.z})
		got, err := spec.EvalFloat(&a, &b, &Workspace{})
		if err != nil {
			t.Errorf("%s on %v, %v: %v", c.spec, c.x, c.z, err)
			continue
		}
		if !(got == c.want || math.Abs(got-c.want) <= 1e-12*math.Abs(c.want)) {
			t.Errorf("%s on %v, %v = %.17g, want %.17g", c.spec, c.x, c.z, got, c.want)
		}
	}
}

func maternRef(nu, t float64) float64 {
	switch nu {
	case 0.5:
		return math.Exp(-t)
	case 1.5:
		return (1 + t) * math.Exp(-t)
	}
	return (1 + t + t*t/3) * math.Exp(-t)
}

// expBig is e^x for |x| ≤ 4 to about 2^-250, by its Taylor series.
func expBig(x *big.Float) *big.Float {
	sum, term := bf(1), bf(1)
	for n := 1; n < 200; n++ {
		term.Mul(term, x)
		term.Quo(term, bf(float64(n)))
		sum.Add(sum, term)
	}
	return sum
}

// TestMoreSqDistNear: the feature-space distances 2 − 2K of rq and
// matern, whose forms avoid 1 − K, against 300-bit references for
// distances from 1e-12 to 3 (where 1 − K in float64 would lose up to
// every digit).
func TestMoreSqDistNear(t *testing.T) {
	one := bf(1)
	cases := []struct {
		spec string
		ref  func(d2 float64) *big.Float // 1 − K
	}{
		{"rq(sigma=1.5, alpha=1)", func(d2 float64) *big.Float { // u/(1 + u)
			u := new(big.Float).SetPrec(refPrec).Quo(bf(d2), bf(2*1.5*1.5))
			return u.Quo(u, new(big.Float).SetPrec(refPrec).Add(one, u))
		}},
		{"rq(sigma=0.5, alpha=2)", func(d2 float64) *big.Float { // 1 − (1 + u)^-2
			u := new(big.Float).SetPrec(refPrec).Quo(bf(d2), bf(4*0.5*0.5))
			p := new(big.Float).SetPrec(refPrec).Add(one, u)
			p.Mul(p, p)
			return p.Sub(one, p.Quo(one, p))
		}},
		{"matern(sigma=2, nu=1.5)", maternBig(1.5, 2)},
		{"matern(sigma=0.25, nu=2.5)", maternBig(2.5, 0.25)},
		{"matern(sigma=1, nu=0.5)", maternBig(0.5, 1)},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range cases {
		spec := mustParse(t, c.spec)
		r := spec.root.ev.(Radial)
		worst := 0.0
		for range 300 {
			d := math.Pow(10, -12+12.5*rng.Float64())
			d2 := d * d
			want, _ := new(big.Float).SetPrec(refPrec).Mul(bf(2), c.ref(d2)).Float64()
			got := r.SqDistOf(xfloat.New(d2)).Float64()
			worst = max(worst, math.Abs(got-want)/want)
		}
		if worst > 1e-14 {
			t.Errorf("%s: worst relative error of 2 − 2K %.3g, want ≤ 1e-14", c.spec, worst)
		}
		t.Logf("%s: worst relative error %.3g", c.spec, worst)
	}
}

// maternBig is 1 − K of matern(sigma, nu) at squared distance d2, in
// 300 bits (d2 ≤ 10, so t ≤ 4 for these σ, where expBig holds).
func maternBig(nu, sigma float64) func(d2 float64) *big.Float {
	return func(d2 float64) *big.Float {
		tt := new(big.Float).SetPrec(refPrec).Quo(new(big.Float).SetPrec(refPrec).Mul(bf(2*nu), bf(d2)), bf(sigma*sigma))
		t := new(big.Float).SetPrec(refPrec).Sqrt(tt)
		p := bf(1)
		if nu > 1 {
			p.Add(p, t)
		}
		if nu > 2 {
			p.Add(p, new(big.Float).SetPrec(refPrec).Quo(tt, bf(3)))
		}
		k := p.Mul(p, expBig(new(big.Float).SetPrec(refPrec).Neg(t)))
		return k.Sub(bf(1), k)
	}
}

// TestMoreOperators: the new kernels inside over=, sums, products and
// normalize give what their definitions say: rq and matern over linear
// are themselves, gauss over chi2 is exp(−(2 − 2K)/(2σ²)), sums and
// products are those of the values.
func TestMoreOperators(t *testing.T) {
	rows := moreRefSets["mixed"]
	hist := moreRefSets["hist"]
	ev := func(spec string, x, z []float64) float64 {
		s := mustParse(t, spec)
		a, b := s.PrepareVec(Vec{F64: x}), s.PrepareVec(Vec{F64: z})
		v, err := s.EvalFloat(&a, &b, &Workspace{})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for i := range rows {
		for j := range rows {
			x, z := rows[i], rows[j]
			h, g := hist[i], hist[j]
			for _, c := range []struct {
				got, want float64
				what      string
			}{
				{ev("rq(sigma=0.7, alpha=3, over=linear)", x, z), ev("rq(sigma=0.7, alpha=3)", x, z), "rq over linear"},
				{ev("matern(sigma=1.5, nu=2.5, over=linear)", x, z), ev("matern(sigma=1.5, nu=2.5)", x, z), "matern over linear"},
				{ev("gauss(sigma=0.5, over=chi2(gamma=0.3))", h, g), math.Exp(-(2 - 2*ev("chi2(gamma=0.3)", h, g)) / 0.5), "gauss over chi2"},
				{ev("rq(sigma=2, over=anova(sigma=0.5, degree=2))", x, z),
					1 / (1 + (ev("anova(sigma=0.5, degree=2)", x, x)+ev("anova(sigma=0.5, degree=2)", z, z)-2*ev("anova(sigma=0.5, degree=2)", x, z))/8), "rq over anova"},
				{ev("sigmoid(gamma=0.25) + 2*periodic(sigma=0.8, period=1.3)", x, z),
					ev("sigmoid(gamma=0.25)", x, z) + 2*ev("periodic(sigma=0.8, period=1.3)", x, z), "sum"},
				{ev("matern(sigma=1.5) * anova(sigma=0.5, degree=3)", x, z),
					ev("matern(sigma=1.5)", x, z) * ev("anova(sigma=0.5, degree=3)", x, z), "product"},
				{ev("normalize(anova(sigma=0.5, degree=3))", x, z), ev("anova(sigma=0.5, degree=3)", x, z) / 64, "normalize anova"},
			} {
				if !closeRel(c.got, c.want, 1e-13) {
					t.Errorf("%s on rows %d, %d: %.17g, want %.17g", c.what, i, j, c.got, c.want)
				}
			}
		}
	}
}

// TestMoreSpectra: the positive semi-definite kernels have no negative
// eigenvalue on random data (periodic on numbers, where it is PSD);
// sigmoid has one on the mixed set, which is what makes it not a kernel.
func TestMoreSpectra(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		spec string
		dim  int
		pos  bool // non-negative data
	}{
		{"rq(sigma=1, alpha=0.5)", 3, false},
		{"matern(sigma=1, nu=0.5)", 3, false},
		{"matern(sigma=1, nu=2.5)", 3, false},
		{"periodic(sigma=1, period=0.7)", 1, false},
		{"chi2(gamma=0.5)", 4, true},
		{"anova(sigma=0.3, degree=3)", 3, false},
		{"gauss(sigma=1, over=rq(sigma=2))", 3, false},
	} {
		n := 50
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = make([]float64, c.dim)
			for k := range rows[i] {
				rows[i][k] = rng.NormFloat64()
				if c.pos {
					rows[i][k] = math.Abs(rows[i][k])
				}
			}
		}
		if lo, hi := minEigen(t, c.spec, rows); lo < -1e-10*hi {
			t.Errorf("%s: smallest eigenvalue %g (largest %g): not PSD", c.spec, lo, hi)
		}
	}
	if lo, hi := minEigen(t, "sigmoid(gamma=0.4, r=-0.5)", moreRefSets["mixed"]); lo > -1e-3*hi {
		t.Errorf("sigmoid: smallest eigenvalue %g (largest %g), want clearly negative", lo, hi)
	}
}

func minEigen(t testing.TB, text string, rows [][]float64) (lo, hi float64) {
	spec := mustParse(t, text)
	n := len(rows)
	dst := make([]float64, n*n)
	if err := spec.Gram(vecObjs(rows), dst, GramOptions{}); err != nil {
		t.Fatal(err)
	}
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(n, dst), false) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	return vals[0], vals[n-1]
}

// TestMoreEdgesNoNaN: over vectors of wide magnitude (non-negative for
// chi2), each new kernel gives a number, symmetric, with distances ≥ 0
// and 0 for identical objects, and K(a,a) ≥ 0 except for sigmoid.
func TestMoreEdgesNoNaN(t *testing.T) {
	specs := []string{"sigmoid(gamma=1)", "sigmoid(gamma=1e-300, r=-2)", "sigmoid(gamma=1e300, r=0)",
		"rq(sigma=1e-300, alpha=1e300)", "rq(sigma=1e300, alpha=1e-300)", "matern(sigma=1e-300, nu=1.5)",
		"matern(sigma=1e300, nu=2.5)", "matern(sigma=1, nu=0.5)", "periodic(sigma=1e-300, period=1e300)",
		"periodic(sigma=1e300, period=1e300)", "chi2(gamma=1e-300)", "chi2(gamma=1e300)",
		"anova(sigma=1e-300, degree=7)", "anova(sigma=1e300)", "gauss(sigma=1, over=matern(sigma=1e-200))",
		"rq(sigma=1e100, over=anova(degree=5))", "normalize(sigmoid(gamma=1e-10))"}
	rng := rand.New(rand.NewPCG(13, 14))
	ws := &Workspace{}
	for _, text := range specs {
		spec := mustParse(t, text)
		for range 300 {
			x, z := make([]float64, 3), make([]float64, 3)
			for i := range x {
				x[i] = math.Pow(10, -300+608*rng.Float64())
				z[i] = math.Pow(10, -300+608*rng.Float64())
				if !strings.HasPrefix(text, "chi2") {
					x[i], z[i] = math.Copysign(x[i], rng.NormFloat64()), math.Copysign(z[i], rng.NormFloat64())
				}
			}
			a, b := spec.PrepareVec(Vec{F64: x}), spec.PrepareVec(Vec{F64: z})
			kab, err1 := spec.EvalFloat(&a, &b, ws)
			kba, err2 := spec.EvalFloat(&b, &a, ws)
			kaa, err3 := spec.EvalFloat(&a, &a, ws)
			d, err4 := spec.Distance(&a, &b, ws)
			d0, err5 := spec.Distance(&a, &a, ws)
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
				if strings.HasPrefix(text, "periodic") && strings.Contains(err1.Error(), "periods") {
					continue
				}
				t.Fatalf("%s: errors %v %v %v %v %v", text, err1, err2, err3, err4, err5)
			}
			bad := math.IsNaN(kab) || math.IsNaN(kaa) || math.IsNaN(d) || kab != kba || !(d >= 0) || d0 != 0
			bad = bad || !strings.Contains(text, "sigmoid") && !(kaa >= 0)
			if bad {
				t.Fatalf("%s on %v, %v: K(a,b) %v, K(b,a) %v, K(a,a) %v, d %v, d(a,a) %v", text, x, z, kab, kba, kaa, d, d0)
			}
		}
	}
}

// BenchmarkGramMore times a 500×500 Gram matrix of 16-dimensional
// vectors for each new kernel (gauss for comparison).
func BenchmarkGramMore(b *testing.B) {
	n := 500
	objs, _ := randomVecs(n, 16, false, 3)
	for i := range objs {
		for k, v := range objs[i].Vec.F64 {
			objs[i].Vec.F64[k] = math.Abs(v) // chi2 wants non-negative values
		}
	}
	dst := make([]float64, n*n)
	for _, text := range []string{"gauss(sigma=2)", "sigmoid(gamma=0.1)", "rq(sigma=2)", "matern(sigma=2)",
		"periodic(sigma=1, period=3)", "chi2", "anova(sigma=0.5, degree=2)"} {
		spec := mustParse(b, text)
		b.Run(strings.SplitN(text, "(", 2)[0], func(b *testing.B) {
			for b.Loop() {
				if err := spec.Gram(objs, dst, GramOptions{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMoreInLanguage: the shell's words and .kernels text come from the
// table, so they know the new kernels, their parameters and examples;
// every example parses.
func TestMoreInLanguage(t *testing.T) {
	words, help := Words(), Help()
	for _, name := range []string{"sigmoid", "rq", "matern", "periodic", "chi2", "anova"} {
		d := MustLookup(name)
		if !slices.Contains(words, name) {
			t.Errorf("Words() lacks %s", name)
		}
		for _, p := range d.Params {
			if !slices.Contains(words, p.Name) {
				t.Errorf("Words() lacks %s's parameter %s", name, p.Name)
			}
		}
		if len(d.Examples) == 0 {
			t.Errorf("%s has no example", name)
		}
		for _, ex := range d.Examples {
			if !strings.Contains(help, ex.Spec) {
				t.Errorf("Help() lacks %s", ex.Spec)
			}
			if _, err := Parse(ex.Spec); err != nil {
				t.Errorf("example %s: %v", ex.Spec, err)
			}
		}
	}
}
