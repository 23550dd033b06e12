package vtab

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ksql/ksql/ext/host"
)

// modelInfoModule is the table-valued function ksql_model(name): (name,
// value) rows describing the fit of any model table on its source's
// current content — what every model shares (module, rows, kernel, source
// hash) and then the model's own figures, when its fit is a reporter.
type modelInfoModule struct{}

// EponymousOnly marks ksql_model as usable only by its own name.
func (modelInfoModule) EponymousOnly() {}

type modelInfoTable struct{ hc *host.Conn }

const modelInfoNameCol = 2

func (modelInfoModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openModelInfo(c, args)
}

func (modelInfoModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openModelInfo(c, args)
}

func openModelInfo(c *host.Conn, args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("ksql_model: takes no module arguments; use it as SELECT * FROM ksql_model('promoter_svm')")
	}
	return &modelInfoTable{hc: c}, nil
}

func (t *modelInfoTable) Schema() string {
	return "CREATE TABLE x(name TEXT, value, model HIDDEN)"
}

func (t *modelInfoTable) BestIndex(info *host.IndexInfo) error {
	switch {
	case firstEQ(info, modelInfoNameCol):
		info.EstimatedCost, info.EstimatedRows = 10, 10
	case hasEQ(info, modelInfoNameCol):
		info.EstimatedCost, info.EstimatedRows = 1e12, 10
	default:
		info.EstimatedCost, info.EstimatedRows = 1e6, 10
	}
	recordPlan(info)
	return nil
}

func (t *modelInfoTable) Open() (host.Cursor, error) { return &modelInfoCursor{t: t}, nil }
func (t *modelInfoTable) Disconnect() error          { return nil }
func (t *modelInfoTable) Destroy() error             { return nil }

type modelInfoCursor struct {
	t    *modelInfoTable
	name string
	rows [][2]any
	pos  int
}

func (c *modelInfoCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("ksql_model", &err)
	return prefix("ksql_model", c.filter(idxStr, vals))
}

func (c *modelInfoCursor) filter(idxStr string, vals []any) error {
	c.pos, c.rows = 0, nil
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	v, ok := cons[modelInfoNameCol]
	if !ok {
		return fmt.Errorf("needs the name of a model table, as in SELECT * FROM ksql_model('promoter_svm')")
	}
	if v == nil {
		return nil
	}
	name, ok := v.(string)
	if !ok {
		return fmt.Errorf("the name must be TEXT naming a model table, got %s", host.TypeName(v))
	}
	c.name = strings.Clone(name)
	t, err := findModel(c.t.hc, c.name, "a model virtual table (kpca, kernel_map, svm, ...)", func(*modelTable) bool { return true })
	if err != nil {
		return err
	}
	snap, fit, err := t.current()
	var empty emptySource
	if errors.As(err, &empty) {
		c.rows = [][2]any{{"module", t.kind.name}, {"kernel", t.src.spec.String()}, {"arguments", t.args},
			{"fit", "not fitted: " + empty.Error()}}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.name.name, err)
	}
	c.rows = [][2]any{
		{"module", t.kind.name},
		{"rows", int64(snap.nrows())},
		{"objects", int64(snap.nobj())},
		{"kernel", t.src.spec.String()},
		{"arguments", t.args},
		{"source_sha256", hex.EncodeToString(snap.hash[:])},
	}
	if t.last.restored {
		c.rows = append(c.rows, [2]any{"fit", "restored from " + t.shadow().name})
	} else {
		c.rows = append(c.rows, [2]any{"fit", "fitted on this connection"},
			[2]any{"fit_seconds", t.last.seconds},
			[2]any{"fitted_at", t.last.at.UTC().Format(time.RFC3339Nano)})
		if t.last.note != "" {
			c.rows = append(c.rows, [2]any{"stored_fit", t.last.note})
		}
	}
	if r, ok := fit.(reporter); ok {
		c.rows = append(c.rows, r.report()...)
	}
	return nil
}

func (c *modelInfoCursor) Next() error { c.pos++; return nil }
func (c *modelInfoCursor) EOF() bool   { return c.pos >= len(c.rows) }

func (c *modelInfoCursor) Column(col int) (any, error) {
	if col == modelInfoNameCol {
		return c.name, nil
	}
	return c.rows[c.pos][col], nil
}

func (c *modelInfoCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *modelInfoCursor) Close() error          { return nil }

// KSQLModel is the ksql_model table-valued function.
var KSQLModel host.Eponymous = modelInfoModule{}
