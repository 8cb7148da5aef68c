package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSummaryFirst checks that a page opens with its findings: the summary
// comes before the subtitle, the method and the first section, has a row
// per finding outside the Live sections, in page order, each linking to an
// anchor the page has (its finding-N entry) and to the charts and tables
// the finding names; and a long Intro is folded after it.
func TestSummaryFirst(t *testing.T) {
	idx, pages := demo()
	pages[0].Intro = strings.Repeat("A long method text, paragraph after paragraph. ", 20) + "\n\nSecond paragraph."
	files, err := build(idx, pages)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, f := range files {
		byName[f.path] = string(f.data)
	}
	page := byName["demo.html"]
	order := []string{`<h1>`, `<section class="summary" id="summary">`, `<p class="subtitle">`, `<details class="intro">`, `<nav class="toc">`, `<section id="section-1">`}
	last := -1
	for _, o := range order {
		i := strings.Index(page, o)
		if i < 0 {
			t.Fatalf("demo.html lacks %s", o)
		}
		if i < last {
			t.Errorf("demo.html: %s comes before what should precede it (order %q)", o, order)
		}
		last = i
	}
	if !strings.Contains(page, "<summary>"+introSummary+" (2 paragraphs)</summary>") {
		t.Error("the folded intro's summary line does not say what it holds")
	}
	summary := page[strings.Index(page, `id="summary"`):strings.Index(page, `</section>`)]
	rows := regexp.MustCompile(`<td class="claim"><a href="#(finding-\d+)">`).FindAllStringSubmatch(summary, -1)
	if len(rows) != 4 {
		t.Fatalf("the summary has %d rows, want the demo's 4 findings outside the Live section", len(rows))
	}
	for i, r := range rows {
		if want := "finding-" + string(rune('1'+i)); r[1] != want {
			t.Errorf("row %d links to #%s, want #%s", i+1, r[1], want)
		}
	}
	if !strings.Contains(summary, `4 findings: <span class="count count-reproduced">1 reproduced</span>, <span class="count count-partial">1 partially</span>, <span class="count count-not-reproduced">1 not reproduced</span>, <span class="count count-inconclusive">1 inconclusive</span>.`) {
		t.Errorf("the summary's counts are not as the demo's verdicts:\n%s", summary)
	}
	if strings.Contains(summary, "Calibrating") {
		t.Error("the summary lists a finding of the Live section")
	}
	// Every in-page link of the summary and of the findings resolves.
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `id="`+m[1]+`"`) {
			t.Errorf("demo.html links to #%s, which it does not have", m[1])
		}
	}
	if !strings.Contains(summary, `<a class="fig-link" href="#demo-heat" title="Fig. 5  Influence of jitter">Fig. 5</a>, <a class="fig-link" href="#demo-table" title="Table 2  Paper vs simulation">Table 2</a>`) {
		t.Errorf("the first row does not link to its figures:\n%s", summary)
	}

	// A short intro stays open.
	_, short := demo()
	files, err = build(idx, short)
	if err != nil {
		t.Fatal(err)
	}
	if p := string(files[1].data); strings.Contains(p, "<details") || !strings.Contains(p, "<p>This page shows what the report package draws.</p>") {
		t.Errorf("a short intro is folded or missing")
	}
}

// TestLiveSectionApart checks that a Live section is drawn on a page of its
// own with the marker, its data in data/live-*, its findings listed there
// and not counted; and that changing the live numbers changes that page
// and its data files and no other file of the report.
func TestLiveSectionApart(t *testing.T) {
	write := func(measured float64) map[string][]byte {
		idx, pages := demo()
		live := &pages[0].Sections[len(pages[0].Sections)-1]
		live.Intro = "Measured: " + fmtFloat(measured)
		live.Items[0].(*BarChart).Series[1].Values[0] = measured
		f := live.Items[1].(Findings)
		f.Items[0].Ours = fmtFloat(measured) + " s (live)"
		if measured > 1.4 {
			f.Items[0].Verdict = NotReproduced
		}
		live.Items[1] = f
		dir := filepath.Join(t.TempDir(), "r")
		if err := Write(dir, idx, pages...); err != nil {
			t.Fatal(err)
		}
		return readTree(t, dir)
	}
	a, b := write(1.5), write(1.3)
	for _, want := range []string{"demo-live.html", "data/live-demo-bar.csv", "data/live-demo-bar.json"} {
		if a[want] == nil {
			t.Errorf("%s not written", want)
		}
	}
	for name := range a {
		same := bytes.Equal(a[name], b[name])
		live := name == "demo-live.html" || strings.HasPrefix(name, "data/live-")
		if live && same {
			t.Errorf("%s is the same though the live numbers changed", name)
		}
		if !live && !same {
			t.Errorf("%s changed with the live numbers: %s", name, firstDiff(a[name], b[name]))
		}
	}
	page, livePage := string(a["demo.html"]), string(a["demo-live.html"])
	if strings.Contains(page, "live-demo-bar") || strings.Contains(page, "Calibrating") {
		t.Error("demo.html shows the Live section's chart or findings")
	}
	if !strings.Contains(page, `<p class="live-mark"><strong>`+LiveMarker+`</strong> <a href="demo-live.html">`) {
		t.Error("demo.html's Live section does not link to its page under the marker")
	}
	for _, want := range []string{`<p class="live-mark"><strong>` + LiveMarker + `</strong></p>`, `id="live-demo-bar"`, `<li class="finding" id="finding-1">`, "1 finding measured live: not counted",
		`<a href="demo.html#demo-line"`, `<a href="#live-demo-bar"`} {
		if !strings.Contains(livePage, want) {
			t.Errorf("demo-live.html lacks %s", want)
		}
	}
}

func fmtFloat(v float64) string { return csvNumber(v) }

// TestFigureLabel checks the short names the summary gives a finding's
// charts and tables.
func TestFigureLabel(t *testing.T) {
	for title, want := range map[string]string{
		"Fig. 5  Influence of jitter":           "Fig. 5",
		"Table 4: the paper's times":            "Table 4",
		"Figure 12b shows":                      "Figure 12b",
		"Like Fig. 5: the first-guess schedule": "Like Fig. 5",
		"Predicted and measured on this machine, before and after calibration": "Predicted and measured…",
		"Short": "Short",
	} {
		if got := figureLabel(title); got != want {
			t.Errorf("figureLabel(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestIndexEntries checks the index's thumbnails and verdict counts: one
// SVG per page, of the page's Thumbnail (else its first chart), drawn from
// the chart's data, and the counts of the findings outside Live sections.
func TestIndexEntries(t *testing.T) {
	idx, pages := demo()
	_, tinyPages := tiny()
	pages = append(pages, tinyPages...)
	index, err := buildIndex(idx, pages)
	if err != nil {
		t.Fatal(err)
	}
	html := string(index)
	svgs := regexp.MustCompile(`<svg class="thumb"[^>]*data-chart="([^"]+)">`).FindAllStringSubmatch(html, -1)
	if len(svgs) != 2 || svgs[0][1] != "demo-heat" || svgs[1][1] != "fig1" {
		t.Fatalf("thumbnails %q, want demo-heat (the demo's Thumbnail) and fig1 (tiny's first chart)", svgs)
	}
	// demo-heat has 16 x 12 cells, 10 of them infeasible.
	if n := strings.Count(html[strings.Index(html, `data-chart="demo-heat"`):strings.Index(html, `data-chart="fig1"`)], "<rect x="); n != 16*12-10 {
		t.Errorf("the demo's thumbnail has %d cells, want %d", n, 16*12-10)
	}
	counts := regexp.MustCompile(`<p class="counts">(.*?)</p>`).FindAllStringSubmatch(html, -1)
	strip := regexp.MustCompile(`<[^>]+>`)
	if len(counts) != 2 || strip.ReplaceAllString(counts[0][1], "") != "1 reproduced, 1 partially, 1 not reproduced, 1 inconclusive" {
		t.Errorf("counts %q, want the demo's four verdicts once each (not its live finding)", counts)
	}
	if !strings.Contains(html, `<a href="demo-live.html">the live measurements</a>`) {
		t.Error("the index does not link the demo's live measurements")
	}
}

// TestThumbnails checks the pictures against the data they are drawn
// from: the palette's ends, a line's points, a stacked bar's height.
func TestThumbnails(t *testing.T) {
	for _, tc := range []struct {
		stops []string
		t     float64
		want  string
	}{
		{viridis, 0, "#440154"}, {viridis, 1, "#fde725"}, {viridis, -3, "#440154"}, {viridis, 7, "#fde725"},
		{viridis, 0.0625, "#461768"}, // halfway between the first two stops, rounded
		{rdBu, 0.5, "#f7f7f7"},
	} {
		if got := paletteColour(tc.stops, tc.t); got != tc.want {
			t.Errorf("paletteColour(%v…, %v) = %s, want %s", tc.stops[0], tc.t, got, tc.want)
		}
	}
	nan := math.NaN()
	// A heat map's first Y label is at the bottom, as on the chart; the
	// scale's ends take the palette's ends; NaN is left to the background.
	h := &HeatMap{ID: "h", Title: "H", X: Axis{Name: "x", Labels: []string{"a", "b"}}, Y: Axis{Name: "y", Labels: []string{"low", "high"}},
		Z: [][]float64{{0, nan}, {nan, 1}}, ZName: "z"}
	svg := string(thumbnailSVG(item{heat: h}))
	if !strings.Contains(svg, `<rect x="0" y="50" width="80" height="50" fill="#440154"/><rect x="80" y="0" width="80" height="50" fill="#fde725"/>`) {
		t.Errorf("heat map thumbnail %s", svg)
	}
	l := &LineChart{ID: "l", Title: "L", X: Axis{Name: "x", Labels: []string{"a", "b", "c", "d"}}, YName: "y",
		Series: []Series{{Name: "s", Values: []float64{0, 10, nan, 5}}, {Name: "t", Values: []float64{nan, nan, nan, nan}}}}
	svg = string(thumbnailSVG(item{line: l}))
	// x from 6 to 154 in thirds, y from 94 (0) to 6 (10).
	if !strings.Contains(svg, `<polyline points="6,94 55.33,6" fill="none" stroke="#0072b2"`) || !strings.Contains(svg, `<circle cx="154" cy="50" r="1.5" fill="#0072b2"/>`) {
		t.Errorf("line thumbnail %s", svg)
	}
	b := &BarChart{ID: "b", Title: "B", X: Axis{Name: "x", Labels: []string{"a", "b"}}, YName: "y",
		Series: []BarSeries{{Name: "p", Stack: "s", Values: []float64{1, 2}}, {Name: "q", Stack: "s", Values: []float64{3, 2}}, {Name: "r", Values: []float64{2, nan}}}}
	svg = string(thumbnailSVG(item{bar: b}))
	if n := strings.Count(svg, "<rect x="); n != 5 {
		t.Errorf("bar thumbnail has %d bars, want 5 (two stacks of two, one bar):\n%s", n, svg)
	}
	// The first stack reaches 4, the top: from y 94 to 6.
	if !strings.Contains(svg, `y="6" width="29.6" height="66" fill="#d55e00"`) {
		t.Errorf("the first stack's top part is not 3/4 of the plot:\n%s", svg)
	}
}

// TestIntervalData reads the intervals back from the CSV and JSON of a
// heat map and a line chart, exactly.
func TestIntervalData(t *testing.T) {
	_, pages := tiny()
	csvData, jsonData, err := heatMapData(heatOf(pages))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(csvData)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], "|"); got != "jitter|P|P_value|runtime (µs)|runtime (µs)_lo|runtime (µs)_hi" {
		t.Errorf("heat map CSV header %s", got)
	}
	if got := strings.Join(rows[2], "|"); got != "10^-1|2^4|16|0.3|0.05|0.55" {
		t.Errorf("heat map CSV row 2: %s", got)
	}
	var hj struct {
		Lo, Hi [][]*float64
		Wide   float64
	}
	if err := json.Unmarshal(jsonData, &hj); err != nil {
		t.Fatal(err)
	}
	if *hj.Lo[1][1] != 6.5 || *hj.Hi[1][1] != 7.5 || hj.Lo[1][2] != nil || hj.Wide != 0.1 {
		t.Errorf("heat map JSON lo %v hi %v wide %v", hj.Lo, hj.Hi, hj.Wide)
	}

	csvData, jsonData, err = lineChartData(lineOf(pages))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ = csv.NewReader(bytes.NewReader(csvData)).ReadAll()
	if got := strings.Join(rows[0], "|") + " / " + strings.Join(rows[3], "|"); got != "P|butterfly|butterfly_lo|butterfly_hi|redundant, 2x / 2^6||||200" {
		t.Errorf("line CSV: %s", got)
	}
	var lj struct {
		Series []struct {
			Lo, Hi []*float64
		}
	}
	if err := json.Unmarshal(jsonData, &lj); err != nil {
		t.Fatal(err)
	}
	if *lj.Series[0].Lo[3] != 990 || *lj.Series[0].Hi[0] != 1.2 || lj.Series[0].Lo[2] != nil || lj.Series[1].Lo != nil {
		t.Errorf("line JSON %s", jsonData)
	}
}

// TestIntervalOptions checks what the echarts options carry: the hatched
// cells (half-width above Wide of the value), the visual map kept to the
// heat map, an error-bar series per line with intervals, and the links
// under the site base.
func TestIntervalOptions(t *testing.T) {
	_, pages := tiny()
	h := heatOf(pages)
	spec, err := heatMapSpec(h, "https://example.org/commlab/")
	if err != nil {
		t.Fatal(err)
	}
	opt := roundTrip(t, spec.Option)
	series := opt["series"].([]any)
	hatch := series[1].(map[string]any)
	if hatch["id"] != "hatch" || hatch["type"] != "custom" || hatch["silent"] != true {
		t.Fatalf("second series %v, want the silent custom hatch", hatch)
	}
	if got := hatch["data"]; len(got.([]any)) != 2 || got.([]any)[0].([]any)[0] != 1.0 || got.([]any)[1].([]any)[1] != 1.0 {
		t.Errorf("hatched cells %v, want [1 0] (±0.25 of 0.3) and [0 1] (±5e-301 of 1e-300)", got)
	}
	if vm := opt["visualMap"].(map[string]any); vm["seriesIndex"] == nil {
		t.Error("the visual map would colour the hatching")
	}
	if spec.Links[1][1].Href != "https://example.org/commlab/scene.html?scene=jitter&P=16" || spec.Links[0][1] != nil {
		t.Errorf("links %+v", spec.Links)
	}
	h.Wide = 1 // nothing is that wide
	spec, _ = heatMapSpec(h, DefaultSiteBase)
	if cells := roundTrip(t, spec.Option)["series"].([]any)[1].(map[string]any)["data"].([]any); len(cells) != 0 {
		t.Errorf("Wide 1: hatched %v", cells)
	}

	spec, err = lineChartSpec(lineOf(pages), DefaultSiteBase)
	if err != nil {
		t.Fatal(err)
	}
	series = roundTrip(t, spec.Option)["series"].([]any)
	if len(series) != 3 {
		t.Fatalf("%d series, want 2 lines and the butterfly's error bars", len(series))
	}
	bars := series[2].(map[string]any)
	if bars["id"] != "interval-0" || bars["name"] != "butterfly" || len(bars["data"].([]any)) != 3 || bars["itemStyle"].(map[string]any)["color"] != okabeIto[0] {
		t.Errorf("error bars %v, want the butterfly's three intervals in its colour", bars)
	}
	if spec.Links[1][1].Href != "../scene.html?scene=butterfly&P=16&T=2" || spec.Links[0] != nil {
		t.Errorf("line links %+v", spec.Links)
	}
}

// TestSiteBase checks the rule for Index.SiteBase and -site-base, and that
// CheckOffline lets links under an absolute one pass.
func TestSiteBase(t *testing.T) {
	for _, ok := range []string{"../", "../../site/", "./", "https://commlab.example.org/", "http://127.0.0.1:8080/x/"} {
		if err := CheckSiteBase(ok); err != nil {
			t.Errorf("CheckSiteBase(%q) = %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"":                           "empty",
		"..":                         `does not end in "/"`,
		"https://x.org":              `does not end in "/"`,
		"https:///":                  "no host",
		"ftp://x.org/":               `scheme "ftp"`,
		"javascript:alert(1)/":       `scheme "javascript"`,
		"/site/":                     `starts with "/"`,
		"//cdn.example.org/":         `starts with "/"`,
		"https://x.org/?a=1/":        "query",
		`../"onmouseover="alert(1)/`: "quote",
		"https://x.org/#frag/":       "fragment",
		"..\\site\\/":                "backslash",
		"https://x.org/a b/":         "space",
	} {
		err := CheckSiteBase(bad)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `want an absolute http(s) URL ending in "/"`) {
			t.Errorf("CheckSiteBase(%q) = %v, want an error saying %q and the rule", bad, err, want)
		}
	}

	idx, pages := tiny()
	idx.SiteBase = "https://commlab.example.org/"
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(dir, idx, pages...); err != nil {
		t.Fatal(err)
	}
	page := string(readTree(t, dir)["tiny.html"])
	if !strings.Contains(page, `data-href="https://commlab.example.org/scene.html?scene=butterfly&amp;P=16"`) {
		t.Error("the table row's link is not under the site base")
	}
	if err := CheckOffline(dir); err == nil || !strings.Contains(err.Error(), "https://commlab.example.org/scene.html") {
		t.Errorf("CheckOffline without the site base = %v, want the links named", err)
	}
	if err := CheckOffline(dir, idx.SiteBase); err != nil {
		t.Errorf("CheckOffline with the site base: %v", err)
	}
}
