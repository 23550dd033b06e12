package vtab

import (
	"fmt"
	"strings"

	"github.com/ksql/ksql/ext/host"
)

// eigenModule is the table-valued function kpca_eigen(name): the
// eigenvalues of the kpca table called name, as fitted on the source's
// current content.
type eigenModule struct{}

// EponymousOnly marks kpca_eigen as usable only by its own name.
func (eigenModule) EponymousOnly() {}

type eigenTable struct{ hc *host.Conn }

const eigenNameCol = 3

func (eigenModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openEigen(c, args)
}

func (eigenModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openEigen(c, args)
}

func openEigen(c *host.Conn, args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("kpca_eigen: takes no module arguments; use it as SELECT * FROM kpca_eigen('docs_pca')")
	}
	return &eigenTable{hc: c}, nil
}

func (t *eigenTable) Schema() string {
	return "CREATE TABLE x(component INTEGER, eigenvalue REAL, explained_ratio REAL, name HIDDEN)"
}

func (t *eigenTable) BestIndex(info *host.IndexInfo) error {
	switch {
	case firstEQ(info, eigenNameCol):
		info.EstimatedCost, info.EstimatedRows = 10, 10
	case hasEQ(info, eigenNameCol):
		// The name is there but not usable in this plan (it depends on a
		// table not yet scanned): make SQLite prefer another order.
		info.EstimatedCost, info.EstimatedRows = 1e12, 10
	default:
		info.EstimatedCost, info.EstimatedRows = 1e6, 10
	}
	recordPlan(info)
	return nil
}

func (t *eigenTable) Open() (host.Cursor, error) { return &eigenCursor{t: t}, nil }
func (t *eigenTable) Disconnect() error          { return nil }
func (t *eigenTable) Destroy() error             { return nil }

type eigenCursor struct {
	t            *eigenTable
	name         string
	vals, ratios []float64
	pos          int
}

func (c *eigenCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("kpca_eigen", &err)
	return prefix("kpca_eigen", c.filter(idxStr, vals))
}

func (c *eigenCursor) filter(idxStr string, vals []any) error {
	c.pos, c.vals, c.ratios = 0, nil, nil
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	v, ok := cons[eigenNameCol]
	if !ok {
		return fmt.Errorf("needs the name of a kpca table, as in SELECT * FROM kpca_eigen('docs_pca')")
	}
	if v == nil {
		return nil
	}
	name, ok := v.(string)
	if !ok {
		return fmt.Errorf("the name must be TEXT naming a kpca table, got %s", host.TypeName(v))
	}
	c.name = strings.Clone(name)
	t, err := findModel(c.t.hc, c.name, "a kpca virtual table", func(t *modelTable) bool { return t.kind == &kpcaKind })
	if err != nil {
		return err
	}
	_, fit, err := t.current()
	if err != nil {
		return fmt.Errorf("%s: %w", t.name.name, err)
	}
	c.vals, c.ratios = fit.(spectrum).eigen()
	return nil
}

func (c *eigenCursor) Next() error { c.pos++; return nil }
func (c *eigenCursor) EOF() bool   { return c.pos >= len(c.vals) }

func (c *eigenCursor) Column(col int) (any, error) {
	switch col {
	case 0:
		return int64(c.pos + 1), nil
	case 1:
		return c.vals[c.pos], nil
	case 2:
		return c.ratios[c.pos], nil
	}
	return c.name, nil
}

func (c *eigenCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *eigenCursor) Close() error          { return nil }
