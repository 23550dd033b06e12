package kernels

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomVecs returns n vectors of dimension d, as float64 and, when f32 is
// set, as float32 BLOBs (whose float64 view is returned for the reference).
func randomVecs(n, d int, f32 bool, seed uint64) ([]Object, [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	objs := make([]Object, n)
	plain := make([][]float64, n)
	for i := range objs {
		x := make([]float64, d)
		for k := range x {
			x[k] = rng.NormFloat64()
		}
		if f32 {
			b := make([]byte, 4*d)
			for k, v := range x {
				binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(v)))
				x[k] = float64(float32(v))
			}
			objs[i] = Object{Vec: Vec{F32: b}}
		} else {
			objs[i] = Object{Vec: Vec{F64: x}}
		}
		plain[i] = x
	}
	return objs, plain
}

// Reference kernels written from the definitions in DESIGN.md, independent
// of the spec evaluator.
func refGauss(sigma float64) func(a, b []float64) float64 {
	return func(a, b []float64) float64 {
		var d float64
		for i := range a {
			d += (a[i] - b[i]) * (a[i] - b[i])
		}
		return math.Exp(-d / (2 * sigma * sigma))
	}
}

func refMixed(a, b []float64) float64 { // 0.5*linear + laplace(sigma=2)
	var dot, l1 float64
	for i := range a {
		dot += a[i] * b[i]
		l1 += math.Abs(a[i] - b[i])
	}
	return 0.5*dot + math.Exp(-l1/2)
}

func refPoly(a, b []float64) float64 { // poly(degree=3, r=1)
	var dot float64
	for i := range a {
		dot += a[i] * b[i]
	}
	return math.Pow(dot+1, 3)
}

var gramCases = []struct {
	spec string
	ref  func(a, b []float64) float64
}{
	{"gauss(sigma=1.5)", refGauss(1.5)},
	{"0.5*linear + laplace(sigma=2)", refMixed},
	{"poly(degree=3, r=1)", refPoly},
}

func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func TestGramMatchesDefinition(t *testing.T) {
	for _, c := range gramCases {
		spec, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 7, 150} {
			for _, workers := range []int{1, 3} {
				for _, f32 := range []bool{false, true} {
					objs, plain := randomVecs(n, 5, f32, uint64(n))
					dst := make([]float64, n*n)
					for i := range dst {
						dst[i] = math.NaN()
					}
					if err := spec.Gram(objs, dst, GramOptions{Workers: workers}); err != nil {
						t.Fatalf("%s n=%d: %v", c.spec, n, err)
					}
					for i := 0; i < n; i++ {
						for j := 0; j < n; j++ {
							got := dst[i*n+j]
							if j < i {
								if !math.IsNaN(got) {
									t.Fatalf("%s n=%d: lower triangle (%d,%d) was written", c.spec, n, i, j)
								}
								continue
							}
							if want := c.ref(plain[i], plain[j]); !closeRel(got, want, 1e-12) {
								t.Fatalf("%s n=%d workers=%d f32=%v: K(%d,%d) = %v, want %v", c.spec, n, workers, f32, i, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestCrossMatchesDefinition(t *testing.T) {
	for _, c := range gramCases {
		spec, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		a, pa := randomVecs(300, 4, false, 1)
		for _, m := range []int{1, 9} {
			b, pb := randomVecs(m, 4, true, 2)
			dst := make([]float64, len(a)*m)
			if err := spec.Cross(a, b, dst, GramOptions{}); err != nil {
				t.Fatal(err)
			}
			for i := range a {
				for j := range b {
					if want := c.ref(pa[i], pb[j]); !closeRel(dst[i*m+j], want, 1e-12) {
						t.Fatalf("%s m=%d: K(a%d, b%d) = %v, want %v", c.spec, m, i, j, dst[i*m+j], want)
					}
				}
			}
		}
	}
}

// TestGramPositiveSemidefinite checks the property every valid kernel's Gram
// matrix has, with an independent eigensolver.
func TestGramPositiveSemidefinite(t *testing.T) {
	for _, c := range gramCases {
		spec, _ := Parse(c.spec)
		n := 60
		objs, _ := randomVecs(n, 3, false, 9)
		dst := make([]float64, n*n)
		if err := spec.Gram(objs, dst, GramOptions{}); err != nil {
			t.Fatal(err)
		}
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(n, dst), false) {
			t.Fatal("eigendecomposition failed")
		}
		vals := eig.Values(nil)
		if lo, hi := vals[0], vals[n-1]; lo < -1e-10*hi {
			t.Errorf("%s: smallest eigenvalue %g (largest %g): not PSD", c.spec, lo, hi)
		}
	}
}

func TestGramErrors(t *testing.T) {
	spec, _ := Parse("gauss(sigma=1)")
	objs, _ := randomVecs(40, 3, false, 3)
	objs[17] = Object{Vec: Vec{F64: []float64{1, 2}}}
	dst := make([]float64, 40*40)
	err := spec.Gram(objs, dst, GramOptions{Workers: 2})
	var pe *PairError
	if !errors.As(err, &pe) {
		t.Fatalf("Gram with a short vector: got %v, want a *PairError", err)
	}
	if pe.Row != 17 && pe.Col != 17 {
		t.Errorf("PairError names objects %d and %d, want one of them to be 17", pe.Row, pe.Col)
	}
	if err := spec.Gram(objs[:3], dst[:8], GramOptions{}); err == nil {
		t.Error("Gram into a too small dst: no error")
	}
	if err := spec.Cross(objs[:3], objs[:3], dst[:8], GramOptions{}); err == nil {
		t.Error("Cross into a too small dst: no error")
	}
	str, _ := Parse("linear")
	if err := str.Gram(nil, nil, GramOptions{}); err != nil {
		t.Errorf("empty Gram: %v", err)
	}
}

func TestGramInterrupt(t *testing.T) {
	stop := errors.New("stop")
	spec, _ := Parse("gauss(sigma=1)")
	n := 400
	objs, _ := randomVecs(n, 8, false, 4)
	for _, workers := range []int{1, 2} {
		var calls atomic.Int64
		opt := GramOptions{Workers: workers, Interrupt: func() error {
			if calls.Add(1) > 20 {
				return stop
			}
			return nil
		}}
		if err := spec.Gram(objs, make([]float64, n*n), opt); !errors.Is(err, stop) {
			t.Errorf("workers=%d: Gram returned %v, want the interrupt's error", workers, err)
		}
		// Each poll covers pollCells values; stopping after ~20 polls means
		// far fewer than the n(n+1)/2 = 80,200 values were computed.
		if got := calls.Load(); got > 21+int64(workers) {
			t.Errorf("workers=%d: %d polls after the interrupt, want the workers to stop at once", workers, got)
		}
		calls.Store(0)
		if err := spec.Cross(objs, objs[:50], make([]float64, n*50), opt); !errors.Is(err, stop) {
			t.Errorf("workers=%d: Cross returned %v, want the interrupt's error", workers, err)
		}
	}
}

// BenchmarkGram2000x64: float64 vectors (as decoded from JSON) and float32
// BLOBs of the same values.
func BenchmarkGram2000x64(b *testing.B) {
	spec, _ := Parse("gauss(sigma=4)")
	for _, f32 := range []bool{false, true} {
		objs, _ := randomVecs(2000, 64, f32, 5)
		dst := make([]float64, 2000*2000)
		name := "f64"
		if f32 {
			name = "f32blob"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := spec.Gram(objs, dst, GramOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGramFloat32AsFloat64: a Gram matrix of float32 BLOBs is, to the bit,
// that of float64 vectors holding the same values (both take the same
// path), and within 1e-12 of the definition.
func TestGramFloat32AsFloat64(t *testing.T) {
	spec, _ := Parse("gauss(sigma=4)")
	blobs, plain := randomVecs(300, 20, true, 9)
	vecs := make([]Object, len(plain))
	for i, x := range plain {
		vecs[i] = Object{Vec: Vec{F64: x}}
	}
	n := len(plain)
	g32, g64 := make([]float64, n*n), make([]float64, n*n)
	if err := spec.Gram(blobs, g32, GramOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := spec.Gram(vecs, g64, GramOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			want := refGauss(4)(plain[i], plain[j])
			if g32[i*n+j] != g64[i*n+j] || math.Abs(g32[i*n+j]-want) > 1e-12 {
				t.Fatalf("(%d, %d): BLOBs %v, float64 %v, definition %v", i, j, g32[i*n+j], g64[i*n+j], want)
			}
		}
	}
}

func BenchmarkCrossRow10000x64(b *testing.B) {
	spec, _ := Parse("gauss(sigma=4)")
	objs, _ := randomVecs(10000, 64, true, 6)
	dst := make([]float64, 10000)
	b.ReportAllocs()
	for b.Loop() {
		if err := spec.Cross(objs, objs[:1], dst, GramOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGramGaussNearPoints: points far from the origin and close together,
// where ‖x‖² + ‖y‖² − 2⟨x,y⟩ would cancel to noise, still get their
// kernel values from the definition.
func TestGramGaussNearPoints(t *testing.T) {
	spec, _ := Parse("gauss(sigma=0.001)")
	base := []float64{1e4, -2e4, 3e4}
	var objs []Object
	var plain [][]float64
	for i := 0; i < 20; i++ {
		x := []float64{base[0] + float64(i)*1e-4, base[1] - float64(i%3)*2e-4, base[2]}
		objs = append(objs, Object{Vec: Vec{F64: x}})
		plain = append(plain, x)
	}
	n := len(objs)
	dst := make([]float64, n*n)
	if err := spec.Gram(objs, dst, GramOptions{}); err != nil {
		t.Fatal(err)
	}
	ref := refGauss(0.001)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if want := ref(plain[i], plain[j]); !closeRel(dst[i*n+j], want, 1e-9) {
				t.Fatalf("K(%d,%d) = %v, want %v", i, j, dst[i*n+j], want)
			}
		}
	}
}

// TestGramBitsIndependentOfWorkers: gauss Gram values (matrix–vector
// products in blocks, then exponentials) are the same bits on any number
// of workers, whose runs of cells between interrupt checks start at
// different columns, for dimensions that are and are not multiples of 4.
func TestGramBitsIndependentOfWorkers(t *testing.T) {
	spec, _ := Parse("gauss(sigma=3)")
	for _, d := range []int{5, 64, 67} {
		objs, _ := randomVecs(700, d, false, uint64(d))
		n := len(objs)
		ref := make([]float64, n*n)
		if err := spec.Gram(objs, ref, GramOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 3, 5} {
			got := make([]float64, n*n)
			if err := spec.Gram(objs, got, GramOptions{Workers: w}); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					if got[i*n+j] != ref[i*n+j] {
						t.Fatalf("d=%d workers=%d: K(%d,%d) = %v, one worker gave %v", d, w, i, j, got[i*n+j], ref[i*n+j])
					}
				}
			}
		}
	}
}
