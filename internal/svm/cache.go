package svm

// cache holds columns of Q (Q_ij = y_i·y_j·K_ij) as float32, libsvm's
// Qfloat: half the memory of float64 per column, so twice the columns fit
// in a budget, and the solver's sweeps over two columns per iteration read
// half the bytes. Like libsvm's Cache it evicts the least recently used
// column, keeps a column's prefix [0, len) so that a longer request only
// computes the rest, and follows the solver's index swaps (shrinking).
//
// Unlike libsvm, every column lives in a fixed slot of capacity slotCap (the
// largest subproblem of the fit), so extending a column never reallocates
// and a worker reuses its slots across the one-vs-one subproblems: the
// cache allocates only when a slot is first used. The budget bounds
// slots·slotCap·4 bytes, with at least two slots (the two columns of a
// working set), as libsvm.
type cache struct {
	slotCap  int
	maxSlots int
	used     int         // slots handed out so far in this subproblem
	data     [][]float32 // slot buffers, kept across subproblems
	owner    []int32     // slot → column position, −1 when free
	length   []int32     // slot → cached prefix length
	head     []int32     // column position → slot, −1 when not cached
	prev     []int32     // LRU list over slots; index maxSlots is the sentinel
	next     []int32
	free     []int32    // slots released by swaps
	pending  [][2]int32 // swaps not yet applied to the columns' entries
}

// newCache makes a cache for subproblems of at most slotCap columns within
// budget bytes.
func newCache(slotCap int, budget int64) *cache {
	slots := budget / (4 * int64(max(slotCap, 1)))
	slots = max(slots, 2)
	slots = min(slots, int64(max(slotCap, 2)))
	m := int(slots)
	c := &cache{slotCap: slotCap, maxSlots: m}
	c.data = make([][]float32, m)
	c.owner = make([]int32, m)
	c.length = make([]int32, m)
	c.prev = make([]int32, m+1)
	c.next = make([]int32, m+1)
	c.head = make([]int32, slotCap)
	c.free = make([]int32, 0, m)
	return c
}

// reset empties the cache for a subproblem of l ≤ slotCap columns.
func (c *cache) reset(l int) {
	c.used = 0
	c.free = c.free[:0]
	c.pending = c.pending[:0]
	s := int32(c.maxSlots)
	c.prev[s], c.next[s] = s, s
	head := c.head[:l]
	for i := range head {
		head[i] = -1
	}
}

func (c *cache) unlink(s int32) {
	p, n := c.prev[s], c.next[s]
	c.next[p] = n
	c.prev[n] = p
}

// pushBack makes s the most recently used slot.
func (c *cache) pushBack(s int32) {
	sent := int32(c.maxSlots)
	p := c.prev[sent]
	c.prev[s], c.next[s] = p, sent
	c.next[p] = s
	c.prev[sent] = s
}

// get returns the slot of column i with room for n values, and the first
// index from which the caller must fill it (n when all is cached).
func (c *cache) get(i, n int) ([]float32, int) {
	c.flush()
	s := c.head[i]
	if s >= 0 {
		c.unlink(s)
		c.pushBack(s)
		start := int(c.length[s])
		if start < n {
			c.length[s] = int32(n)
		}
		return c.data[s][:c.slotCap], start
	}
	s = c.take()
	c.head[i] = s
	c.owner[s] = int32(i)
	c.length[s] = int32(n)
	c.pushBack(s)
	return c.data[s][:c.slotCap], 0
}

// take returns an unused slot: a released one, a new one, or the least
// recently used one, evicted.
func (c *cache) take() int32 {
	if k := len(c.free); k > 0 {
		s := c.free[k-1]
		c.free = c.free[:k-1]
		return s
	}
	if c.used < c.maxSlots {
		s := int32(c.used)
		c.used++
		if c.data[s] == nil {
			c.data[s] = make([]float32, c.slotCap)
		}
		return s
	}
	s := c.next[c.maxSlots]
	c.unlink(s)
	c.head[c.owner[s]] = -1
	return s
}

// swap follows the solver's exchange of positions i and j: the columns
// trade places at once, and inside every cached column the two entries
// trade places when the swaps are flushed (before the next get); a
// column that holds i but not j is dropped then (libsvm "gives up").
// Deferring lets flush apply a whole shrinking pass column by column, each
// column's swaps within its own few kilobytes, instead of touching every
// cached column once per swap as libsvm does.
func (c *cache) swap(i, j int) {
	if i == j {
		return
	}
	if i > j {
		i, j = j, i
	}
	si, sj := c.head[i], c.head[j]
	c.head[i], c.head[j] = sj, si
	if si >= 0 {
		c.owner[si] = int32(j)
	}
	if sj >= 0 {
		c.owner[sj] = int32(i)
	}
	c.pending = append(c.pending, [2]int32{int32(i), int32(j)})
}

// flush applies the pending swaps to the cached columns' entries.
func (c *cache) flush() {
	if len(c.pending) == 0 {
		return
	}
	for s := c.next[c.maxSlots]; s != int32(c.maxSlots); {
		nx := c.next[s]
		n := c.length[s]
		d := c.data[s]
		for _, p := range c.pending {
			if n <= p[0] {
				continue
			}
			if n <= p[1] {
				c.unlink(s)
				c.head[c.owner[s]] = -1
				c.free = append(c.free, s)
				break
			}
			d[p[0]], d[p[1]] = d[p[1]], d[p[0]]
		}
		s = nx
	}
	c.pending = c.pending[:0]
}
