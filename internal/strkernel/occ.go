package strkernel

// occurrences lists, for each distinct symbol of t, the positions where it
// occurs, so that work that only happens at equal symbols (the final sums
// of layered.go) visits those positions alone, and rows of s whose symbol
// does not occur in t at all, which change nothing, are skipped. It takes
// O(|t|) memory; a symbol of s is looked up once per row.
type occurrences struct {
	tab   *table  // symbol → 1 + its list's index
	start []int32 // list k is pos[start[k]:start[k+1]]
	pos   []int32 // positions j (0-based) in t
}

// in returns the positions in t of symbol x, nil if there are none.
func (o *occurrences) in(x int32) []int32 {
	k := o.tab.get(uint64(uint32(x))) - 1
	if k < 0 {
		return nil
	}
	return o.pos[o.start[k]:o.start[k+1]]
}

// occurrences builds the lists in O(|t|).
func (ws *Workspace) occurrences(t []int32) *occurrences {
	o := &ws.occ
	o.tab = &ws.symTab
	o.tab.reset(len(t))
	o.pos = grow(o.pos, len(t))
	for j, c := range t {
		o.pos[j] = o.tab.id(uint64(uint32(c)))
	}
	k := o.tab.used
	o.start = grow(o.start, k+2)
	clear(o.start)
	for _, id := range o.pos {
		o.start[id+2]++
	}
	for i := 2; i <= k+1; i++ {
		o.start[i] += o.start[i-1]
	}
	// start[id+1] is where list id begins; it advances as the list fills,
	// ending where list id+1 begins, as start[id+1] must then say.
	ids := grow(ws.scratch, len(t))
	copy(ids, o.pos)
	for j, id := range ids {
		o.pos[o.start[id+1]] = int32(j)
		o.start[id+1]++
	}
	ws.scratch = ids
	o.start = o.start[:k+1]
	return o
}

// grow returns buf with length n, reusing its storage when large enough.
func grow(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	return buf[:n]
}
