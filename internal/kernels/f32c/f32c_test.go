//go:build cgo

package f32c

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ksql/ksql/internal/kernels"
)

func blob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// TestTwinsGiveGoBits: on random vectors of every length to 70 and scales
// from 1e-30 to 1e30, with σ from tiny to huge, each twin either declines
// or gives exactly the Go kernel's bits, through the AVX2 loops and the Go
// ones; and it does answer the ordinary calls (a twin that always
// declined would pass the first check).
func TestTwinsGiveGoBits(t *testing.T) {
	if !Enabled() {
		t.Skip("the C twins are off in this build")
	}
	defer func(was bool) { kernels.SetAVX2(was); Load() }(kernels.SetAVX2(true))
	r := rand.New(rand.NewPCG(3, 4))
	for _, avx2 := range []bool{false, true} {
		kernels.SetAVX2(avx2)
		Load()
		answered, declined := 0, 0
		check := func(name string, got float64, ok bool, want float64) {
			if !ok {
				declined++
				return
			}
			answered++
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("avx2=%v %s: C %v (%#x), Go %v (%#x)", avx2, name, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
		for n := 1; n <= 70; n++ {
			for _, scale := range []float64{1e-30, 1e-3, 1, 10, 1e3, 1e30} {
				x, z := make([]float32, n), make([]float32, n)
				for i := range x {
					x[i], z[i] = float32(r.NormFloat64()*scale), float32(r.NormFloat64()*scale)
				}
				bx, bz := blob(x), blob(z)
				vx, vz := kernels.Vec{F32: bx}, kernels.Vec{F32: bz}
				for _, sigma := range []float64{1e-300, 0.3, 1, 7.5, 1e5, 1e300} {
					v, ok := Gauss(bx, bz, sigma)
					check("gauss", v, ok, kernels.GaussAt(vx, vz, kernels.SqDist(vx, vz), sigma))
					v, ok = Laplace(bx, bz, sigma)
					check("laplace", v, ok, kernels.LaplaceAt(vx, vz, kernels.L1Dist(vx, vz), sigma))
				}
				v, ok := Linear(bx, bz)
				check("linear", v, ok, kernels.LinearAt(vx, vz, kernels.Dot(vx, vz)))
				for _, deg := range []int{1, 2, 3, 7, 1000} {
					for _, rr := range []float64{0, 1, 2.5} {
						v, ok := Poly(bx, bz, deg, rr)
						check("poly", v, ok, kernels.PolyAt(vx, vz, kernels.Dot(vx, vz), deg, rr))
					}
				}
			}
		}
		if answered < declined {
			t.Errorf("avx2=%v: the twins answered %d calls and declined %d", avx2, answered, declined)
		}
	}
}

// TestTwinsDecline: where Go computes in scaled form, calls math.Exp or
// reports an error, the twins leave the call to Go. (Products of float32
// values cannot overflow a float64 sum of 2^31 terms, so the scaled forms
// come only from σ and from sums that cancel.)
func TestTwinsDecline(t *testing.T) {
	if !Enabled() {
		t.Skip("the C twins are off in this build")
	}
	one, orth := blob([]float32{1, 2}), blob([]float32{2, -1})
	nan := blob([]float32{float32(math.NaN()), 0})
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"gauss far apart (e^x below e^-708)", second(Gauss(one, blob([]float32{100, 100}), 1))},
		{"gauss σ² past 2^1000", second(Gauss(one, one, 1e301))},
		{"gauss NaN element", second(Gauss(nan, one, 1))},
		{"laplace σ below 2^-1000", second(Laplace(one, one, 1e-302))},
		{"linear dot 0 (scaled form)", second(Linear(one, orth))},
		{"poly dot 0 (scaled form)", second(Poly(one, orth, 3, 1))},
		{"poly dot NaN", second(Poly(nan, one, 2, 1))},
	} {
		if c.ok {
			t.Errorf("%s: the twin answered", c.name)
		}
	}
}

func second(_ float64, ok bool) bool { return ok }
