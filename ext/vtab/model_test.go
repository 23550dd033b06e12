package vtab

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ksql/ksql/ext/host"
)

// labelKind is a throwaway model table built on the core, as a new model
// file would be: it reads a label beside each object and reports, per
// row, its label and how many objects share it; a new object gets the
// label of the stored object with the largest kernel value.
var labelKind = modelKind{
	name:  "labeltest",
	keys:  []string{"factor"},
	extra: []extraColumn{{key: "label", doc: "the column of class labels"}},
	configure: func(opts options) (model, error) {
		s, err := opts.integer("factor", 1, 1, 10)
		return &labelModel{scale: s}, err
	},
}

type labelModel struct{ scale int64 }

type labelFit struct {
	labels []any
	count  map[any]int64
	scale  int64
	f      *fitting
}

func (m *labelModel) columns() []string { return []string{"label", "same INTEGER"} }

func (m *labelModel) fit(f *fitting) (fitted, error) {
	fit := &labelFit{labels: f.extra("label"), count: map[any]int64{}, scale: m.scale, f: f}
	for _, l := range fit.labels {
		fit.count[l]++
	}
	return fit, nil
}

func (f *labelFit) stored(o int, dst []any) {
	dst[0], dst[1] = f.labels[o], f.scale*f.count[f.labels[o]]
}

func (f *labelFit) predict(z *newObject, dst []any) error {
	kz, err := z.kernels(f.f.objs())
	if err != nil {
		return err
	}
	best := 0
	for i, v := range kz {
		if v > kz[best] {
			best = i
		}
	}
	f.stored(best, dst)
	return nil
}

// fakeSource answers the one statement a model table runs, with rows.
type fakeSource struct {
	want string
	rows [][]any
}

func (s *fakeSource) query(q string, args []any, row func([]any) error) error {

	if q != s.want {
		return fmt.Errorf("unexpected SQL %q, want %q", q, s.want)
	}
	buf := make([]any, 0, 3) // reused between rows, as a QueryFunc may
	for _, r := range s.rows {
		if err := row(append(buf[:0], r...)); err != nil {
			return err
		}
	}
	return nil
}

// scan reads every row of cursor c after a Filter with the given plan.
func scan(t *testing.T, tab host.Table, idxStr string, vals ...any) []string {
	t.Helper()
	c, err := tab.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Filter(0, idxStr, vals); err != nil {
		t.Fatal(err)
	}
	var out []string
	for ; !c.EOF(); c.Next() {
		var cells []string
		for col := 0; col < 4; col++ {
			v, err := c.Column(col)
			if err != nil {
				t.Fatal(err)
			}
			cells = append(cells, fmt.Sprint(v))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}

// TestModelCoreExtraColumn: a model table on the core reads a label beside
// (id, object) in the same statement, gets one label per object, lists
// NULL-object rows with NULL columns, answers id = ? and input = ?, and
// refits only when the content — labels included — changes.
func TestModelCoreExtraColumn(t *testing.T) {
	src := &fakeSource{
		want: "SELECT `id`, `v`, `cls` FROM `main`.`pts` ORDER BY 1", // table= is read in the table's own schema
		rows: [][]any{{int64(1), "[0]", "a"}, {int64(2), "[1]", "b"}, {int64(3), nil, "b"}, {int64(4), "[5]", "a"}},
	}
	hc := host.NewConn(src.query)
	mod := newModelModule(&labelKind)
	tab, err := mod.Connect(hc, []string{"labeltest", "main", "lt", "table=pts", "id=id", "column=v", "label=cls", "kernel=linear", "factor=2"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.Schema(), "CREATE TABLE x(id, label, same INTEGER, input HIDDEN, \"lt\" HIDDEN)"; got != want {
		t.Errorf("schema %q, want %q", got, want)
	}
	if got, want := strings.Join(scan(t, tab, ""), " "), "1|a|4|<nil> 2|b|2|<nil> 3|<nil>|<nil>|<nil> 4|a|4|<nil>"; got != want {
		t.Errorf("scan: %s, want %s", got, want)
	}
	if got, want := strings.Join(scan(t, tab, "0,", int64(2)), " "), "2|b|2|<nil>"; got != want {
		t.Errorf("id = 2: %s, want %s", got, want)
	}
	if got, want := strings.Join(scan(t, tab, "3,", "[0.9]"), " "), "<nil>|a|4|[0.9]"; got != want {
		t.Errorf("input: %s, want %s", got, want)
	}
	if n := hc.Stats.Fits.Load(); n != 1 {
		t.Errorf("%d fits for unchanged content, want 1", n)
	}
	src.rows[1][2] = "a" // a label changes: the content changed
	if got, want := strings.Join(scan(t, tab, "0,", int64(2)), " "), "2|a|6|<nil>"; got != want {
		t.Errorf("after the label changed: %s, want %s", got, want)
	}
	if n := hc.Stats.Fits.Load(); n != 2 {
		t.Errorf("%d fits after a label changed, want 2", n)
	}
	if t2 := registryOf(hc).lookup(ident{schema: "MAIN", name: "LT"}); t2 != tab {
		t.Errorf("registry lookup: %v", t2)
	}
}

// TestModelCoreArguments: the shared keys and the extra column are parsed
// by the core, with the module's name on every error.
func TestModelCoreArguments(t *testing.T) {
	hc := host.NewConn((&fakeSource{want: "WITH ksql_source(id, object, label) AS (\nSELECT 1, '[1]', 'x'\n) SELECT id, object, label FROM ksql_source ORDER BY 1",
		rows: [][]any{{int64(1), "[1]", "x"}}}).query)
	mod := newModelModule(&labelKind)
	base := []string{"labeltest", "main", "lt"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"table=pts", "id=id", "column=v", "kernel=linear"}, "labeltest: missing argument label= (the column of class labels)"},
		{[]string{"query='SELECT 1'", "label=cls", "kernel=linear"}, "labeltest: give either query= or table=, id= and column=, label=, not both"},
		{[]string{"table=pts", "id=id", "column=v", "label=cls", "kernel=linear", "factor=11"}, "labeltest: factor=11 is out of range (allowed: 1 to 10)"},
		{[]string{"table=pts", "id=id", "column=v", "label=cls", "kernel=linear", "tol=1"}, `labeltest: unknown argument "tol" (known: factor, label, table, id, column, query, kernel, columns, nulls, scale)`},
	}
	for _, c := range cases {
		_, err := mod.Connect(hc, append(base, c.args...))
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	tab, err := mod.Connect(hc, append(base, "query='SELECT 1, ''[1]'', ''x'''", "kernel=linear"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(scan(t, tab, ""), " "); got != "1|x|1|<nil>" {
		t.Errorf("query= with a label: %s", got)
	}
}
