package host

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// planTable uses the constraints on columns listed in use.
type planTable struct {
	use  map[int]bool
	seen *IndexInfo
}

func (t *planTable) Schema() string { return "CREATE TABLE x(a, b, c)" }
func (t *planTable) BestIndex(info *IndexInfo) error {
	t.seen = info
	for i, c := range info.Constraints {
		if t.use[c.Column] && c.Usable && c.Op == OpEQ {
			info.Constraints[i].Use = true
		}
	}
	info.IdxNum, info.EstimatedRows = 7, 3
	return nil
}
func (t *planTable) Open() (Cursor, error) { return nil, nil }
func (t *planTable) Disconnect() error     { return nil }
func (t *planTable) Destroy() error        { return nil }

type driverCons struct {
	col, op int
	usable  bool
}

// TestPlan: used constraints are numbered 1, 2, ... in constraint order,
// unused ones 0, and the driver's estimates reach BestIndex.
func TestPlan(t *testing.T) {
	cases := []struct {
		cons []driverCons
		use  map[int]bool
		want []int
	}{
		{nil, nil, []int{}},
		{[]driverCons{{0, 2, true}, {1, 2, true}}, map[int]bool{1: true}, []int{0, 1}},
		{[]driverCons{{2, 2, true}, {0, 2, false}, {0, 2, true}, {2, 4, true}}, map[int]bool{0: true, 2: true}, []int{1, 0, 2, 0}},
	}
	for _, c := range cases {
		tab := &planTable{use: c.use}
		conv := func(d driverCons) Constraint { return Constraint{Column: d.col, Op: Op(d.op), Usable: d.usable} }
		ord := func(o int) OrderBy { return OrderBy{Column: o} }
		info, argv, err := Plan[driverCons, int](tab, c.cons, conv, []int{2}, ord, 99, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(argv, c.want) {
			t.Errorf("%v: argv %v, want %v", c.cons, argv, c.want)
		}
		if info.IdxNum != 7 || info.EstimatedRows != 3 || tab.seen.EstimatedCost != 99 || tab.seen.OrderBy[0].Column != 2 {
			t.Errorf("%v: plan %+v", c.cons, info)
		}
	}
}

type valueCursor struct{ v any }

func (c valueCursor) Filter(int, string, []any) error { return nil }
func (c valueCursor) Next() error                     { return nil }
func (c valueCursor) EOF() bool                       { return false }
func (c valueCursor) Column(int) (any, error)         { return c.v, nil }
func (c valueCursor) Rowid() (int64, error)           { return 0, nil }
func (c valueCursor) Close() error                    { return nil }

// TestColumn: every value reaches the adapters as one of SQLite's five
// types.
func TestColumn(t *testing.T) {
	for _, c := range []struct{ in, want any }{
		{nil, nil}, {int64(3), int64(3)}, {2.5, 2.5}, {"x", "x"}, {[]byte{1}, []byte{1}},
		{true, int64(1)}, {false, int64(0)}, {7, int64(7)}, {float32(0.5), 0.5},
	} {
		got, err := Column(valueCursor{c.in}, 0)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Column(%#v) = %#v, %v; want %#v", c.in, got, err, c.want)
		}
	}
	if _, err := Column(valueCursor{struct{}{}}, 4); err == nil || !strings.Contains(err.Error(), "column 4") {
		t.Errorf("unsupported type: %v", err)
	}
}

type recorder struct {
	got  []string
	fail string
}

func (r *recorder) RegisterFunction(f *Func) error { return r.add("f:" + f.Name) }
func (r *recorder) RegisterModule(name string, m Module) error {
	return r.add("m:" + name)
}
func (r *recorder) add(s string) error {
	if s == r.fail {
		return errors.New("refused")
	}
	r.got = append(r.got, s)
	return nil
}

// TestInstall: the list is walked in order, functions first, and the first
// failure names what failed.
func TestInstall(t *testing.T) {
	e := &Extension{
		Functions: []Func{{Name: "a"}, {Name: "b"}},
		Modules:   []ModuleEntry{{Name: "m1"}, {Name: "m2"}},
		Settings:  []*Setting{MaxDPCells},
	}
	r := &recorder{}
	if err := e.Install(r); err != nil || strings.Join(r.got, " ") != "f:a f:b m:m1 m:m2" {
		t.Fatalf("Install: %v %v", r.got, err)
	}
	r = &recorder{fail: "m:m1"}
	if err := e.Install(r); err == nil || err.Error() != "ksql: registering module m1: refused" || len(r.got) != 2 {
		t.Fatalf("failing Install: %v %v", r.got, err)
	}
	c := e.NewConn(nil)
	if v, err := c.Config.Value("max_dp_cells"); err != nil || v != MaxDPCells.Default {
		t.Errorf("max_dp_cells = %d, %v", v, err)
	}
	if _, err := c.Config.Value("max_gram_bytes"); err == nil || !strings.Contains(err.Error(), "known: max_dp_cells") {
		t.Errorf("undeclared setting: %v", err)
	}
}
