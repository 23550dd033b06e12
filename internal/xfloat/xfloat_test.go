package xfloat

import (
	"math"
	"math/big"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, x := range []float64{0, 1, -1, 3.5, 1e-300, 1e300, -7.25e10, math.SmallestNonzeroFloat64} {
		if got := New(x).Float64(); got != x {
			t.Errorf("New(%g).Float64() = %g", x, got)
		}
	}
}

// TestLargeAgainstBig checks arithmetic far beyond float64's range against
// math/big.Float.
func TestLargeAgainstBig(t *testing.T) {
	a := Make(0.75, 5000) // 0.75·2^5000
	b := Make(-0.6, 4990)
	ba := new(big.Float).SetMantExp(big.NewFloat(0.75), 5000)
	bb := new(big.Float).SetMantExp(big.NewFloat(-0.6), 4990)
	check := func(name string, got F, want *big.Float) {
		t.Helper()
		wm := new(big.Float)
		we := want.MantExp(wm)
		wf, _ := wm.Float64()
		// compare got against want as mantissa/exponent pairs
		g := Make(got.M, got.E-int64(we))
		if math.Abs(g.Float64()-wf) > 1e-15*math.Abs(wf) {
			t.Errorf("%s: got %v·2^%d, want %v·2^%d", name, got.M, got.E, wf, we)
		}
	}
	check("add", Add(a, b), new(big.Float).Add(ba, bb))
	check("sub", Sub(a, b), new(big.Float).Sub(ba, bb))
	check("mul", Mul(a, b), new(big.Float).Mul(ba, bb))
	check("div", Div(a, b), new(big.Float).Quo(ba, bb))
	check("sqrt", Sqrt(a), new(big.Float).Sqrt(ba))
	check("pow", Pow(Make(0.9, 3), 7), new(big.Float).SetFloat64(math.Pow(7.2, 7)))
	if !math.IsInf(a.Float64(), 1) {
		t.Errorf("huge value should convert to +Inf")
	}
	if got := Div(a, Make(0.75, 4999)).Float64(); got != 2 {
		t.Errorf("ratio of huge values = %g, want 2", got)
	}
	if got := a.Log(); math.Abs(got-(math.Log(0.75)+5000*math.Ln2)) > 1e-12 {
		t.Errorf("Log = %g", got)
	}
}
