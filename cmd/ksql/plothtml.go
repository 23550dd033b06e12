package main

import (
	"cmp"
	"fmt"
	"html"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxTipRunes bounds a tooltip: a news story's first lines, not the story.
const maxTipRunes = 300

// mark is one point of an HTML plot, where the page draws it.
type mark struct {
	x, y   vg.Length // on the canvas, from its bottom left
	shape  int       // index into glyphShapes
	radius vg.Length
	colour color.NRGBA
	grey   bool
	tip    string
}

// setTips gives each point its tooltip when the plot is a page: the text
// of the --label column, or else the point's values.
func (sc *scatter) setTips(cols []column, rows [][]any, o *plotOptions) error {
	if !isHTML(o.out) {
		return nil
	}
	f := valueFormat{null: "NULL", vectors: vecAuto, vecWidth: 3}
	j := -1
	if o.label != "" {
		var names []string
		for k, c := range cols {
			names = append(names, c.name)
			if j < 0 && strings.EqualFold(c.name, o.label) {
				j = k
			}
		}
		if j < 0 {
			return fmt.Errorf("--label %q is not a column of the query, whose columns are %s", o.label, strings.Join(names, ", "))
		}
	}
	shown := []int{columnIndex(cols, sc.xName), columnIndex(cols, sc.yName), columnIndex(cols, sc.cName)}
	sc.tips = make([]string, len(sc.keep))
	for i, ri := range sc.keep {
		if j >= 0 {
			sc.tips[i], _ = f.text(rows[ri][j], &cols[j])
			sc.tips[i] = clip(sc.tips[i], maxTipRunes)
			continue
		}
		var parts []string
		for _, c := range shown {
			if c >= 0 {
				v, _ := f.text(rows[ri][c], &cols[c])
				parts = append(parts, clip(cols[c].name, maxNameRunes)+" = "+clip(v, maxNameRunes))
			}
		}
		sc.tips[i] = strings.Join(parts, ", ")
	}
	return nil
}

func columnIndex(cols []column, name string) int {
	if name == "" {
		return -1
	}
	return slices.IndexFunc(cols, func(c column) bool { return c.name == name })
}

// place records where each point falls on the data canvas, with its
// marker: as mainPlot would draw it, grey groups underneath.
func (sc *scatter) place(p *plot.Plot, data *draw.Canvas) {
	trX, trY := p.Transforms(data)
	radius, _ := markerSize(len(sc.pts))
	cm := viridis{min: sc.scaleMin, max: sc.scaleMax}
	sc.marks = make([]mark, len(sc.pts))
	for i, pt := range sc.pts {
		m := mark{x: trX(pt.X), y: trY(pt.Y), radius: radius, colour: groupPalette[0], tip: sc.tips[i]}
		switch {
		case sc.groups != nil:
			k := sc.groupOf[i]
			st := sc.groupStyle(k, radius, 0xFF)
			m.shape, m.colour, m.grey = k%len(glyphShapes), st.Color.(color.NRGBA), isGrey(sc.groups[k].name)
		case sc.values != nil:
			m.colour = cm.colour(sc.values[i])
		}
		sc.marks[i] = m
	}
	slices.SortStableFunc(sc.marks, func(a, b mark) int {
		return cmp.Compare(boolInt(!a.grey), boolInt(!b.grey))
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// markerPath is the SVG path of a marker, in the page's coordinates (y
// down), the same shapes as the picture's glyphs.
func markerPath(shape int, x, y, r float64) string {
	var b strings.Builder
	g, ok := glyphShapes[shape].(interface {
		outline(vg.Length) (int, float64, func(int) vg.Length)
	})
	if !ok { // a circle, as two arcs
		fmt.Fprintf(&b, "M%s,%sa%s,%s 0 1 0 %s,0a%s,%s 0 1 0 %s,0Z", num(x-r), num(y), num(r), num(r), num(2*r), num(r), num(r), num(-2*r))
		return b.String()
	}
	n, angle, radius := g.outline(vg.Length(r))
	for i := 0; i < n; i++ {
		a := (angle + 360*float64(i)/float64(n)) * math.Pi / 180
		op := "L"
		if i == 0 {
			op = "M"
		}
		rad := float64(radius(i))
		fmt.Fprintf(&b, "%s%s,%s", op, num(x+rad*math.Cos(a)), num(y-rad*math.Sin(a)))
	}
	b.WriteString("Z")
	return b.String()
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// htmlPage wraps the picture, drawn without its points, in a page that
// draws them: one element per point, with its tooltip, and zoom and pan.
// The page loads nothing: its style and script are inline.
func (sc *scatter) htmlPage(svg string, o *plotOptions, height vg.Length) (string, error) {
	start := strings.Index(svg, "<svg")
	end := strings.LastIndex(svg, "</svg>")
	if start < 0 || end < 0 {
		return "", fmt.Errorf("the picture is not SVG")
	}
	var b strings.Builder
	fmt.Fprintf(&b, pageHead, html.EscapeString(cmp.Or(o.title, "ksql plot")), o.width, o.height)
	b.WriteString(strings.Replace(svg[start:end], "<svg", `<svg id="plot"`, 1))
	b.WriteString(`<g id="points">` + "\n")
	for _, m := range sc.marks {
		fmt.Fprintf(&b, `<path d="%s" fill="#%02X%02X%02X" data-tip="%s"/>`+"\n",
			markerPath(m.shape, float64(m.x), float64(height-m.y), float64(m.radius)),
			m.colour.R, m.colour.G, m.colour.B, html.EscapeString(m.tip))
	}
	b.WriteString("</g>\n</svg>\n")
	fmt.Fprintf(&b, pageTail, num(float64(height)*float64(o.width)/float64(o.height)), num(float64(height)))
	return b.String(), nil
}

const pageHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>%s</title>
<style>
body { margin: 8px; font-family: sans-serif; }
#plot { width: %dpx; height: %dpx; cursor: grab; user-select: none; }
#points > path { transform: scale(var(--k, 1)); transform-box: fill-box; transform-origin: center; }
#points > path:hover { stroke: #000; stroke-width: 0.8px; }
#tip { position: fixed; display: none; max-width: 420px; padding: 3px 6px; background: #fff;
       border: 1px solid #888; font-size: 13px; pointer-events: none; white-space: pre-wrap; }
#hint { color: #666; font-size: 12px; }
</style>
</head>
<body>
`

// pageTail holds the tooltip and the script: the wheel zooms about the
// pointer, dragging pans, a double click shows all; markers keep their
// size on screen as the view zooms.
const pageTail = `<div id="tip"></div>
<div id="hint">Scroll to zoom, drag to pan, double-click to see all; point at a marker for its label.</div>
<script>
(function () {
  const svg = document.getElementById("plot"), points = document.getElementById("points"),
        tip = document.getElementById("tip"), W = %s, H = %s;
  let view = [0, 0, W, H], drag = null;
  function show() {
    svg.setAttribute("viewBox", view.join(" "));
    points.style.setProperty("--k", view[2] / W);
  }
  function at(e) {
    const r = svg.getBoundingClientRect();
    return [view[0] + (e.clientX - r.left) / r.width * view[2], view[1] + (e.clientY - r.top) / r.height * view[3]];
  }
  svg.addEventListener("wheel", function (e) {
    e.preventDefault();
    const [x, y] = at(e), f = e.deltaY < 0 ? 0.8 : 1.25, w = Math.min(W, view[2] * f), s = w / view[2];
    view = [x - (x - view[0]) * s, y - (y - view[1]) * s, w, w * H / W];
    show();
  }, {passive: false});
  svg.addEventListener("mousedown", function (e) { drag = {x: e.clientX, y: e.clientY, view: view.slice()}; });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    view[0] = drag.view[0] - (e.clientX - drag.x) / r.width * view[2];
    view[1] = drag.view[1] - (e.clientY - drag.y) / r.height * view[3];
    show();
  });
  window.addEventListener("mouseup", function () { drag = null; });
  svg.addEventListener("dblclick", function () { view = [0, 0, W, H]; show(); });
  points.addEventListener("mouseover", function (e) {
    const p = e.target.closest("[data-tip]");
    if (!p) return;
    tip.textContent = p.getAttribute("data-tip");
    tip.style.left = (e.clientX + 12) + "px";
    tip.style.top = (e.clientY + 12) + "px";
    tip.style.display = "block";
  });
  points.addEventListener("mouseout", function () { tip.style.display = "none"; });
})();
</script>
</body>
</html>
`
