package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// runShell runs the shell in-process on stdin and returns what it wrote and
// its exit status. Nothing in it is a terminal.
func runShell(t *testing.T, stdin string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(args, stdio{
		in: strings.NewReader(stdin), out: &out, err: &errb,
		getenv: func(string) string { return "" },
	})
	return out.String(), errb.String(), status
}

// TestGolden runs every testdata/golden/NAME.sql as standard input of the
// shell, started in testdata/, and compares stdout, stderr and the exit
// status with NAME.golden. A first line "-- args: ..." gives the command
// line. go test ./cmd/ksql -run Golden -update rewrites the golden files.
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/golden/*.sql")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	t.Chdir("testdata")
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".sql")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("golden", name+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			var args []string
			if first, _, _ := strings.Cut(string(in), "\n"); strings.HasPrefix(first, "-- args:") {
				args = strings.Fields(strings.TrimPrefix(first, "-- args:"))
			}
			stdout, stderr, status := runShell(t, string(in), args...)
			got := fmt.Sprintf("--- stdout\n%s--- stderr\n%s--- exit %d\n", stdout, stderr, status)
			path := filepath.Join("golden", name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n%s", path, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the first lines where want and got part.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}
