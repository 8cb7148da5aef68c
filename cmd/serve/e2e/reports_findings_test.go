//go:build !(js && wasm)

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// summaryInfo is what summaryJS reads of a report page's first screen.
type summaryInfo struct {
	Present     bool     `json:"present"`
	HeadingTop  float64  `json:"headingTop"`
	BadgeBottom float64  `json:"badgeBottom"` // the first row's verdict badge
	Screen      float64  `json:"screen"`      // window.innerHeight
	Rows        int      `json:"rows"`
	Entries     int      `json:"entries"` // the page's li.finding entries
	Broken      []string `json:"broken"`  // the summary's in-page links without a target
}

// summaryJS measures, at the top of the page, where the findings' summary
// is: its heading and its first row's verdict, against the window's height.
const summaryJS = `(() => {
	window.scrollTo(0, 0);
	const s = document.getElementById('summary');
	if (!s) return {present: false};
	const badge = s.querySelector('tbody tr .verdict');
	return {
		present: true,
		headingTop: s.querySelector('h2').getBoundingClientRect().top,
		badgeBottom: badge ? badge.getBoundingClientRect().bottom : 1e9,
		screen: window.innerHeight,
		rows: s.querySelectorAll('tbody tr').length,
		entries: document.querySelectorAll('li.finding').length,
		broken: [...s.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute('href').slice(1)).filter(id => !document.getElementById(id)),
	};
})()`

// reportPages lists the report's pages but the index, and the mounts
// that serve it.
func reportPages(t *testing.T) (dir string, pages []string, mounts []mount) {
	t.Helper()
	dir, mounted := reportsDir(t)
	if mounted {
		mounts = append(mounts, mount{"/reports/", dir})
	}
	all, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if b := filepath.Base(p); b != "index.html" {
			pages = append(pages, b)
		}
	}
	if len(pages) == 0 {
		t.Fatalf("the report in %s has no page", dir)
	}
	return dir, pages, mounts
}

// TestReportFindingsFirst opens every report page at a desktop's and a
// phone's size and wants its findings in the first screen: the summary's
// heading and its first row's verdict above the fold, a row for every
// finding entry of the page, and every link of the summary resolving.
func TestReportFindingsFirst(t *testing.T) {
	chromium(t)
	_, pages, mounts := reportPages(t)
	base := serveSite(t, mounts...)
	for _, size := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprint(size.w), func(t *testing.T) {
			s := newBrowserSession(t, base, size.w, size.h)
			// The window's size includes what a headless browser keeps
			// for its frame: the viewport is what a reader sees.
			if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(int64(size.w), int64(size.h))); err != nil {
				t.Fatal(err)
			}
			for _, page := range pages {
				t.Run(page, func(t *testing.T) {
					s.t = t
					s.open("reports/" + page)
					s.waitFor("charts on "+page, chartsSettled, 30*time.Second)
					info := eval[summaryInfo](s, summaryJS)
					s.snap(fmt.Sprintf("first-screen-%d-%s.png", size.w, strings.TrimSuffix(page, ".html")))
					if !info.Present {
						t.Fatalf("%s has no findings summary (#summary)", page)
					}
					t.Logf("%s at %dx%.0f: summary heading at %.0f px, first verdict ends at %.0f px", page, size.w, info.Screen, info.HeadingTop, info.BadgeBottom)
					if info.HeadingTop < 0 || info.BadgeBottom > info.Screen {
						t.Errorf("%s: the summary is not in the first screen (heading at %.0f px, first verdict ending at %.0f px, the window %.0f px high)",
							page, info.HeadingTop, info.BadgeBottom, info.Screen)
					}
					if info.Rows == 0 || info.Rows != info.Entries {
						t.Errorf("%s: %d summary rows for %d findings", page, info.Rows, info.Entries)
					}
					for _, id := range info.Broken {
						t.Errorf("%s: the summary links to #%s, which the page does not have", page, id)
					}
				})
			}
			s.t = t
		})
	}
}

// indexEntry is what the index says of one page.
type indexEntry struct {
	Link   string  `json:"link"`
	Shapes int     `json:"shapes"` // rects, polylines and circles of its thumbnail
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Counts string  `json:"counts"`
}

// countsText is the index's verdict counts: "4 reproduced, 2 partially, 1
// not reproduced, 1 inconclusive", each verdict at most once.
var countsText = regexp.MustCompile(`^\d+ (reproduced|partially|not reproduced|inconclusive|not checkable)(, \d+ (reproduced|partially|not reproduced|inconclusive|not checkable))*$`)

// TestReportIndex checks that the reports' index shows, for every page, a
// drawn thumbnail and its verdict counts.
func TestReportIndex(t *testing.T) {
	chromium(t)
	_, pages, mounts := reportPages(t)
	s := newSession(t, serveSite(t, mounts...))
	s.open("reports/index.html")
	entries := eval[[]indexEntry](s, `[...document.querySelectorAll('ul.pages > li')].map(li => {
		const svg = li.querySelector('svg.thumb'), r = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
		const counts = li.querySelector('p.counts');
		return {link: li.querySelector('.entry > a').getAttribute('href'),
			shapes: svg ? svg.querySelectorAll('rect, polyline, circle').length : 0,
			width: r.width, height: r.height, counts: counts ? counts.textContent : ''};
	})`)
	for _, w := range []int64{1280, 390} {
		if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(w, 844)); err != nil {
			t.Fatal(err)
		}
		s.snap(fmt.Sprintf("reports-index-%d.png", w))
	}
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.Link] = true
		if e.Shapes < 2 || e.Width < 100 || e.Height < 60 {
			t.Errorf("index entry %s: thumbnail of %d shapes, %.0fx%.0f px", e.Link, e.Shapes, e.Width, e.Height)
		}
		if !countsText.MatchString(e.Counts) {
			t.Errorf("index entry %s: verdict counts %q", e.Link, e.Counts)
		}
	}
	for _, p := range pages {
		if !listed[p] && !strings.HasSuffix(p, "-live.html") {
			t.Errorf("the index does not list %s", p)
		}
	}
}

// The demo report of the report package (its TestDemo), generated once
// per run: a page whose intervals, hatching and links the tests know.
var demoReport struct {
	once sync.Once
	dir  string
	err  error
}

func sharedDemoReport(t *testing.T) string {
	t.Helper()
	demoReport.once.Do(func() {
		demoReport.dir, demoReport.err = os.MkdirTemp("", "commlab-e2e-demo-")
		if demoReport.err != nil {
			return
		}
		dir := demoReport.dir
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		out, err := filepath.Abs(filepath.Join(dir, "reports"))
		if err != nil {
			demoReport.err = err
			return
		}
		demoReport.err = runGo(t.Context(), nil, "test", "-count=1", "-run", "^TestDemo$", "./cmd/gen-report/internal/report/", "-out", out)
	})
	if demoReport.err != nil {
		t.Fatal(demoReport.err)
	}
	return filepath.Join(demoReport.dir, "reports")
}

// pixelJS(id) returns a function of the chart's coordinates that reads
// the chart's canvas: the colour at a data point, in CSS pixels.
const chartProbeJS = `(id) => {
	const el = document.getElementById('chart-' + id), chart = echarts.getInstanceByDom(el);
	const canvas = el.querySelector('canvas'), ctx = canvas.getContext('2d'), dpr = canvas.width / el.clientWidth;
	const at = (x, y) => { const p = ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data; return [p[0], p[1], p[2]]; };
	return {el, chart, at, dpr};
}`

// intervalInfo is what the demo page's charts say about their intervals.
type intervalInfo struct {
	Bars       []int    `json:"bars"`       // data items of each error-bar series
	Hatched    int      `json:"hatched"`    // cells of the hatching series
	Cap        [3]int   `json:"cap"`        // the colour at the butterfly's first upper cap
	Above      [3]int   `json:"above"`      // the colour 6 px above it
	HatchedCol int      `json:"hatchedCol"` // colours inside a hatched cell
	PlainCol   int      `json:"plainCol"`   // colours inside a plain cell
	Tooltip    string   `json:"tooltip"`
	LineTip    string   `json:"lineTip"`
	CellXY     [2]int   `json:"cellXY"` // a linked cell's centre, in the page's CSS pixels
	Legend     []string `json:"legend"`
}

// TestReportIntervalsAndLinks opens the report package's demo page and
// checks the error bars (an echarts custom series per line with
// intervals, drawn in the line's colour), the hatching of the heat map's
// wide cells (stripes inside them, none inside the others), the
// tooltips' intervals and links, and that a click on a linked cell opens
// the scene it names with its parameters.
func TestReportIntervalsAndLinks(t *testing.T) {
	chromium(t)
	demo := sharedDemoReport(t)
	s := newBrowserSession(t, serveScenes(t, mount{"/reports/", demo}), 1280, 900)
	s.open("reports/demo.html")
	s.waitFor("the demo's charts", chartsSettled, 30*time.Second)

	var heat struct {
		Lo, Hi [][]*float64
		X      struct{ Labels []string }
	}
	b, err := os.ReadFile(filepath.Join(demo, "data", "demo-heat.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &heat); err != nil {
		t.Fatal(err)
	}
	// Cell (x 10, y 8) is in the hatched quarter and links to the
	// butterfly scene at P = 1024 (2^14 capped).
	const cx, cy = 10, 8
	info := eval[intervalInfo](s, `(async () => {
		const probe = `+chartProbeJS+`;
		const line = probe('demo-line'), heat = probe('demo-heat');
		const lopt = line.chart.getOption(), hopt = heat.chart.getOption();
		const out = {};
		out.bars = lopt.series.filter(s => s.type === 'custom').map(s => s.data.length);
		out.legend = lopt.legend[0].data;
		out.hatched = hopt.series.filter(s => s.id === 'hatch').map(s => s.data.length)[0] || 0;
		// The butterfly's first point: value 3, interval [3/1.4, 3·1.4].
		const cap = line.chart.convertToPixel({seriesIndex: 0}, [0, 3 * 1.4]);
		out.cap = line.at(cap[0] + 3, cap[1]);
		out.above = line.at(cap[0] + 3, cap[1] - 6);
		const colours = (x, y) => {
			const c = heat.chart.convertToPixel({seriesIndex: 0}, [x, y]), w = heat.chart.convertToPixel({seriesIndex: 0}, [x + 1, y])[0] - c[0];
			const seen = new Set();
			for (let dx = -0.3 * w; dx <= 0.3 * w; dx++) for (let dy = -0.3 * w; dy <= 0.3 * w; dy += 3) seen.add(heat.at(c[0] + dx, c[1] + dy).join());
			return seen.size;
		};
		out.hatchedCol = colours(`+strconv.Itoa(cx)+`, `+strconv.Itoa(cy)+`);
		out.plainCol = colours(4, 2);
		const data = hopt.series[0].data, k = data.findIndex(d => d.value[0] === `+strconv.Itoa(cx)+` && d.value[1] === `+strconv.Itoa(cy)+`);
		heat.chart.dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: k});
		await new Promise(r => setTimeout(r, 300));
		out.tooltip = heat.el.innerText;
		line.chart.dispatchAction({type: 'showTip', seriesIndex: 1, dataIndex: 3});
		await new Promise(r => setTimeout(r, 300));
		out.lineTip = line.el.innerText;
		heat.chart.dispatchAction({type: 'hideTip'});
		const c = heat.chart.convertToPixel({seriesIndex: 0}, [`+strconv.Itoa(cx)+`, `+strconv.Itoa(cy)+`]), r = heat.el.getBoundingClientRect();
		heat.el.scrollIntoView({block: 'center'});
		const r2 = heat.el.getBoundingClientRect();
		out.cellXY = [Math.round(r2.left + c[0]), Math.round(r2.top + c[1])];
		return out;
	})()`)
	s.snap("reports-demo-intervals.png")

	if len(info.Bars) != 2 || info.Bars[0] != 10 || info.Bars[1] != 12 {
		t.Errorf("error-bar series %v, want the butterfly's 10 intervals and the redundant's 12", info.Bars)
	}
	if strings.Join(info.Legend, "|") != "butterfly|redundant|linear" {
		t.Errorf("legend %q, want one entry per line", info.Legend)
	}
	near := func(c [3]int, r, g, b int) bool {
		d := func(x, y int) int { return max(x-y, y-x) }
		return d(c[0], r) < 60 && d(c[1], g) < 60 && d(c[2], b) < 60
	}
	if !near(info.Cap, 0x00, 0x72, 0xb2) || near(info.Above, 0x00, 0x72, 0xb2) {
		t.Errorf("the butterfly's first upper cap is %v and 6 px above it %v: want its colour #0072b2 on the cap only", info.Cap, info.Above)
	}
	if info.Hatched != 48 {
		t.Errorf("%d hatched cells, want the demo's 48 (its top right quarter)", info.Hatched)
	}
	if info.HatchedCol < 3 || info.PlainCol > 2 {
		t.Errorf("%d colours inside a hatched cell, %d inside a plain one: want stripes in the first only", info.HatchedCol, info.PlainCol)
	}
	lo, hi := *heat.Lo[cy][cx], *heat.Hi[cy][cx]
	for _, want := range []string{
		"processes: 2¹⁴", // the label as the axis draws it
		fmt.Sprintf("[%s, %s]", sig3(lo), sig3(hi)),
		"hatched: the interval is wider than ±10 %",
		"Click: opens the butterfly scene at P = 1024 (the cell's 16384 capped to what the scene draws)",
	} {
		if !strings.Contains(info.Tooltip, want) {
			t.Errorf("the heat map's tooltip %q lacks %q", info.Tooltip, want)
		}
	}
	if !strings.Contains(info.LineTip, "redundant:") || !strings.Contains(info.LineTip, "Click: opens the jitter scene at P = 64") || !regexp.MustCompile(`\[[0-9.]+, [0-9.]+\]`).MatchString(info.LineTip) {
		t.Errorf("the line chart's tooltip %q lacks the redundant series' interval and link", info.LineTip)
	}

	// A click on the cell opens the scene with the cell's parameters.
	if err := chromedp.Do(s.ctx, chromedp.MouseClickXY(float64(info.CellXY[0]), float64(info.CellXY[1]))); err != nil {
		t.Fatal(err)
	}
	s.waitNavigated("the click to open the scene", `location.pathname === '/scene.html'`, 20*time.Second)
	s.waitFor("the scene to draw", ready, bootTimeout)
	st := s.state()
	if st.Scene != "butterfly" || st.Params["P"] != "1024" {
		t.Errorf("the click opened scene %q with P = %q (%s), want the butterfly at P = 1024", st.Scene, st.Params["P"], eval[string](s, `location.href`))
	}

	// A table row with a link opens it wherever it is clicked.
	s.open("reports/demo.html")
	s.waitFor("the demo's charts", chartsSettled, 30*time.Second)
	row := eval[[3]float64](s, `(() => { const r = document.querySelector('#demo-table tr.linked'); r.scrollIntoView({block: 'center'});
		const c = r.querySelectorAll('td')[2].getBoundingClientRect(); return [c.left + c.width / 2, c.top + c.height / 2, r.title.startsWith('Opens the butterfly scene at P = 1024') ? 1 : 0]; })()`)
	if row[2] != 1 {
		t.Error("the linked row's title does not say what it opens")
	}
	if err := chromedp.Do(s.ctx, chromedp.MouseClickXY(row[0], row[1])); err != nil {
		t.Fatal(err)
	}
	s.waitNavigated("the row's click to open the scene", `location.pathname === '/scene.html' && location.search === '?scene=butterfly&P=1024'`, 20*time.Second)
	s.waitFor("the scene to draw", ready, bootTimeout)
}

// waitNavigated polls predicate until it holds, across a navigation the
// test set off: while the old page goes and the new one comes, an
// evaluation may find no page to run in, which is not yet an answer.
func (s *session) waitNavigated(what, predicate string, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(s.ctx, chromedp.Evaluate[bool](predicate))
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("waiting for %s: not within %v (last error %v; location %s)", what, timeout, last, eval[string](s, `location.href`))
}

// sig3 writes v as charts.js's fmt does with 3 digits, for values in
// [0.001, 10⁶): three significant digits, no trailing zeros.
func sig3(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	f, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(f, 'f', -1, 64)
}
