package vtab

import (
	"fmt"

	"github.com/ksql/ksql/ext/host"
)

// gramModule is gram(row_id, col_id, value): the Gram matrix of a source
// as a table, computed when queried.
type gramModule struct{}

type gramTable struct {
	hc  *host.Conn
	src *source
	// snap is the last snapshot read, reused while the source content is
	// unchanged (decoding texts is not free).
	snap *snapshot
}

const (
	gramRowID = 0
	gramColID = 1
)

func (gramModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openGram(c, args, true)
}

func (gramModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openGram(c, args, false)
}

func openGram(c *host.Conn, args []string, create bool) (t host.Table, err error) {
	defer guard("gram", &err)
	opts, err := parseOptions(args[3:], sourceKeys)
	if err != nil {
		return nil, prefix("gram", err)
	}
	src, err := newSource("gram", opts)
	if err != nil {
		return nil, prefix("gram", err)
	}
	src.owner = args[2]
	src.inSchema(args[1])
	if create {
		if err := src.validate(c); err != nil {
			return nil, prefix("gram", err)
		}
	}
	return &gramTable{hc: c, src: src}, nil
}

func (t *gramTable) Schema() string {
	return "CREATE TABLE x(row_id, col_id, value REAL)"
}

// BestIndex uses row_id = ? and col_id = ?: one row of the matrix costs n
// kernel values, one entry costs one, a full scan n²/2.
func (t *gramTable) BestIndex(info *host.IndexInfo) error {
	row := firstEQ(info, gramRowID)
	col := firstEQ(info, gramColID)
	recordPlan(info)
	switch {
	case row && col:
		info.EstimatedCost, info.EstimatedRows = 10, 1
	case row || col:
		info.EstimatedCost, info.EstimatedRows = 1e4, 1e3
	default:
		info.EstimatedCost, info.EstimatedRows = 1e8, 1e6
	}
	return nil
}

func (t *gramTable) Open() (host.Cursor, error) { return &gramCursor{t: t}, nil }
func (t *gramTable) Disconnect() error          { return nil }
func (t *gramTable) Destroy() error             { return nil }

// gramCursor walks rows × cols of the snapshot's rows. The values come
// from one of three computations, by plan: a full upper-triangular Gram
// matrix of the non-NULL objects (full), one kernel row against a fixed
// object (line), or a single entry.
type gramCursor struct {
	t          *gramTable
	snap       *snapshot
	rows, cols []int // snapshot rows to walk; nil means all
	nr, nc     int
	pos        int
	full       []float64 // m×m, upper triangle, m = len(snap.objs)
	line       []float64 // K(objs[o], fixed) by object index o
	lineByRow  bool      // the fixed object is the row (true) or the column
}

func (c *gramCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("gram", &err)
	return prefix("gram", c.filter(idxStr, vals))
}

func (c *gramCursor) filter(idxStr string, vals []any) error {
	c.pos, c.full, c.line, c.rows, c.cols, c.lineByRow = 0, nil, nil, nil, nil, false
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	rv, hasRow := cons[gramRowID]
	cv, hasCol := cons[gramColID]
	var bound func(int) error
	if !hasRow && !hasCol {
		bound = c.fullTooBig
	}
	if c.snap == nil { // once per cursor, that is per statement (see source.read)
		snap, err := c.t.src.readBounded(c.t.hc, c.t.snap, bound)
		if err != nil {
			return err
		}
		c.t.snap, c.snap = snap, snap
	}
	snap := c.snap
	n := snap.nrows()
	c.nr, c.nc = n, n
	if hasRow {
		r, ok := snap.row(rv)
		if !ok {
			c.nr = 0
			return nil
		}
		c.rows, c.nr = []int{r}, 1
	}
	if hasCol {
		r, ok := snap.row(cv)
		if !ok {
			c.nr = 0
			return nil
		}
		c.cols, c.nc = []int{r}, 1
	}
	switch {
	case hasRow:
		c.lineByRow = true
		return c.computeLine(c.rows[0])
	case hasCol:
		return c.computeLine(c.cols[0])
	}
	return c.computeFull()
}

// computeLine computes K(x, fixed) for every object x: one row of the
// matrix, or one column, which is the same by symmetry. A single entry
// (both ids given) is the same computation restricted to one object.
func (c *gramCursor) computeLine(fixedRow int) error {
	snap := c.snap
	o := snap.objOf(fixedRow)
	if o < 0 {
		return nil // NULL object: NULL values
	}
	objs := snap.objs
	if c.rows != nil && c.cols != nil {
		other := snap.objOf(c.cols[0])
		if other < 0 {
			return nil
		}
		c.line = make([]float64, len(objs))
		opt, err := gramOptions(c.t.hc, c.t.src.spec)
		if err != nil {
			return err
		}
		err = c.t.src.spec.Cross(objs[other:other+1], objs[o:o+1], c.line[other:other+1], opt)
		return pairErrorFixed(snap, err, other, o)
	}
	c.line = make([]float64, len(objs))
	opt, err := gramOptions(c.t.hc, c.t.src.spec)
	if err != nil {
		return err
	}
	err = c.t.src.spec.Cross(objs, objs[o:o+1], c.line, opt)
	return pairErrorFixed(snap, err, -1, o)
}

// pairErrorFixed names the rows of a failed Cross against objs[fixed];
// base is the object index of Cross's first row when it was a single one.
func pairErrorFixed(snap *snapshot, err error, base, fixed int) error {
	if err == nil {
		return nil
	}
	if pe, ok := asPair(err); ok {
		row := pe.Row
		if base >= 0 {
			row = base
		}
		return fmt.Errorf("rows id %s and id %s: %w", idText(snap.id(snap.rowOf(row))), idText(snap.id(snap.rowOf(fixed))), pe.Err)
	}
	return err
}

// fullTooBig is the max_gram_bytes error of a full scan of m objects, nil
// when it fits.
func (c *gramCursor) fullTooBig(m int) error {
	need := 8 * int64(m) * int64(m)
	if max := maxGramBytes(c.t.hc); need > max {
		return fmt.Errorf("a full scan of %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
			"%s", m, m, m, sizeText(need), max, gramFix(need, "ask for one row at a time with WHERE row_id = ?"))
	}
	return nil
}

func (c *gramCursor) computeFull() error {
	m := len(c.snap.objs)
	if err := c.fullTooBig(m); err != nil {
		return err
	}
	c.full = make([]float64, m*m)
	opt, err := gramOptions(c.t.hc, c.t.src.spec)
	if err != nil {
		return err
	}
	err = c.t.src.spec.Gram(c.snap.objs, c.full, opt)
	return pairError(c.snap, err)
}

func (c *gramCursor) Next() error { c.pos++; return nil }
func (c *gramCursor) EOF() bool   { return c.pos >= c.nr*c.nc }

// at returns the snapshot rows of the current row_id and col_id.
func (c *gramCursor) at() (int, int) {
	i, j := c.pos/c.nc, c.pos%c.nc
	if c.rows != nil {
		i = c.rows[0]
	}
	if c.cols != nil {
		j = c.cols[0]
	}
	return i, j
}

func (c *gramCursor) Column(col int) (any, error) {
	i, j := c.at()
	switch col {
	case gramRowID:
		return c.snap.id(i), nil
	case gramColID:
		return c.snap.id(j), nil
	}
	a, b := c.snap.objOf(i), c.snap.objOf(j)
	if a < 0 || b < 0 {
		return nil, nil
	}
	switch {
	case c.full != nil:
		m := len(c.snap.objs)
		return c.full[min(a, b)*m+max(a, b)], nil
	case c.line != nil && c.lineByRow:
		return c.line[b], nil
	case c.line != nil:
		return c.line[a], nil
	}
	return nil, nil
}

// Rowid is the entry's place in the whole matrix, the same whichever scan
// reaches it: SQLite's OR optimisation (WHERE row_id = 1 OR col_id = 3)
// runs one scan per term and drops the rows whose rowid it has seen.
func (c *gramCursor) Rowid() (int64, error) {
	i, j := c.at()
	return int64(i)*int64(c.snap.nrows()) + int64(j), nil
}

func (c *gramCursor) Close() error { return nil }
