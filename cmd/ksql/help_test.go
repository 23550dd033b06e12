package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
)

// TestHelpDocs holds the written half of .help MODULE to the modules:
// every module of the catalogue is described, every argument a module
// takes is described and none that it lacks, and every default written
// gives, on real rows, the same table as leaving the argument out.
func TestHelpDocs(t *testing.T) {
	ctx := context.Background()
	for _, m := range catalog.Extension.Modules {
		t.Run(m.Name, func(t *testing.T) {
			doc, ok := helpDocs[m.Name]
			if !ok || doc.summary == "" {
				t.Fatalf("%s has no summary in helpDocs", m.Name)
			}
			info, err := probeModule(ctx, m.Name)
			if err != nil {
				t.Fatal(err)
			}
			if info.eponymous {
				if len(doc.args) > 0 {
					t.Errorf("%s is a table-valued function; its arguments are its hidden columns %v, not helpDocs'", m.Name, info.hidden)
				}
				for _, p := range doc.same {
					checkSameRows(t, p)
				}
				return
			}
			for _, k := range info.keys {
				if !isSourceKey(k) && findArg(doc.args, k).doc == "" {
					t.Errorf("%s takes %s=, which helpDocs does not describe", m.Name, k)
				}
			}
			for _, a := range doc.args {
				if !slices.Contains(info.keys, a.key) {
					t.Errorf("helpDocs describes %s=, which %s does not take (it takes %v)", a.key, m.Name, info.keys)
				}
				if a.def != "" {
					checkDefault(t, m.Name, doc.probe, info, a)
				}
			}
		})
	}
	for name := range helpDocs {
		if !slices.ContainsFunc(catalog.Extension.Modules, func(e host.ModuleEntry) bool { return e.Name == name }) {
			t.Errorf("helpDocs describes %s, which the catalogue lacks", name)
		}
	}
}

// checkDefault makes two tables of module on the same 40 rows, one with
// a.key=a.def and one without, and requires the same rows from both.
func checkDefault(t *testing.T, module, probe string, info moduleInfo, a argDoc) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`CREATE TABLE src(id INTEGER PRIMARY KEY, x, label);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 39)
INSERT INTO src SELECT i, json_array(i % 7, (i % 5) * 0.5, i % 3), i % 2 FROM n;
`)
	args := "table=src, id=id, column=x, kernel='gauss(sigma=1)'"
	if slices.Contains(info.keys, "label") {
		args += ", label=label"
	}
	for _, more := range []string{probe, a.with} {
		if more != "" {
			args += ", " + more
		}
	}
	fmt.Fprintf(&b, "CREATE VIRTUAL TABLE without USING %s(%s);\n", module, args)
	fmt.Fprintf(&b, "CREATE VIRTUAL TABLE given USING %s(%s, %s=%s);\n", module, args, a.key, a.def)
	b.WriteString("SELECT count(*) FROM without;\n")
	b.WriteString("SELECT count(*) FROM (SELECT * FROM without EXCEPT SELECT * FROM given);\n")
	out, errs, status := runShell(t, b.String(), ":memory:")
	if status != 0 || errs != "" {
		t.Fatalf("%s with %s=%s: %s", module, a.key, a.def, errs)
	}
	if lines := strings.Fields(out); len(lines) != 2 || lines[0] != "40" || lines[1] != "0" {
		t.Errorf("%s: %s=%s is not the default: rows, rows that differ = %q", module, a.key, a.def, out)
	}
}

// TestHelpCatalog checks .help for a module, a function and a setting,
// and .kernels' lists, against what the catalogue and the modules hold.
func TestHelpCatalog(t *testing.T) {
	out, errs, status := runShell(t, "", ":memory:", ".help svm", ".help transducer_weight", ".help max_gram_bytes", ".kernels")
	if status != 0 || errs != "" {
		t.Fatalf("status %d: %s", status, errs)
	}
	for _, want := range []string{
		"svm: support vector machines",
		"    C=1                  the penalty C",
		"    tol=0.001 ",
		"    kernel=              a kernel spec",
		"  columns: id, label, prediction, decision, cv_prediction\n",
		"transducer_weight(name, x, y [, unit])\n    T(x, y) of the transducer stored in table name; unit 'char' (default) or 'word'\n" +
			"    3 to 4 arguments; deterministic; reads the table its arguments name",
		"max_gram_bytes (ksql_config('max_gram_bytes' [, value]))\n",
		"    default 1073741824, from ",
		"Modules that take a spec (kernel=): gram, kpca, kernel_map, svm, krr, klms, tsne, kfda",
		"  transducer_weight(name, x, y [, unit])\n",
		"  kernel_alignment(",
	} {
		if !strings.Contains(out, want) {
			t.Errorf(".help lacks %q:\n%s", want, out)
		}
	}
	for _, f := range catalog.Extension.Functions {
		if !strings.Contains(out, "\n  "+f.Usage+"\n") {
			t.Errorf(".kernels does not list %s", f.Name)
		}
	}
	_, errs, _ = runShell(t, "", ":memory:", ".help no_such_thing")
	if !strings.Contains(errs, `no command, topic, module, function or setting "no_such_thing"`) {
		t.Errorf(".help of an unknown name: %q", errs)
	}
}

// TestHelpFuncDocs: every function of the catalogue is described, no
// other is, and each default written gives the same value as leaving the
// argument out.
func TestHelpFuncDocs(t *testing.T) {
	var sqlText strings.Builder
	sqlText.WriteString(`CREATE TABLE t(src INTEGER, dst INTEGER, input TEXT, output TEXT, weight REAL);
INSERT INTO t VALUES (0, 0, 'a', 'a', 0.5), (0, 0, 'b', 'b', 2), (0, NULL, NULL, NULL, 1);
`)
	var pairs [][2]string
	for _, f := range catalog.Extension.Functions {
		d, ok := funcDocs[f.Name]
		if !ok || d.doc == "" {
			t.Errorf("%s has no description in funcDocs", f.Name)
		}
		for _, p := range d.same {
			fmt.Fprintf(&sqlText, "SELECT %s IS %s, %s;\n", p[0], p[1], p[0])
			pairs = append(pairs, p)
		}
	}
	for name := range funcDocs {
		if !slices.ContainsFunc(catalog.Extension.Functions, func(f host.Func) bool { return f.Name == name }) {
			t.Errorf("funcDocs describes %s, which the catalogue lacks", name)
		}
	}
	out, errs, status := runShell(t, sqlText.String(), ":memory:")
	if status != 0 || errs != "" {
		t.Fatalf("status %d: %s", status, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(pairs) {
		t.Fatalf("%d results for %d pairs:\n%s", len(lines), len(pairs), out)
	}
	for i, line := range lines {
		if !strings.HasPrefix(line, "1|") || line == "1|" {
			t.Errorf("%s and %s differ (or are NULL): %s", pairs[i][0], pairs[i][1], line)
		}
	}
}

// checkSameRows requires two table-valued function calls to give the
// same rows, and some.
func checkSameRows(t *testing.T, p [2]string) {
	t.Helper()
	q := fmt.Sprintf("SELECT count(*) FROM %s;\nSELECT count(*) FROM (SELECT * FROM %s EXCEPT SELECT * FROM %s);\n", p[0], p[0], p[1])
	out, errs, status := runShell(t, q, ":memory:")
	if f := strings.Fields(out); status != 0 || errs != "" || len(f) != 2 || f[0] == "0" || f[1] != "0" {
		t.Errorf("%s and %s: rows, rows that differ = %q %s", p[0], p[1], out, errs)
	}
}

// TestHelpArgumentNames: a table-valued function's usage writes its
// arguments as a call does (kernel_mmd's permutations, not the hidden
// column permutations_arg), and a module with only source arguments has
// no empty "arguments:" heading.
func TestHelpArgumentNames(t *testing.T) {
	out, errs, status := runShell(t, "", ":memory:", ".help kernel_mmd", ".help gram")
	if status != 0 || errs != "" {
		t.Fatalf("status %d: %s", status, errs)
	}
	if want := "FROM kernel_mmd(kernel, query_a, query_b, permutations, seed)\n"; !strings.Contains(out, want) {
		t.Errorf(".help kernel_mmd lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "permutations_arg") {
		t.Errorf(".help kernel_mmd names the hidden column:\n%s", out)
	}
	if want := "USING gram(key=value, ...)\n  source:\n"; !strings.Contains(out, want) {
		t.Errorf(".help gram lacks %q (an empty arguments: heading?):\n%s", want, out)
	}
}
