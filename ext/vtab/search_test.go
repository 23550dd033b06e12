package vtab

import (
	"reflect"
	"strings"
	"testing"
)

// TestSplitArguments: commas split arguments only outside quotes ('…',
// "…", `…`, […]) and parentheses, as SQLite splits USING module(…).
func TestSplitArguments(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"a=1", []string{"a=1"}},
		{" a=1 ,b=2 ", []string{"a=1", "b=2"}},
		{"kernel='normalize(ssk(p=3, lambda=0.5))', C=1", []string{"kernel='normalize(ssk(p=3, lambda=0.5))'", "C=1"}},
		{"kernel=normalize(ngram(n=3, over=words)), C=1", []string{"kernel=normalize(ngram(n=3, over=words))", "C=1"}},
		{`query='SELECT a, b FROM t WHERE c = ''x, y''', folds=3`, []string{`query='SELECT a, b FROM t WHERE c = ''x, y'''`, "folds=3"}},
		{`table="a,b", id=[c,d], column=` + "`e,f`", []string{`table="a,b"`, "id=[c,d]", "column=`e,f`"}},
		{"a=1,,b=2", []string{"a=1", "", "b=2"}},
	}
	for _, c := range cases {
		if got := splitArguments(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitArguments(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestParseGrid: keys in the order written, strings quoted as SQL
// literals (a quote doubled), numbers exactly as written, booleans bare;
// and the errors of grids that are not objects of non-empty arrays of
// such values, or whose keys svm does not take or the base already gives.
func TestParseGrid(t *testing.T) {
	good := []struct {
		grid string
		want []gridAxis
	}{
		{`{}`, nil},
		{` { "kernel" : ["gauss(sigma=1)", "it's"], "C": [1e-1, 10, 0.50], "folds": [5] } `, []gridAxis{
			{key: "kernel", values: []string{"'gauss(sigma=1)'", "'it''s'"}},
			{key: "C", values: []string{"1e-1", "10", "0.50"}},
			{key: "folds", values: []string{"5"}}}},
		{`{"type": ["nu_svc"], "nu": [0.2]}`, []gridAxis{{key: "type", values: []string{"'nu_svc'"}}, {key: "nu", values: []string{"0.2"}}}},
	}
	for _, c := range good {
		got, err := parseGrid(c.grid, &svmKind, []string{"table=t", "id=id"})
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseGrid(%s) = %v, %v; want %v", c.grid, got, err, c.want)
		}
	}
	bad := []struct{ grid, want string }{
		{``, "must be a JSON object of arrays"},
		{`[1]`, "must be a JSON object of arrays"},
		{`{"C": [1]`, "must be a JSON object of arrays"},
		{`{"C": [1]} {}`, "text after the object"},
		{`{"C": 1}`, `grid key "C": its value must be a non-empty array`},
		{`{"C": []}`, `grid key "C": its value must be a non-empty array`},
		{`{"C": [[1]]}`, "not an array"},
		{`{"C": [{"a": 1}]}`, "not an object"},
		{`{"C": [null]}`, "not null"},
		{`{"gamma": [1]}`, `grid key "gamma" is not an argument of svm (known: type, C,`},
		{`{"C": [1], "c": [2]}`, `grid key "c" is given twice`},
		{`{"id": ["x"]}`, "id= is both in the arguments and in the grid"},
	}
	for _, c := range bad {
		_, err := parseGrid(c.grid, &svmKind, []string{"table=t", "id = id"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseGrid(%s): error %v, want one containing %q", c.grid, err, c.want)
		}
	}
}

// TestRankRows: rank 1 is the highest score, equal scores share the lower
// rank, failed rows have none and do not count.
func TestRankRows(t *testing.T) {
	rows := []searchRow{{score: 0.5}, {score: 0.9}, {err: "x", score: 5}, {score: 0.5}, {score: -1}, {score: 0.9}}
	rankRows(rows)
	var got []int64
	for _, r := range rows {
		got = append(got, r.rank)
	}
	if want := []int64{3, 1, 0, 3, 5, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("ranks %v, want %v", got, want)
	}
}
