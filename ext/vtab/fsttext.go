package vtab

import (
	"fmt"
	"math"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/fst"
)

// FSTText is the table-valued function fst_text(text [, options]): AT&T /
// OpenFst text (as fstprint writes it) as the rows of a transducer table,
// for INSERT INTO t SELECT * FROM fst_text(...). options are words: how
// labels read ('symbols' or 'codepoints') and whether the weights are
// OpenFst's −log weights ('log' or 'tropical'), see fstTextOptions.
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
	c.labels = cons[fstLabelsCol]
	mode, negLog, err := fstTextOptions(c.labels)
	if err != nil {
		return err
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
	if err == nil && negLog {
		err = fromNegLog(c.rows, s)
	}
	return err
}

// fstTextOptions reads fst_text's second argument: words, separated by
// spaces or commas, saying how labels read ('symbols', the default, or
// 'codepoints') and what the weights are ('probability', the default, or
// 'log' / 'tropical': OpenFst's −log weights, converted by exp(−w)).
func fstTextOptions(v any) (mode fst.LabelMode, negLog bool, err error) {
	if v == nil {
		return fst.SymbolLabels, false, nil
	}
	s, ok := v.(string)
	if !ok {
		return 0, false, fmt.Errorf("the second argument must be TEXT such as 'codepoints' or 'log', got %s", host.TypeName(v))
	}
	// the word given for labels and for weights: two that contradict are
	// refused ('log' and 'tropical' read weights alike)
	var labels, weights string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		w = strings.ToLower(w)
		group, said, as := &weights, "weights", w
		switch w {
		case "symbols", "codepoints":
			group, said = &labels, "labels"
		case "tropical":
			as = "log"
		case "probability", "log":
		default:
			group = &as // unknown: refused below
		}
		if *group != "" && *group != as {
			return 0, false, fmt.Errorf("%s are given twice, as '%s' and '%s'; give one", said, *group, w)
		}
		switch w {
		case "symbols":
			labels = as
		case "codepoints":
			mode, labels = fst.CodePointLabels, as
		case "probability":
			weights = as
		case "log", "tropical":
			negLog, weights = true, as
		default:
			return 0, false, fmt.Errorf("labels must be 'symbols' (labels are the symbols, <eps> is ε) or 'codepoints' (decimal code points, 0 is ε), "+
				"and weights 'probability' (the default: ksql's weights) or 'log' / 'tropical' (OpenFst's −log weights, read as exp(−w)); got %s", describe(v))
		}
	}
	return mode, negLog, nil
}

// fromNegLog turns −log weights into ksql's (probabilities): w → exp(−w).
// An omitted weight is the semiring's one, 0, hence 1 as ReadText left
// it; a weight was given on a line of 2 or 5 fields (text is what rows
// were read from).
func fromNegLog(rows []fst.TextRow, text string) error {
	lines := strings.Split(text, "\n")
	for i := range rows {
		r := &rows[i]
		if r.Line < 1 || r.Line > len(lines) {
			return fmt.Errorf("line %d: not in the text", r.Line) // ReadText numbers lines as Split does
		}
		n := len(strings.FieldsFunc(lines[r.Line-1], func(c rune) bool { return c == ' ' || c == '\t' || c == '\r' }))
		if n != 2 && n != 5 {
			continue
		}
		p := math.Exp(-r.Weight)
		if math.IsInf(p, 0) {
			return fmt.Errorf("line %d: the −log weight %g is exp(%g) as a probability, past the largest float64", r.Line, r.Weight, -r.Weight)
		}
		r.Weight = p
	}
	return nil
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
