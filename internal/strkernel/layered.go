package strkernel

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// layered computes subseq(p) (lambda = 1) and Lodhi's ssk(p, lambda) for
// p ≥ 1, len(t) ≥ p, in O(p·|s|·|t|) time and O(p·|t|) memory.
//
// Lodhi et al. (2002) define, for q = 1 … p−1,
//
//	K′_0(s, t) = 1,
//	K″_q(sx, tz) = λ·K″_q(sx, t) + [x = z]·λ²·K′_{q−1}(s, t),
//	K′_q(sx, t) = λ·K′_q(s, t) + K″_q(sx, t),
//	K_p(sx, t) = K_p(s, t) + Σ_{k: t_k = x} λ²·K′_{p−1}(s, t[1:k−1]).
//
// Writing K′_q(i, j) = λ^(i+j)·Q_q(i, j) for the prefixes s[1:i], t[1:j]
// removes every multiplication by λ from the inner loop:
//
//	Q_0(i, j) = λ^−(i+j),
//	Q_q(i, j) = Q_q(i−1, j) + Σ_{k ≤ j, t_k = s_i} Q_{q−1}(i−1, k−1),
//	K_p = Σ_{(i, k): s_i = t_k} λ^(i+k)·Q_{p−1}(i−1, k−1).
//
// Q_q(i, j) is the sum of λ^(2−a−b) over the common subsequences of length q
// of s[1:i] and t[1:j] whose first symbols are s_a = t_b: a sum of terms ≥ 1
// that only grows with i and j, which is what the cells of cell.go need.
// With λ = 1 every weight is 1 and the same recursion counts common
// subsequences of length exactly p (the notes' recursion, by length).
func layered(s, t []int32, p int, lambda float64, ws *Workspace, lim Limits) (xfloat.F, error) {
	if p == 1 {
		// Every pair of equal symbols is one subsequence of span 1 in each.
		c, err := ngram(s, t, 1, ws, lim)
		return xfloat.Mul(c, xfloat.New(lambda*lambda)), err
	}
	n := len(t)
	t = t[:n]
	w := n + 1
	layers := p - 1
	f := ws.floats((layers + 3) * w)
	k := ws.ints((layers + 2) * w)
	match := f[(layers+2)*w:][:n] // zero but at the positions of s_i in t
	clear(f)
	clear(k)
	// src0 is row 0 of Q_0 as a function of j (λ^−j); the row factor
	// λ^−(i−1) is applied as a separate factor. wgt[k] is λ^k, stored
	// pre-scaled by 2^−quantum so that a product with a cell cannot overflow.
	src0v, src0k := f[layers*w:(layers+1)*w], k[layers*w:(layers+1)*w]
	wgtv, wgtk := f[(layers+1)*w:], k[(layers+1)*w:]
	inv := xfloat.Div(xfloat.New(1), xfloat.New(lambda))
	ssk := lambda != 1
	for j, u, l := 0, xfloat.New(1), xfloat.New(1); j < w; j++ {
		if !ssk {
			src0v[j], wgtv[j] = 1, 1
			continue
		}
		src0v[j], src0k[j] = toCell(u)
		wv, wk := toCell(l)
		wgtv[j], wgtk[j] = wv*cellDown, wk+1
		u, l = xfloat.Mul(u, inv), xfloat.Mul(l, xfloat.New(lambda))
	}
	occ := ws.occurrences(t)
	var total xfloat.F
	rowInv := xfloat.New(1) // λ^−(i−1)
	rowPow := xfloat.New(1) // λ^i
	lam := xfloat.New(lambda)
	poll := poller{check: lim.Check}
	for _, x := range s {
		rowPow = xfloat.Mul(rowPow, lam)
		if at := occ.in(x); at != nil { // otherwise row i adds nothing anywhere
			for _, j := range at {
				match[j] = 1
			}
			top := (layers - 1) * w
			if sv, sk := finalSum(at, f[top:top+w], k[top:top+w], wgtv, wgtk); sv != 0 {
				total = xfloat.Add(total, xfloat.Mul(fromCell(sv, sk), rowPow))
			}
			for q := layers; q >= 2; q-- {
				c, b := (q-1)*w, (q-2)*w
				layerPass(match, f[c:c+w], k[c:c+w], f[b:b+w], k[b:b+w], 1, 0)
			}
			rv, rk := 1.0, int32(0)
			if ssk {
				rv, rk = toCell(rowInv)
				rv, rk = rv*cellDown, rk+1
			}
			layerPass(match, f[:w], k[:w], src0v, src0k, rv, rk)
			for _, j := range at {
				match[j] = 0
			}
		}
		rowInv = xfloat.Mul(rowInv, inv)
		if err := poll.add(p * n); err != nil {
			return xfloat.F{}, err
		}
	}
	return total, nil
}

// layerPass adds row i to the cells (cv, ck) of layer q, from the old cells
// (sv, sk) of layer q−1 times the factor (rv, rk): cell j gains
// Σ_{k ≤ j, t_k = s_i} src(k−1). match[j−1] is 1 where t_j = s_i, else 0:
// multiplying by it instead of branching on s_i = t_j avoids mispredicted
// branches, whose cost on text exceeds that of the multiplication. rv is
// either 1 (rk = 0) or a factor pre-scaled into [2^−quantum, 1) so that
// products stay finite.
//
// The fast path (layerRun) expects the old cells at exponent curOk and the
// terms at curSk, and brings both to the running sum's exponent kp, where
// the new cells are stored, by multiplying with cs and ts. These change
// only where a layer's exponents step up, a few times per row: a layer's
// cells grow with j, and the running sum is never larger than the cell it
// is added to. kp can be above a cell's own exponent in bands where the
// layer below is larger than this one; a cell gaining such a term is then
// at least as large as it. The cells where the fast path stops are done
// here, in general, and set it up again.
func layerPass(match []float64, cv []float64, ck []int32, sv []float64, sk []int32, rv float64, rk int32) {
	n := len(match)
	cv1, ck1 := cv[1:], ck[1:]
	cv1, ck1 = cv1[:n], ck1[:n]
	sv, sk = sv[:n], sk[:n]
	const unset = math.MinInt32
	var p, cs, ts float64
	var kp int32
	curOk, curSk := int32(unset), int32(unset)
	for j := 0; j < n; j++ {
		j, p, kp = layerRun(j, match, cv1, ck1, sv, sk, p, cs, ts, kp, curOk, curSk)
		if j == n {
			break
		}
		ov, ok := cv1[j], ck1[j]
		tv, tk := sv[j]*rv, sk[j]+rk
		if match[j] != 0 && tv != 0 {
			if tv < cellLow { // addCells needs a normalised term
				tv *= cellUp
				tk--
			}
			p, kp = addCells(p, kp, tv, tk)
		}
		cv1[j], ck1[j], p, kp = alignSum(ov, ok, p, kp)
		// Set the fast path up for cells and terms like these; those
		// above kp are left to this slow path.
		curOk, curSk = unset, unset
		if d := kp - ok; d >= 0 {
			curOk, cs = ok, steps[min(d, 2)+1]
		}
		if d := kp - (sk[j] + rk); d >= -1 {
			curSk, ts = sk[j], rv*steps[min(d, 2)+1]
		}
	}
}

// layerRun is layerPass's fast path from column j on. It returns the first
// column it did not do: one whose exponents differ from those expected, or
// whose cell reaches the bound and must step up.
func layerRun(j int, match, cv []float64, ck []int32, sv []float64, sk []int32,
	p, cs, ts float64, kp, curOk, curSk int32) (int, float64, int32) {
	n := len(match)
	cv, ck, sv, sk = cv[:n], ck[:n], sv[:n], sk[:n]
	for ; j < n; j++ {
		if (ck[j]^curOk)|(sk[j]^curSk) != 0 {
			return j, p, kp
		}
		// p ≤ nv, so only nv can reach the bound; a term from one step
		// above cannot take it to +Inf.
		q := p + sv[j]*ts*match[j]
		nv := cv[j]*cs + q
		if nv >= cellMax {
			return j, p, kp
		}
		p = q
		cv[j], ck[j] = nv, kp
	}
	return j, p, kp
}

// steps[d+1] is 2^(−quantum·d) for d ≥ −1, 0 from two steps on: a term that
// far below a cell is under 2^(1−quantum) of it.
var steps = [4]float64{cellUp, 1, cellDown, 0}

// finalSum returns Σ_{j ∈ at} wgt(j+1)·src(j) as a cell: the last symbol
// of a subsequence matched at t_{j+1} = s_i, weighted by λ^(j+1).
func finalSum(at []int32, sv []float64, sk []int32, wv []float64, wk []int32) (float64, int32) {
	var acc float64
	var ka int32
	for _, j := range at {
		tv := sv[j]
		if tv == 0 {
			continue
		}
		tv *= wv[j+1]
		tk := sk[j] + wk[j+1]
		if tv < cellLow {
			tv *= cellUp
			tk--
		}
		if tk == ka {
			acc += tv
			if acc >= cellMax {
				acc *= cellDown
				ka++
			}
		} else {
			acc, ka = addCells(acc, ka, tv, tk)
		}
	}
	return acc, ka
}
