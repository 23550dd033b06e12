package vtab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kpca"
)

// mapModule is kernel_map(id, vector, input HIDDEN): the exact explicit
// feature map of Ghiasi-Shirazi & Qaraei over a source, as float32 BLOBs.
type mapModule struct{}

type mapTable struct {
	hc     *host.Conn
	name   string
	src    *source
	relTol float64

	fits fitCache[*kpca.Map]
}

const mapInputCol = 2

var mapKeys = append([]string{"tol"}, sourceKeys...)

func (mapModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openMap(c, args, true)
}

func (mapModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openMap(c, args, false)
}

func openMap(c *host.Conn, args []string, create bool) (tab host.Table, err error) {
	defer guard("kernel_map", &err)
	t, err := newMap(c, args)
	if err != nil {
		return nil, prefix("kernel_map", err)
	}
	if create {
		if err := t.src.validate(c); err != nil {
			return nil, prefix("kernel_map", err)
		}
	}
	return t, nil
}

func newMap(c *host.Conn, args []string) (*mapTable, error) {
	opts, err := parseOptions(args[3:], mapKeys)
	if err != nil {
		return nil, err
	}
	t := &mapTable{hc: c, name: args[2]}
	if t.src, err = newSource("kernel_map", opts); err != nil {
		return nil, err
	}
	if v, ok, err := opts.text("tol"); err != nil {
		return nil, err
	} else if ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f > 0 && f < 1) {
			return nil, fmt.Errorf("tol=%s: allowed a number between 0 and 1 (exclusive), the pseudo-inverse tolerance relative to the largest eigenvalue", v)
		}
		t.relTol = f
	}
	return t, nil
}

func (t *mapTable) Schema() string { return "CREATE TABLE x(id, vector BLOB, input HIDDEN)" }

func (t *mapTable) BestIndex(info *host.IndexInfo) error {
	return modelBestIndex(info, mapInputCol)
}

func (t *mapTable) Open() (host.Cursor, error) { return &mapCursor{t: t}, nil }
func (t *mapTable) Disconnect() error          { return nil }
func (t *mapTable) Destroy() error             { return nil }

// current is kpcaTable.current for the feature map.
func (t *mapTable) current() (*snapshot, *kpca.Map, error) {
	return t.fits.current(t.name, t.hc, t.src, t.fitSnapshot)
}

func (t *mapTable) fitSnapshot(snap *snapshot) (*kpca.Map, error) {
	n := len(snap.objs)
	if n == 0 {
		return nil, errEmpty(snap)
	}
	if need, max := kpca.ExactBytes(n), maxGramBytes(t.hc); need > max {
		return nil, fmt.Errorf("the exact map of %d objects needs a %d×%d Gram matrix (%s), more than max_gram_bytes = %d; "+
			"raise it with SELECT ksql_config('max_gram_bytes', N), or approximate: kpca(..., method=nystrom) or rff_embed(...)",
			n, n, n, sizeText(need), max)
	}
	K, err := gramMatrix(t.hc, t.src.spec, snap)
	if err != nil {
		return nil, err
	}
	m, err := kpca.FitMap(K, kpca.MapOptions{RelTol: t.relTol, Interrupt: t.hc.Err})
	if err != nil {
		return nil, fitError(err)
	}
	return m, nil
}

type mapCursor struct {
	modelCursor
	t   *mapTable
	fit *kpca.Map
	buf []float64
	vec []byte // the input's vector
}

func (c *mapCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("kernel_map", &err)
	return prefix("kernel_map", c.filter(idxStr, vals))
}

func (c *mapCursor) filter(idxStr string, vals []any) error {
	snap, fit, err := c.t.current()
	if err != nil {
		return err
	}
	c.fit, c.vec = fit, nil
	c.buf = make([]float64, fit.Dim())
	z, err := c.start(snap, c.t.src, idxStr, vals, mapInputCol)
	if err != nil || z == nil {
		return err
	}
	kz, err := project(c.t.hc, c.t.src.spec, snap.objs, *z)
	if err != nil {
		return err
	}
	if _, err := fit.Apply(kz, c.buf); err != nil {
		return fmt.Errorf("input: %v", err)
	}
	c.vec = host.Float32Blob(c.buf)
	return nil
}

func (c *mapCursor) Column(col int) (any, error) {
	if col == mapInputCol {
		return c.input, nil
	}
	o, id := c.object()
	if col == 0 {
		return id, nil
	}
	if c.single {
		return c.vec, nil
	}
	if o < 0 {
		return nil, nil
	}
	return host.Float32Blob(c.fit.Stored(o, c.buf)), nil
}
