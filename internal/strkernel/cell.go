package strkernel

import (
	"math"

	"github.com/ksql/ksql/internal/xfloat"
)

// A table cell of the dynamic programmes holds v·2^(quantum·k) in a float64
// v and an int32 k. Every cell, and every running sum, has its own k, because
// one exponent for a whole row loses information: in subseq("a…ab…b",
// "b…ba…a") the cells over the b's of t stay small while those over its a's
// grow past 2^7000, and half of the answer comes from the small ones.
//
// All values in the tables are sums of terms ≥ 1 (counts, or the
// λ^-(i+j)-weighted sums of layered.go), so a non-zero cell is kept with
// 1/4 ≤ v < 2^(quantum−1). Two cells whose k differ by one are added by
// scaling the smaller by 2^-quantum, exactly; when k differs by two or
// more, the smaller is below 2^(1−quantum) of the larger and is dropped, an
// error far below rounding. Cells with equal k, the common case, are added
// directly. The bound 2^(quantum−1) leaves room for a term one step above a
// cell, scaled up by 2^quantum, in the fast paths without reaching +Inf.
const quantum = 512

const (
	cellMax  = 0x1p511  // 2^(quantum−1): a cell at or above it moves up one step
	cellDown = 0x1p-512 // 2^-quantum
	cellUp   = 0x1p512  // 2^quantum
	cellLow  = 0.5      // a term below it is normalised before addCells
)

// addCells returns a+b for cells (a, ka) and (b, kb).
func addCells(a float64, ka int32, b float64, kb int32) (float64, int32) {
	if b == 0 {
		return a, ka
	}
	if a == 0 {
		return b, kb
	}
	if ka < kb {
		a, ka, b, kb = b, kb, a, ka
	}
	switch ka - kb {
	case 0:
		a += b
	case 1:
		a += b * cellDown
	}
	if a >= cellMax {
		a *= cellDown
		ka++
	}
	return a, ka
}

// alignSum adds the running sum (p, kp) to the cell (v, kv), the slow path
// of the row loops, taken when their exponents differ. It returns the new
// cell and the running sum expressed at the exponent of the new cell, so
// that the following cells, usually at the same exponent, take the fast
// path.
func alignSum(v float64, kv int32, p float64, kp int32) (nv float64, nk int32, np float64, nkp int32) {
	switch {
	case p == 0:
		return v, kv, 0, kv
	case v == 0:
		return p, kp, p, kp
	case kv > kp:
		if kv-kp == 1 {
			p *= cellDown
		} else {
			p = 0
		}
		kp = kv
	case kv < kp:
		if kp-kv == 1 {
			v *= cellDown
		} else {
			v = 0
		}
		kv = kp
	}
	v += p
	if v >= cellMax {
		return v * cellDown, kv + 1, p * cellDown, kp + 1
	}
	return v, kv, p, kp
}

// toCell converts a positive xfloat to a cell.
func toCell(f xfloat.F) (float64, int32) {
	if f.M == 0 {
		return 0, 0
	}
	k := floorDiv(f.E, quantum) // 1/2 ≤ v < 2^(quantum−1)
	return math.Ldexp(f.M, int(f.E-k*quantum)), int32(k)
}

// fromCell converts a cell to an xfloat.
func fromCell(v float64, k int32) xfloat.F {
	return xfloat.Make(v, int64(k)*quantum)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
