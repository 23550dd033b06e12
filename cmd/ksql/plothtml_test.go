package main

import (
	"context"
	"encoding/json"
	"html"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium finds Debian's chromium. The test is skipped only where it
// cannot run; anywhere else (CI installs it) its absence is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" || !cgoEnabled {
		t.Skipf("no chromium on %s without cgo (cgo %v): the page is tested on Linux", runtime.GOOS, cgoEnabled)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium is not installed; apt-get install chromium (.ci/run does)")
	return ""
}

// headless runs chromium on a page with args (--dump-dom, --screenshot)
// and returns its standard output.
func headless(t *testing.T, bin, page string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--window-size=1000,760"}, args...)
	cmd := exec.CommandContext(ctx, bin, append(all, "file://"+page)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return string(out)
}

// probe is appended to a copy of the page: on load it counts the points,
// hovers the first point that is on top at its own centre (found on
// screen, so drawn where it claims), reads the tooltip, zooms with the
// wheel, and writes what it saw as JSON for --dump-dom.
const probe = `<script>
window.addEventListener("load", function () {
  const pts = document.querySelectorAll("#points > path"), tip = document.getElementById("tip");
  const r = {count: pts.length, tips: [], hidden: getComputedStyle(tip).display};
  for (const p of pts) r.tips.push(p.getAttribute("data-tip"));
  for (const p of pts) {
    const b = p.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
    if (document.elementFromPoint(x, y) !== p) continue;
    p.dispatchEvent(new MouseEvent("mouseover", {bubbles: true, clientX: x, clientY: y}));
    r.hovered = p.getAttribute("data-tip");
    r.tip = tip.textContent;
    r.shown = getComputedStyle(tip).display;
    break;
  }
  const svg = document.getElementById("plot"), b = svg.getBoundingClientRect();
  r.before = svg.getAttribute("viewBox");
  svg.dispatchEvent(new WheelEvent("wheel", {deltaY: -100, bubbles: true, cancelable: true,
    clientX: b.left + b.width / 2, clientY: b.top + b.height / 2}));
  r.after = svg.getAttribute("viewBox");
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(r);
  document.body.appendChild(out);
});
</script>
`

type probeResult struct {
	Count         int
	Tips          []string
	Hidden, Shown string
	Hovered, Tip  string
	Before, After string
}

var probeOut = regexp.MustCompile(`<pre id="probe">(.*?)</pre>`)

func runProbe(t *testing.T, bin, page string) probeResult {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probed := strings.TrimSuffix(page, ".html") + "-probe.html"
	if err := os.WriteFile(probed, []byte(strings.Replace(string(b), "</body>", probe+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := headless(t, bin, probed, "--dump-dom")
	m := probeOut.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run; the DOM ends %q", dom[max(0, len(dom)-300):])
	}
	var r probeResult
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPlotHTML opens .plot --html pages in headless chromium: every row
// is a point in the DOM with its label, hovering shows the label, the
// wheel zooms, the screenshot has the group colours, and the page loads
// nothing from elsewhere.
func TestPlotHTML(t *testing.T) {
	bin := chromium(t)
	iris, err := filepath.Abs("testdata/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	out, errs, status := runShell(t, ".import "+iris+" iris\n"+plotFixture+
		".plot --html iris.html --label flower --title 'Iris <petals>' SELECT petal_length, petal_width, species, 'flower ' || id AS flower FROM iris\n"+
		".plot --html digits.html --label i SELECT x, y, digit, i FROM pts\n"+
		".plot --html scale.html SELECT sepal_length, sepal_width, id AS n FROM iris\n")
	if status != 0 || out != "iris.html\ndigits.html\nscale.html\n" || errs != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errs)
	}
	for _, page := range []string{"iris.html", "digits.html", "scale.html"} {
		text := readFile(t, page)
		rest := strings.NewReplacer(`xmlns="http://www.w3.org/2000/svg"`, "", `xmlns:xlink="http://www.w3.org/1999/xlink"`, "").Replace(text)
		for _, s := range []string{"http:", "https:", "src=", "<link", "@import", "url("} {
			if strings.Contains(rest, s) {
				t.Errorf("%s is not self-contained: it has %q", page, s)
			}
		}
	}
	if text := readFile(t, "iris.html"); !strings.Contains(text, "<title>Iris &lt;petals&gt;</title>") || !strings.Contains(text, ">species<") {
		t.Error("iris.html lacks its title or its legend")
	}

	r := runProbe(t, bin, filepath.Join(dir, "iris.html"))
	var want []string
	for i := range 150 { // iris.csv numbers its rows from 0
		want = append(want, "flower "+strconv.Itoa(i))
	}
	slices.Sort(r.Tips)
	slices.Sort(want)
	if r.Count != 150 || !slices.Equal(r.Tips, want) {
		t.Errorf("iris.html: %d points with labels %q…, want the 150 flowers", r.Count, r.Tips[:min(5, len(r.Tips))])
	}
	if r.Hidden != "none" || r.Hovered == "" || r.Tip != r.Hovered || r.Shown != "block" {
		t.Errorf("hovering: tooltip %q (display %s, before %s) over the point labelled %q", r.Tip, r.Shown, r.Hidden, r.Hovered)
	}
	if r.Before == r.After || r.After == "" {
		t.Errorf("the wheel did not zoom: viewBox %q, then %q", r.Before, r.After)
	}

	d := runProbe(t, bin, filepath.Join(dir, "digits.html"))
	if d.Count != 10000 || d.Tip == "" || d.Tip != d.Hovered {
		t.Errorf("digits.html: %d points (want 10000); tooltip %q over %q", d.Count, d.Tip, d.Hovered)
	}
	s := runProbe(t, bin, filepath.Join(dir, "scale.html"))
	if s.Count != 150 || !strings.HasPrefix(s.Tip, "sepal_length = ") || !strings.Contains(s.Tip, ", n = ") {
		t.Errorf("scale.html: %d points; default tooltip %q", s.Count, s.Tip)
	}

	headless(t, bin, filepath.Join(dir, "iris.html"), "--screenshot="+filepath.Join(dir, "shot.png"))
	checkColours(t, "the screenshot of iris.html", decodePNG(t, "shot.png"), groupPalette[:3])
	headless(t, bin, filepath.Join(dir, "scale.html"), "--screenshot="+filepath.Join(dir, "scale.png"))
	v := viridis{min: 0, max: 1}
	checkNear(t, "the screenshot of scale.html", decodePNG(t, "scale.png"), 760, []color.NRGBA{v.colour(0.1), v.colour(0.5), v.colour(0.9)})
}

// checkNear checks that some pixel left of x maxX is within a few levels
// of each colour: a colour scale's points take colours between its
// anchors, and right of maxX the colour bar has them all.
func checkNear(t *testing.T, name string, img image.Image, maxX int, colours []color.NRGBA) {
	t.Helper()
	b := img.Bounds()
	for _, want := range colours {
		found := false
		for y := b.Min.Y; y < b.Max.Y && !found; y++ {
			for x := b.Min.X; x < min(maxX, b.Max.X) && !found; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				d := max(absDiff(c.R, want.R), absDiff(c.G, want.G), absDiff(c.B, want.B))
				found = d <= 10
			}
		}
		if !found {
			t.Errorf("%s has no pixel near %v left of x=%d", name, want, maxX)
		}
	}
}

func absDiff(a, b uint8) uint8 { return max(a, b) - min(a, b) }
