package kernels

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ksql/ksql/internal/xfloat"
)

// Reference kernels in 300-bit arithmetic, written from the definitions
// (no shared code with the evaluator), for the specs of TestDistanceNear.
const refPrec = 300

func bf(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }

func bdot(x, z []float64) *big.Float {
	s := bf(0)
	for i := range x {
		s.Add(s, new(big.Float).SetPrec(refPrec).Mul(bf(x[i]), bf(z[i])))
	}
	return s
}

func bpoly(x, z []float64, m int, r float64) *big.Float {
	b := new(big.Float).SetPrec(refPrec).Add(bdot(x, z), bf(r))
	p := bf(1)
	for range m {
		p.Mul(p, b)
	}
	return p
}

func bnormalize(k func(x, z []float64) *big.Float) func(x, z []float64) *big.Float {
	return func(x, z []float64) *big.Float {
		d := new(big.Float).SetPrec(refPrec).Mul(k(x, x), k(z, z))
		return new(big.Float).SetPrec(refPrec).Quo(k(x, z), d.Sqrt(d))
	}
}

// TestDistanceNear: feature-space distances of nearby points (relative
// separations 1e-3 to 1e-12, magnitudes 1e-3 to 1e8) against the 300-bit
// K(a,a) − 2K(a,b) + K(b,b), where the float64 form would cancel to noise.
func TestDistanceNear(t *testing.T) {
	linear := func(x, z []float64) *big.Float { return bdot(x, z) }
	poly2 := func(x, z []float64) *big.Float { return bpoly(x, z, 2, 1) }
	poly3 := func(x, z []float64) *big.Float { return bpoly(x, z, 3, 0.5) }
	cases := []struct {
		spec string
		ref  func(x, z []float64) *big.Float
	}{
		{"linear", linear},
		{"poly(degree=2, r=1)", poly2},
		{"poly(degree=3, r=0.5)", poly3},
		{"2*linear + poly(degree=2, r=1)", func(x, z []float64) *big.Float {
			s := new(big.Float).SetPrec(refPrec).Mul(bf(2), linear(x, z))
			return s.Add(s, poly2(x, z))
		}},
		{"linear * poly(degree=2, r=1)", func(x, z []float64) *big.Float {
			return new(big.Float).SetPrec(refPrec).Mul(linear(x, z), poly2(x, z))
		}},
		{"normalize(linear)", bnormalize(linear)},
		{"normalize(poly(degree=3, r=0.5))", bnormalize(poly3)},
	}
	rng := rand.New(rand.NewPCG(17, 4))
	ws := &Workspace{}
	for _, tc := range cases {
		spec, err := Parse(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for trial := 0; trial < 200; trial++ {
			scale := math.Pow(10, -3+11*rng.Float64())
			sep := math.Pow(10, -12+9*rng.Float64())
			x, z := make([]float64, 4), make([]float64, 4)
			for i := range x {
				x[i] = scale * rng.NormFloat64()
				z[i] = x[i] + scale*sep*rng.NormFloat64()
			}
			d2 := new(big.Float).SetPrec(refPrec).Sub(tc.ref(x, x), new(big.Float).SetPrec(refPrec).Mul(bf(2), tc.ref(x, z)))
			d2.Add(d2, tc.ref(z, z))
			want, _ := d2.Sqrt(d2).Float64()
			a, b := spec.PrepareVec(Vec{F64: x}), spec.PrepareVec(Vec{F64: z})
			got, err := spec.Distance(&a, &b, ws)
			if err != nil {
				t.Fatal(err)
			}
			worst = math.Max(worst, math.Abs(got-want)/want)
		}
		// Every form is direct (normalize and products through their
		// children's K(a,a) − K(b,b)): errors stay near rounding.
		const limit = 1e-13
		if worst > limit {
			t.Errorf("%s: worst relative error of the distance %.3g, want ≤ %g", tc.spec, worst, limit)
		}
		t.Logf("%s: worst relative error %.3g", tc.spec, worst)
	}
}

// countKernel counts its evaluations.
type countKernel struct{ n *atomic.Int64 }

func (k countKernel) Eval(a, b *Object, _ *Workspace) (xfloat.F, error) {
	k.n.Add(1)
	return DotX(a.Vec, b.Vec), nil
}

// TestCostLinearInSpec: normalize and over= evaluate their child's
// K(a,b), K(a,a), K(b,b) once each per pair, so a leaf is evaluated three
// times however deeply they nest, and a sum of n leaves costs n.
func TestCostLinearInSpec(t *testing.T) {
	var calls atomic.Int64
	Register(&Def{Name: "counted", Domain: VectorDomain,
		Build: func(*Args) (Evaluator, error) { return countKernel{&calls}, nil }})
	defer Unregister("counted")
	nest := func(open string, depth int) string {
		return strings.Repeat(open, depth) + "counted" + strings.Repeat(")", depth)
	}
	for _, tc := range []struct {
		spec  string
		evals int64
	}{
		{"counted", 1},
		{nest("normalize(", 60), 3},
		{nest("gauss(sigma=1, over=", 60), 3},
		{strings.Repeat("normalize(gauss(sigma=2, over=", 30) + "counted" + strings.Repeat("))", 30), 3},
		{strings.Repeat("counted + ", 999) + "counted", 1000},
		{"normalize(" + strings.Repeat("counted * ", 9) + "counted)", 30},
	} {
		spec, err := Parse(tc.spec)
		if err != nil {
			t.Fatalf("%.40s...: %v", tc.spec, err)
		}
		a, b := spec.PrepareVec(Vec{F64: []float64{1, 2}}), spec.PrepareVec(Vec{F64: []float64{2, 1}})
		calls.Store(0)
		if _, err := spec.Eval(&a, &b, &Workspace{}); err != nil {
			t.Fatal(err)
		}
		if got := calls.Load(); got != tc.evals {
			t.Errorf("%.50s...: %d leaf evaluations, want %d", tc.spec, got, tc.evals)
		}
	}
}

// TestEdgesNoNaN: over vectors of wide magnitude, every vector kernel and
// operator gives a number (never NaN), symmetric, with K(a,a) ≥ 0,
// normalize ≤ 1 + 1e-12, distances ≥ 0 and 0 for identical objects.
func TestEdgesNoNaN(t *testing.T) {
	specs := []string{"linear", "poly(degree=3, r=0)", "poly(degree=2)", "gauss(sigma=1)", "gauss(sigma=1e-300)",
		"gauss(sigma=1e300)", "laplace(sigma=1e-320)", "laplace(sigma=1e308)", "normalize(linear)",
		"normalize(poly(degree=5, r=0))", "gauss(sigma=1, over=linear)", "gauss(sigma=1e100, over=poly(degree=2))",
		"linear * gauss(sigma=2) + 0.5*laplace(sigma=3)", "normalize(linear * linear)"}
	rng := rand.New(rand.NewPCG(3, 9))
	ws := &Workspace{}
	for _, text := range specs {
		spec, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 300; trial++ {
			x, z := make([]float64, 3), make([]float64, 3)
			for i := range x {
				x[i] = math.Copysign(math.Pow(10, -300+600*rng.Float64()), rng.NormFloat64())
				z[i] = math.Copysign(math.Pow(10, -300+600*rng.Float64()), rng.NormFloat64())
			}
			a, b := spec.PrepareVec(Vec{F64: x}), spec.PrepareVec(Vec{F64: z})
			kab, err1 := spec.EvalFloat(&a, &b, ws)
			kba, err2 := spec.EvalFloat(&b, &a, ws)
			kaa, err3 := spec.EvalFloat(&a, &a, ws)
			d, err4 := spec.Distance(&a, &b, ws)
			d0, err5 := spec.Distance(&a, &a, ws)
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
				t.Fatalf("%s: errors %v %v %v %v %v", text, err1, err2, err3, err4, err5)
			}
			bad := math.IsNaN(kab) || math.IsNaN(d) || kab != kba || !(kaa >= 0) || !(d >= 0) || d0 != 0
			if strings.HasPrefix(text, "normalize") {
				bad = bad || math.Abs(kab) > 1+1e-12 || kaa != 1 && kaa != 0
			}
			if bad {
				t.Fatalf("%s on %v, %v: K(a,b) %v, K(b,a) %v, K(a,a) %v, d %v, d(a,a) %v", text, x, z, kab, kba, kaa, d, d0)
			}
		}
	}
}
