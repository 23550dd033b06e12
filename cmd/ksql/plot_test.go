package main

import (
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotutil"
)

func TestPlotFiles(t *testing.T) {
	iris, err := filepath.Abs("testdata/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	in := ".import " + iris + " iris\n" +
		".plot --out groups.svg SELECT petal_length, petal_width, species FROM iris\n" +
		".plot -o groups.png SELECT petal_length, petal_width, species FROM iris\n" +
		".plot --out=scale.svg SELECT sepal_length, sepal_width, id FROM iris\n" +
		".plot --out 'with space.svg' SELECT x, y, name FROM (SELECT id AS x, id * id AS y, 'p' || id AS name FROM iris WHERE id BETWEEN 1 AND 12) \n" +
		".plot SELECT id, petal_length FROM iris\n" +
		".plot SELECT id, CASE WHEN id < 100 THEN petal_length END FROM iris\n"
	out, errs, status := runShell(t, in)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	if want := "groups.svg\ngroups.png\nscale.svg\nwith space.svg\nksql-plot-1.png\nksql-plot-2.png\n"; out != want {
		t.Errorf("printed paths %q, want %q", out, want)
	}
	if want := "warning: .plot: 50 row(s) with NULL or non-finite x or y left out\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	svg := readFile(t, "groups.svg")
	for _, s := range []string{"<svg", "species = setosa", "species = versicolor", "species = virginica", "petal_length", "petal_width"} {
		if !strings.Contains(svg, s) {
			t.Errorf("groups.svg lacks %q", s)
		}
	}
	scale := readFile(t, "scale.svg")
	for _, s := range []string{"id = 0", "id = 149"} {
		if !strings.Contains(scale, s) {
			t.Errorf("scale.svg lacks the colour-scale key %q", s)
		}
	}
	labels := readFile(t, "with space.svg")
	for _, s := range []string{">p1<", ">p12<"} {
		if !strings.Contains(labels, s) {
			t.Errorf("with space.svg lacks the point label %q", s)
		}
	}
	checkPNGColours(t, "groups.png", 3)
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkPNGColours decodes the PNG and checks that each of the first n group
// colours is painted somewhere: every species got its points.
func checkPNGColours(t *testing.T, name string, n int) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
		t.Errorf("%s is only %dx%d", name, b.Dx(), b.Dy())
	}
	for k := 0; k < n; k++ {
		want := color.NRGBAModel.Convert(plotutil.Color(k)).(color.NRGBA)
		found := false
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y && !found; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA); c == want {
					found = true
					break
				}
			}
		}
		if !found {
			t.Errorf("%s has no pixel of group colour %d %v", name, k, want)
		}
	}
}
