//go:build !(js && wasm)

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// reportsDir finds a report to test (see the package doc) and returns its
// directory and whether it must be mounted at /reports/ (it is not site/reports).
func reportsDir(t *testing.T) (dir string, mounted bool) {
	t.Helper()
	if dir := os.Getenv("COMMLAB_REPORTS"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
			t.Fatalf("COMMLAB_REPORTS=%s holds no report: %v", dir, err)
		}
		return dir, true
	}
	if _, err := os.Stat(filepath.Join(siteDir, "reports", "index.html")); err == nil {
		return filepath.Join(siteDir, "reports"), false
	}
	dir = filepath.Join(t.TempDir(), "reports")
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("no report in site/reports; generating a quick one into %s", abs)
	goCmd(t, nil, "run", "./cmd/gen-report", "-quick", "-out", abs)
	return dir, true
}

// chartInfo is what the page says about one chart container.
type chartInfo struct {
	ID       string `json:"id"`
	Rendered bool   `json:"rendered"`
	Error    string `json:"error"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Colours  int    `json:"colours"`
}

// chartsJS inspects every chart container of a report page (the markup
// cmd/gen-report writes: <div class="chart-canvas" data-option=...>, marked
// data-rendered="true" or data-error by assets/charts.js) and counts the
// colours on its echarts canvas, sampling about 4000 pixels. A canvas of one
// colour is blank: drawing failed even if no error was raised.
const chartsJS = `[...document.querySelectorAll('.chart-canvas[data-option]')].map(el => {
	const c = el.querySelector('canvas');
	const info = {id: el.id, rendered: el.dataset.rendered === 'true', error: el.dataset.error || '',
		width: c ? c.width : 0, height: c ? c.height : 0, colours: 0};
	if (!c || c.width === 0 || c.height === 0) return info;
	const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
	const n = px.length / 4, step = Math.max(1, Math.floor(n / 4000)), seen = new Set();
	for (let i = 0; i < n; i += step) {
		seen.add(px[4*i] << 24 | px[4*i+1] << 16 | px[4*i+2] << 8 | px[4*i+3]);
	}
	info.colours = seen.size;
	return info;
})`

// chartsSettled is true when every chart has been drawn or has failed.
const chartsSettled = `[...document.querySelectorAll('.chart-canvas[data-option]')]
	.every(el => el.dataset.rendered === 'true' || el.dataset.error !== undefined)`

// TestReports opens every page of a report and checks that every chart on
// it is drawn and not blank, with no console errors and nothing fetched
// from elsewhere.
func TestReports(t *testing.T) {
	chromium(t) // skip before the slow part when there is no browser
	dir, mounted := reportsDir(t)
	var mounts []mount
	if mounted {
		mounts = append(mounts, mount{"/reports/", dir})
	}
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		pages[i] = filepath.Base(pages[i])
	}
	for _, want := range []string{"index.html", "allreduce.html"} {
		if !slices.Contains(pages, want) {
			t.Errorf("the report in %s has no %s", dir, want)
		}
	}

	s := newSession(t, serveSite(t, mounts...))
	for _, page := range pages {
		t.Run(page, func(t *testing.T) {
			s.t = t // report this page's failures under its own name
			s.open("reports/" + page)
			s.waitFor("charts on "+page, chartsSettled, 30*time.Second)
			s.snap("reports-" + strings.TrimSuffix(page, ".html") + ".png")
			charts := eval[[]chartInfo](s, chartsJS)
			if page == "allreduce.html" && len(charts) == 0 {
				t.Error("allreduce.html has no charts")
			}
			for _, c := range charts {
				switch {
				case c.Error != "":
					t.Errorf("chart %s failed: %s", c.ID, c.Error)
				case !c.Rendered:
					t.Errorf("chart %s was not drawn", c.ID)
				case c.Width == 0 || c.Height == 0:
					t.Errorf("chart %s has no canvas (%dx%d)", c.ID, c.Width, c.Height)
				case c.Colours < 2:
					t.Errorf("chart %s is blank (%d colour)", c.ID, c.Colours)
				}
			}
			t.Logf("%s: %d charts drawn", page, len(charts))
			for _, p := range s.seen() {
				t.Errorf("page problem: %s", p)
			}
		})
	}
	s.t = t
}
