package krr

import (
	"errors"
	"math"
	"testing"

	"github.com/ksql/ksql/internal/nystrom"
)

// TestStreamedSumsEqualInMemory: the predictions of β from the sums of the kernel values
// taken in blocks of uneven sizes (FinishNystrom) is FitNystromWPolled's
// on the whole n×m matrix, to rounding; a non-finite value in a block is
// named by its object's index.
func TestStreamedSumsEqualInMemory(t *testing.T) {
	const n, m = 700, 12
	C, y := make([]float64, n*m), make([]float64, n)
	for i := range n {
		x := float64(i%37) / 7
		for l := range m {
			d := x - float64(l)/2
			C[i*m+l] = math.Exp(-d * d / 4)
		}
		y[i] = math.Sin(x) + float64(i%3)
	}
	W := make([]float64, m*m)
	for a := range m {
		for b := range m {
			d := float64(a-b) / 2
			W[a*m+b] = math.Exp(-d * d / 4)
		}
	}
	want, err := FitNystromWPolled(append([]float64(nil), C...), W, y, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	sums, part := NystromSums(m), NystromSums(m)
	for lo := 0; lo < n; {
		hi := min(n, lo+1+lo%97)
		block := append([]float64(nil), C[lo*m:hi*m]...)
		if err := part.Block(block, hi-lo, y[lo:hi], nil); err != nil {
			t.Fatal(err)
		}
		sums.Add(part)
		lo = hi
	}
	got, err := FinishNystrom(sums, W, nil, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	// β is ill-determined where W is nearly singular (landmarks on a
	// line); the predictions C·β are what both must agree on.
	for i := 0; i < n; i += 7 {
		g, w := Predict(got, C[i*m:(i+1)*m]), Predict(want, C[i*m:(i+1)*m])
		if math.Abs(g-w) > 1e-7 {
			t.Errorf("prediction %d: streamed %.15g, in memory %.15g", i, g, w)
		}
	}
	bad := append([]float64(nil), C[:5*m]...)
	bad[3*m+2] = math.Inf(1)
	err = BlockError(NystromSums(m).Block(bad, 5, y[:5], nil), 100)
	var nf *NonFiniteError
	if !errors.As(err, &nf) || nf.Row != 103 || nf.What != "kernel" {
		t.Errorf("non-finite value at row 3 of a block from 100: %v", err)
	}
	var ns *nystrom.NonFiniteError
	if errors.As(err, &ns) {
		t.Errorf("the block's own error leaked: %v", err)
	}
}
