package kernels

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigExp is e^x to about 240 bits: the Taylor series of e^(x/2¹²), squared
// twelve times.
func bigExp(x float64) *big.Float {
	const prec = 300
	y := new(big.Float).SetPrec(prec).SetFloat64(x)
	y.SetMantExp(y, -12)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	for i := 0; i < 12; i++ {
		sum.Mul(sum, sum)
	}
	return sum
}

// ulpErr is |got − e^x| in units of the last place of e^x as a float64.
func ulpErr(got, x float64) float64 {
	ref := bigExp(x)
	near, _ := ref.Float64()
	ulp := math.Nextafter(near, math.Inf(1)) - near
	d := new(big.Float).SetPrec(300).Sub(new(big.Float).SetFloat64(got), ref)
	e, _ := d.Abs(d).Float64()
	return e / ulp
}

// TestExpRowULP: fastExp and expRow are within 0.51 ulp of e^x (checked
// against 240-bit references) on the range of the fast path, at the
// boundaries of its table intervals, and agree with math.Exp outside it.
func TestExpRowULP(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var xs []float64
	for i := 0; i < 1500; i++ {
		xs = append(xs, -708*rng.Float64(), -rng.Float64(), 708*rng.Float64())
	}
	for m := -130000; m <= 130000; m += 997 { // table interval boundaries, both sides
		b := float64(m) * math.Ln2 / 128
		xs = append(xs, b, math.Nextafter(b, 0), b+math.Ln2/256, b-math.Ln2/256)
	}
	xs = append(xs, 0, math.Copysign(0, -1), -1e-300, 1e-300, -708, 708, -0x1p-30)
	worst, at := 0.0, 0.0
	row := append([]float64(nil), xs...)
	for i := range row {
		row[i] = -row[i] // expRow takes d2 and s2: e^(−d2/1)
	}
	expRow(row, 1)
	for i, x := range xs {
		got := fastExp(x)
		if row[i] != got {
			t.Fatalf("expRow and fastExp differ at x = %v: %v, %v", x, row[i], got)
		}
		if e := ulpErr(got, x); e > worst {
			worst, at = e, x
		}
	}
	t.Logf("largest error %.4f ulp at x = %v", worst, at)
	if worst > 0.51 {
		t.Errorf("fastExp(%v) is off by %.4f ulp", at, worst)
	}
	for _, x := range []float64{-708.1, -745, -746, -1e300, 708.5, 709.7, 710, math.Inf(-1), math.Inf(1), math.NaN()} {
		if got, want := fastExp(x), math.Exp(x); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("fastExp(%v) = %v, math.Exp has %v", x, got, want)
		}
	}
}

func BenchmarkExpRow(b *testing.B) {
	row, d2 := make([]float64, 256), make([]float64, 256)
	for i := range d2 {
		d2[i] = float64(i) * 5
	}
	b.Run("expRow", func(b *testing.B) {
		for b.Loop() {
			copy(row, d2)
			expRow(row, 64)
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range d2 {
				row[i] = math.Exp(-v / 64)
			}
		}
	})
}
