package kernels

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// specGen builds a kernel spec and vectors from fuzz bytes.
type specGen struct {
	b []byte
	i int
}

func (g *specGen) next() byte {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return g.b[g.i-1]
}

// mag is a magnitude 10^e, e in [-300, 300] (and exactly 0 now and then).
func (g *specGen) mag() float64 {
	e := int(g.next())<<8 | int(g.next())
	if e%97 == 0 {
		return 0
	}
	return math.Pow(10, float64(e%601-300))
}

// positive is a parameter 10^e, e in [-300, 300], for sigma and r.
func (g *specGen) positive() float64 {
	v := g.mag()
	if v == 0 {
		return 1
	}
	return v
}

// newLeaves is where spec bytes from 216 up pick one of the kernels
// added after the corpus was made, which keeps the corpus's specs.
const newLeaves = 216

func (g *specGen) spec(depth int) string {
	c := g.next()
	if c >= newLeaves {
		return g.newLeaf(c-newLeaves, depth)
	}
	if depth >= 4 {
		c %= 4
	}
	switch c % 9 {
	case 0:
		return "linear"
	case 1:
		return fmt.Sprintf("poly(degree=%d, r=%g)", 1+int(g.next()%6), g.positive()*float64(g.next()%2))
	case 2:
		return fmt.Sprintf("gauss(sigma=%g)", g.positive())
	case 3:
		return fmt.Sprintf("laplace(sigma=%g)", g.positive())
	case 4:
		return "normalize(" + g.spec(depth+1) + ")"
	case 5:
		return g.spec(depth+1) + " + " + g.spec(depth+1)
	case 6:
		return "(" + g.spec(depth+1) + ") * (" + g.spec(depth+1) + ")"
	case 7:
		return fmt.Sprintf("%g * (%s)", g.positive(), g.spec(depth+1))
	}
	return fmt.Sprintf("gauss(sigma=%g, over=%s)", g.positive(), g.spec(depth+1))
}

// newLeaf is sigmoid, rq, matern, periodic, chi2 or anova, or rq or
// matern over a smaller spec.
func (g *specGen) newLeaf(c byte, depth int) string {
	switch c % 7 {
	case 0:
		return fmt.Sprintf("sigmoid(gamma=%g, r=%g)", g.positive(), g.positive()*float64(int(g.next()%3)-1))
	case 1:
		return fmt.Sprintf("rq(sigma=%g, alpha=%g)", g.positive(), g.positive())
	case 2:
		return fmt.Sprintf("matern(sigma=%g, nu=%g)", g.positive(), 0.5+float64(g.next()%3))
	case 3:
		return fmt.Sprintf("periodic(sigma=%g, period=%g)", g.positive(), g.positive())
	case 4:
		return fmt.Sprintf("chi2(gamma=%g)", g.positive())
	case 5:
		return fmt.Sprintf("anova(sigma=%g, degree=%d)", g.positive(), 1+int(g.next()%6))
	}
	name := []string{"rq(sigma=%g, over=%s)", "matern(sigma=%g, over=%s)"}[g.next()%2]
	if depth >= 4 {
		return fmt.Sprintf(strings.Replace(name, ", over=%s", "", 1), g.positive())
	}
	return fmt.Sprintf(name, g.positive(), g.spec(depth+1))
}

func (g *specGen) vec(dim int) []float64 {
	v := make([]float64, dim)
	for i := range v {
		v[i] = g.mag()
		if g.next()%2 == 1 {
			v[i] = -v[i]
		}
	}
	return v
}

// FuzzSpecInvariants evaluates random specs on random vectors of wide
// magnitude (1e-300 to 1e300) and checks what holds for every kernel:
// no NaN, symmetry, K(a,a) ≥ 0, |normalize| ≤ 1 + 1e-12, distance ≥ 0 and
// 0 between an object and itself. sigmoid is not positive semi-definite:
// a spec with it may have K(a,a) < 0 and a cosine past 1. An error is
// allowed (a refusal that names the overflow, periodic's lost phase,
// chi2's negative element); a wrong number is not. Specs with chi2 get
// non-negative vectors, so that its values are tested too.
func FuzzSpecInvariants(f *testing.F) {
	for _, seed := range []string{"\x00", "\x04\x00", "\x08\x02\x10\x00", "\x05\x04\x00\x07\x01\x02\x03", "\x06\x01\x02\x03\x04\x08\x00",
		"\xd8", "\xd9", "\xda", "\xdb", "\xdc", "\xdd", "\xde\x00\x00\x00\x00", "\x05\xd8\x06\xde\x01\x01\x01\x01\xdc"} {
		f.Add([]byte(seed), []byte("\x01\x02\x03\x04\xff\xfe\x10\x20\x30\x40\x50\x60"))
	}
	ws := &Workspace{}
	f.Fuzz(func(t *testing.T, specBytes, vecBytes []byte) {
		g := &specGen{b: specBytes}
		text := g.spec(0)
		spec, err := Parse(text)
		if err != nil {
			t.Fatalf("generated spec %q does not parse: %v", text, err)
		}
		vg := &specGen{b: vecBytes}
		dim := 1 + int(vg.next()%4)
		x, z := vg.vec(dim), vg.vec(dim)
		if strings.Contains(text, "chi2") {
			for i := range x {
				x[i], z[i] = math.Abs(x[i]), math.Abs(z[i])
			}
		}
		a, b := spec.PrepareVec(Vec{F64: x}), spec.PrepareVec(Vec{F64: z})
		kab, err1 := spec.EvalFloat(&a, &b, ws)
		kba, err2 := spec.EvalFloat(&b, &a, ws)
		kaa, err3 := spec.EvalFloat(&a, &a, ws)
		d, err4 := spec.Distance(&a, &b, ws)
		d0, err5 := spec.Distance(&a, &a, ws)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
			return
		}
		psd := !strings.Contains(text, "sigmoid")
		bad := math.IsNaN(kab) || math.IsNaN(kaa) || math.IsNaN(d) || kab != kba || psd && !(kaa >= 0) || !(d >= 0) || d0 != 0
		if psd && len(specBytes) > 0 && specBytes[0] < newLeaves && specBytes[0]%9 == 4 { // the whole spec is normalize(...)
			bad = bad || math.Abs(kab) > 1+1e-12
		}
		if bad {
			t.Fatalf("%s on %v, %v: K(a,b) %v, K(b,a) %v, K(a,a) %v, d %v, d(a,a) %v", text, x, z, kab, kba, kaa, d, d0)
		}
	})
}
