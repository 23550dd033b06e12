package strkernel

import (
	"math/bits"
	"slices"

	"github.com/ksql/ksql/internal/xfloat"
)

// ngram is the spectrum kernel Σ_u count_u(s)·count_u(t) over n-grams u, in
// time linear in |s|+|t| for a fixed n. Two different n-grams are never
// counted as one:
//
//   - when n symbols fit in 64 bits, an n-gram is its symbols packed into a
//     uint64, rolled along the string (packedCount); symbols are first
//     renumbered densely when that makes them fit;
//   - otherwise, for n ≤ 64, n-grams are found by a rolling hash and checked
//     symbol by symbol (hashedCount): O(n) more work per repeated n-gram;
//   - otherwise symbols are packed g at a time into ids of g-grams, and ids
//     of longer grams are the ids of pairs of overlapping shorter ones (a
//     2L-gram is its two halves), doubling the length until it reaches n:
//     O((|s|+|t|)·log(n/g)).
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
	b := max(1, bits.Len32(uint32(ws.symTab.used-1)))
	if n*b <= 64 {
		return packedCount(is, it, n, uint(b), ws, &poll)
	}
	if err := poll.add(len(s) + len(t)); err != nil {
		return xfloat.F{}, err
	}
	if n <= maxVerified {
		return hashedCount(s, t, n, ws, &poll)
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

// maxVerified is the longest n for which hashedCount is used: it compares
// up to n symbols per n-gram, O(n·(|s|+|t|)) at worst.
const maxVerified = 64

// hashedCount is ngram by a rolling hash of the n-grams: a table slot holds
// a hash, the position in t of one n-gram with that hash and the count of
// that n-gram, and an n-gram only counts for a slot whose n-gram has the
// same symbols, so that colliding hashes never merge two n-grams.
func hashedCount(s, t []int32, n int, ws *Workspace, poll *poller) (xfloat.F, error) {
	const base = 0x9E3779B97F4A7C15 // odd: arithmetic mod 2^64 is a rolling hash
	var top uint64 = 1              // base^(n−1), to remove the symbol leaving the window
	for range n - 1 {
		top *= base
	}
	tab := &ws.gram
	tab.reset(len(t))
	var h uint64
	for i, c := range t {
		if i >= n {
			h -= uint64(uint32(t[i-n])) * top
		}
		h = h*base + uint64(uint32(c))
		if i >= n-1 {
			tab.addGram(h, t, i-n+1, n)
		}
		if i&(checkEvery-1) == checkEvery-1 {
			if err := poll.add(checkEvery); err != nil {
				return xfloat.F{}, err
			}
		}
	}
	var sum uint64
	h = 0
	for i, c := range s {
		if i >= n {
			h -= uint64(uint32(s[i-n])) * top
		}
		h = h*base + uint64(uint32(c))
		if i >= n-1 {
			sum += uint64(tab.countGram(h, s[i-n+1:i+1], t, n))
		}
		if i&(checkEvery-1) == checkEvery-1 {
			if err := poll.add(checkEvery); err != nil {
				return xfloat.F{}, err
			}
		}
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
// appearance; ws.symTab.used is then the number of distinct symbols.
func (ws *Workspace) denseIDs(s, t []int32) []int32 {
	need := len(s) + len(t)
	if cap(ws.ids) < need {
		ws.ids = make([]int32, need)
	}
	ids := ws.ids[:need]
	ws.symTab.reset(len(t))
	for i, c := range s {
		ids[i] = ws.symTab.id(uint64(uint32(c)))
	}
	for i, c := range t {
		ids[len(s)+i] = ws.symTab.id(uint64(uint32(c)))
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
// values (0 marks an empty slot), reused across calls. A key and its value
// share a slot so that a probe touches one cache line.
type table struct {
	slots []slot
	shift uint
	used  int
	last  int // keys held at the previous reset
}

type slot struct {
	key uint64
	val int32 // the value; for hashedCount, the count
	pos int32 // for hashedCount, where in t the slot's n-gram starts
}

// reset empties the table, sized for at most hint keys: as many as it held
// last time, or a few thousand. It grows as keys arrive, so that a table of
// few distinct keys stays small and in cache, and a workspace computing
// many similar kernels sizes it right at once.
func (t *table) reset(hint int) {
	t.last = max(t.used, t.last/2) // forget an unusually large call slowly
	want := min(hint, max(t.last, 2048))
	c := 64
	for c < 2*want {
		c *= 2
	}
	if cap(t.slots) < c {
		t.slots = make([]slot, c)
	}
	t.slots = t.slots[:c]
	clear(t.slots)
	t.shift = uint(64 - bits.TrailingZeros(uint(c)))
	t.used = 0
}

// find returns the slot of key, or the empty slot where it would go.
func (t *table) find(key uint64) *slot {
	mask := len(t.slots) - 1
	i := int((key * 0x9E3779B97F4A7C15) >> t.shift)
	for {
		sl := &t.slots[i&mask]
		if sl.val == 0 || sl.key == key {
			return sl
		}
		i++
	}
}

// get returns the value of key, 0 if absent.
func (t *table) get(key uint64) int32 { return t.find(key).val }

// add adds d > 0 to the value of key.
func (t *table) add(key uint64, d int32) {
	sl := t.find(key)
	if sl.val == 0 {
		sl.key, sl.val = key, d
		t.used++
		if 2*t.used > len(t.slots) {
			t.grow()
		}
		return
	}
	sl.val += d
}

// id returns the dense id (0, 1, …) of key, giving it the next one if new.
func (t *table) id(key uint64) int32 {
	sl := t.find(key)
	if sl.val == 0 {
		t.used++
		sl.key, sl.val = key, int32(t.used)
		if 2*t.used > len(t.slots) {
			t.grow()
		}
		return int32(t.used - 1)
	}
	return sl.val - 1
}

// addGram counts the n-gram of t at pos, of hash h.
func (t *table) addGram(h uint64, text []int32, pos, n int) {
	gram := text[pos : pos+n]
	mask := len(t.slots) - 1
	for i := int((h * 0x9E3779B97F4A7C15) >> t.shift); ; i++ {
		sl := &t.slots[i&mask]
		if sl.val == 0 {
			sl.key, sl.val, sl.pos = h, 1, int32(pos)
			t.used++
			if 2*t.used > len(t.slots) {
				t.grow()
			}
			return
		}
		if sl.key == h && slices.Equal(text[sl.pos:int(sl.pos)+n], gram) {
			sl.val++
			return
		}
	}
}

// countGram returns the count of gram, of hash h, among the n-grams of text
// added with addGram.
func (t *table) countGram(h uint64, gram, text []int32, n int) int32 {
	mask := len(t.slots) - 1
	for i := int((h * 0x9E3779B97F4A7C15) >> t.shift); ; i++ {
		sl := &t.slots[i&mask]
		if sl.val == 0 {
			return 0
		}
		if sl.key == h && slices.Equal(text[sl.pos:int(sl.pos)+n], gram) {
			return sl.val
		}
	}
}

// grow doubles the table.
func (t *table) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	t.shift--
	mask := len(t.slots) - 1
	for _, sl := range old {
		if sl.val == 0 {
			continue
		}
		// Keys are not unique under hashedCount: place each in the first
		// empty slot of its probe sequence.
		i := int((sl.key * 0x9E3779B97F4A7C15) >> t.shift)
		for t.slots[i&mask].val != 0 {
			i++
		}
		t.slots[i&mask] = sl
	}
}
