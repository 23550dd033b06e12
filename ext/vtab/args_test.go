package vtab

import (
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	known := []string{"table", "kernel", "components"}
	cases := []struct {
		args []string
		want map[string]string
		err  string
	}{
		{[]string{" table = docs ", "KERNEL='gauss(sigma=1)'"}, map[string]string{"table": "docs", "kernel": "'gauss(sigma=1)'"}, ""},
		{[]string{"table=docs", "table=x"}, nil, "argument table is given twice"},
		{[]string{"tables=docs"}, nil, `unknown argument "tables" (known: table, kernel, components)`},
		{[]string{"docs"}, nil, `argument "docs" is not key=value`},
		{[]string{" "}, nil, "empty argument"},
	}
	for _, c := range cases {
		got, err := parseOptions(c.args, known)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%q: %s = %q, want %q", c.args, k, got[k], v)
			}
		}
	}
}

func TestOptionText(t *testing.T) {
	cases := []struct{ raw, want, err string }{
		{"'normalize(ngram(n=3))'", "normalize(ngram(n=3))", ""},
		{"linear", "linear", ""},
		{"'it''s'", "it's", ""},
		{"'SELECT id, body FROM docs WHERE lang = ''ru'''", "SELECT id, body FROM docs WHERE lang = 'ru'", ""},
		{"'open", "", "unterminated '"},
		{"'a' b", "", "unexpected text"},
		{"''", "", "is empty"},
	}
	for _, c := range cases {
		got, ok, err := options{"kernel": c.raw}.text("kernel")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.raw, err, c.err)
			}
			continue
		}
		if err != nil || !ok || got != c.want {
			t.Errorf("%s: got %q, %v, %v; want %q", c.raw, got, ok, err, c.want)
		}
	}
}

func TestParseIdent(t *testing.T) {
	cases := []struct {
		raw       string
		qualified bool
		want      ident
		sql       string
		err       string
	}{
		{"docs", true, ident{name: "docs"}, "`docs`", ""},
		{"main.docs", true, ident{schema: "main", name: "docs"}, "`main`.`docs`", ""},
		{`"my table"`, true, ident{name: "my table"}, "`my table`", ""},
		{`"a""b"`, false, ident{name: `a"b`}, "`a\"b`", ""},
		{`[x;y]`, false, ident{name: "x;y"}, "`x;y`", ""},
		{"`back`", false, ident{name: "back"}, "`back`", ""},
		{`"a.b"`, true, ident{name: "a.b"}, "`a.b`", ""},
		{"тексты", false, ident{name: "тексты"}, "`тексты`", ""},
		{"`a``b`", false, ident{name: "a`b"}, "`a``b`", ""},
		{"a.b", false, ident{}, "", "is not a name"},
		{"a.b.c", true, ident{}, "", "is not a name"},
		{"docs; DROP TABLE x", true, ident{}, "", "is not a name"},
		{`"open`, false, ident{}, "", "unterminated"},
		{"", false, ident{}, "", "needs a name"},
	}
	for _, c := range cases {
		got, err := parseIdent("table", c.raw, c.qualified)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.raw, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || got.sql() != c.sql {
			t.Errorf("%s: got %+v (%s), %v; want %+v (%s)", c.raw, got, got.sql(), err, c.want, c.sql)
		}
	}
}

func TestCheckSelect(t *testing.T) {
	ok := []string{
		"SELECT id, body FROM docs",
		"SELECT id, body FROM docs;",
		"SELECT id, body FROM docs WHERE body <> ';' AND note = 'a)b'",
		`SELECT "x;y", [a)] FROM t -- trailing; comment)`,
		"SELECT id, (SELECT max(v) FROM t) FROM docs /* ; ( */",
		"WITH x AS (SELECT 1, 2) SELECT * FROM x",
		"VALUES (1, 'a'), (2, 'it''s;')",
	}
	for _, q := range ok {
		if _, err := checkSelect(q); err != nil {
			t.Errorf("%q refused: %v", q, err)
		}
	}
	bad := []struct{ q, err string }{
		{"SELECT 1, 2; DELETE FROM docs", "single SELECT"},
		{"SELECT 1,2) INSERT INTO docs(id, body", "unbalanced ')'"},
		{"SELECT (1, 2", "unclosed '('"},
		{"SELECT 'open", "unterminated ' quote"},
		{"SELECT 1 /* open", "unterminated /* comment"},
		{"   ;  ", "empty"},
	}
	for _, c := range bad {
		if _, err := checkSelect(c.q); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %q", c.q, err, c.err)
		}
	}
}

func TestKeyOf(t *testing.T) {
	a, _ := keyOf(int64(3))
	b, _ := keyOf(3.0)
	c, _ := keyOf("3")
	d, _ := keyOf(3.5)
	e, _ := keyOf([]byte("3"))
	if a != b {
		t.Error("3 and 3.0 are different ids; SQLite compares them equal")
	}
	if a == c || c == e || a == d {
		t.Error("ids of different types or values compare equal")
	}
	if _, ok := keyOf(nil); ok {
		t.Error("NULL has a key")
	}
}

// FuzzModuleArgs feeds arbitrary module arguments through the parsers a
// CREATE VIRTUAL TABLE runs: none may panic, an accepted name must quote
// back to SQL that parses to the same name, and an accepted query= must
// stay inside the CTE it is placed in (balanced, no second statement).
func FuzzModuleArgs(f *testing.F) {
	for _, s := range []string{"table=docs", "query='SELECT id, body FROM docs'", `id="a""b"`, "kernel='ngram(n=3)'",
		"components=2", "table=main.docs", "column=[x;y]", "query='SELECT 1,2) INSERT INTO t(a,b'", "tol=1e-9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		opts, err := parseOptions([]string{arg}, append([]string{"components", "method", "landmarks", "seed", "tol"}, sourceKeys...))
		if err != nil {
			return
		}
		for k := range opts {
			if id, err := parseIdent(k, opts[k], true); err == nil {
				back, err := parseIdent(k, id.sql(), true)
				if err != nil || back != id {
					t.Fatalf("%q: %+v quotes to %s, which parses to %+v, %v", arg, id, id.sql(), back, err)
				}
			}
			if q, ok, err := opts.text(k); ok && err == nil {
				if checked, err := checkSelect(q); err == nil {
					if _, err := checkSelect(checked); err != nil {
						t.Fatalf("%q accepted, then refused after trimming: %v", q, err)
					}
				}
			}
			opts.integer(k, 0, -10, 10)
		}
		if opts != nil {
			if _, err := newSource("fuzz", opts); err != nil && err.Error() == "" {
				t.Fatal("empty error")
			}
		}
	})
}
