package fda

import (
	"math"
	"runtime"
	"testing"
)

// TestFitWorkers: the fit's directions, eigenvalues, projections and
// class means are bit-identical with one worker and with several.
func TestFitWorkers(t *testing.T) {
	K, y := classData(700, 4, 9)
	var ref *Model
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		m, err := FitPolled(K, y, 4, 3, 1e-3, nil)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = m
			continue
		}
		for name, pair := range map[string][2][]float64{"alpha": {m.Alpha, ref.Alpha}, "eigenvalues": {m.Eigenvalues, ref.Eigenvalues}, "projections": {m.Proj, ref.Proj}, "means": {m.Means, ref.Means}} {
			for i := range pair[0] {
				if math.Float64bits(pair[0][i]) != math.Float64bits(pair[1][i]) {
					t.Fatalf("%d workers: %s[%d] = %v, one worker %v", procs, name, i, pair[0][i], pair[1][i])
				}
			}
		}
	}
}
