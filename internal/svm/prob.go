package svm

import (
	"errors"
	"math"

	"github.com/ksql/ksql/internal/rng"
)

// Probability estimates as libsvm computes them (svm.cpp, after Platt
// 1999 with the improvements of Lin, Lin & Weng 2007, and the pairwise
// coupling of Wu, Lin & Weng 2004): each pair's decision value f becomes
// P(a | f) = 1/(1 + exp(A·f + B)) for the pair's first class a, with A
// and B fitted on decision values from 5-fold cross-validation; more than
// two classes couple the pairwise estimates into one distribution.
//
// A and B are in libsvm's convention, on libsvm's decision value, which
// is positive for the pair's first class (scikit-learn's probA_, probB_).
// For a two-class Model that value is −Decision (Decision is positive for
// class 1); with more classes it is Decision's.

// PlattFolds is libsvm's nr_fold of svm_binary_svc_probability.
const PlattFolds = 5

// MinPairProbability clips the pairwise estimates into [m, 1−m] before
// coupling, as libsvm's svm_predict_probability does.
const MinPairProbability = 1e-7

// Sigmoid is one pair's fitted A and B.
type Sigmoid struct{ A, B float64 }

// SigmoidTrain fits A and B by Newton's method with backtracking on the
// regularised targets of Lin, Lin & Weng (libsvm's sigmoid_train): dec
// are decision values, pos whether each row is of the positive class (the
// one whose probability the sigmoid gives). It stops after 100 iterations,
// when the gradient is below 1e-5, or when the line search cannot
// decrease the objective, returning the best point found, as libsvm does.
func SigmoidTrain(dec []float64, pos []bool) Sigmoid {
	var prior1, prior0 float64
	for _, p := range pos {
		if p {
			prior1++
		} else {
			prior0++
		}
	}
	hi, lo := (prior1+1)/(prior1+2), 1/(prior0+2)
	target := func(i int) float64 {
		if pos[i] {
			return hi
		}
		return lo
	}
	A, B := 0.0, math.Log((prior0+1)/(prior1+1))
	fval := sigmoidObjective(dec, target, A, B)
	for iter := 0; iter < 100; iter++ {
		h11, h22, h21, g1, g2 := 1e-12, 1e-12, 0.0, 0.0, 0.0
		for i, f := range dec {
			p, q := sigmoidPQ(f*A + B)
			d2 := p * q
			h11 += f * f * d2
			h22 += d2
			h21 += f * d2
			d1 := target(i) - p
			g1 += f * d1
			g2 += d1
		}
		if math.Abs(g1) < 1e-5 && math.Abs(g2) < 1e-5 {
			break
		}
		det := h11*h22 - h21*h21
		dA := -(h22*g1 - h21*g2) / det
		dB := -(-h21*g1 + h11*g2) / det
		gd := g1*dA + g2*dB
		step := 1.0
		for ; step >= 1e-10; step /= 2 {
			nA, nB := A+step*dA, B+step*dB
			if nf := sigmoidObjective(dec, target, nA, nB); nf < fval+0.0001*step*gd {
				A, B, fval = nA, nB, nf
				break
			}
		}
		if step < 1e-10 {
			break
		}
	}
	return Sigmoid{A, B}
}

// sigmoidObjective is the cross-entropy of the targets, written so that
// exp never overflows.
func sigmoidObjective(dec []float64, target func(int) float64, A, B float64) float64 {
	s := 0.0
	for i, f := range dec {
		fApB := f*A + B
		if fApB >= 0 {
			s += target(i)*fApB + math.Log(1+math.Exp(-fApB))
		} else {
			s += (target(i)-1)*fApB + math.Log(1+math.Exp(fApB))
		}
	}
	return s
}

// sigmoidPQ returns p = 1/(1+exp(x)) and q = 1 − p without overflow.
func sigmoidPQ(x float64) (p, q float64) {
	if x >= 0 {
		e := math.Exp(-x)
		return e / (1 + e), 1 / (1 + e)
	}
	e := math.Exp(x)
	return 1 / (1 + e), e / (1 + e)
}

// Predict returns P = 1/(1+exp(A·f+B)) for libsvm's decision value f
// (libsvm's sigmoid_predict, written to avoid cancellation in 1 − P).
func (s Sigmoid) Predict(f float64) float64 {
	p, _ := sigmoidPQ(f*s.A + s.B)
	return p
}

// Couple sets p (len k) to the class probabilities that best agree with
// the pairwise ones r (k×k row-major, r[i·k+j] = P(i | i or j), r[j·k+i]
// = 1 − r[i·k+j]) by libsvm's multiclass_probability (Wu, Lin & Weng's
// second method): a fixed-point iteration on min pᵀQp, Σp = 1, stopped at
// max(100, k) iterations or when every |(Qp)_t − pᵀQp| < 0.005/k. work
// holds k·k + k numbers (CoupleWork); nothing is allocated.
func Couple(k int, r, p, work []float64) {
	Q, Qp := work[:k*k], work[k*k:k*k+k]
	for t := 0; t < k; t++ {
		p[t] = 1 / float64(k)
		Q[t*k+t] = 0
		for j := 0; j < t; j++ {
			Q[t*k+t] += r[j*k+t] * r[j*k+t]
			Q[t*k+j] = Q[j*k+t]
		}
		for j := t + 1; j < k; j++ {
			Q[t*k+t] += r[j*k+t] * r[j*k+t]
			Q[t*k+j] = -r[j*k+t] * r[t*k+j]
		}
	}
	eps := 0.005 / float64(k)
	for iter := 0; iter < max(100, k); iter++ {
		pQp := 0.0
		for t := 0; t < k; t++ {
			Qp[t] = 0
			for j := 0; j < k; j++ {
				Qp[t] += Q[t*k+j] * p[j]
			}
			pQp += p[t] * Qp[t]
		}
		maxErr := 0.0
		for t := 0; t < k; t++ {
			maxErr = max(maxErr, math.Abs(Qp[t]-pQp))
		}
		if maxErr < eps {
			break
		}
		for t := 0; t < k; t++ {
			diff := (-Qp[t] + pQp) / Q[t*k+t]
			p[t] += diff
			pQp = (pQp + diff*(diff*Q[t*k+t]+2*Qp[t])) / (1 + diff) / (1 + diff)
			for j := 0; j < k; j++ {
				Qp[j] = (Qp[j] + diff*Q[t*k+j]) / (1 + diff)
				p[j] /= 1 + diff
			}
		}
	}
}

// CoupleWork is the length of the work slice of Probabilities for k
// classes.
func CoupleWork(k int) int { return 2*k*k + k }

// Probabilities sets p (len k) to the class probabilities of an object
// whose decision values (Model.Decision's, NumPairs of them) are dec,
// with the pairs' sigmoids sig, as libsvm's svm_predict_probability: each
// pair's estimate clipped into [MinPairProbability, 1−MinPairProbability],
// then with two classes taken as is and with more coupled. work holds
// CoupleWork(k) numbers; nothing is allocated.
func Probabilities(k int, dec []float64, sig []Sigmoid, p, work []float64) {
	if k == 2 {
		p[0] = clipPair(sig[0].Predict(-dec[0]))
		p[1] = 1 - p[0]
		return
	}
	r := work[:k*k]
	q := 0
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			r[a*k+b] = clipPair(sig[q].Predict(dec[q]))
			r[b*k+a] = 1 - r[a*k+b]
			q++
		}
	}
	Couple(k, r, p, work[k*k:])
}

func clipPair(x float64) float64 {
	return min(max(x, MinPairProbability), 1-MinPairProbability)
}

// PlattError is a fit of the probability cross-validation that failed:
// pair (A, B)'s fold Fold. Err is the fit's error, its class indices
// (NuInfeasibleError, NuMarginError) those of the whole problem.
type PlattError struct {
	A, B, Fold int
	Err        error
}

func (e *PlattError) Error() string {
	return "svm: the probability cross-validation's fit failed: " + e.Err.Error()
}

func (e *PlattError) Unwrap() error { return e.Err }

// FitPlatt fits every pair's sigmoid as libsvm's svm_train with
// probability=1 does (svm_binary_svc_probability), for a classifier on
// kern's rows with classes y (0..k−1) and the options of its fit
// (opt.ClassWeight weighs C per class, as for the fit itself).
//
// The fold rule, fixed forever: one SplitMix64 generator seeded with seed
// serves the pairs in order (0,1), (0,2), …, (1,2), …. A pair's rows are
// class a's then class b's, each in row order; position i = 0, 1, …, l−1
// swaps with position i + Below(l−i) (libsvm's shuffle, one draw per
// position); fold f holds the shuffled positions [f·l/5, (f+1)·l/5). Each
// fold's rows get libsvm's decision value (positive for a) from the pair
// fitted on the other folds, or +1 / −1 when those hold class a / b only.
func FitPlatt(kern Kernel, y []int, k int, opt Options, seed uint64) ([]Sigmoid, error) {
	if opt.Type != CSVC && opt.Type != NuSVC {
		return nil, &NotClassifierError{Type: opt.Type}
	}
	members := make([][]int, k)
	for i, c := range y {
		if c < 0 || c >= k {
			return nil, &LabelError{Problem: LabelTooLarge, Row: i, Label: c, Classes: k}
		}
		members[c] = append(members[c], i)
	}
	g := rng.New(seed)
	out := make([]Sigmoid, 0, k*(k-1)/2)
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			rows := append(append([]int(nil), members[a]...), members[b]...)
			pos := make([]bool, len(rows))
			for i := range members[a] {
				pos[i] = true
			}
			dec, err := plattDecisions(kern, rows, pos, pairOptions(opt, a, b), g)
			if err != nil {
				return nil, pairError(err, a, b)
			}
			out = append(out, SigmoidTrain(dec, pos))
		}
	}
	return out, nil
}

// pairOptions are opt for a two-class fit of classes a and b.
func pairOptions(opt Options, a, b int) Options {
	if opt.ClassWeight != nil {
		opt.ClassWeight = []float64{opt.ClassWeight[a], opt.ClassWeight[b]}
	}
	return opt
}

// pairError names the whole problem's classes in a fold fit's error.
func pairError(err error, a, b int) error {
	var pe *PlattError
	if !errors.As(err, &pe) {
		return err
	}
	pe.A, pe.B = a, b
	var ne *NuInfeasibleError
	if errors.As(err, &ne) {
		ne.A, ne.B = a, b
	}
	var me *NuMarginError
	if errors.As(err, &me) {
		me.A, me.B = a, b
	}
	return pe
}

// plattDecisions shuffles one pair's rows with g and returns each row's
// decision value from the fit without its fold (in the order of rows).
func plattDecisions(kern Kernel, rows []int, pos []bool, opt Options, g *rng.SplitMix64) ([]float64, error) {
	l := len(rows)
	perm := make([]int, l)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < l; i++ {
		j := i + int(g.Below(uint64(l-i)))
		perm[i], perm[j] = perm[j], perm[i]
	}
	dec := make([]float64, l)
	for f := 0; f < PlattFolds; f++ {
		begin, end := f*l/PlattFolds, (f+1)*l/PlattFolds
		var train []int
		var yt []int
		np := 0
		for j, t := range perm {
			if j >= begin && j < end {
				continue
			}
			train = append(train, rows[t])
			c := 1
			if pos[t] {
				c, np = 0, np+1
			}
			yt = append(yt, c)
		}
		if err := foldDecisions(kern, train, yt, np, rows, perm[begin:end], opt, dec); err != nil {
			return nil, &PlattError{Fold: f, Err: err}
		}
	}
	return dec, nil
}

// foldDecisions fits train (classes yt, np of them class 0) and sets
// dec[t] for the held-out positions t to libsvm's decision value.
func foldDecisions(kern Kernel, train, yt []int, np int, rows, held []int, opt Options, dec []float64) error {
	if np == 0 || np == len(train) {
		v := 0.0
		switch {
		case np > 0:
			v = 1
		case len(train) > 0:
			v = -1
		}
		for _, t := range held {
			dec[t] = v
		}
		return nil
	}
	m, err := Fit(Restrict(kern, train), yt, opt)
	var kve *KernelValueError
	if errors.As(err, &kve) { // name kern's rows, not the fold's
		kve.Row, kve.Col = train[kve.Row], train[kve.Col]
	}
	if err != nil {
		return err
	}
	sv := make([]int, len(m.Support))
	for s, p := range m.Support {
		sv[s] = train[p]
	}
	kv, d := make([]float64, len(sv)), make([]float64, 1)
	for _, t := range held {
		if err := kern.Column(rows[t], sv, kv); err != nil {
			return err
		}
		if err := m.Decision(kv, d); err != nil {
			return err
		}
		dec[t] = -d[0] // Decision is positive for class 1, b; libsvm's for a
	}
	return nil
}
