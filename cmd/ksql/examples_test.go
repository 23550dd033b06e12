package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runExample runs an example script the way its header says, with .read,
// from a directory that is not the repository (the script finds its data
// next to itself), with the temporary directory, where the pictures go,
// set to a test directory. It returns stdout and the pictures made.
func runExample(t *testing.T, script string) (string, []string) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("../../examples", script))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out, errs, status := runShell(t, "", ":memory:", ".read "+path)
	if status != 0 || errs != "" {
		t.Fatalf("%s: exit status %d, stderr:\n%s", script, status, errs)
	}
	pics, _ := filepath.Glob(filepath.Join(tmp, "*.png"))
	for _, p := range pics {
		if !strings.Contains(out, p+"\n") {
			t.Errorf("%s wrote %s without printing its path", script, p)
		}
	}
	if left, _ := filepath.Glob("*"); len(left) > 0 {
		t.Errorf("%s left files in the current directory: %v", script, left)
	}
	return out, pics
}

// TestQuickstart runs examples/quickstart.sql as the README says.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every query of the quickstart")
	}
	out, pics := runExample(t, "quickstart.sql")
	// The leave-one-out counts are fixed by the data and the kernels; the
	// crude texts are all classified right by normalize(ngram(n=3)).
	for _, want := range []string{
		"\n1. The news texts: how many of each label, and how long\n",
		"\n6. Kernel PCA of the news texts: eigenvalues, a new text projected, and a picture\n",
		"\n13. The kernel spec language, for your own queries (.help svm shows the arguments of svm, and so on)\n",
		"│ acq   │    20 │      172 │    3705 │",
		"│ crude │    20 │      20 │",
		"│ 17 │ setosa  │ [5.1, 3.5, 1.4, 0.3] │",
		// the svm's figures are the README's (0.896 by 5-fold cross-validation)
		"│ cv_accuracy       │ 0.8962 │",
		"│ +          │  -0.9715 │",
		"│ cv_mse    │ 0.0357 │",
		"│            1.58 │",
		"\n12. A t-SNE picture of the news texts by normalize(ngram(n=3)), coloured by label\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the quickstart's output lacks %q:\n%s", want, out)
		}
	}
	if len(pics) != 2 {
		t.Errorf("the quickstart made pictures %v, want two (kernel PCA, t-SNE)", pics)
	}
}

// TestDigitsExample runs examples/digits/digits.sql: kernel PCA of the
// digits, an svm with cross-validation and a t-SNE, with two pictures
// coloured by digit.
func TestDigitsExample(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a kernel PCA of 1,797 images")
	}
	out, pics := runExample(t, "digits/digits.sql")
	for _, want := range []string{
		"\n1. The images: how many of each digit\n",
		"│     0 │    178 │",
		"│  0 │     0 │ [0, 0, 5, 13, 9, 1, …]  │",
		"\n6. The picture: each image at its two components, coloured by its digit\n",
		"\n7. An SVM that tells the digits apart, with 5-fold cross-validation\n",
		"│ cv_accuracy     │ 0.99276572064552 │",
		"\n8. A t-SNE picture of the same kernel's feature space, coloured by digit\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the digits example's output lacks %q", want)
		}
	}
	if len(pics) != 2 {
		t.Fatalf("the digits example made pictures %v, want two", pics)
	}
	for _, p := range pics {
		checkColours(t, p, decodePNG(t, p), groupPalette[:10])
	}
}

// TestKernelsExample runs examples/digits/kernels.sql, the experiment of
// the Persian notes: k2 must beat k1 on every figure, as the README says.
func TestKernelsExample(t *testing.T) {
	if testing.Short() {
		t.Skip("two t-SNEs and two kernel Fisher discriminants")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	out, pics := runExample(t, "digits/kernels.sql")
	for _, want := range []string{
		"│ k1     │               0.8531 │                 0.9481 │             0.8926 │",
		"│ k2     │               0.9865 │                 0.9926 │                1.0 │",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the kernels example's output lacks %q:\n%s", want, out)
		}
	}
	if len(pics) != 2 {
		t.Fatalf("the kernels example made pictures %v, want two", pics)
	}
	checkReadmeKernelsTable(t, readme, out)
}

// checkReadmeKernelsTable holds the README's table of the kernels
// experiment (| k₁ | 0.853 | …) to the script's output (│ k1 │ 0.8531 │ …):
// each figure the script's, rounded as the README writes it.
func checkReadmeKernelsTable(t *testing.T, readme []byte, out string) {
	t.Helper()
	cells := func(text, prefix, sep string) []string {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, prefix) {
				f := strings.Split(strings.Trim(line, sep+" "), sep)
				for i := range f {
					f[i] = strings.TrimSpace(f[i])
				}
				return f[1:]
			}
		}
		return nil
	}
	for _, k := range [][2]string{{"k₁", "k1"}, {"k₂", "k2"}} {
		want, got := cells(string(readme), "| "+k[0]+" |", "|"), cells(out, "│ "+k[1]+" ", "│")
		if len(want) != 3 || len(got) != 3 {
			t.Fatalf("the README's row %q or the output's row %q is missing: %q, %q", k[0], k[1], want, got)
		}
		for i := range want {
			v, err := strconv.ParseFloat(got[i], 64)
			if err != nil || !figureMatches(figure{text: want[i]}, v) {
				t.Errorf("README's %s figure %s is not the script's %s", k[0], want[i], got[i])
			}
		}
	}
}
