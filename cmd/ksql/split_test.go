package main

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitSQL(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []string
		wantLine []int
		rest     string
		complete bool
	}{
		{"one", "SELECT 1;", []string{"SELECT 1;"}, []int{1}, "", true},
		{"two on a line", "SELECT 1; SELECT 2;", []string{"SELECT 1;", "SELECT 2;"}, []int{1, 1}, "", true},
		{"no semicolon", "SELECT 1", nil, nil, "SELECT 1", false},
		{"semicolon in string", "SELECT 'a;b';", []string{"SELECT 'a;b';"}, []int{1}, "", true},
		{"doubled quote", "SELECT 'it''s;';", []string{"SELECT 'it''s;';"}, []int{1}, "", true},
		{"open string", "SELECT 'a;\nb", nil, nil, "SELECT 'a;\nb", false},
		{"quoted identifier", `SELECT 1 AS "x;y";`, []string{`SELECT 1 AS "x;y";`}, []int{1}, "", true},
		{"bracket identifier", "SELECT [a;b] FROM t;", []string{"SELECT [a;b] FROM t;"}, []int{1}, "", true},
		{"backquote", "SELECT `a;b` FROM t;", []string{"SELECT `a;b` FROM t;"}, []int{1}, "", true},
		{"line comment", "SELECT 1 -- ;\n;", []string{"SELECT 1 -- ;\n;"}, []int{1}, "", true},
		{"block comment", "SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1;"}, []int{1}, "", true},
		{"open block comment", "SELECT /* ;", nil, nil, "SELECT /* ;", false},
		{"comment only", "-- nothing\n/* here */", nil, nil, "", true},
		{"empty statements", ";;  ;", nil, nil, "", true},
		{"trailing comment", "SELECT 1; -- done", []string{"SELECT 1;"}, []int{1}, "", true},
		{"line numbers", "\nSELECT 1;\n\nSELECT\n2;", []string{"SELECT 1;", "SELECT\n2;"}, []int{2, 4}, "", true},
		{"trigger body", "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;",
			[]string{"CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;"}, []int{1}, "", true},
		{"trigger unfinished", "CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;", nil, nil,
			"CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;", false},
		{"column named end", "SELECT 1 AS end;", []string{"SELECT 1 AS end;"}, []int{1}, "", true},
		{"complete then partial", "SELECT 1; SELECT", []string{"SELECT 1;"}, []int{1}, "SELECT", false},
		{"unicode", "SELECT 'совсем; новый';", []string{"SELECT 'совсем; новый';"}, []int{1}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stmts, rest, complete := splitSQL(tc.in)
			var got []string
			var lines []int
			for _, s := range stmts {
				got = append(got, s.text)
				lines = append(lines, s.line)
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(lines, tc.wantLine) {
				t.Errorf("statements = %q at lines %v, want %q at %v", got, lines, tc.want, tc.wantLine)
			}
			if rest.text != tc.rest || complete != tc.complete {
				t.Errorf("rest, complete = %q, %v; want %q, %v", rest.text, complete, tc.rest, tc.complete)
			}
		})
	}
}

func TestIsBlankSQL(t *testing.T) {
	for in, want := range map[string]bool{
		"": true, "  \t": true, "-- c": true, "/* c */": true, "/* open": false, "x": false, ";": false,
	} {
		if got := isBlankSQL(in); got != want {
			t.Errorf("isBlankSQL(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestCompleteScanner feeds texts line by line to the incremental scanner
// and checks each answer against sqlite3_complete's, computed by splitSQL
// on the whole text so far (sqlite3_complete is true when the text ends at
// a statement boundary and holds a statement).
func TestCompleteScanner(t *testing.T) {
	texts := []string{
		"SELECT 1;", "SELECT 1", "SELECT 'a;\nb';", "SELECT 'a;\nb", "SELECT \"x\ny\";",
		"SELECT [a\nb] FROM t;", "SELECT /* ;\n;\n */ 1;", "SELECT /* open\n", "SELECT 1; -- done",
		"CREATE TRIGGER tr AFTER INSERT ON t BEGIN\nSELECT 1;\nSELECT 2;\nEND;",
		"CREATE TRIGGER tr AFTER INSERT ON t BEGIN\nSELECT 1;\n", "SELECT 'it''s\n;';", "SELECT 'x'\n'y';",
		"SELECT `a\n;b`;", "SELECT 1;\nSELECT 'open", ";", "-- only a comment\n",
	}
	for _, text := range texts {
		var c completeScanner
		var sofar string
		for _, line := range strings.SplitAfter(text, "\n") {
			if !strings.HasSuffix(line, "\n") {
				line += "\n"
			}
			sofar += line
			stmts, rest, complete := splitSQL(sofar)
			want := complete && (len(stmts) > 0 || strings.Contains(sofar, ";")) && rest.text == ""
			if got := c.feed(sofar); got != want {
				t.Errorf("after %q: scanner says complete=%v, splitSQL %v", sofar, got, want)
			}
		}
	}
}

func TestResultExprs(t *testing.T) {
	tests := []struct {
		sql  string
		n    int
		want []string
	}{
		{"SELECT a, f(b, c) AS x, (d) e FROM t", 3, []string{"a", "f(b, c)", "(d)"}},
		{"SELECT DISTINCT rff_embed(x, 4, 1.0) v FROM t WHERE y = (SELECT 1, 2)", 1, []string{"rff_embed(x, 4, 1.0)"}},
		{"WITH w AS (SELECT 1 AS q, 2) SELECT q, vec_f32('[1]') FROM w", 2, []string{"q", "vec_f32('[1]')"}},
		{"SELECT *, vec_f32(x) FROM t", 4, []string{"", "", "", "vec_f32(x)"}},
		{"SELECT vec_f32(x), t.* FROM t", 3, []string{"vec_f32(x)", "", ""}},
		{"VALUES (1, 2)", 2, []string{"", ""}},
		{"SELECT a, b FROM t", 3, []string{"", "", ""}}, // counts differ: unknown
	}
	for _, tc := range tests {
		if got := resultExprs(tc.sql, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("resultExprs(%q) = %q, want %q", tc.sql, got, tc.want)
		}
	}
	for expr, want := range map[string]bool{
		"rff_embed(x, 4, 1.0)": true, "(vec_f32('[1]'))": true, "VEC_F32(x)": true,
		"vec_f32(x) || y": false, "abs(vec_f32(x))": false, "rff_embed": false, "": false,
		"vec_f32(a) + vec_f32(b)": false,
	} {
		if got := isVectorCall(expr); got != want {
			t.Errorf("isVectorCall(%q) = %v, want %v", expr, got, want)
		}
	}
}
