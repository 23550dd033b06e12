package tsne

import (
	"math"

	"github.com/ksql/ksql/internal/par"
)

// quadtree is a Barnes–Hut tree over 2-D points, its nodes in one slice
// reused across iterations (no allocation once grown).
type quadtree struct {
	nodes []qnode
	y     []float64 // the points, row-major (x, y)
	// For a split build: bucket[k] lists, in index order, the points of
	// top node k at splitDepth; cells are those nodes, and sub[c] is cell
	// c's subtree, built on its own.
	bucket [][]int32
	cells  []int
	sub    []quadtree
}

type qnode struct {
	cx, cy, half float64 // the cell: centre and half width
	mx, my       float64 // sum of the points' coordinates (centre of mass × count)
	count        int
	point        int32    // the one point of a leaf, −1 for none
	child        [4]int32 // 0 for none (node 0 is the root, never a child)
}

const maxDepth = 48

// splitDepth is the depth whose cells (16) a tree of splitAbove points or
// more builds apart, shared among workers: inserting points one at a time
// is a serial n·log n of cache misses, a tenth of a t-SNE iteration's time
// at thousands of points.
const splitDepth, splitAbove = 2, 2048

// build makes the tree of the n points Y. The structure of a quadtree
// does not depend on the order of insertion, and each node's sums take
// its points in index order either way, so a split build has the serial
// one's bits.
func (t *quadtree) build(Y []float64, n int) error {
	t.y = Y
	t.nodes = append(t.nodes[:0], rootCell(Y, n))
	if n >= splitAbove {
		return t.buildSplit(n)
	}
	for i := 0; i < n; i++ {
		t.insert(0, i, Y[2*i], Y[2*i+1], 0)
	}
	return nil
}

// rootCell is the root node for the n points Y: a square around them.
func rootCell(Y []float64, n int) qnode {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := 0; i < n; i++ {
		minX, maxX = math.Min(minX, Y[2*i]), math.Max(maxX, Y[2*i])
		minY, maxY = math.Min(minY, Y[2*i+1]), math.Max(maxY, Y[2*i+1])
	}
	half := math.Max(maxX-minX, maxY-minY)/2*(1+1e-9) + 1e-12
	return qnode{cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, half: half, point: -1}
}

// buildSplit inserts every point down to splitDepth, where it is only
// listed in its cell's bucket, builds each cell's subtree from its bucket
// on a worker, and appends the subtrees' nodes in cell order.
func (t *quadtree) buildSplit(n int) error {
	for k := range t.bucket {
		t.bucket[k] = t.bucket[k][:0]
	}
	for i := 0; i < n; i++ {
		t.insertTop(i)
	}
	t.cells = t.cells[:0]
	for k := range t.nodes {
		if k < len(t.bucket) && len(t.bucket[k]) > 0 {
			t.cells = append(t.cells, k)
		}
	}
	for len(t.sub) < len(t.cells) {
		t.sub = append(t.sub, quadtree{})
	}
	err := par.For("tsne", len(t.cells), 0, 1, func(_, c int) error {
		k, s := t.cells[c], &t.sub[c]
		s.y = t.y
		nd := t.nodes[k]
		s.nodes = append(s.nodes[:0], qnode{cx: nd.cx, cy: nd.cy, half: nd.half, point: -1})
		for _, i := range t.bucket[k] {
			s.insert(0, int(i), t.y[2*i], t.y[2*i+1], splitDepth)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for c, k := range t.cells {
		sub := t.sub[c].nodes
		base := int32(len(t.nodes)) - 1 // sub's node l ≥ 1 goes to base + l
		for l := range sub {
			nd := sub[l]
			for q, ch := range nd.child {
				if ch != 0 {
					nd.child[q] = base + ch
				}
			}
			if l == 0 {
				t.nodes[k] = nd
			} else {
				t.nodes = append(t.nodes, nd)
			}
		}
	}
	return nil
}

// insertTop is insert for the nodes above splitDepth; a point that
// reaches splitDepth, or is pushed down to it, joins that cell's bucket.
func (t *quadtree) insertTop(i int) {
	x, y := t.y[2*i], t.y[2*i+1]
	for k, depth := 0, 0; ; depth++ {
		if depth == splitDepth {
			t.list(k, i)
			return
		}
		if t.enter(k, i, x, y) {
			return
		}
		if t.nodes[k].point >= 0 {
			c, p, px, py := t.evict(k)
			if depth+1 == splitDepth {
				t.list(c, p)
			} else {
				t.nodes[c].mx, t.nodes[c].my, t.nodes[c].count, t.nodes[c].point = px, py, 1, int32(p)
			}
		}
		k = t.child(k, x, y)
	}
}

// list appends point i to node k's bucket.
func (t *quadtree) list(k, i int) {
	for len(t.bucket) <= k {
		t.bucket = append(t.bucket, nil)
	}
	t.bucket[k] = append(t.bucket[k], int32(i))
}

func (t *quadtree) insert(k, i int, x, y float64, depth int) {
	for {
		if t.enter(k, i, x, y) {
			return
		}
		if depth >= maxDepth { // coincident points: the leaf keeps their sum
			return
		}
		if t.nodes[k].point >= 0 {
			c, p, px, py := t.evict(k)
			t.nodes[c].mx, t.nodes[c].my, t.nodes[c].count, t.nodes[c].point = px, py, 1, int32(p)
		}
		k = t.child(k, x, y)
		depth++
	}
}

// enter adds point i at (x, y) to node k's sums and reports whether it is
// the node's first point, which the node then holds.
func (t *quadtree) enter(k, i int, x, y float64) bool {
	nd := &t.nodes[k]
	nd.mx += x
	nd.my += y
	nd.count++
	if nd.count == 1 {
		nd.point = int32(i)
		return true
	}
	return false
}

// evict splits leaf k: its point p, at (px, py), leaves it for the child
// c that holds that place (created if need be), for the caller to put there.
func (t *quadtree) evict(k int) (c, p int, px, py float64) {
	p = int(t.nodes[k].point)
	t.nodes[k].point = -1
	px, py = t.y[2*p], t.y[2*p+1]
	return t.child(k, px, py), p, px, py
}

// child returns the child of node k holding (x, y), creating it.
func (t *quadtree) child(k int, x, y float64) int {
	nd := t.nodes[k]
	q := 0
	cx, cy, h := nd.cx-nd.half/2, nd.cy-nd.half/2, nd.half/2
	if x >= nd.cx {
		q |= 1
		cx = nd.cx + h
	}
	if y >= nd.cy {
		q |= 2
		cy = nd.cy + h
	}
	if c := nd.child[q]; c != 0 {
		return int(c)
	}
	t.nodes = append(t.nodes, qnode{cx: cx, cy: cy, half: h, point: -1})
	c := len(t.nodes) - 1
	t.nodes[k].child[q] = int32(c)
	return c
}

// repulse sums, for point i at (x, y), qZ = 1/(1 + d²) over the other
// points and adds Σ (qZ)²·(y_i − y_j) into rep (reset first); cells whose
// width over distance is below θ count as one point at their centre of
// mass (with θ < 0.7 such a cell never holds y_i itself). It walks iteratively, so its order, and its bits, are fixed.
func (t *quadtree) repulse(i int, x, y, theta float64, rep []float64) float64 {
	rep[0], rep[1] = 0, 0
	var stack [4*maxDepth + 8]int32
	top := 1
	stack[0] = 0
	sum := 0.0
	for top > 0 {
		top--
		nd := &t.nodes[stack[top]]
		if nd.count == 0 {
			continue
		}
		cnt := float64(nd.count)
		mx, my := nd.mx/cnt, nd.my/cnt
		dx, dy := x-mx, y-my
		d2 := dx*dx + dy*dy
		leaf := nd.child == [4]int32{}
		if leaf || 2*nd.half < theta*math.Sqrt(d2) {
			// i's own leaf: a single point, or points at i's place that
			// share a leaf below maxDepth; leave i out.
			if leaf && (nd.point == int32(i) && nd.count == 1 || nd.count > 1 && d2 <= 1e-24*(1+x*x+y*y)) {
				cnt--
			}
			q := 1 / (1 + d2)
			sum += cnt * q
			rep[0] += cnt * q * q * dx
			rep[1] += cnt * q * q * dy
			continue
		}
		for c := 3; c >= 0; c-- {
			if ch := nd.child[c]; ch != 0 {
				stack[top] = ch
				top++
			}
		}
	}
	return sum
}
