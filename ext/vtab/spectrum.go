package vtab

import (
	"fmt"
	"math"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kpca"
)

// KernelSpectrum is the table-valued function kernel_spectrum(kernel,
// query): the eigenvalues of the Gram matrix of the query's objects,
// largest first, with a summary (n, symmetric, min_eigenvalue,
// negative_mass) on every row — Mercer's condition checked on the data.
// With kernel NULL the query gives the matrix itself as (row id, column
// id, value) entries, e.g. of transducer_weight.
var KernelSpectrum host.Eponymous = spectrumModule{}

var (
	_ host.Eponymous = spectrumModule{}
	_ host.Table     = (*spectrumTable)(nil)
	_ host.Cursor    = (*spectrumCursor)(nil)
)

type spectrumModule struct{}

// EponymousOnly marks kernel_spectrum as usable only by its own name.
func (spectrumModule) EponymousOnly() {}

type spectrumTable struct{ hc *host.Conn }

const (
	specKernelCol = 6
	specQueryCol  = 7
	spectrumUsage = "SELECT * FROM kernel_spectrum('gauss(sigma=1)', 'SELECT id, v FROM points')"
)

func (spectrumModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openSpectrum(c, args)
}

func (spectrumModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openSpectrum(c, args)
}

func openSpectrum(c *host.Conn, args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("kernel_spectrum: takes no module arguments; use it as %s", spectrumUsage)
	}
	return &spectrumTable{hc: c}, nil
}

func (t *spectrumTable) Schema() string {
	return "CREATE TABLE x(k INTEGER, eigenvalue REAL, n INTEGER, symmetric INTEGER, min_eigenvalue REAL, negative_mass REAL, kernel HIDDEN, query HIDDEN)"
}

func (t *spectrumTable) BestIndex(info *host.IndexInfo) error {
	kernel, query := firstEQ(info, specKernelCol), firstEQ(info, specQueryCol)
	switch {
	case kernel && query:
		info.EstimatedCost, info.EstimatedRows = 1e3, 100
	case hasEQ(info, specQueryCol):
		info.EstimatedCost, info.EstimatedRows = 1e12, 100
	default:
		info.EstimatedCost, info.EstimatedRows = 1e15, 100
	}
	recordPlan(info)
	return nil
}

func (t *spectrumTable) Open() (host.Cursor, error) { return &spectrumCursor{t: t}, nil }
func (t *spectrumTable) Disconnect() error          { return nil }
func (t *spectrumTable) Destroy() error             { return nil }

type spectrumCursor struct {
	t             *spectrumTable
	s             kpca.Spectrum
	kernel, query any
	pos           int
}

func (c *spectrumCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("kernel_spectrum", &err)
	return prefix("kernel_spectrum", c.filter(idxStr, vals))
}

func (c *spectrumCursor) filter(idxStr string, vals []any) error {
	c.pos, c.s = 0, kpca.Spectrum{}
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	kernel, hasK := cons[specKernelCol]
	query, hasQ := cons[specQueryCol]
	if !hasK || !hasQ {
		return fmt.Errorf("needs a kernel spec (or NULL) and a query, as in %s", spectrumUsage)
	}
	c.kernel, c.query = cloneText(kernel), cloneText(query)
	q, ok := query.(string)
	if !ok {
		return fmt.Errorf("the query must be TEXT (a SELECT of id, object; or of row id, column id, value when kernel is NULL), got %s", host.TypeName(query))
	}
	var K []float64
	var n int
	switch k := kernel.(type) {
	case nil:
		K, n, err = c.matrix(q)
	case string:
		K, n, err = c.gram(k, q)
	default:
		return fmt.Errorf("the kernel must be TEXT (a kernel spec) or NULL (the query gives the matrix), got %s", host.TypeName(kernel))
	}
	if err != nil {
		return err
	}
	c.s, err = kpca.SpectrumOf(K, n, c.t.hc.Err)
	return err
}

func cloneText(v any) any {
	if s, ok := v.(string); ok {
		return strings.Clone(s)
	}
	return v
}

// gram computes every K(x_i, x_j), both triangles, so that an asymmetric
// kernel shows as one.
func (c *spectrumCursor) gram(kernel, query string) ([]float64, int, error) {
	src, err := newSource("kernel_spectrum", options{"kernel": sqlQuote(kernel), "query": sqlQuote(query)})
	if err != nil {
		return nil, 0, err
	}
	snap, err := src.read(c.t.hc, nil)
	if err != nil {
		return nil, 0, err
	}
	n := len(snap.objs)
	if need, max := int64(n)*int64(n)*8, maxGramBytes(c.t.hc); need > max {
		return nil, 0, objectsTooMany(n, max)
	}
	opt, err := gramOptions(c.t.hc, src.spec)
	if err != nil {
		return nil, 0, err
	}
	K := make([]float64, n*n)
	if err := src.spec.Cross(snap.objs, snap.objs, K, opt); err != nil {
		return nil, 0, pairError(snap, err)
	}
	for p, v := range K {
		if v-v != 0 {
			return nil, 0, fmt.Errorf("rows id %s and id %s: the kernel is %v; use normalize(...) for long texts",
				idText(snap.id(snap.rowOf(p/n))), idText(snap.id(snap.rowOf(p%n))), v)
		}
	}
	return K, n, nil
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// matrix reads a matrix given as (row id, column id, value) entries: every
// pair of ids exactly once, values finite numbers.
func (c *spectrumCursor) matrix(query string) ([]float64, int, error) {
	q, err := checkSelect(query)
	if err != nil {
		return nil, 0, err
	}
	// ids become indices as they come, so an entry is 16 bytes, kept in
	// blocks (no copy as they grow) and bounded by max_gram_bytes; the
	// matrix needs every pair of ids, so ids past √limit are refused at
	// once. (An endless query grew by 80 bytes an entry, ten times the
	// bound, before it was refused.)
	type entry struct {
		i, j int32
		v    float64
	}
	const block = 1 << 16
	var blocks [][]entry
	count := int64(0)
	index := map[any]int32{}
	var ids []any
	limit := maxGramBytes(c.t.hc) / 16
	key := func(v any) (int32, error) {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			v = int64(f) // 1.0 and 1 are one id, as SQL compares them
		}
		switch x := v.(type) {
		case int64, float64, string:
			if k, ok := index[x]; ok {
				return k, nil
			}
			if n := int64(len(ids)) + 1; n*n > limit {
				return 0, fmt.Errorf("the query names more than %d ids, whose %d entries would pass max_gram_bytes = %s (16 bytes an entry)",
					n-1, n*n, sizeText(limit*16))
			}
			index[x] = int32(len(ids))
			ids = append(ids, x)
			return index[x], nil
		}
		return 0, fmt.Errorf("ids must be integers, reals or TEXT, got %s", host.TypeName(v))
	}
	sql := "WITH ksql_source(i, j, value) AS (\n" + q + "\n) SELECT i, j, value FROM ksql_source"
	err = c.t.hc.Query(sql, nil, func(v []any) error {
		if count >= limit {
			return fmt.Errorf("more than %d entries, past max_gram_bytes = %s (16 bytes an entry)", limit, sizeText(limit*16))
		}
		i, err := key(v[0])
		if err != nil {
			return err
		}
		j, err := key(v[1])
		if err != nil {
			return err
		}
		x, ok := v[2].(float64)
		if iv, isInt := v[2].(int64); isInt {
			x, ok = float64(iv), true
		}
		if !ok || x-x != 0 {
			return fmt.Errorf("entry (%s, %s): the value must be a finite number, got %s", idText(ids[i]), idText(ids[j]), describe(v[2]))
		}
		if count%block == 0 {
			blocks = append(blocks, make([]entry, 0, block))
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], entry{i, j, x})
		count++
		return nil
	})
	if err != nil && strings.Contains(sqliteMessage(err), "values for 3 columns") {
		return nil, 0, fmt.Errorf("with kernel NULL the query must return three columns (row id, column id, value): %s", sqliteMessage(err))
	}
	if err != nil {
		return nil, 0, err
	}
	n := len(ids)
	if count != int64(n*n) {
		return nil, 0, fmt.Errorf("the query gives %d entries for %d ids; a matrix needs every (row id, column id) pair once: %d", count, n, n*n)
	}
	K := make([]float64, n*n)
	for p := range K {
		K[p] = math.NaN() // not given yet: the entries are finite
	}
	for _, b := range blocks {
		for _, e := range b {
			p := int(e.i)*n + int(e.j)
			if !math.IsNaN(K[p]) {
				return nil, 0, fmt.Errorf("entry (%s, %s) is given twice", idText(ids[e.i]), idText(ids[e.j]))
			}
			K[p] = e.v
		}
	}
	return K, n, nil
}

func (c *spectrumCursor) Next() error { c.pos++; return nil }
func (c *spectrumCursor) EOF() bool   { return c.pos >= len(c.s.Values) }

func (c *spectrumCursor) Column(col int) (any, error) {
	switch col {
	case 0:
		return int64(c.pos + 1), nil
	case 1:
		return c.s.Values[c.pos], nil
	case 2:
		return int64(len(c.s.Values)), nil
	case 3:
		if c.s.Symmetric {
			return int64(1), nil
		}
		return int64(0), nil
	case 4:
		return c.s.Min, nil
	case 5:
		return c.s.NegativeMass, nil
	case specKernelCol:
		return c.kernel, nil
	}
	return c.query, nil
}

func (c *spectrumCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *spectrumCursor) Close() error          { return nil }
