package vtab

import (
	"fmt"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/fst"
)

// FSTText is the table-valued function fst_text(text [, labels]): AT&T /
// OpenFst text (as fstprint writes it) as the rows of a transducer table,
// for INSERT INTO t SELECT * FROM fst_text(...).
var FSTText host.Eponymous = fstTextModule{}

var (
	_ host.Eponymous = fstTextModule{}
	_ host.Table     = (*fstTextTable)(nil)
	_ host.Cursor    = (*fstTextCursor)(nil)
)

type fstTextModule struct{}

// EponymousOnly marks fst_text as usable only by its own name.
func (fstTextModule) EponymousOnly() {}

type fstTextTable struct{}

const (
	fstTextCol   = 5
	fstLabelsCol = 6
)

func (fstTextModule) Create(c *host.Conn, args []string) (host.Table, error) {
	return openFSTText(args)
}

func (fstTextModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openFSTText(args)
}

func openFSTText(args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("fst_text: takes no module arguments; use it as SELECT * FROM fst_text('0 1 a b 0.5\n1')")
	}
	return &fstTextTable{}, nil
}

func (t *fstTextTable) Schema() string {
	return "CREATE TABLE x(src INTEGER, dst INTEGER, input TEXT, output TEXT, weight REAL, text HIDDEN, labels HIDDEN)"
}

func (t *fstTextTable) BestIndex(info *host.IndexInfo) error {
	switch {
	case firstEQ(info, fstTextCol):
		firstEQ(info, fstLabelsCol)
		info.EstimatedCost, info.EstimatedRows = 10, 100
	case hasEQ(info, fstTextCol):
		info.EstimatedCost, info.EstimatedRows = 1e12, 100
	default:
		info.EstimatedCost, info.EstimatedRows = 1e6, 100
	}
	recordPlan(info)
	return nil
}

func (t *fstTextTable) Open() (host.Cursor, error) { return &fstTextCursor{}, nil }
func (t *fstTextTable) Disconnect() error          { return nil }
func (t *fstTextTable) Destroy() error             { return nil }

type fstTextCursor struct {
	rows         []fst.TextRow
	text, labels any
	pos          int
}

func (c *fstTextCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard("fst_text", &err)
	return prefix("fst_text", c.filter(idxStr, vals))
}

func (c *fstTextCursor) filter(idxStr string, vals []any) error {
	c.pos, c.rows = 0, nil
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	text, ok := cons[fstTextCol]
	if !ok {
		return fmt.Errorf("needs the text of a transducer, as in SELECT * FROM fst_text(readfile('t.txt'))")
	}
	mode := fst.SymbolLabels
	c.labels = cons[fstLabelsCol]
	switch c.labels {
	case nil, "symbols":
	case "codepoints":
		mode = fst.CodePointLabels
	default:
		return fmt.Errorf("labels must be 'symbols' (labels are the symbols, <eps> is ε) or 'codepoints' (decimal code points, 0 is ε), got %s", describe(c.labels))
	}
	var s string
	switch x := text.(type) {
	case nil:
		return nil
	case string:
		s = x
	case []byte:
		s = string(x) // readfile gives a BLOB
	default:
		return fmt.Errorf("the text must be TEXT or a BLOB of UTF-8, got %s", host.TypeName(text))
	}
	c.text = strings.Clone(s)
	c.rows, err = fst.ReadText(strings.NewReader(s), mode)
	return err
}

func describe(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("'%s'", s)
	}
	return host.TypeName(v)
}

func (c *fstTextCursor) Next() error { c.pos++; return nil }
func (c *fstTextCursor) EOF() bool   { return c.pos >= len(c.rows) }

func (c *fstTextCursor) Column(col int) (any, error) {
	r := &c.rows[c.pos]
	switch col {
	case 0:
		return r.Src, nil
	case 1:
		if r.Final {
			return nil, nil
		}
		return r.Dst, nil
	case 2, 3:
		if r.Final {
			return nil, nil
		}
		if col == 2 {
			return r.In, nil
		}
		return r.Out, nil
	case 4:
		return r.Weight, nil
	case fstTextCol:
		return c.text, nil
	}
	return c.labels, nil
}

func (c *fstTextCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *fstTextCursor) Close() error          { return nil }
