package svm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomProblem draws n points in dim dimensions with labels from a noisy
// nonlinear rule (so that the fit has bounded, free and zero α).
func randomProblem(seed uint64, n, dim int) ([][]float64, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range x {
		x[i] = make([]float64, dim)
		r := 0.0
		for j := range x[i] {
			x[i][j] = rng.NormFloat64()
			r += x[i][j] * x[i][j]
		}
		if r+0.7*rng.NormFloat64() > float64(dim) {
			y[i] = 1
		}
	}
	return x, y
}

// plainGauss is K(a, b) computed directly, not through the solver's path.
func plainGauss(a, b []float64, sigma float64) float64 {
	var d float64
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Exp(-d / (2 * sigma * sigma))
}

// binaryAlphas returns, for a two-class model, α_i ≥ 0 and y_i = ±1
// (+1 for class 1, the sign of the decision) of every training row.
func binaryAlphas(m *Model, y []int) ([]float64, []float64) {
	alpha := make([]float64, len(y))
	sign := make([]float64, len(y))
	for i, c := range y {
		sign[i] = float64(2*c - 1)
	}
	for s, r := range m.Support {
		alpha[r] = m.DualCoef[0][s] * sign[r]
	}
	return alpha, sign
}

// TestKKTBruteForce checks the optimality conditions of a fit directly,
// with kernel values computed independently in float64: feasibility,
// yᵀα = 0, and y_i·f(x_i) ≥ 1 at α = 0, = 1 when free, ≤ 1 at α = C,
// within tol plus the bound of the float32 column rounding.
func TestKKTBruteForce(t *testing.T) {
	const sigma, tol = 1.2, 1e-7
	for _, tc := range []struct {
		name   string
		seed   uint64
		C      float64
		weight []float64
	}{
		{"plain", 1, 2, nil},
		{"weighted", 2, 1.5, []float64{1, 3}},
		{"large C", 3, 50, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := randomProblem(tc.seed, 80, 3)
			m, err := Fit(newGauss(x, sigma), y, Options{C: tc.C, Tol: tol, ClassWeight: tc.weight})
			if err != nil {
				t.Fatal(err)
			}
			alpha, sign := binaryAlphas(m, y)
			bound := func(i int) float64 {
				if tc.weight == nil {
					return tc.C
				}
				return tc.C * tc.weight[y[i]]
			}
			var sumYA, sumA float64
			for i := range alpha {
				sumYA += sign[i] * alpha[i]
				sumA += alpha[i]
				if alpha[i] < 0 || alpha[i] > bound(i) {
					t.Fatalf("α_%d = %g outside [0, %g]", i, alpha[i], bound(i))
				}
			}
			if math.Abs(sumYA) > 1e-12*sumA {
				t.Errorf("yᵀα = %g", sumYA)
			}
			eps := 2*tol + 0x1p-23*sumA // float32 Q: |ΔQ_ij| ≤ 2⁻²⁴·|K_ij| ≤ 2⁻²⁴
			counts, worst := [3]int{}, 0.0
			for i := range x {
				f := m.Intercept[0]
				for j := range x {
					f += sign[j] * alpha[j] * plainGauss(x[i], x[j], sigma)
				}
				yf := sign[i] * f
				switch {
				case alpha[i] == 0:
					worst = max(worst, 1-yf)
				case alpha[i] == bound(i):
					worst = max(worst, yf-1)
				default:
					worst = max(worst, math.Abs(yf-1))
				}
				switch {
				case alpha[i] == 0:
					counts[0]++
					if yf < 1-eps {
						t.Errorf("row %d: α = 0 but y·f = %.9f < 1", i, yf)
					}
				case alpha[i] == bound(i):
					counts[2]++
					if yf > 1+eps {
						t.Errorf("row %d: α = C but y·f = %.9f > 1", i, yf)
					}
				default:
					counts[1]++
					if math.Abs(yf-1) > eps {
						t.Errorf("row %d: α free but y·f = %.9f ≠ 1", i, yf)
					}
				}
			}
			t.Logf("α = 0: %d, free: %d, α = C: %d; worst violation %.2g (allowed %.2g)", counts[0], counts[1], counts[2], worst, eps)
			if counts[0] == 0 || counts[1] == 0 || counts[2] == 0 {
				t.Errorf("the problem should exercise all three cases, got %v", counts)
			}
		})
	}
}

// TestExactSmallQP solves tiny problems by enumerating every assignment of
// the variables to {0, free, C} (3ⁿ linear systems), keeping the feasible
// KKT point of least objective, and compares the solver's α, intercept and
// objective with it.
func TestExactSmallQP(t *testing.T) {
	const n, sigma = 8, 1.0
	for seed := uint64(10); seed < 16; seed++ {
		x, y := randomProblem(seed, n, 2)
		if y[0] == y[1] { // make sure both classes are present
			y[0] = 1 - y[1]
		}
		C := 0.5 + float64(seed%3)
		weight := []float64{1, 1 + float64(seed%2)}
		k := newGauss(x, sigma)
		m, err := Fit(k, y, Options{C: C, Tol: 1e-10, ClassWeight: weight})
		if err != nil {
			t.Fatal(err)
		}
		alpha, sign := binaryAlphas(m, y)
		cb := make([]float64, n)
		for i := range cb {
			cb[i] = C * weight[y[i]]
		}
		q := make([][]float64, n)
		for i := range q {
			q[i] = make([]float64, n)
			for j := range q[i] {
				q[i][j] = sign[i] * sign[j] * plainGauss(x[i], x[j], sigma)
			}
		}
		best, bestObj, bestB := enumerateQP(q, sign, cb)
		if best == nil {
			t.Fatalf("seed %d: enumeration found no KKT point", seed)
		}
		t.Logf("seed %d: α = %.4f, objective %.6f", seed, best, bestObj)
		for i := range alpha {
			if math.Abs(alpha[i]-best[i]) > 1e-6*cb[i] {
				t.Errorf("seed %d: α_%d = %.9g, enumeration %.9g", seed, i, alpha[i], best[i])
			}
		}
		if obj := m.Pairs[0].Objective; math.Abs(obj-bestObj) > 1e-7*math.Abs(bestObj) {
			t.Errorf("seed %d: objective %.12g, enumeration %.12g", seed, obj, bestObj)
		}
		if !math.IsNaN(bestB) && math.Abs(m.Intercept[0]-bestB) > 1e-5 {
			t.Errorf("seed %d: intercept %.9g, enumeration %.9g", seed, m.Intercept[0], bestB)
		}
	}
}

// enumerateQP returns the α of least objective ½αᵀQα − Σα among the KKT
// points of the C-SVC dual, its objective, and the intercept b (NaN when
// no variable is free and b is not unique).
func enumerateQP(q [][]float64, y, c []float64) ([]float64, float64, float64) {
	n := len(y)
	var best []float64
	bestObj, bestB := math.Inf(1), math.NaN()
	status := make([]int, n) // 0: α = 0, 1: free, 2: α = C
	for code := 0; code < pow3(n); code++ {
		v := code
		var freeIdx []int
		alpha := make([]float64, n)
		for i := range status {
			status[i] = v % 3
			v /= 3
			switch status[i] {
			case 1:
				freeIdx = append(freeIdx, i)
			case 2:
				alpha[i] = c[i]
			}
		}
		b, ok := solveFree(q, y, c, alpha, freeIdx)
		if !ok {
			continue
		}
		if !kktHolds(q, y, alpha, status, b, len(freeIdx) > 0) {
			continue
		}
		obj := 0.0
		for i := range alpha {
			for j := range alpha {
				obj += 0.5 * alpha[i] * q[i][j] * alpha[j]
			}
			obj -= alpha[i]
		}
		if obj < bestObj {
			best, bestObj, bestB = alpha, obj, b
			if len(freeIdx) == 0 {
				bestB = math.NaN()
			}
		}
	}
	return best, bestObj, bestB
}

func pow3(n int) int {
	p := 1
	for ; n > 0; n-- {
		p *= 3
	}
	return p
}

// solveFree sets α of the free variables from Q_FF α_F + y_F b = 1 − Q_F,rest α_rest
// and y_Fᵀα_F = −y_restᵀα_rest; it reports whether they are strictly inside
// (0, C). With no free variable it only checks yᵀα = 0 and returns b = NaN.
func solveFree(q [][]float64, y, c, alpha []float64, freeIdx []int) (float64, bool) {
	m := len(freeIdx)
	if m == 0 {
		s := 0.0
		for i := range alpha {
			s += y[i] * alpha[i]
		}
		return math.NaN(), math.Abs(s) < 1e-12
	}
	a := make([][]float64, m+1)
	for r := range a {
		a[r] = make([]float64, m+2)
	}
	isFree := make([]bool, len(y))
	for _, i := range freeIdx {
		isFree[i] = true
	}
	for r, i := range freeIdx {
		rhs := 1.0
		for j := range alpha {
			if !isFree[j] {
				rhs -= q[i][j] * alpha[j]
			}
		}
		for s, j := range freeIdx {
			a[r][s] = q[i][j]
		}
		a[r][m] = y[i]
		a[r][m+1] = rhs
	}
	rhs := 0.0
	for j := range alpha {
		if !isFree[j] {
			rhs -= y[j] * alpha[j]
		}
	}
	for s, j := range freeIdx {
		a[m][s] = y[j]
	}
	a[m][m+1] = rhs
	sol, ok := gaussSolve(a)
	if !ok {
		return 0, false
	}
	for s, j := range freeIdx {
		if !(sol[s] > 0 && sol[s] < c[j]) {
			return 0, false
		}
		alpha[j] = sol[s]
	}
	// Q_FF α + y_F·b = 1 − …: b here is the multiplier; the decision's
	// intercept is b itself, since y_i·(Σ_j y_jα_jK_ij + b) = 1 on F.
	return sol[m], true
}

// kktHolds checks y_i·f(x_i) against 1 for the bound variables, where
// y_i·f = (Qα)_i + y_i·b; with no free variable a b must exist in the
// interval the bounds leave.
func kktHolds(q [][]float64, y, alpha []float64, status []int, b float64, haveB bool) bool {
	lo, hi := math.Inf(-1), math.Inf(1)
	for i := range alpha {
		qa := 0.0
		for j := range alpha {
			qa += q[i][j] * alpha[j]
		}
		const slack = 1e-9
		if haveB {
			yf := qa + y[i]*b
			if (status[i] == 0 && yf < 1-slack) || (status[i] == 2 && yf > 1+slack) {
				return false
			}
			continue
		}
		// y_i·b ≥ 1 − qa (α = 0) or ≤ 1 − qa (α = C)
		bound := (1 - qa) * y[i]
		if (status[i] == 0) == (y[i] > 0) {
			lo = max(lo, bound)
		} else {
			hi = min(hi, bound)
		}
	}
	return haveB || lo <= hi+1e-9
}

// gaussSolve solves the augmented system a (m rows, m+1 columns) by
// elimination with partial pivoting.
func gaussSolve(a [][]float64) ([]float64, bool) {
	m := len(a)
	for col := 0; col < m; col++ {
		p := col
		for r := col + 1; r < m; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if math.Abs(a[p][col]) < 1e-12 {
			return nil, false
		}
		a[col], a[p] = a[p], a[col]
		for r := col + 1; r < m; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c <= m; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	x := make([]float64, m)
	for r := m - 1; r >= 0; r-- {
		s := a[r][m]
		for c := r + 1; c < m; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}
