package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickstart runs examples/quickstart.sql the way the README's first
// command does (from the repository root, on standard input), in a copy of
// examples/ so that the plot it writes lands in a temporary directory.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every query of the quickstart")
	}
	src, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "examples"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(src, "quickstart.sql"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	out, errs, status := runShell(t, string(script))
	if status != 0 || errs != "" {
		t.Fatalf("quickstart: exit status %d, stderr:\n%s", status, errs)
	}
	// The leave-one-out counts are fixed by the data and the kernels; the
	// crude texts are all classified right by normalize(ngram(n=3)).
	for _, want := range []string{
		"│ acq   │    20 │      172 │    3705 │",
		"│ crude │    20 │      20 │",
		"examples/reuters-kpca.png\n",
		"│ 17 │ setosa  │ [5.1, 3.5, 1.4, 0.3] │",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the quickstart's output lacks %q", want)
		}
	}
	if fi, err := os.Stat(filepath.Join(root, "examples", "reuters-kpca.png")); err != nil || fi.Size() == 0 {
		t.Errorf("the quickstart did not write its plot: %v", err)
	}
}
