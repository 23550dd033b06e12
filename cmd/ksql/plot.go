package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Limits of the colouring rules (see .help plot).
const (
	maxColourGroups = 12  // distinct values that each get a colour
	maxTextLabels   = 60  // points that may carry their text label
	pixelsPerInch   = 96  // of PNG output; --size is in these pixels
	defaultWidthPx  = 900 // default --size
	defaultHeightPx = 640
	maxNameRunes    = 40 // of a legend entry, a point's label or the colour column's name
	maxAxisRunes    = 80 // of an axis label
)

// plotRowLimit bounds the rows .plot collects: a scatter of more points is
// a blot, and an endless query would otherwise hold memory until killed.
var plotRowLimit = 5_000_000

var plotFormats = []string{".png", ".svg", ".pdf", ".html"}

// plotOptions are .plot's options.
type plotOptions struct {
	out            string
	title          string
	xlabel, ylabel string
	width, height  int    // pixels
	label          string // the column whose values are the tooltips of --html
}

func cmdPlot(s *Shell, _ *source, _ []string, rest string) error {
	o, query, err := parsePlotArgs(rest)
	if err != nil {
		return fmt.Errorf(".plot: %v; usage: %s", err, dotCommands["plot"].usage)
	}
	if o.out != "" {
		if err := checkPlotPath(o.out); err != nil {
			return fmt.Errorf(".plot: %v", err)
		}
	}
	ctx, end := s.begin()
	defer end()
	spin := s.startSpinner()
	defer spin.stop()
	cols, rows, err := s.collect(ctx, query, plotRowLimit)
	if errors.Is(err, errTooManyRows) {
		return fmt.Errorf(".plot: the query returns more than %d rows, more than .plot draws; add a LIMIT or sample the rows", plotRowLimit)
	}
	if err != nil {
		return fmt.Errorf(".plot: %s", err)
	}
	sc, err := newScatter(cols, rows)
	if err != nil {
		return fmt.Errorf(".plot: %v", err)
	}
	if err := sc.setTips(cols, rows, o); err != nil {
		return fmt.Errorf(".plot: %v", err)
	}
	if o.out == "" {
		o.out = freePlotPath()
	}
	if err := sc.render(o); err != nil {
		return fmt.Errorf(".plot: %v", err)
	}
	spin.stop()
	fmt.Fprintln(s.con, o.out)
	if sc.skipped > 0 {
		s.flush()
		fmt.Fprintf(s.stderr, "warning: .plot: %d row(s) with NULL or non-finite x or y left out\n", sc.skipped)
	}
	return nil
}

// parsePlotArgs takes the options before the query. The rest of the line
// is the query.
func parsePlotArgs(rest string) (*plotOptions, string, error) {
	o := &plotOptions{width: defaultWidthPx, height: defaultHeightPx}
	for rest = strings.TrimSpace(rest); strings.HasPrefix(rest, "-"); rest = strings.TrimSpace(rest) {
		var opt, val string
		var err error
		if opt, rest, err = nextArg(rest); err != nil {
			return nil, "", err
		}
		if name, v, ok := strings.Cut(opt, "="); ok {
			opt, val = name, v
		} else if opt != "" {
			if val, rest, err = nextArg(rest); err != nil {
				return nil, "", err
			}
		}
		if val == "" {
			return nil, "", fmt.Errorf("%s needs a value", opt)
		}
		switch opt {
		case "--out", "-o":
			o.out = val
		case "--html":
			if !isHTML(val) {
				return nil, "", fmt.Errorf("--html takes a file name ending in .html; got %q", val)
			}
			o.out = val
		case "--label":
			o.label = val
		case "--title":
			o.title = val
		case "--xlabel":
			o.xlabel = val
		case "--ylabel":
			o.ylabel = val
		case "--size":
			w, h, ok := strings.Cut(strings.ToLower(val), "x")
			o.width, err = strconv.Atoi(w)
			if err == nil {
				o.height, err = strconv.Atoi(h)
			}
			if !ok || err != nil || o.width < 200 || o.height < 150 || o.width > 10000 || o.height > 10000 {
				return nil, "", fmt.Errorf("--size takes WIDTHxHEIGHT in pixels, from 200x150 to 10000x10000; got %q", val)
			}
		default:
			return nil, "", fmt.Errorf("unknown option %q (options: --out FILE, --html FILE, --label COLUMN, --title TEXT, --size WxH, --xlabel TEXT, --ylabel TEXT)", opt)
		}
	}
	if rest == "" {
		return nil, "", fmt.Errorf("no query given")
	}
	if o.label != "" && !isHTML(o.out) {
		return nil, "", fmt.Errorf("--label is for the tooltips of --html FILE")
	}
	return o, rest, nil
}

func isHTML(out string) bool { return strings.ToLower(filepath.Ext(out)) == ".html" }

func checkPlotPath(out string) error {
	if !slices.Contains(plotFormats, strings.ToLower(filepath.Ext(out))) {
		return fmt.Errorf("cannot tell the format of %q: the name must end in %s", out, strings.Join(plotFormats, ", "))
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write to %q: it is a directory", out)
	}
	return nil
}

// freePlotPath picks ksql-plot-N.png in the temporary directory, never
// overwriting a file that is there: a plot nobody named goes where it
// clutters nothing.
func freePlotPath() string {
	for i := 1; ; i++ {
		p := filepath.Join(os.TempDir(), fmt.Sprintf("ksql-plot-%d.png", i))
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

// scatter is the data of a plot: the points, and how they are coloured.
type scatter struct {
	xName, yName, cName string
	pts                 plotter.XYs
	skipped             int
	// Exactly one way of colouring: none, groups (with a legend), a scale
	// (with a colour bar) or text labels next to the points.
	groups   []group
	values   []float64 // per point, for a colour scale (NaN: NULL)
	labels   []string  // per point, for text labels
	scaleMin float64
	scaleMax float64
	// Powers of ten that x, y and the colour scale are divided by before
	// drawing (see drawScale).
	xExp, yExp, cExp int
	keep             []int // the row of each point
	groupOf          []int // per point, its group
	// For --html: the tooltip of each point, and where draw put it.
	tips  []string
	marks []mark
}

// group is one colour of a categorical colouring.
type group struct {
	name string
	pts  plotter.XYs
}

// newScatter chooses x, y (the first two numeric columns) and the colour
// column (the first other one) and sorts the points for drawing.
func newScatter(cols []column, rows [][]any) (*scatter, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("the query returned no rows")
	}
	var num []int
	var kinds []string
	cj := -1
	for j, c := range cols {
		k := columnKind(rows, j)
		kinds = append(kinds, fmt.Sprintf("%s (%s)", c.name, k))
		if k == "numeric" && len(num) < 2 {
			num = append(num, j)
		} else if cj < 0 {
			cj = j
		}
	}
	if len(num) < 2 {
		return nil, fmt.Errorf("x and y must be two numeric columns, but the query gives %s", strings.Join(kinds, ", "))
	}
	xi, yi := num[0], num[1]
	sc := &scatter{xName: cols[xi].name, yName: cols[yi].name}
	var keep []int
	for i, r := range rows {
		x, okx := toFloat(r[xi])
		y, oky := toFloat(r[yi])
		if okx && oky {
			sc.pts = append(sc.pts, plotter.XY{X: x, Y: y})
			keep = append(keep, i)
		}
	}
	sc.skipped, sc.keep = len(rows)-len(sc.pts), keep
	if len(sc.pts) == 0 {
		return nil, fmt.Errorf("no row has finite numbers in both %s and %s", sc.xName, sc.yName)
	}
	xmin, xmax, ymin, ymax := plotter.XYRange(sc.pts)
	sc.xExp, sc.yExp = drawScale(xmin, xmax), drawScale(ymin, ymax)
	for i := range sc.pts {
		sc.pts[i].X /= math.Pow10(sc.xExp)
		sc.pts[i].Y /= math.Pow10(sc.yExp)
	}
	if cj >= 0 {
		sc.cName = cols[cj].name
		sc.colour(rows, keep, cj, &cols[cj])
	}
	return sc, nil
}

// colour picks the colouring by column j: up to maxColourGroups distinct
// values are groups; more numbers a colour scale; more texts labels next
// to the points when there are few points, else groups of the most
// frequent values and one "other".
func (sc *scatter) colour(rows [][]any, keep []int, j int, c *column) {
	f := valueFormat{null: "NULL", vectors: vecAuto, vecWidth: 3}
	names := make([]string, len(keep))
	count := map[string]int{}
	for i, ri := range keep {
		names[i], _ = f.text(rows[ri][j], c)
		count[names[i]]++
	}
	numeric := columnKind(rows, j) == "numeric"
	switch {
	case len(count) <= maxColourGroups:
	case numeric:
		sc.values = make([]float64, len(keep))
		sc.scaleMin, sc.scaleMax = math.Inf(1), math.Inf(-1)
		for i, ri := range keep {
			v, ok := toFloat(rows[ri][j])
			if !ok {
				v = math.NaN()
			} else {
				sc.scaleMin, sc.scaleMax = min(sc.scaleMin, v), max(sc.scaleMax, v)
			}
			sc.values[i] = v
		}
		if !(sc.scaleMin < sc.scaleMax) { // all NULL or non-finite
			sc.values = nil
			return
		}
		sc.cExp = drawScale(sc.scaleMin, sc.scaleMax)
		for i := range sc.values {
			sc.values[i] /= math.Pow10(sc.cExp)
		}
		sc.scaleMin, sc.scaleMax = sc.scaleMin/math.Pow10(sc.cExp), sc.scaleMax/math.Pow10(sc.cExp)
		return
	case len(keep) <= maxTextLabels:
		sc.labels = names
		return
	default:
		// The most frequent values keep a colour; the rest are "other".
		byCount := make([]string, 0, len(count))
		for n := range count {
			byCount = append(byCount, n)
		}
		slices.SortFunc(byCount, func(a, b string) int { return cmp.Or(count[b]-count[a], strings.Compare(a, b)) })
		kept := map[string]bool{}
		for _, n := range byCount[:maxColourGroups-1] {
			kept[n] = true
		}
		other := fmt.Sprintf("other (%d values)", len(byCount)-(maxColourGroups-1))
		for i, n := range names {
			if !kept[n] {
				names[i] = other
			}
		}
	}
	sc.groupBy(names, numeric)
}

// drawScale is the power of ten that values from lo to hi are divided by
// for drawing: 0, or 1 where their range, padded, could overflow to Inf,
// which gonum's axes divide by (every point lands on the frame) and whose
// tick search never ends. Tick labels show the values undivided
// (scaledTicks).
func drawScale(lo, hi float64) int {
	if max(math.Abs(lo), math.Abs(hi)) > math.MaxFloat64/4 {
		return 1
	}
	return 0
}

// scaledTicks are gonum's ticks, labelled with the values times 10^exp.
type scaledTicks struct{ exp int }

func (t scaledTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	if t.exp == 0 {
		return ticks
	}
	for i, tk := range ticks {
		if tk.Label != "" {
			ticks[i].Label = shiftExponent(tk.Label, t.exp)
		}
	}
	return ticks
}

// shiftExponent multiplies a number written in decimal by 10^exp, exactly,
// by moving its exponent: "1.5e+307" and 1 give "1.5e+308".
func shiftExponent(label string, exp int) string {
	mant, e, ok := strings.Cut(label, "e")
	n, err := strconv.Atoi(e)
	if !ok || err != nil {
		v, err := strconv.ParseFloat(label, 64)
		if err != nil || v == 0 {
			return label
		}
		mant, n = label, 0
	}
	return fmt.Sprintf("%se%+03d", mant, n+exp)
}

// groupBy splits the points by name, in order: numbers by value, texts
// alphabetically, NULL and "other" last.
func (sc *scatter) groupBy(names []string, numeric bool) {
	index := map[string]int{}
	for i, n := range names {
		k, ok := index[n]
		if !ok {
			k = len(sc.groups)
			index[n] = k
			sc.groups = append(sc.groups, group{name: n})
		}
		sc.groups[k].pts = append(sc.groups[k].pts, sc.pts[i])
	}
	slices.SortStableFunc(sc.groups, func(a, b group) int {
		if la, lb := isGrey(a.name), isGrey(b.name); la != lb {
			if la {
				return 1
			}
			return -1
		}
		if numeric {
			x, _ := strconv.ParseFloat(a.name, 64)
			y, _ := strconv.ParseFloat(b.name, 64)
			return cmp.Compare(x, y)
		}
		return strings.Compare(a.name, b.name)
	})
	for k, g := range sc.groups {
		index[g.name] = k
	}
	sc.groupOf = make([]int, len(names))
	for i, n := range names {
		sc.groupOf[i] = index[n]
	}
}

// clip shortens text for the picture to n characters, ending in "…",
// on one line: a label as long as a book would push the plot off the page.
func clip(text string, n int) string {
	cut := len(text) > 4*n // n characters take at most 4n bytes
	if cut {
		text = text[:4*n]
	}
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text)
	if !cut && utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)
	return string(r[:min(len(r), n-1)]) + "…"
}

// groupPalette holds colours told apart also by readers with a colour vision
// deficiency: Okabe & Ito's eight (2008), strongest first, then four of
// Paul Tol's "muted" scheme. Groups also differ by marker shape.
var groupPalette = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0x88, 0x22, 0x55, 0xFF}, // wine (Tol)
	{0x99, 0x99, 0x33, 0xFF}, // olive (Tol)
	{0x33, 0x22, 0x88, 0xFF}, // indigo (Tol)
	{0x44, 0xAA, 0x99, 0xFF}, // teal (Tol)
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow, last: it is faint on white
}

// greyColour is for NULL and "other".
var greyColour = color.NRGBA{0xAA, 0xAA, 0xAA, 0xFF}

// isGrey tells the groups that get greyColour: NULL and "other".
func isGrey(name string) bool { return name == "NULL" || strings.HasPrefix(name, "other (") }

// glyphShapes tell the groups apart without colour. All are filled, so
// that they stay visible when points crowd.
var glyphShapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, polygonGlyph{4, 45}, polygonGlyph{3, 90}, polygonGlyph{4, 0},
	polygonGlyph{3, -90}, polygonGlyph{5, 90}, polygonGlyph{6, 0}, starGlyph{},
}

// polygonGlyph is a filled regular polygon of n sides, with a corner at
// angle degrees (counter-clockwise from the x axis).
type polygonGlyph struct{ n, angle int }

func (g polygonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	n, angle, radius := g.outline(sty.Radius)
	fillPolygon(c, sty.Color, pt, n, angle, radius)
}

// outline is the glyph's corners for a marker of the given radius: n of
// them from angle degrees, corner i at radius(i). The page of --html
// draws the same (markerPath).
func (g polygonGlyph) outline(radius vg.Length) (int, float64, func(int) vg.Length) {
	r := radius * 1.2
	if g.n == 4 && g.angle == 45 {
		r = radius * 1.15 // a square looks larger than a circle of its radius
	}
	return g.n, float64(g.angle), func(int) vg.Length { return r }
}

// starGlyph is a filled five-pointed star.
type starGlyph struct{}

func (g starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	n, angle, radius := g.outline(sty.Radius)
	fillPolygon(c, sty.Color, pt, n, angle, radius)
}

func (starGlyph) outline(radius vg.Length) (int, float64, func(int) vg.Length) {
	r := radius * 1.45
	return 10, 90, func(i int) vg.Length {
		if i%2 == 1 {
			return r * 0.45
		}
		return r
	}
}

func fillPolygon(c *draw.Canvas, col color.Color, pt vg.Point, n int, angle float64, radius func(int) vg.Length) {
	c.SetColor(col)
	var p vg.Path
	for i := 0; i < n; i++ {
		a := (angle + 360*float64(i)/float64(n)) * math.Pi / 180
		q := vg.Point{X: pt.X + radius(i)*vg.Length(math.Cos(a)), Y: pt.Y + radius(i)*vg.Length(math.Sin(a))}
		if i == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	c.Fill(p)
}

// groupStyle is the marker of group k of n.
func (sc *scatter) groupStyle(k int, radius vg.Length, alpha uint8) draw.GlyphStyle {
	g := sc.groups[k]
	col := groupPalette[k%len(groupPalette)]
	if isGrey(g.name) {
		col = greyColour
	}
	col.A = alpha
	return draw.GlyphStyle{Color: col, Shape: glyphShapes[k%len(glyphShapes)], Radius: radius}
}

// markerSize shrinks markers, and lets them show through, as points crowd.
func markerSize(n int) (vg.Length, uint8) {
	switch {
	case n <= 300:
		return 3.2, 0xFF
	case n <= 2000:
		return 2.4, 0xE0
	case n <= 20000:
		return 1.7, 0xB0
	}
	return 1.2, 0x90
}

func (sc *scatter) render(o *plotOptions) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(o.out), "."))
	if isHTML(o.out) {
		format = "svg"
	}
	w := vg.Length(o.width) * vg.Inch / pixelsPerInch
	h := vg.Length(o.height) * vg.Inch / pixelsPerInch
	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	if err := sc.draw(dc, o); err != nil {
		return err
	}
	// Render in memory first, so a failure leaves no half-written file.
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return err
	}
	if isHTML(o.out) {
		page, err := sc.htmlPage(buf.String(), o, h)
		if err != nil {
			return err
		}
		buf.Reset()
		buf.WriteString(page)
	}
	if err := os.WriteFile(o.out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cannot write %q: %v", o.out, unwrapPath(err))
	}
	return nil
}

// draw lays out the picture: the title on top, the scatter on the left,
// and on the right, outside the data, the legend or the colour bar.
func (sc *scatter) draw(dc draw.Canvas, o *plotOptions) error {
	white := dc
	white.SetColor(color.White)
	white.Fill(dc.Rectangle.Path())
	const pad = vg.Length(10)
	area := draw.Crop(dc, pad, -pad, pad, -pad)
	if o.title != "" {
		sty := textStyle(15)
		th := sty.Rectangle(o.title).Size().Y
		area.FillText(sty, vg.Point{X: area.Center().X, Y: area.Max.Y - th}, o.title)
		area = draw.Crop(area, 0, 0, 0, -(th + pad))
	}
	p, err := sc.mainPlot(o)
	if err != nil {
		return err
	}
	side, sideW := sc.sidePanel()
	main := draw.Crop(area, 0, -sideW, 0, 0)
	p.Draw(main)
	if sc.tips != nil {
		data := p.DataCanvas(main)
		sc.place(p, &data)
	}
	if side != nil {
		// Line the panel up with the data area, between the axes.
		data := p.DataCanvas(main)
		panel := draw.Crop(area, area.Size().X-sideW+pad, 0, data.Min.Y-area.Min.Y, -(area.Max.Y - data.Max.Y))
		side(panel)
	}
	return nil
}

func textStyle(size vg.Length) draw.TextStyle {
	return draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, size),
		XAlign: draw.XCenter, Handler: plot.DefaultTextHandler}
}

// mainPlot is the scatter with its axes, labelled and padded.
func (sc *scatter) mainPlot(o *plotOptions) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = clip(cmp.Or(o.xlabel, sc.xName), maxAxisRunes)
	p.Y.Label.Text = clip(cmp.Or(o.ylabel, sc.yName), maxAxisRunes)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = 13
		a.Tick.Label.Font.Size = 11
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = scaledTicks{sc.xExp}, scaledTicks{sc.yExp}
	p.Add(plotter.NewGrid())
	radius, alpha := markerSize(len(sc.pts))
	switch {
	case sc.tips != nil:
		// The page draws the points itself (htmlPage).
		if err := sc.addLabels(p); err != nil {
			return nil, err
		}
	case sc.groups != nil:
		// Grey groups (NULL, other) first, underneath the coloured ones.
		for _, grey := range []bool{true, false} {
			for k, g := range sc.groups {
				if isGrey(g.name) != grey {
					continue
				}
				s, err := plotter.NewScatter(g.pts)
				if err != nil {
					return nil, err
				}
				s.GlyphStyle = sc.groupStyle(k, radius, alpha)
				p.Add(s)
			}
		}
	default:
		s, err := plotter.NewScatter(sc.pts)
		if err != nil {
			return nil, err
		}
		base := groupPalette[0]
		base.A = alpha
		s.GlyphStyle = draw.GlyphStyle{Color: base, Shape: draw.CircleGlyph{}, Radius: radius}
		if sc.values != nil {
			cm := viridis{min: sc.scaleMin, max: sc.scaleMax}
			s.GlyphStyleFunc = func(i int) draw.GlyphStyle {
				st := s.GlyphStyle
				c := cm.colour(sc.values[i])
				c.A = alpha
				st.Color = c
				return st
			}
		}
		p.Add(s)
		if err := sc.addLabels(p); err != nil {
			return nil, err
		}
	}
	sc.padAxes(p)
	return p, nil
}

// addLabels writes the text labels next to the points, if any.
func (sc *scatter) addLabels(p *plot.Plot) error {
	if sc.labels == nil {
		return nil
	}
	short := make([]string, len(sc.labels))
	for i, l := range sc.labels {
		short[i] = clip(l, maxNameRunes)
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: sc.pts, Labels: short})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = draw.XLeft
		l.TextStyle[i].Font.Size = 9
	}
	l.Offset = vg.Point{X: 4}
	p.Add(l)
	return nil
}

// padAxes widens the axes by 5% of the data's range on each side (or by 1
// when all values are equal), so that no point sits on the frame. The
// range is finite: drawScale divided values that could overflow it.
func (sc *scatter) padAxes(p *plot.Plot) {
	xmin, xmax, ymin, ymax := plotter.XYRange(sc.pts)
	padRange := func(lo, hi float64) (float64, float64) {
		d := (hi - lo) * 0.05
		switch {
		case d == 0 && hi > lo: // 5% of a subnormal span rounds to 0
			d = math.SmallestNonzeroFloat64
		case d == 0:
			d = math.Max(1, math.Abs(lo)*0.05)
		}
		return lo - d, hi + d
	}
	p.X.Min, p.X.Max = padRange(xmin, xmax)
	p.Y.Min, p.Y.Max = padRange(ymin, ymax)
	if sc.labels != nil {
		// Room for the labels to the right of the rightmost points.
		p.X.Max += (xmax - xmin) * 0.12
	}
}

// sidePanel returns what to draw right of the plot, and its width.
func (sc *scatter) sidePanel() (func(draw.Canvas), vg.Length) {
	switch {
	case sc.groups != nil:
		return sc.legendPanel()
	case sc.values != nil:
		return sc.colourBarPanel(), 95
	}
	return nil, 0
}

// legendPanel lists the groups, under the colour column's name.
func (sc *scatter) legendPanel() (func(draw.Canvas), vg.Length) {
	leg := plot.NewLegend()
	leg.Left, leg.Top = true, true
	leg.TextStyle.Font.Size = 11
	leg.ThumbnailWidth = 14
	head := textStyle(12)
	head.XAlign = draw.XLeft
	name := clip(sc.cName, maxNameRunes)
	width := head.Width(name)
	for k, g := range sc.groups {
		st := sc.groupStyle(k, 4, 0xFF)
		short := clip(g.name, maxNameRunes)
		leg.Add(short, legendMarker{st})
		width = max(width, leg.ThumbnailWidth+leg.TextStyle.Width(" "+short))
	}
	return func(c draw.Canvas) {
		hh := head.Rectangle(name).Size().Y
		c.FillText(head, vg.Point{X: c.Min.X, Y: c.Max.Y - hh}, name)
		leg.Draw(draw.Crop(c, 0, 0, 0, -(hh + 6)))
	}, width + 24
}

// legendMarker draws one group's marker in the legend.
type legendMarker struct{ st draw.GlyphStyle }

func (m legendMarker) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(m.st, c.Center())
}

// colourBarPanel draws the colour scale with ticks and the column's name.
func (sc *scatter) colourBarPanel() func(draw.Canvas) {
	return func(c draw.Canvas) {
		p := plot.New()
		cm := &viridis{min: sc.scaleMin, max: sc.scaleMax}
		p.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true, Colors: 128})
		p.HideX()
		p.Y.Label.Text = clip(sc.cName, maxNameRunes)
		p.Y.Label.TextStyle.Font.Size = 12
		p.Y.Tick.Label.Font.Size = 10
		p.Y.Min, p.Y.Max = sc.scaleMin, sc.scaleMax
		p.Y.Tick.Marker = scaledTicks{sc.cExp}
		p.Draw(c)
	}
}

// viridis is matplotlib's viridis colour map (van der Walt & Smith, 2015):
// perceptually even, readable in grey and with colour vision deficiencies.
// The anchors are every 16th entry of its 256-entry table; values between
// are interpolated.
type viridis struct{ min, max, alpha float64 }

var viridisAnchors = [][3]uint8{
	{68, 1, 84}, {72, 26, 108}, {71, 47, 125}, {65, 68, 135}, {57, 86, 140}, {49, 104, 142},
	{42, 120, 142}, {35, 136, 142}, {31, 152, 139}, {34, 168, 132}, {53, 183, 121}, {84, 197, 104},
	{122, 209, 81}, {165, 219, 54}, {210, 226, 27}, {253, 231, 37},
}

func (v *viridis) colour(x float64) color.NRGBA {
	if math.IsNaN(x) || !(v.max > v.min) {
		return greyColour
	}
	t := math.Min(1, math.Max(0, (x-v.min)/(v.max-v.min))) * float64(len(viridisAnchors)-1)
	i := min(int(t), len(viridisAnchors)-2)
	f := t - float64(i)
	a, b := viridisAnchors[i], viridisAnchors[i+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p)*(1-f) + float64(q)*f)) }
	return color.NRGBA{mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2]), 0xFF}
}

// The palette.ColorMap methods, for plotter.ColorBar.

func (v *viridis) At(x float64) (color.Color, error) { return v.colour(x), nil }
func (v *viridis) Max() float64                      { return v.max }
func (v *viridis) SetMax(x float64)                  { v.max = x }
func (v *viridis) Min() float64                      { return v.min }
func (v *viridis) SetMin(x float64)                  { v.min = x }
func (v *viridis) Alpha() float64                    { return 1 }
func (v *viridis) SetAlpha(float64)                  {}

// Palette returns n colours evenly along the map.
func (v *viridis) Palette(n int) palette.Palette {
	cs := make(plainPalette, n)
	for i := range cs {
		cs[i] = v.colour(v.min + (v.max-v.min)*float64(i)/float64(max(1, n-1)))
	}
	return cs
}

type plainPalette []color.Color

func (p plainPalette) Colors() []color.Color { return p }

var _ palette.ColorMap = (*viridis)(nil)

var (
	_ draw.GlyphDrawer = polygonGlyph{}
	_ draw.GlyphDrawer = starGlyph{}
	_ plot.Thumbnailer = legendMarker{}
)
