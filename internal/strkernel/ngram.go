package strkernel

import (
	"math/bits"

	"github.com/ksql/ksql/internal/xfloat"
)

// ngram is the spectrum kernel Σ_u count_u(s)·count_u(t) over n-grams u, in
// time linear in |s|+|t| for a fixed n, with exact keys (no hash of an
// n-gram stands for it, so collisions cannot merge two n-grams):
//
//   - when n symbols fit in 64 bits, an n-gram is its symbols packed into a
//     uint64, rolled along the string;
//   - otherwise symbols are first renumbered densely, packed g at a time
//     into ids of g-grams, and ids of longer grams are the ids of pairs of
//     overlapping shorter ones (a 2L-gram is its two halves), doubling the
//     length until it reaches n: O((|s|+|t|)·log(n/g)).
//
// The n-grams of t, the shorter sequence, are counted in a hash table; those
// of s are looked up in it. len(t) ≥ n.
func ngram(s, t []int32, n int, ws *Workspace, lim Limits) (xfloat.F, error) {
	poll := poller{check: lim.Check}
	var maxSym int32
	for _, c := range s {
		maxSym = max(maxSym, c)
	}
	for _, c := range t {
		maxSym = max(maxSym, c)
	}
	if b := max(1, bits.Len32(uint32(maxSym))); n*b <= 64 {
		return packedCount(s, t, n, uint(b), ws, &poll)
	}
	ids := ws.denseIDs(s, t)
	is, it := ids[:len(s)], ids[len(s):]
	b := max(1, bits.Len32(uint32(ws.gram.used-1)))
	if n*b <= 64 {
		return packedCount(is, it, n, uint(b), ws, &poll)
	}
	if err := poll.add(len(s) + len(t)); err != nil {
		return xfloat.F{}, err
	}
	// ids of g-grams, then of longer grams by pairs.
	g := 64 / b
	ws.gram.reset(len(t))
	l := g
	is, it = ws.packedIDs(is, g, uint(b)), ws.packedIDs(it, g, uint(b))
	for l < n {
		l2 := min(2*l, n)
		ws.gram.reset(len(t))
		is, it = ws.pairIDs(is, l2-l), ws.pairIDs(it, l2-l)
		l = l2
		if err := poll.add(len(s) + len(t)); err != nil {
			return xfloat.F{}, err
		}
	}
	if cap(ws.count) < ws.gram.used {
		ws.count = make([]int64, ws.gram.used)
	}
	count := ws.count[:ws.gram.used]
	clear(count)
	for _, id := range it {
		count[id]++
	}
	var sum uint64
	for _, id := range is {
		sum += uint64(count[id])
	}
	return xfloat.New(float64(sum)), nil
}

// packedCount is ngram for symbols of at most b bits with n·b ≤ 64.
func packedCount(s, t []int32, n int, b uint, ws *Workspace, poll *poller) (xfloat.F, error) {
	mask := ^uint64(0)
	if n*int(b) < 64 {
		mask = 1<<(uint(n)*b) - 1
	}
	tab := &ws.gram
	tab.reset(len(t))
	var key uint64
	for i, c := range t {
		key = (key<<b | uint64(c)) & mask
		if i >= n-1 {
			tab.add(key, 1)
		}
		if i&(checkEvery-1) == checkEvery-1 {
			if err := poll.add(checkEvery); err != nil {
				return xfloat.F{}, err
			}
		}
	}
	var sum uint64
	key = 0
	for i, c := range s {
		key = (key<<b | uint64(c)) & mask
		if i >= n-1 {
			sum += uint64(tab.get(key))
		}
		if i&(checkEvery-1) == checkEvery-1 {
			if err := poll.add(checkEvery); err != nil {
				return xfloat.F{}, err
			}
		}
	}
	return xfloat.New(float64(sum)), nil
}

// denseIDs renumbers the symbols of s and t as 0, 1, … in order of first
// appearance; ws.gram.used is then the number of distinct symbols.
func (ws *Workspace) denseIDs(s, t []int32) []int32 {
	need := len(s) + len(t)
	if cap(ws.ids) < need {
		ws.ids = make([]int32, need)
	}
	ids := ws.ids[:need]
	ws.gram.reset(len(t))
	for i, c := range s {
		ids[i] = ws.gram.id(uint64(uint32(c)))
	}
	for i, c := range t {
		ids[len(s)+i] = ws.gram.id(uint64(uint32(c)))
	}
	return ids
}

// packedIDs replaces ids by the ids of its g-grams, packing g symbols of b
// bits into one key; it returns the len(ids)−g+1 new ids in place.
func (ws *Workspace) packedIDs(ids []int32, g int, b uint) []int32 {
	if len(ids) < g {
		return ids[:0]
	}
	mask := ^uint64(0)
	if g*int(b) < 64 {
		mask = 1<<(uint(g)*b) - 1
	}
	var key uint64
	for i := range g - 1 {
		key = key<<b | uint64(ids[i])
	}
	for i := g - 1; i < len(ids); i++ {
		key = (key<<b | uint64(ids[i])) & mask
		ids[i-g+1] = ws.gram.id(key)
	}
	return ids[:len(ids)-g+1]
}

// pairIDs replaces ids (of L-grams) by the ids of the (L+d)-grams made of
// the L-grams at i and i+d (d ≤ L, so they cover the longer gram).
func (ws *Workspace) pairIDs(ids []int32, d int) []int32 {
	if len(ids) <= d {
		return ids[:0]
	}
	for i := 0; i+d < len(ids); i++ {
		ids[i] = ws.gram.id(uint64(uint32(ids[i]))<<32 | uint64(uint32(ids[i+d])))
	}
	return ids[:len(ids)-d]
}

// table is an open-addressing hash table from uint64 keys to positive int32
// values (0 marks an empty slot), reused across calls.
type table struct {
	keys  []uint64
	vals  []int32
	shift uint
	used  int
}

// reset empties the table, sized for about hint keys (it grows as needed).
func (t *table) reset(hint int) {
	c := 64
	for c < 2*hint && c < 1<<16 {
		c *= 2
	}
	if cap(t.keys) < c || cap(t.vals) < c {
		t.keys, t.vals = make([]uint64, c), make([]int32, c)
	}
	t.keys, t.vals = t.keys[:c], t.vals[:c]
	clear(t.vals)
	t.shift = uint(64 - bits.TrailingZeros(uint(c)))
	t.used = 0
}

// slot returns the slot of key, or the empty slot where it would go.
func (t *table) slot(key uint64) int {
	mask := len(t.keys) - 1
	i := int((key * 0x9E3779B97F4A7C15) >> t.shift)
	for t.vals[i] != 0 && t.keys[i] != key {
		i = (i + 1) & mask
	}
	return i
}

// get returns the value of key, 0 if absent.
func (t *table) get(key uint64) int32 { return t.vals[t.slot(key)] }

// add adds d to the value of key.
func (t *table) add(key uint64, d int32) {
	i := t.slot(key)
	if t.vals[i] == 0 {
		t.keys[i] = key
		t.used++
		if 2*t.used > len(t.keys) {
			t.vals[i] = d
			t.grow()
			return
		}
	}
	t.vals[i] += d
}

// id returns the dense id (0, 1, …) of key, giving it the next one if new.
func (t *table) id(key uint64) int32 {
	i := t.slot(key)
	if t.vals[i] == 0 {
		t.keys[i] = key
		t.used++
		t.vals[i] = int32(t.used)
		if 2*t.used > len(t.keys) {
			t.grow()
		}
		return int32(t.used - 1)
	}
	return t.vals[i] - 1
}

// grow doubles the table.
func (t *table) grow() {
	oldK, oldV := t.keys, t.vals
	c := 2 * len(oldK)
	t.keys, t.vals = make([]uint64, c), make([]int32, c)
	t.shift--
	for i, v := range oldV {
		if v != 0 {
			j := t.slot(oldK[i])
			t.keys[j], t.vals[j] = oldK[i], v
		}
	}
}
