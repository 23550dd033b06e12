package fst

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// Gappy is the gappy n-gram kernel (Cortes, Haffner & Mohri 2004):
//
//	K(s, t) = Σ_u c_u(s)·c_u(t) over sequences u of N symbols,
//	c_u(s)  = Σ over the occurrences of u as a subsequence of s of λ^gaps,
//
// gaps being the symbols skipped inside the occurrence (not before or
// after it). λ = 0 counts contiguous occurrences only (ngram(n)); λ = 1
// counts all of them (subseq(p=n)); ssk(p=n, λ) = λ^(2n)·K.
//
// It is the rational kernel of the counting transducer GappyTransducer,
// T(s, u) = c_u(s); Eval computes it by a dedicated dynamic programme that
// gappy_test.go checks against the transducer engine.
type Gappy struct {
	N      int
	Lambda float64
}

// ParamError is a parameter out of its range.
type ParamError struct {
	Name  string
	Value float64
	Range string // what is allowed, as "an integer ≥ 1" or "[0, 1]"
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s must be %s, got %v", e.Name, e.Range, e.Value)
}

// Validate reports a parameter out of range: N ≥ 1, 0 ≤ Lambda ≤ 1.
func (g Gappy) Validate() error {
	if g.N < 1 {
		return &ParamError{Name: "n", Value: float64(g.N), Range: "an integer ≥ 1"}
	}
	if !(g.Lambda >= 0 && g.Lambda <= 1) {
		return &ParamError{Name: "lambda", Value: g.Lambda, Range: "in [0, 1]"}
	}
	return nil
}

// GappyTransducer returns the counting transducer of gappy(n, λ) over the
// given symbols: T(s, u) = c_u(s) for |u| = n, 0 for other u. States
// 0 … n; state k < n has read the first k symbols of u. State 0 skips any
// symbol before the occurrence (x:ε/1), k → k+1 copies a symbol (x:x/1),
// 0 < k < n skips a symbol inside it (x:ε/λ), n skips any after it
// (x:ε/1) and is final.
func GappyTransducer(g Gappy, alphabet []Label) (*FST, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	var b Builder
	for _, x := range alphabet {
		for k := 0; k <= g.N; k++ {
			skip := g.Lambda
			if k == 0 || k == g.N {
				skip = 1
			}
			if err := b.AddArc(int64(k), int64(k), x, Epsilon, skip); err != nil {
				return nil, err
			}
			if k < g.N {
				if err := b.AddArc(int64(k), int64(k+1), x, x, 1); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := b.AddFinal(int64(g.N), 1); err != nil {
		return nil, err
	}
	return b.Build()
}

// gappyBufs are Gappy's buffers in a Workspace.
type gappyBufs struct {
	s, t  []int32
	wid   map[string]int32
	b     []float64 // layers 1…n−1 of B, (n−1)·(|t|+1)
	match []float64 // 1 where t_j equals the current symbol of s
	occ   map[int32][]int32
	xb    []xfloat.F // slow path
	spare [][]int32  // occurrence lists for reuse
}

// Eval returns K(s, t) for strings split into symbols of unit u (as
// strkernel.Decode splits them). Cells, the unit of lim.MaxCells, are
// N·|s|·|t| as for ssk; past the bound Eval returns a
// *strkernel.LimitError. ws may be nil.
func (g Gappy) Eval(s, t string, u strkernel.Unit, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if ws == nil {
		ws = new(Workspace)
	}
	gb := &ws.gappy
	if u == strkernel.Word {
		if gb.wid == nil {
			gb.wid = map[string]int32{}
		}
		clear(gb.wid)
		gb.s, gb.t = internWords(gb.s[:0], s, gb.wid), internWords(gb.t[:0], t, gb.wid)
	} else {
		gb.s, gb.t = decodeChars(gb.s[:0], s), decodeChars(gb.t[:0], t)
	}
	return g.EvalLabels(gb.s, gb.t, ws, lim)
}

func decodeChars(dst []int32, s string) []int32 {
	for i := 0; i < len(s); {
		r, w := nextChar(s, i)
		dst = append(dst, r)
		i += w
	}
	return dst
}

func internWords(dst []int32, s string, wid map[string]int32) []int32 {
	for i := 0; ; {
		start, end := nextWord(s, i)
		if start == len(s) {
			return dst
		}
		w := s[start:end]
		id, ok := wid[w]
		if !ok {
			id = int32(len(wid))
			wid[w] = id
		}
		dst = append(dst, id)
		i = end
	}
}

// EvalLabels returns K(a, b) for sequences of symbols given as integers
// (equal exactly when the symbols are). K(a, b) and K(b, a) are the same
// bits.
func (g Gappy) EvalLabels(a, b []int32, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	if err := g.Validate(); err != nil {
		return xfloat.F{}, err
	}
	if len(a) < len(b) || len(a) == len(b) && lessInts(a, b) {
		a, b = b, a // rows over the longer: the table is as long as the shorter
	}
	if len(b) < g.N {
		return xfloat.F{}, nil
	}
	cells := mulSat(mulSat(int64(g.N), int64(len(a))), int64(len(b)))
	if lim.MaxCells > 0 && cells > lim.MaxCells {
		return xfloat.F{}, &strkernel.LimitError{Cells: cells, Max: lim.MaxCells}
	}
	if ws == nil {
		ws = new(Workspace)
	}
	// Every value of the programme is a sum of at most
	// max_q C(|a|,q)·C(|b|,q) terms, each a product of factors ≤ 1 times
	// the scale S; with S·terms ≤ 2^1000 nothing overflows, and the larger
	// S, the fewer tiny terms fall below the float64 range.
	if lg := log2Pairs(len(a), len(b), g.N); lg <= 900 {
		scale := math.Ceil(1000 - lg)
		v, err := g.fast(a, b, math.Ldexp(1, int(scale)), ws, lim)
		return xfloat.Make(v, -int64(scale)), err
	}
	return g.slow(a, b, ws, lim)
}

func lessInts(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// log2Pairs returns log2 of max_{q ≤ n} C(m, q)·C(k, q).
func log2Pairs(m, k, n int) float64 {
	lchoose := func(m, q int) float64 {
		a, _ := math.Lgamma(float64(m + 1))
		b, _ := math.Lgamma(float64(q + 1))
		c, _ := math.Lgamma(float64(m - q + 1))
		return (a - b - c) / math.Ln2
	}
	best := 0.0
	for q := 1; q <= n; q++ {
		best = max(best, lchoose(m, q)+lchoose(k, q))
	}
	return best
}

// occurrences lists the positions (1-based) of each symbol of t.
func (gb *gappyBufs) occurrences(t []int32) map[int32][]int32 {
	if gb.occ == nil {
		gb.occ = map[int32][]int32{}
	}
	for _, l := range gb.occ {
		gb.spare = append(gb.spare, l[:0])
	}
	clear(gb.occ)
	for j, x := range t {
		l, ok := gb.occ[x]
		if !ok && len(gb.spare) > 0 {
			l, gb.spare = gb.spare[len(gb.spare)-1], gb.spare[:len(gb.spare)-1]
		}
		gb.occ[x] = append(l, int32(j+1))
	}
	return gb.occ
}

// fast is the programme in float64, every term multiplied by scale.
//
// With A_q(i, j) the sum over pairs of occurrences of common
// subsequences of length q ending at s_i = t_j of λ^(gaps so far),
// B_q(i, j) = Σ_{i'≤i, j'≤j} λ^((i−i')+(j−j'))·A_q(i', j') and
// C_q(i, j) its inner sum over j' for i' = i:
//
//	A_1(i, j) = [s_i = t_j],  A_q(i, j) = [s_i = t_j]·B_{q−1}(i−1, j−1),
//	C_q(i, j) = λ·C_q(i, j−1) + A_q(i, j),
//	B_q(i, j) = λ·B_q(i−1, j) + C_q(i, j),
//	K = Σ_{i,j} A_n(i, j).
//
// (The λ-weights of a term never increase along the recursion, so a term
// that is representable at the end never passed through a flushed value.)
// Row i overwrites B_q(i−1, ·) in place; layer q reads B_{q−1}(i−1, j−1),
// so the layers are done from the top down, and the old value of column
// j−1 is carried in a variable.
func (g Gappy) fast(s, t []int32, scale float64, ws *Workspace, lim strkernel.Limits) (float64, error) {
	gb := &ws.gappy
	n, w := g.N, len(t)+1
	lam := g.Lambda
	b := grow(&gb.b, max(n-1, 1)*w)
	clear(b)
	match := grow(&gb.match, w)
	clear(match)
	occ := gb.occurrences(t)
	poll := poller{check: lim.Check}
	var total float64
	for _, x := range s {
		at := occ[x]
		for _, j := range at {
			match[j] = 1
		}
		switch n {
		case 1:
			total += float64(len(at)) * scale
		case 2:
			total += gappyRow2(match, b[:w], lam, scale)
		case 3:
			total += gappyRow3(match, b[:w], b[w:2*w], lam, scale)
		default:
			top := b[(n-2)*w : (n-1)*w]
			for _, j := range at {
				total += top[j-1]
			}
			for q := n - 1; q >= 2; q-- {
				layerRow(match, b[(q-1)*w:q*w], b[(q-2)*w:(q-1)*w], lam)
			}
			firstRow(match, b[:w], lam, scale)
		}
		for _, j := range at {
			match[j] = 0
		}
		if err := poll.add(n * w); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// layerRow updates layer row cur (B_q) from the old row of the layer
// below (B_{q−1}(i−1, ·)), which is not yet updated.
func layerRow(match, cur, below []float64, lam float64) {
	n := len(match)
	cur, below = cur[:n], below[:n]
	var c float64
	for j := 1; j < n; j++ {
		c = lam*c + match[j]*below[j-1]
		cur[j] = lam*cur[j] + c
	}
}

// firstRow updates B_1, whose A_1 is the match itself.
func firstRow(match, cur []float64, lam, scale float64) {
	n := len(match)
	cur = cur[:n]
	var c float64
	for j := 1; j < n; j++ {
		c = lam*c + match[j]*scale
		cur[j] = lam*cur[j] + c
	}
}

// gappyRow2 is one row for n = 2: it returns Σ_j A_2(i, j) and updates B_1.
func gappyRow2(match, b1 []float64, lam, scale float64) float64 {
	n := len(match)
	b1 = b1[:n]
	var c1, sum, p1 float64 // p1: old B_1(i−1, j−1)
	for j := 1; j < n; j++ {
		m, o1 := match[j], b1[j]
		sum += m * p1
		c1 = lam*c1 + m*scale
		b1[j] = lam*o1 + c1
		p1 = o1
	}
	return sum
}

// gappyRow3 is one row for n = 3, the layers fused into one pass.
func gappyRow3(match, b1, b2 []float64, lam, scale float64) float64 {
	n := len(match)
	b1, b2 = b1[:n], b2[:n]
	var c1, c2, sum, p1, p2 float64
	for j := 1; j < n; j++ {
		m, o1, o2 := match[j], b1[j], b2[j]
		sum += m * p2
		c2 = lam*c2 + m*p1
		b2[j] = lam*o2 + c2
		c1 = lam*c1 + m*scale
		b1[j] = lam*o1 + c1
		p1, p2 = o1, o2
	}
	return sum
}

// slow is the same programme with an xfloat per value, for pairs whose
// values could leave the float64 range (long texts and large n).
func (g Gappy) slow(s, t []int32, ws *Workspace, lim strkernel.Limits) (xfloat.F, error) {
	gb := &ws.gappy
	n, w := g.N, len(t)+1
	lam := xfloat.New(g.Lambda)
	one := xfloat.New(1)
	b := grow(&gb.xb, (n-1)*w)
	clear(b)
	poll := poller{check: lim.Check}
	var total xfloat.F
	for _, x := range s {
		top := b[(n-2)*w : (n-1)*w]
		for j := 1; j < w; j++ {
			if t[j-1] == x {
				total = xfloat.Add(total, top[j-1])
			}
		}
		for q := n - 1; q >= 1; q-- {
			cur := b[(q-1)*w : q*w]
			var c xfloat.F
			for j := 1; j < w; j++ {
				c = xfloat.Mul(lam, c)
				if t[j-1] == x {
					if q == 1 {
						c = xfloat.Add(c, one)
					} else {
						c = xfloat.Add(c, b[(q-2)*w+j-1])
					}
				}
				cur[j] = xfloat.Add(xfloat.Mul(lam, cur[j]), c)
			}
		}
		if err := poll.add(n * w); err != nil {
			return xfloat.F{}, err
		}
	}
	return total, nil
}
