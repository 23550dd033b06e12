package svm

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ksql/ksql/internal/rng"
)

// linearData is n rows of d features from integer formulas, classes by a
// noisy rule so that some rows are margin errors.
func linearData(n, d, classes int) ([]float64, []int) {
	X := make([]float64, n*d)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < d; j++ {
			v := float64((i*(7+3*j)+j*j*11)%23)/7 - 1.5
			X[i*d+j] = v
			s += v * float64(j+1)
		}
		y[i] = (int(math.Floor(s*0.8))%classes + classes + i%2) % classes
	}
	return X, y
}

// bruteDual minimises ½αᵀQα − eᵀα over the box [0, C]ⁿ by trying every
// assignment of each α_i to 0, C or free (free ones solve their rows of
// Qα = e) and keeping the best feasible one: independent of coordinate
// descent, exact for tiny n.
func bruteDual(X []float64, d int, sign []float64, c float64) float64 {
	n := len(sign)
	Q := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			k := 1.0
			for t := 0; t < d; t++ {
				k += X[i*d+t] * X[j*d+t]
			}
			Q[i*n+j] = sign[i] * sign[j] * k
		}
	}
	obj := func(a []float64) float64 {
		v := 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v += a[i] * Q[i*n+j] * a[j] / 2
			}
			v -= a[i]
		}
		return v
	}
	best := math.Inf(1)
	state := make([]int, n) // 0: at 0, 1: at C, 2: free
	a := make([]float64, n)
	for code := 0; code < int(math.Pow(3, float64(n))); code++ {
		for i, r := 0, code; i < n; i, r = i+1, r/3 {
			state[i] = r % 3
		}
		var free []int
		for i := range a {
			a[i] = 0
			if state[i] == 1 {
				a[i] = c
			}
			if state[i] == 2 {
				free = append(free, i)
			}
		}
		if len(free) > 0 {
			A := mat.NewDense(len(free), len(free), nil)
			b := mat.NewVecDense(len(free), nil)
			for u, i := range free {
				rhs := 1.0
				for j := 0; j < n; j++ {
					if state[j] == 1 {
						rhs -= Q[i*n+j] * c
					}
				}
				b.SetVec(u, rhs)
				for v, j := range free {
					A.Set(u, v, Q[i*n+j])
				}
			}
			var sol mat.VecDense
			if sol.SolveVec(A, b) != nil {
				continue
			}
			ok := true
			for u, i := range free {
				a[i] = sol.AtVec(u)
				ok = ok && a[i] >= -1e-12 && a[i] <= c+1e-12
			}
			if !ok {
				continue
			}
		}
		best = math.Min(best, obj(a))
	}
	return -best
}

// TestFitLinearAgainstBruteForce: on tiny problems the dual objective of
// coordinate descent at a tight tolerance equals the exhaustive QP's, and
// the primal objective meets it (no duality gap at the optimum).
func TestFitLinearAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, d    int
		c       float64
		classes int
	}{
		{"two classes C=1", 7, 2, 1, 2},
		{"two classes C=0.1", 8, 3, 0.1, 2},
		{"two classes C=10", 6, 1, 10, 2},
		{"three classes, class 2 vs rest", 8, 2, 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			X, y := linearData(tc.n, tc.d, tc.classes)
			m, err := FitLinear(X, tc.d, nil, y, tc.classes, LinearOptions{C: tc.c, Tol: 1e-10, MaxIter: 100000, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for p := 0; p < m.Problems(); p++ {
				pos := p
				if tc.classes == 2 {
					pos = 1
				}
				sign := make([]float64, tc.n)
				for i, c := range y {
					sign[i] = -1
					if c == pos {
						sign[i] = 1
					}
				}
				want := bruteDual(X, tc.d, sign, tc.c)
				if !m.Converged[p] || math.Abs(m.Dual[p]-want) > 1e-8*math.Max(1, math.Abs(want)) {
					t.Errorf("problem %d: dual %.12g (converged %v), brute force %.12g", p, m.Dual[p], m.Converged[p], want)
				}
				if math.Abs(m.Primal[p]-want) > 1e-6*math.Max(1, math.Abs(want)) {
					t.Errorf("problem %d: primal %.12g, dual optimum %.12g", p, m.Primal[p], want)
				}
			}
		})
	}
}

// TestFitLinearKKT: at the tolerance asked, every row meets the
// optimality conditions of its α within it: α = 0 → y·f ≥ 1 − tol,
// α = C → y·f ≤ 1 + tol, between → |y·f − 1| ≤ tol; w = Σ α_i y_i (x_i, 1).
func TestFitLinearKKT(t *testing.T) {
	X, y := linearData(300, 5, 2)
	const tol, c = 1e-6, 0.5
	rows := make([]int, 300)
	for i := range rows {
		rows[i] = i
	}
	s := linearSolver[float64]{X: X, dim: 5, n: len(rows), rows: rows, y: y, positive: 1, c: c, tol: tol, maxIter: 100000,
		rng: rng.New(1), poll: func() error { return nil }, w: make([]float64, 6), qd: linearDiagonal(X, 5, rows, make([]float64, len(rows)))}
	if err := s.solve(); err != nil || !s.converged {
		t.Fatalf("solve: %v, converged %v", err, s.converged)
	}
	w := make([]float64, 6)
	for t_, a := range s.alpha {
		x := s.row(t_)
		for j, v := range x {
			w[j] += a * float64(s.sign[t_]) * v
		}
		w[5] += a * float64(s.sign[t_])
	}
	for j := range w {
		if math.Abs(w[j]-s.w[j]) > 1e-9 {
			t.Fatalf("w[%d] = %g, Σ α y x = %g", j, s.w[j], w[j])
		}
	}
	bounded, free := 0, 0
	for t_, a := range s.alpha {
		m := float64(s.sign[t_]) * s.dot(s.row(t_))
		switch {
		case a == 0 && m < 1-tol:
			t.Fatalf("row %d: α = 0 but y·f = %g", t_, m)
		case a == c && m > 1+tol:
			t.Fatalf("row %d: α = C but y·f = %g", t_, m)
		case a > 0 && a < c && math.Abs(m-1) > tol:
			t.Fatalf("row %d: 0 < α < C but y·f = %g", t_, m)
		case a == c:
			bounded++
		case a > 0:
			free++
		}
	}
	if bounded == 0 || free == 0 {
		t.Fatalf("the data should have bounded (%d) and free (%d) support vectors", bounded, free)
	}
}

// TestFitLinearOneVsRest: with three classes each problem is the binary
// fit of its class against the rest (with that problem's generator), the
// prediction is the argmax, and the result is the same bits for any
// number of workers, and the same to rounding for float32 features
// holding the same values.
func TestFitLinearOneVsRest(t *testing.T) {
	X, y := linearData(200, 4, 3)
	for i := range X { // three separated clusters, values exact in float32
		X[i] = float64(float32(X[i]/4 + 3*b2f(i%4 == y[i/4])))
	}
	opt := LinearOptions{C: 1, Tol: 1e-4, MaxIter: 1000, Seed: 11, Workers: 1}
	m1, err := FitLinear(X, 4, nil, y, 3, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Workers = 3
	m3, err := FitLinear(X, 4, nil, y, 3, opt)
	if err != nil {
		t.Fatal(err)
	}
	X32 := make([]float32, len(X))
	for i, v := range X {
		X32[i] = float32(v)
	}
	m32, err := FitLinear(X32, 4, nil, y, 3, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m1.W { // float32 rows sum in another order: the same to rounding
		if m1.W[i] != m3.W[i] || math.Abs(m1.W[i]-m32.W[i]) > 1e-9*math.Max(1, math.Abs(m1.W[i])) {
			t.Fatalf("W[%d]: %v with one worker, %v with three, %v from float32", i, m1.W[i], m3.W[i], m32.W[i])
		}
	}
	dec := make([]float64, 3)
	right := 0
	for i := 0; i < 200; i++ {
		if err := m1.Decision(X[i*4:(i+1)*4], dec); err != nil {
			t.Fatal(err)
		}
		c := m1.Vote(dec)
		if dec[c] < dec[0] || dec[c] < dec[1] || dec[c] < dec[2] {
			t.Fatalf("row %d: vote %d is not the argmax of %v", i, c, dec)
		}
		if c == y[i] {
			right++
		}
	}
	if right < 196 { // the clusters are apart
		t.Fatalf("training accuracy %d/200", right)
	}
	// Another seed permutes differently: the path changes, the optimum not.
	opt.Seed = 12
	other, err := FitLinear(X, 4, nil, y, 3, opt)
	if err != nil {
		t.Fatal(err)
	}
	for p := 0; p < 3; p++ {
		if math.Abs(other.Dual[p]-m1.Dual[p]) > 1e-2*math.Abs(m1.Dual[p]) {
			t.Fatalf("problem %d: dual %g with seed 11, %g with seed 12", p, m1.Dual[p], other.Dual[p])
		}
	}
}

// TestFitLinearRowsSubset: a fit on a subset of the rows (a fold) is the
// fit on those rows copied out.
func TestFitLinearRowsSubset(t *testing.T) {
	X, y := linearData(120, 3, 2)
	var rows, ys []int
	var sub []float64
	for i := 0; i < 120; i += 3 {
		rows = append(rows, i, i+1)
		sub = append(sub, X[i*3:(i+2)*3]...)
		ys = append(ys, y[i], y[i+1])
	}
	opt := LinearOptions{C: 2, Tol: 1e-5, MaxIter: 1000, Seed: 1}
	a, err := FitLinear(X, 3, rows, y, 2, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitLinear(sub, 3, nil, ys, 2, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.W {
		if a.W[i] != b.W[i] {
			t.Fatalf("W[%d] %v on the rows, %v on the copy", i, a.W[i], b.W[i])
		}
	}
}

// TestFitLinearErrors: bad arguments are typed errors.
func TestFitLinearErrors(t *testing.T) {
	X, y := linearData(10, 2, 2)
	good := LinearOptions{C: 1, Tol: 1e-4, MaxIter: 10}
	var pe *ParamError
	var le *LengthError
	var ce *ClassCountError
	var lab *LabelError
	stop := errors.New("stop")
	for _, tc := range []struct {
		name string
		run  func() error
		ok   func(error) bool
	}{
		{"C=0", func() error { o := good; o.C = 0; _, err := FitLinear(X, 2, nil, y, 2, o); return err }, func(e error) bool { return errors.As(e, &pe) && pe.Name == "C" }},
		{"tol NaN", func() error { o := good; o.Tol = math.NaN(); _, err := FitLinear(X, 2, nil, y, 2, o); return err }, func(e error) bool { return errors.As(e, &pe) && pe.Name == "Tol" }},
		{"max_iter 0", func() error { o := good; o.MaxIter = 0; _, err := FitLinear(X, 2, nil, y, 2, o); return err }, func(e error) bool { return errors.As(e, &pe) && pe.Name == "MaxIter" }},
		{"short X", func() error { _, err := FitLinear(X[:5], 2, nil, y, 2, good); return err }, func(e error) bool { return errors.As(e, &le) }},
		{"row out of range", func() error { _, err := FitLinear(X, 2, []int{0, 10}, y, 2, good); return err }, func(e error) bool { return errors.As(e, &le) }},
		{"one class", func() error { _, err := FitLinear(X, 2, nil, y, 1, good); return err }, func(e error) bool { return errors.As(e, &ce) }},
		{"label 2 of 2", func() error {
			yy := append([]int(nil), y...)
			yy[3] = 2
			_, err := FitLinear(X, 2, nil, yy, 2, good)
			return err
		}, func(e error) bool { return errors.As(e, &pe) && pe.Name == "y" && pe.Index == 3 }},
		{"label −1", func() error {
			yy := append([]int(nil), y...)
			yy[4] = -1
			_, err := FitLinear(X, 2, nil, yy, 2, good)
			return err
		}, func(e error) bool { return errors.As(e, &lab) && lab.Row == 4 }},
		{"interrupt", func() error {
			o := good
			o.Interrupt = func() error { return stop }
			_, err := FitLinear(X, 2, nil, y, 2, o)
			return err
		}, func(e error) bool { return errors.Is(e, stop) }},
	} {
		if err := tc.run(); !tc.ok(err) {
			t.Errorf("%s: got %v", tc.name, err)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestNystromMap: the landmarks' own features reproduce W (Φ_LΦ_Lᵀ = W
// when W has full rank), float32 features are the float64 ones rounded,
// and NystromFeature agrees with the block form.
func TestNystromMap(t *testing.T) {
	const m, d = 6, 2
	pts, _ := linearData(m, d, 2)
	W := make([]float64, m*m)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			s := 0.0
			for j := 0; j < d; j++ {
				s += (pts[a*d+j] - pts[b*d+j]) * (pts[a*d+j] - pts[b*d+j])
			}
			W[a*m+b] = math.Exp(-s / 2)
		}
	}
	M, r, minEig, err := NystromMap(append([]float64(nil), W...), m, nil)
	if err != nil || r != m || minEig <= 0 {
		t.Fatalf("r %d, min eigenvalue %g, %v", r, minEig, err)
	}
	X := make([]float64, m*r)
	X32 := make([]float32, m*r)
	P := make([]float64, m*r)
	if err := NystromRows(W, m, m, M, r, P, X); err != nil {
		t.Fatal(err)
	}
	if err := NystromRows(W, m, m, M, r, P, X32); err != nil {
		t.Fatal(err)
	}
	bad := append([]float64(nil), W...)
	bad[3*m+4] = math.NaN()
	var kv *KernelValueError
	if err := NystromRows(bad, m, m, M, r, P, X); !errors.As(err, &kv) || kv.Row != 3 || kv.Col != 4 {
		t.Errorf("a NaN kernel value at (3, 4): %v", err)
	}
	phi := make([]float64, r)
	for a := 0; a < m; a++ {
		NystromFeature(W[a*m:(a+1)*m], M, r, phi)
		for j := 0; j < r; j++ {
			if phi[j] != X[a*r+j] && math.Abs(phi[j]-X[a*r+j]) > 1e-12 || X32[a*r+j] != float32(X[a*r+j]) {
				t.Fatalf("feature %d of %d: %v one at a time, %v in a block, %v as float32", j, a, phi[j], X[a*r+j], X32[a*r+j])
			}
		}
		for b := 0; b < m; b++ {
			s := 0.0
			for j := 0; j < r; j++ {
				s += X[a*r+j] * X[b*r+j]
			}
			if math.Abs(s-W[a*m+b]) > 1e-9 {
				t.Fatalf("φ_%d·φ_%d = %g, W = %g", a, b, s, W[a*m+b])
			}
		}
	}
	// A rank-one W keeps one feature; a NaN kernel value is named.
	one := []float64{1, 1, 1, 1}
	if _, r, _, err := NystromMap(one, 2, nil); err != nil || r != 1 {
		t.Fatalf("rank-one W: r %d, %v", r, err)
	}
	if _, _, _, err := NystromMap([]float64{1, math.NaN(), math.NaN(), 1}, 2, nil); !errors.As(err, &kv) || kv.Row != 0 || kv.Col != 1 {
		t.Fatalf("NaN in W: %v", err)
	}
}
