package strkernel

// occurrences lists, for each symbol of s, the positions where it occurs
// in t, so that work that only happens at equal symbols (the final sums of
// layered.go) visits those positions alone, and rows whose symbol does not
// occur in t at all, which change nothing, are skipped.
type occurrences struct {
	row   []int32 // row[i]: the list of s[i] in t, or −1 if s[i] is not in t
	start []int32 // list k is pos[start[k]:start[k+1]]
	pos   []int32 // positions j (0-based) in t
}

// list returns the positions in t of the symbol of row i.
func (o *occurrences) list(i int) []int32 {
	k := o.row[i]
	if k < 0 {
		return nil
	}
	return o.pos[o.start[k]:o.start[k+1]]
}

// occurrences builds the lists in O(|s|+|t|).
func (ws *Workspace) occurrences(s, t []int32) *occurrences {
	o := &ws.occ
	tab := &ws.symTab
	tab.reset(len(t))
	o.pos = grow(o.pos, len(t))
	for j, c := range t {
		o.pos[j] = tab.id(uint64(uint32(c)))
	}
	k := tab.used
	o.start = grow(o.start, k+1)
	clear(o.start)
	for _, id := range o.pos {
		o.start[id+1]++
	}
	for i := 1; i <= k; i++ {
		o.start[i] += o.start[i-1]
	}
	// Place positions by symbol; start[id] advances as its list fills and
	// is moved back afterwards. ids are read before pos is overwritten by
	// keeping them in row temporarily.
	o.row = grow(o.row, max(len(s), len(t)))
	copy(o.row, o.pos[:len(t)])
	for j := range t {
		id := o.row[j]
		o.pos[o.start[id]] = int32(j)
		o.start[id]++
	}
	for i := k; i > 0; i-- {
		o.start[i] = o.start[i-1]
	}
	o.start[0] = 0
	o.row = o.row[:len(s)]
	for i, c := range s {
		o.row[i] = tab.get(uint64(uint32(c))) - 1
	}
	return o
}

// grow returns buf with length n, reusing its storage when large enough.
func grow(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	return buf[:n]
}
