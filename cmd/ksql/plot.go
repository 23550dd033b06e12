package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Limits of the colouring rules (see .help plot).
const (
	maxColourGroups = 10
	maxTextLabels   = 200
)

var plotFormats = []string{".png", ".svg", ".pdf"}

// glyphShapes tell the groups apart without colour; filled shapes first,
// since they stay visible when points crowd.
var glyphShapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
	draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{},
}

const glyphRadius = vg.Length(2.5)

func cmdPlot(s *Shell, _ *source, args []string, rest string) error {
	out, query, err := parsePlotArgs(rest)
	if err != nil {
		return fmt.Errorf(".plot: %v; usage: %s", err, dotCommands["plot"].usage)
	}
	if out != "" {
		if err := checkPlotPath(out); err != nil {
			return fmt.Errorf(".plot: %v", err)
		}
	}
	ctx, end := s.begin()
	defer end()
	spin := s.startSpinner()
	defer spin.stop()
	cols, rows, err := s.collect(ctx, query)
	if err != nil {
		return fmt.Errorf(".plot: %s", err)
	}
	p, skipped, err := buildPlot(cols, rows, query)
	if err != nil {
		return fmt.Errorf(".plot: %v", err)
	}
	if out == "" {
		out = freePlotPath()
	}
	if err := savePlot(p, out); err != nil {
		return fmt.Errorf(".plot: %v", err)
	}
	spin.stop()
	fmt.Fprintln(s.con, out)
	if skipped > 0 {
		s.flush()
		fmt.Fprintf(s.stderr, "warning: .plot: %d row(s) with NULL or non-finite x or y left out\n", skipped)
	}
	return nil
}

// parsePlotArgs takes the options before the query: --out FILE, --out=FILE
// or -o FILE. The rest of the line is the query.
func parsePlotArgs(rest string) (out, query string, err error) {
	for rest = strings.TrimSpace(rest); strings.HasPrefix(rest, "-"); rest = strings.TrimSpace(rest) {
		var opt string
		opt, rest, _ = nextArg(rest)
		switch {
		case strings.HasPrefix(opt, "--out="):
			out = strings.Trim(strings.TrimPrefix(opt, "--out="), `'"`)
		case opt == "--out" || opt == "-o":
			if out, rest, err = nextArg(rest); err != nil || out == "" {
				return "", "", fmt.Errorf("%s needs a file name", opt)
			}
		default:
			return "", "", fmt.Errorf("unknown option %q", opt)
		}
	}
	if rest == "" {
		return "", "", fmt.Errorf("no query given")
	}
	return out, rest, nil
}

func checkPlotPath(out string) error {
	if !slices.Contains(plotFormats, strings.ToLower(filepath.Ext(out))) {
		return fmt.Errorf("cannot tell the format of %q: the name must end in %s", out, strings.Join(plotFormats, ", "))
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write to %q: it is a directory", out)
	}
	return nil
}

// freePlotPath picks ksql-plot-N.png in the current directory, never
// overwriting a file that is there.
func freePlotPath() string {
	for i := 1; ; i++ {
		p := fmt.Sprintf("ksql-plot-%d.png", i)
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			return p
		}
	}
}

// columnKind names what a column of the result holds: "numeric" when every
// non-NULL value is a number and there is at least one.
func columnKind(rows [][]any, j int) string {
	kind := "null"
	for _, r := range rows {
		var k string
		switch r[j].(type) {
		case nil:
			continue
		case int64, float64:
			k = "numeric"
		case []byte:
			k = "blob"
		default:
			k = "text"
		}
		if kind != "null" && kind != k {
			return "mixed"
		}
		kind = k
	}
	return kind
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsInf(x, 0) && !math.IsNaN(x)
	}
	return 0, false
}

// buildPlot chooses x, y and the colouring column and draws the scatter.
func buildPlot(cols []column, rows [][]any, query string) (*plot.Plot, int, error) {
	if len(rows) == 0 {
		return nil, 0, fmt.Errorf("the query returned no rows")
	}
	var num []int
	var kinds []string
	group := -1
	for j, c := range cols {
		k := columnKind(rows, j)
		kinds = append(kinds, fmt.Sprintf("%s (%s)", c.name, k))
		if k == "numeric" && len(num) < 2 {
			num = append(num, j)
		} else if group < 0 {
			group = j
		}
	}
	if len(num) < 2 {
		return nil, 0, fmt.Errorf("x and y must be two numeric columns, but the query gives %s", strings.Join(kinds, ", "))
	}
	xi, yi := num[0], num[1]
	var pts plotter.XYs
	var keep []int
	for i, r := range rows {
		x, okx := toFloat(r[xi])
		y, oky := toFloat(r[yi])
		if okx && oky {
			pts = append(pts, plotter.XY{X: x, Y: y})
			keep = append(keep, i)
		}
	}
	if len(pts) == 0 {
		return nil, 0, fmt.Errorf("no row has numbers in both %s and %s", cols[xi].name, cols[yi].name)
	}
	p := plot.New()
	if len(query) <= 80 {
		p.Title.Text = query
	}
	p.X.Label.Text, p.Y.Label.Text = cols[xi].name, cols[yi].name
	p.Add(plotter.NewGrid())
	var err error
	if group < 0 {
		err = addPlain(p, pts)
	} else {
		err = addGrouped(p, pts, keep, rows, group, cols[group].name)
	}
	return p, len(rows) - len(pts), err
}

func addPlain(p *plot.Plot, pts plotter.XYs) error {
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(0), Shape: glyphShapes[0], Radius: glyphRadius}
	p.Add(sc)
	return nil
}

// addGrouped colours points by the column g (see .help plot for the rules).
func addGrouped(p *plot.Plot, pts plotter.XYs, keep []int, rows [][]any, g int, name string) error {
	labels := make([]string, len(pts))
	var distinct []string
	seen := map[string]bool{}
	f := valueFormat{null: "NULL", vectors: vecAuto, vecWidth: 4}
	for i, ri := range keep {
		labels[i], _ = f.text(rows[ri][g], &column{})
		if !seen[labels[i]] {
			seen[labels[i]] = true
			distinct = append(distinct, labels[i])
		}
	}
	switch {
	case len(distinct) <= maxColourGroups:
		return addColourGroups(p, pts, labels, distinct, name)
	case columnKind(rows, g) == "numeric":
		return addColourScale(p, pts, keep, rows, g, name)
	case len(pts) <= maxTextLabels:
		if err := addPlain(p, pts); err != nil {
			return err
		}
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign = draw.XLeft
		}
		l.Offset = vg.Point{X: 4}
		p.Add(l)
		return nil
	}
	return addPlain(p, pts)
}

func addColourGroups(p *plot.Plot, pts plotter.XYs, labels, distinct []string, name string) error {
	slices.Sort(distinct)
	for k, d := range distinct {
		var sub plotter.XYs
		for i, l := range labels {
			if l == d {
				sub = append(sub, pts[i])
			}
		}
		sc, err := plotter.NewScatter(sub)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(k), Shape: glyphShapes[k%len(glyphShapes)], Radius: glyphRadius}
		p.Add(sc)
		p.Legend.Add(name+" = "+d, sc)
	}
	roomForLegend(p, len(distinct))
	return nil
}

func addColourScale(p *plot.Plot, pts plotter.XYs, keep []int, rows [][]any, g int, name string) error {
	vals := make([]float64, len(pts))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, ri := range keep {
		v, ok := toFloat(rows[ri][g])
		if !ok {
			v = math.NaN()
		} else {
			lo, hi = min(lo, v), max(hi, v)
		}
		vals[i] = v
	}
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(lo)
	cmap.SetMax(hi)
	colourOf := func(v float64) color.Color {
		if c, err := cmap.At(v); err == nil {
			return c
		}
		return color.Gray{Y: 128}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	style := draw.GlyphStyle{Shape: glyphShapes[0], Radius: glyphRadius}
	sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		st := style
		st.Color = colourOf(vals[i])
		return st
	}
	p.Add(sc)
	for _, v := range []float64{lo, hi} {
		key, _ := plotter.NewScatter(plotter.XYs{{}})
		key.GlyphStyle = style
		key.GlyphStyle.Color = colourOf(v)
		p.Legend.Add(fmt.Sprintf("%s = %s", name, strconv.FormatFloat(v, 'g', 6, 64)), key)
	}
	roomForLegend(p, 2)
	return nil
}

// roomForLegend raises the top of the y axis so that the legend, drawn in
// the top right corner, sits above the points instead of over them.
func roomForLegend(p *plot.Plot, entries int) {
	p.Legend.Top = true
	span := p.Y.Max - p.Y.Min
	if span <= 0 {
		span = 1
	}
	p.Y.Max += span * 0.07 * float64(entries+1)
}

// savePlot renders in memory first, so a failure leaves no half-written file.
func savePlot(p *plot.Plot, out string) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(out), "."))
	w, err := p.WriterTo(6*vg.Inch, 4.5*vg.Inch, format)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cannot write %q: %v", out, unwrapPath(err))
	}
	return nil
}
