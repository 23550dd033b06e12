package strkernel

import "github.com/ksql/ksql/internal/xfloat"

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
	f := ws.floats((layers + 2) * w)
	k := ws.ints((layers + 2) * w)
	for i := range f {
		f[i], k[i] = 0, 0
	}
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
	var total xfloat.F
	rowInv := xfloat.New(1) // λ^−(i−1)
	rowPow := xfloat.New(1) // λ^i
	poll := poller{check: lim.Check}
	for _, x := range s {
		rowPow = xfloat.Mul(rowPow, xfloat.New(lambda))
		top := (layers - 1) * w
		if sv, sk := finalSum(x, t, f[top:top+w], k[top:top+w], wgtv, wgtk); sv != 0 {
			total = xfloat.Add(total, xfloat.Mul(fromCell(sv, sk), rowPow))
		}
		for q := layers; q >= 2; q-- {
			c, b := (q-1)*w, (q-2)*w
			layerPass(x, t, f[c:c+w], k[c:c+w], f[b:b+w], k[b:b+w], 1, 0)
		}
		rv, rk := 1.0, int32(0)
		if ssk {
			rv, rk = toCell(rowInv)
			rv, rk = rv*cellDown, rk+1
		}
		// Rows before the first useful one leave layer 1 unchanged but
		// for the running sums, so nothing is skipped: the loop is cheap.
		layerPass(x, t, f[:w], k[:w], src0v, src0k, rv, rk)
		rowInv = xfloat.Mul(rowInv, inv)
		if err := poll.add(p * n); err != nil {
			return xfloat.F{}, err
		}
	}
	return total, nil
}

// layerPass adds row i (symbol x of s) to the cells (cv, ck) of layer q,
// from the old cells (sv, sk) of layer q−1 times the factor (rv, rk):
// cell j gains Σ_{k ≤ j, t_k = x} src(k−1). rv is a pre-scaled factor in
// [2^−quantum, 1] so that products stay finite.
func layerPass(x int32, t []int32, cv []float64, ck []int32, sv []float64, sk []int32, rv float64, rk int32) {
	n := len(t)
	cv, ck = cv[:n+1], ck[:n+1]
	sv, sk = sv[:n+1], sk[:n+1]
	var p float64
	var kp int32
	for j := 1; j <= n; j++ {
		if t[j-1] == x {
			if tv := sv[j-1]; tv != 0 {
				tv *= rv
				tk := sk[j-1] + rk
				if tv < 1 {
					tv *= cellMax
					tk--
				}
				if tk == kp {
					p += tv
					if p >= cellMax {
						p *= cellDown
						kp++
					}
				} else {
					p, kp = addCells(p, kp, tv, tk)
				}
			}
		}
		ov, ok := cv[j], ck[j]
		if ok == kp {
			nv := ov + p
			if nv >= cellMax {
				nv *= cellDown
				ck[j] = ok + 1
			}
			cv[j] = nv
		} else {
			// The running sum moves to the cell's exponent, where the next
			// cells, never smaller (Q grows with j), most likely are too.
			cv[j], ck[j], p, kp = alignSum(ov, ok, p, kp)
		}
	}
}

// finalSum returns Σ_{k: t_k = x} wgt(k)·src(k−1) as a cell.
func finalSum(x int32, t []int32, sv []float64, sk []int32, wv []float64, wk []int32) (float64, int32) {
	n := len(t)
	sv, sk = sv[:n+1], sk[:n+1]
	wv, wk = wv[:n+1], wk[:n+1]
	var acc float64
	var ka int32
	for j := 1; j <= n; j++ {
		if t[j-1] != x {
			continue
		}
		tv := sv[j-1]
		if tv == 0 {
			continue
		}
		tv *= wv[j]
		tk := sk[j-1] + wk[j]
		if tv < 1 {
			tv *= cellMax
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
