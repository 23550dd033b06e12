package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plotFixture is a table of 10,000 points: a spiral (x, y), a digit
// (i % 10), a label with 100 values, and i itself.
const plotFixture = `CREATE TABLE pts AS WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 9999)
  SELECT i, sin(i * 0.37) * i / 100.0 AS x, cos(i * 0.61) * i / 100.0 AS y, i % 10 AS digit,
         'label' || (i % 100) AS lab FROM c;
`

func TestPlotFiles(t *testing.T) {
	iris, err := filepath.Abs("testdata/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	t.Setenv("TMPDIR", tmp)
	in := ".import " + iris + " iris\n" + plotFixture +
		".plot --out groups.svg --title 'Iris petals' SELECT petal_length, petal_width, species FROM iris\n" +
		".plot -o groups.png SELECT petal_length, petal_width, species FROM iris\n" +
		".plot --out=scale.svg SELECT sepal_length, sepal_width, id AS flower FROM iris\n" +
		".plot --out 'with space.svg' SELECT x, y, name FROM (SELECT id AS x, id * id AS y, 'p' || id AS name FROM iris WHERE id BETWEEN 1 AND 12) \n" +
		".plot SELECT id, petal_length FROM iris\n" +
		".plot SELECT id, CASE WHEN id < 100 THEN petal_length END FROM iris\n" +
		".plot --out digits.png SELECT x, y, digit FROM pts\n" +
		".plot --out many.svg SELECT x, y, lab FROM pts\n" +
		".plot --out small.png --size 400x300 --xlabel 'the x' --ylabel \"the y\" SELECT x, y FROM pts WHERE i < 50\n"
	out, errs, status := runShell(t, in)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	want := "groups.svg\ngroups.png\nscale.svg\nwith space.svg\n" + filepath.Join(tmp, "ksql-plot-1.png") + "\n" +
		filepath.Join(tmp, "ksql-plot-2.png") + "\ndigits.png\nmany.svg\nsmall.png\n"
	if out != want {
		t.Errorf("printed paths %q, want %q", out, want)
	}
	if want := "warning: .plot: 50 row(s) with NULL or non-finite x or y left out\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	for name, texts := range map[string][]string{
		// The legend names the column once, then each value.
		"groups.svg": {"<svg", "Iris petals", ">species<", ">setosa<", ">versicolor<", ">virginica<", "petal_length", "petal_width"},
		// A colour bar, labelled with the column, with ticks.
		"scale.svg": {">flower<", ">0<", ">60<", ">120<"},
		// Few points with many texts: each point labelled.
		"with space.svg": {">p1<", ">p12<"},
		// 100 labels: the 11 most frequent get colours, then one grey group.
		"many.svg": {">label0<", ">other (89 values)<"},
	} {
		svg := readFile(t, name)
		for _, s := range texts {
			if !strings.Contains(svg, s) {
				t.Errorf("%s lacks %q", name, s)
			}
		}
	}
	if strings.Contains(readFile(t, "groups.svg"), "SELECT") {
		t.Error("the plot shows the query's SQL")
	}
	img := decodePNG(t, "groups.png")
	checkColours(t, "groups.png", img, groupPalette[:3])
	checkColours(t, "digits.png", decodePNG(t, "digits.png"), groupPalette[:10])
	if b := decodePNG(t, "small.png").Bounds(); b.Dx() != 400 || b.Dy() != 300 {
		t.Errorf("--size 400x300 made a %dx%d picture", b.Dx(), b.Dy())
	}
	if b := img.Bounds(); b.Dx() != defaultWidthPx || b.Dy() != defaultHeightPx {
		t.Errorf("the default size is %dx%d, want %dx%d", b.Dx(), b.Dy(), defaultWidthPx, defaultHeightPx)
	}
	checkFramePadding(t, "groups.png", img)
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decodePNG(t *testing.T, name string) image.Image {
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
	return img
}

// checkColours checks that each colour is painted somewhere: every group
// got its points.
func checkColours(t *testing.T, name string, img image.Image, colours []color.NRGBA) {
	t.Helper()
	seen := map[color.NRGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			seen[color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)] = true
		}
	}
	for k, c := range colours {
		if !seen[c] {
			t.Errorf("%s has no pixel of group colour %d %v", name, k, c)
		}
	}
}

// checkFramePadding checks that no marker touches the plot's frame: the
// group colours appear only inside the axes' box, away from its edges. The
// box is found as the extent of the grid's light grey.
func checkFramePadding(t *testing.T, name string, img image.Image) {
	t.Helper()
	b := img.Bounds()
	// The data area is left of the legend: find the coloured pixels' extent
	// there and check it keeps a margin from the area's edges.
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, 0, 0
	legendX := b.Max.X - 150
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < legendX; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if c == groupPalette[0] || c == groupPalette[1] || c == groupPalette[2] {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	if minX < 80 || minY < 10 || maxY > b.Max.Y-60 {
		t.Errorf("%s: markers reach (%d,%d)-(%d,%d), onto the axes or the edge", name, minX, minY, maxX, maxY)
	}
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	in := plotFixture +
		".plot --out a.png SELECT lab, lab FROM pts\n" +
		".plot --out a.png SELECT x, y FROM pts WHERE 0\n" +
		".plot --out a.png SELECT 1e300 * 1e10, 1\n" +
		".plot --out a.png SELECT NULL, 1\n" +
		".plot --size 10x10 SELECT x, y FROM pts\n" +
		".plot --size big SELECT x, y FROM pts\n" +
		".plot --title SELECT x, y FROM pts\n" +
		".plot --out a.gif SELECT x, y FROM pts\n" +
		".plot --out . SELECT x, y FROM pts\n" +
		".plot --out /nonexistent/dir/a.png SELECT x, y FROM pts\n" +
		".plot --out a.png SELECT x, y FROM nosuch\n" +
		".plot --html a.png SELECT x, y FROM pts\n" +
		".plot --out a.png --label i SELECT x, y, i FROM pts\n" +
		".plot --html a.html --label nosuch SELECT x, y, i FROM pts\n"
	out, errs, status := runShell(t, in)
	if out != "" || status != 1 {
		t.Errorf("stdout %q, status %d", out, status)
	}
	for _, want := range []string{
		"x and y must be two numeric columns, but the query gives lab (text), lab (text)",
		"the query returned no rows",
		"no row has finite numbers in both",
		"x and y must be two numeric columns, but the query gives NULL (null), 1 (numeric)",
		"--size takes WIDTHxHEIGHT in pixels",
		`--size takes WIDTHxHEIGHT in pixels, from 200x150 to 10000x10000; got "big"`,
		`near "x": syntax error`,
		`cannot tell the format of "a.gif"`,
		`cannot tell the format of "."`,
		`cannot write "/nonexistent/dir/a.png": no such file or directory`,
		"no such table: nosuch",
		`.plot: --html takes a file name ending in .html; got "a.png"`,
		".plot: --label is for the tooltips of --html FILE",
		`.plot: --label "nosuch" is not a column of the query, whose columns are x, y, i`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for _, f := range []string{"a.png", "a.html"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("a failed .plot left %s", f)
		}
	}
}

// BenchmarkPlot10k draws 10,000 points coloured by 10 groups, to PNG and
// SVG: the query, the layout and the encoding.
func BenchmarkPlot10k(b *testing.B) {
	for _, format := range []string{"png", "svg"} {
		b.Run(format, func(b *testing.B) {
			o, _ := parseOptions(nil)
			s, err := openShell(o, stdio{out: io.Discard, err: io.Discard})
			if err != nil {
				b.Fatal(err)
			}
			defer s.close()
			if err := s.processText(plotFixture, false); err != nil {
				b.Fatal(err)
			}
			out := filepath.Join(b.TempDir(), "p."+format)
			for b.Loop() {
				if err := s.processText(fmt.Sprintf(".plot --out %s SELECT x, y, digit FROM pts", out), false); err != nil || s.errors > 0 {
					b.Fatalf(".plot failed: %v", err)
				}
			}
		})
	}
}

// TestPlotExtremes plots what could hang, panic or draw nothing: ranges
// that overflow, a single point, equal points, subnormal numbers, Inf,
// huge colour values, many categories, labels as long as a book, empty
// and endless results. Each must give a picture with its points spread
// over the data area, or an error that names .plot.
func TestPlotExtremes(t *testing.T) {
	t.Chdir(t.TempDir())
	old := plotRowLimit
	plotRowLimit = 1000
	t.Cleanup(func() { plotRowLimit = old })
	const max = "1.7976931348623157e308"
	long := "(SELECT group_concat('abcdefghij', '') FROM " + series(1, 1000) + ")"
	for _, c := range []struct {
		name, query string
		spread      bool     // points at the far left and right, bottom and top
		err         string   // the error after "Error: .plot: "
		svg         []string // texts in the SVG
		warn        string
	}{
		{name: "opposite corners", query: "SELECT -1.7e308, -1.7e308 UNION ALL SELECT 1.7e308, 1.7e308", spread: true,
			svg: []string{">-2e+308<", ">2e+308<"}},
		{name: "max float corners", query: "SELECT -" + max + ", " + max + " UNION ALL SELECT " + max + ", -" + max, spread: true},
		{name: "max float and zero", query: "SELECT 0, 0 UNION ALL SELECT " + max + ", " + max, spread: true},
		{name: "one point", query: "SELECT 1, 2"},
		{name: "equal points", query: "SELECT 3, 3 FROM " + series(1, 5)},
		{name: "one point at max", query: "SELECT " + max + ", " + max},
		{name: "equal points at -max", query: "SELECT -" + max + ", -" + max + " FROM " + series(1, 5)},
		{name: "subnormal", query: "SELECT 5e-324, 1e-323 UNION ALL SELECT 1e-323, 5e-324 UNION ALL SELECT 2.5e-323, 2.5e-323", spread: true},
		{name: "subnormal and zero", query: "SELECT 0, 0 UNION ALL SELECT 5e-324, 5e-324"},
		{name: "tiny relative span", query: "SELECT 1, 1 UNION ALL SELECT 1.0000000000000002, 1.0000000000000002"},
		{name: "int64 extremes", query: "SELECT 9223372036854775807, -9223372036854775808 UNION ALL SELECT -9223372036854775808, 9223372036854775807", spread: true},
		{name: "Inf left out", query: "SELECT 1, 1 UNION ALL SELECT 2, 2 UNION ALL SELECT 1e999, 3 UNION ALL SELECT 4, -1e999", spread: true,
			warn: "warning: .plot: 2 row(s) with NULL or non-finite x or y left out"},
		{name: "all Inf", query: "SELECT 1e999, 1 UNION ALL SELECT 2, -1e999", err: "no row has finite numbers in both"},
		{name: "colour scale to max", query: "SELECT value, value, (value - 10) * 1.7e307 AS c FROM " + series(0, 20) + "", spread: true,
			svg: []string{">c<", "e+308<"}},
		{name: "colour scale with Inf and NULL", query: "SELECT value, value, CASE value % 3 WHEN 0 THEN 1e999 WHEN 1 THEN NULL ELSE value * 1e300 END FROM " + series(0, 60) + "", spread: true},
		{name: "many categories", query: "SELECT value % 977, value / 977, 'cat' || value FROM " + series(1, 999) + "", spread: true,
			svg: []string{">other (988 values)<"}},
		{name: "long labels", query: "SELECT value, value, value || " + long + " FROM " + series(1, 20) + "", spread: true,
			svg: []string{">10abcdefghijabcdefghijabcdefghijabcdefg…<"}},
		{name: "long group names", query: "SELECT value, value, (value % 3) || " + long + " FROM " + series(1, 20) + "", spread: true,
			svg: []string{">0abcdefghijabcdefghijabcdefghijabcdefgh…<"}},
		{name: "long column names", query: "SELECT value AS \"" + strings.Repeat("x", 5000) + "\", value FROM " + series(1, 20) + "", spread: true,
			svg: []string{strings.Repeat("x", 79) + "…"}},
		{name: "empty", query: "SELECT 1, 2 WHERE 0", err: "the query returned no rows"},
		{name: "one column", query: "SELECT 1", err: "x and y must be two numeric columns, but the query gives 1 (numeric)"},
		{name: "too many rows", query: "SELECT value, value FROM " + series(1, 1001) + "",
			err: "the query returns more than 1000 rows, more than .plot draws; add a LIMIT or sample the rows"},
		{name: "endless", query: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i, i FROM c",
			err: "the query returns more than 1000 rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, format := range []string{"png", "svg"} {
				file := "p." + format
				os.Remove(file)
				out, errs, status := runBounded(t, strings.NewReader(""), ":memory:", seriesTable, ".plot --out "+file+" "+c.query)
				if c.err != "" {
					if status != 1 || !strings.HasPrefix(errs, "Error: .plot: ") || !strings.Contains(errs, c.err) {
						t.Errorf("status %d, stderr %q; want an error with %q", status, errs, c.err)
					}
					return
				}
				if status != 0 || out != file+"\n" || errs != c.warn+strings.Repeat("\n", min(1, len(c.warn))) {
					t.Fatalf("status %d, stdout %q, stderr %q", status, out, errs)
				}
				if format == "svg" {
					svg := readFile(t, file)
					for _, s := range c.svg {
						if !strings.Contains(svg, s) {
							t.Errorf("the SVG lacks %q", s)
						}
					}
					continue
				}
				minX, minY, maxX, maxY := markerExtent(decodePNG(t, file))
				if minX > maxX {
					t.Fatal("no marker is drawn")
				}
				if c.spread && (minX > 225 || maxX < 540 || minY > 160 || maxY < 450) {
					t.Errorf("markers only within (%d,%d)-(%d,%d): not spread over the data area", minX, minY, maxX, maxY)
				}
			}
		})
	}
}

// seriesTable holds the numbers 0 to 1001, for series.
const seriesTable = "CREATE TABLE series AS WITH RECURSIVE s(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM s WHERE value < 1001) SELECT value FROM s"

// series is the rows from to to of seriesTable.
func series(from, to int) string {
	return fmt.Sprintf("(SELECT value FROM series WHERE value BETWEEN %d AND %d)", from, to)
}

// markerExtent finds the box of the pixels that are neither white, grey
// nor black (the frame, grid and text): the markers.
func markerExtent(img image.Image) (minX, minY, maxX, maxY int) {
	b := img.Bounds()
	minX, minY = b.Max.X, b.Max.Y
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl)-min(r, g, bl) > 0x3000 {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	return
}

func TestShiftExponent(t *testing.T) {
	for _, c := range []struct {
		in   string
		exp  int
		want string
	}{
		{"1.5e+307", 1, "1.5e+308"}, {"-2e+307", 1, "-2e+308"}, {"0", 1, "0"}, {"1e-05", 3, "1e-02"},
		{"25", 1, "25e+01"}, {"x", 1, "x"},
	} {
		if got := shiftExponent(c.in, c.exp); got != c.want {
			t.Errorf("shiftExponent(%q, %d) = %q, want %q", c.in, c.exp, got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"}, {"exactly10!", 10, "exactly10!"}, {"eleven chars", 10, "eleven ch…"},
		{"a\nb\tc", 10, "a b c"}, {strings.Repeat("é", 50), 5, "éééé…"}, {strings.Repeat("😀", 20), 5, "😀😀😀😀…"},
		{strings.Repeat("😀", 5), 5, "😀😀😀😀😀"},
	} {
		if got := clip(c.in, c.n); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
