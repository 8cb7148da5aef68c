package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// readTree returns every file under dir by its slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func writeTiny(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "reports")
	idx, pages := tiny()
	if err := Write(dir, idx, pages...); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGolden compares the pages and data files of the tiny report with testdata/golden.
// Run with -update to rewrite them after an intended change, and review the diff.
func TestGolden(t *testing.T) {
	dir := writeTiny(t)
	files := readTree(t, dir)
	golden := filepath.Join("testdata", "golden")
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
	}
	var checked int
	for name, got := range files {
		if strings.HasPrefix(name, "assets/") {
			continue // checked against the embedded sources in TestAssets
		}
		path := filepath.Join(golden, filepath.FromSlash(name)+".golden")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test -update to create the golden files)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, firstDiff(got, want))
		}
		checked++
	}
	if *update {
		return
	}
	// A golden file without a written file means something is no longer written.
	err := filepath.WalkDir(golden, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(golden, p)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".golden")
		if _, ok := files[name]; !ok {
			t.Errorf("%s is in %s but was not written", name, golden)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no golden files compared")
	}
}

func firstDiff(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, clip(g), clip(w))
		}
	}
	return "(same lines)"
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

func TestAssets(t *testing.T) {
	files := readTree(t, writeTiny(t))
	for _, name := range []string{"echarts.min.js", "echarts.LICENSE", "echarts.NOTICE", "charts.js", "report.css"} {
		want, err := os.ReadFile(filepath.Join("assets", name))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := files["assets/"+name]; !ok || !bytes.Equal(got, want) {
			t.Errorf("assets/%s: written %d bytes (present %v), want the %d bytes of the vendored file", name, len(got), ok, len(want))
		}
	}
	if !bytes.Contains(files["assets/echarts.min.js"], []byte("echarts")) {
		t.Error("assets/echarts.min.js does not look like echarts")
	}
	if _, ok := files[Marker]; !ok {
		t.Errorf("%s not written", Marker)
	}
}

// TestByteStable builds the demo report twice, from freshly built inputs, into two
// directories and wants the same bytes.
func TestByteStable(t *testing.T) {
	var trees [2]map[string][]byte
	for i := range trees {
		dir := filepath.Join(t.TempDir(), "r")
		idx, pages := demo()
		_, more := tiny()
		if err := Write(dir, idx, append(pages, more...)...); err != nil {
			t.Fatal(err)
		}
		trees[i] = readTree(t, dir)
	}
	if len(trees[0]) != len(trees[1]) {
		t.Fatalf("runs wrote %d and %d files", len(trees[0]), len(trees[1]))
	}
	for name, a := range trees[0] {
		if b, ok := trees[1][name]; !ok || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

func TestOffline(t *testing.T) {
	dir := writeTiny(t)
	if err := CheckOffline(dir); err != nil {
		t.Fatalf("tiny report: %v", err)
	}

	// CheckOffline must catch what it is for.
	for _, tc := range []struct {
		name, content, want string
	}{
		{"cdn.html", `<script src="https://cdn.jsdelivr.net/npm/echarts"></script>`, "https://cdn.jsdelivr.net/npm/echarts"},
		{"proto.html", `<link href="//fonts.example.org/x.css">`, "//fonts.example.org/x.css"},
		{"style.css", `body { background: url(//img.example.org/a.png) }`, "url(//img.example.org/a.png"},
		{"text.html", `<p>see http://example.org/paper.pdf.</p>`, "http://example.org/paper.pdf"},
		{"data/x.json", `{"a":"//cdn.example.org/x"}`, "//cdn.example.org/x"},
		{"assets/echarts.min.js", `var u="https://evil.example.org/x";`, "https://evil.example.org/x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			p := filepath.Join(d, filepath.FromSlash(tc.name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			err := CheckOffline(d)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name) {
				t.Errorf("CheckOffline = %v, want an error naming %s and %q", err, tc.name, tc.want)
			}
		})
	}
}

// TestCSPReady checks that the pages need no inline script, event handler attribute,
// style attribute or javascript: URL, so script-src 'self' is enough, and that every chart
// container has its JSON data block.
func TestCSPReady(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	idx, pages := demo()
	if err := Write(dir, idx, pages...); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	scriptTag := regexp.MustCompile(`<script[^>]*>`)
	for _, name := range []string{"index.html", "demo.html"} {
		page := string(files[name])
		for _, tag := range scriptTag.FindAllString(page, -1) {
			if !strings.Contains(tag, ` src="assets/`) && tag != `<script type="application/json" id="`+tagID(tag)+`">` {
				t.Errorf("%s: executable inline script %s", name, tag)
			}
		}
		for _, bad := range []*regexp.Regexp{
			regexp.MustCompile(`(?i)\son[a-z]+\s*=`),
			regexp.MustCompile(`(?i)\sstyle\s*=`),
			regexp.MustCompile(`(?i)javascript:`),
		} {
			if m := bad.FindString(page); m != "" {
				t.Errorf("%s: has %q, which the CSP would block", name, m)
			}
		}
	}

	page := string(files["demo.html"])
	containers := regexp.MustCompile(`<div class="chart-canvas (heatmap|line|bar)" id="chart-([A-Za-z0-9_-]+)" data-option="option-([A-Za-z0-9_-]+)"></div>`).FindAllStringSubmatch(page, -1)
	if len(containers) != 4 {
		t.Fatalf("demo.html has %d chart containers, want 4", len(containers))
	}
	for _, c := range containers {
		if c[2] != c[3] {
			t.Errorf("container chart-%s points at option-%s", c[2], c[3])
		}
		block := regexp.MustCompile(`<script type="application/json" id="option-` + c[2] + `">([^<]*)</script>`).FindStringSubmatch(page)
		if block == nil {
			t.Errorf("chart-%s: no data block", c[2])
			continue
		}
		var spec struct {
			Kind   string         `json:"kind"`
			Digits int            `json:"digits"`
			Option map[string]any `json:"option"`
		}
		if err := json.Unmarshal([]byte(block[1]), &spec); err != nil {
			t.Errorf("chart-%s: data block: %v", c[2], err)
			continue
		}
		if spec.Kind != c[1] || spec.Digits == 0 || spec.Option["series"] == nil {
			t.Errorf("chart-%s: data block kind %q digits %d series %v", c[2], spec.Kind, spec.Digits, spec.Option["series"] != nil)
		}
	}
}

func tagID(tag string) string {
	m := regexp.MustCompile(`id="([^"]*)"`).FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestChartOptions checks what the echarts options say about NaN, bounds and axes.
func TestChartOptions(t *testing.T) {
	_, pages := tiny()
	heat := pages[0].Sections[0].Items[0].(*HeatMap)
	line := pages[0].Sections[0].Items[1].(*LineChart)

	spec, err := heatMapSpec(heat, DefaultSiteBase)
	if err != nil {
		t.Fatal(err)
	}
	opt := roundTrip(t, spec.Option)
	data := opt["series"].([]any)[0].(map[string]any)["data"].([]any)
	if len(data) != 5 {
		t.Errorf("heat map has %d data items, want 5 (6 cells, one NaN)", len(data))
	}
	for _, d := range data {
		v := d.(map[string]any)["value"].([]any)
		if v[0] == 2.0 && v[1] == 0.0 {
			t.Errorf("the NaN cell (2, 0) has a data item %v", v)
		}
	}
	vm := opt["visualMap"].(map[string]any)
	if vm["min"] != 1e-300 || vm["max"] != 5.0 || vm["type"] != "continuous" {
		t.Errorf("visualMap min %v max %v type %v, want 1e-300 (data), 5 (ZMax), continuous", vm["min"], vm["max"], vm["type"])
	}
	x := opt["xAxis"].([]any)[0].(map[string]any)
	if x["type"] != "category" || len(x["data"].([]any)) != 3 {
		t.Errorf("heat map x axis %v, want a category axis with 3 labels", x)
	}
	for _, k := range []string{"title", "toolbox", "legend"} {
		if _, ok := opt[k]; ok {
			t.Errorf("heat map option has %q", k)
		}
	}

	spec, err = lineChartSpec(line, DefaultSiteBase)
	if err != nil {
		t.Fatal(err)
	}
	opt = roundTrip(t, spec.Option)
	if y := opt["yAxis"].([]any)[0].(map[string]any); y["type"] != "log" {
		t.Errorf("y axis type %v, want log", y["type"])
	}
	s0 := opt["series"].([]any)[0].(map[string]any)
	if gap := s0["data"].([]any)[2].(map[string]any)["value"]; gap != "-" {
		t.Errorf("NaN point is %v, want echarts' empty value \"-\"", gap)
	}
	if s0["connectNulls"] != false || s0["showSymbol"] != true {
		t.Errorf("series connectNulls %v showSymbol %v, want false, true", s0["connectNulls"], s0["showSymbol"])
	}
}

// TestPinnedAssets checks that a chart asking go-echarts for anything but the vendored
// echarts (a theme, a map, a CDN script) is caught.
func TestPinnedAssets(t *testing.T) {
	c := charts.NewLine()
	pin(&c.BaseConfiguration, "x")
	c.Validate()
	if err := checkAssets("x", c.Assets); err != nil {
		t.Fatalf("pinned chart: %v", err)
	}
	if got := c.ChartID; got != "x" {
		t.Errorf("ChartID %q, want x", got)
	}
	c.SetGlobalOptions(charts.WithInitializationOpts(opts.Initialization{ChartID: "x", Theme: "vintage"}))
	c.Validate()
	if err := checkAssets("x", c.Assets); err == nil || !strings.Contains(err.Error(), "vintage.js") {
		t.Errorf("chart with a go-echarts theme: checkAssets = %v, want an error naming vintage.js", err)
	}
}

func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := encodeJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestZRange(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name       string
		z          [][]float64
		zmin, zmax *float64
		lo, hi     float64
	}{
		{"data", [][]float64{{1, 3}, {nan, 2}}, nil, nil, 1, 3},
		{"fixed", [][]float64{{1, 3}}, Float(0), Float(5), 0, 5},
		{"fixed max", [][]float64{{1, 9}}, nil, Float(5), 1, 5},
		{"all NaN", [][]float64{{nan}}, nil, nil, 0, 1},
		{"constant", [][]float64{{2, 2}}, nil, nil, 1.5, 2.5},
		{"max below data", [][]float64{{7, 9}}, nil, Float(5), 4, 5},
		{"min above data", [][]float64{{1, 2}}, Float(5), nil, 5, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := zRange(&HeatMap{Z: tc.z, ZMin: tc.zmin, ZMax: tc.zmax})
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("zRange = %v, %v, want %v, %v", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

// TestDataExact reads the CSV and JSON data back and wants the inputs bit for bit.
func TestDataExact(t *testing.T) {
	nan, tenth := math.NaN(), 0.1
	vals := []float64{tenth + 0.2, 1e-300, math.Copysign(0, -1), math.MaxFloat64, 5e-324, nan, 123456789.125}
	h := &HeatMap{ID: "h", Title: "t", X: Axis{Name: "x", Labels: []string{"a", "b", "c", "d", "e", "f", "g"}},
		Y: Axis{Name: "y", Labels: []string{"r"}, Values: []float64{1024}}, Z: [][]float64{vals}, ZName: "z"}
	csvData, jsonData, err := heatMapData(h)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(csvData)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"y", "y_value", "x", "z"}; strings.Join(rows[0], ",") != strings.Join(want, ",") {
		t.Errorf("CSV header %v, want %v", rows[0], want)
	}
	var back struct {
		Z [][]*float64 `json:"z"`
	}
	if err := json.Unmarshal(jsonData, &back); err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		field := rows[1+i][3]
		if rows[1+i][0] != "r" || rows[1+i][1] != "1024" || rows[1+i][2] != h.X.Labels[i] {
			t.Errorf("CSV row %d = %v", i+1, rows[1+i])
		}
		jv := back.Z[0][i]
		if math.IsNaN(v) {
			if field != "" || jv != nil {
				t.Errorf("NaN written as CSV %q, JSON %v; want empty and null", field, jv)
			}
			continue
		}
		var got float64
		if err := json.Unmarshal([]byte(field), &got); err != nil || math.Float64bits(got) != math.Float64bits(v) {
			t.Errorf("CSV %q reads back as %v (%v), want %v", field, got, err, v)
		}
		if jv == nil || math.Float64bits(*jv) != math.Float64bits(v) {
			t.Errorf("JSON value %v, want %v", jv, v)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(idx *Index, pages *[]Page)
		want   []string // substrings of the error
	}{
		{"ok", func(*Index, *[]Page) {}, nil},
		{"Z rows", func(_ *Index, p *[]Page) { heatOf(*p).Z = heatOf(*p).Z[:1] },
			[]string{`tiny.html: heat map "fig1": Z has 1 rows, want 2 (one per Y label)`}},
		{"Z row length", func(_ *Index, p *[]Page) { heatOf(*p).Z[1] = []float64{1, 2} },
			[]string{`heat map "fig1": Z[1] has 2 values, want 3 (one per X label)`}},
		{"Inf", func(_ *Index, p *[]Page) { heatOf(*p).Z[0][1] = math.Inf(1) },
			[]string{`heat map "fig1": Z[0][1] is +Inf`}},
		{"axis values", func(_ *Index, p *[]Page) { heatOf(*p).X.Values = []float64{1} },
			[]string{`heat map "fig1": X.Values has 1 values for 3 labels`}},
		{"ZMin above ZMax", func(_ *Index, p *[]Page) { heatOf(*p).ZMin = Float(9) },
			[]string{`heat map "fig1": ZMin 9 is not below ZMax 5`}},
		{"palette", func(_ *Index, p *[]Page) { heatOf(*p).Palette = "jet" },
			[]string{`Palette "jet" is unknown`}},
		{"empty ID", func(_ *Index, p *[]Page) { heatOf(*p).ID = "" },
			[]string{`tiny.html: section 1 ("Charts") heat map 1 (title "Fig. 1  Runtime"): ID is empty`}},
		{"bad ID", func(_ *Index, p *[]Page) { lineOf(*p).ID = "../x" },
			[]string{`line chart "../x": ID "../x" must be`}},
		{"duplicate ID", func(_ *Index, p *[]Page) { lineOf(*p).ID = "fig1" },
			[]string{`line chart "fig1": ID "fig1" is also used by tiny.html heat map`}},
		{"duplicate ID across pages", func(_ *Index, p *[]Page) {
			*p = append(*p, Page{File: "other.html", Title: "Other", Sections: []Section{{Items: []any{&Table{ID: "tab1", Title: "T", Header: []string{"a"}}}}}})
		}, []string{`other.html: table "tab1": ID "tab1" is also used by tiny.html table`}},
		{"series length", func(_ *Index, p *[]Page) { lineOf(*p).Series[1].Values = []float64{1} },
			[]string{`line chart "fig2": Series[1] ("redundant, 2x"): Values has 1 values, want 4`}},
		{"log of zero", func(_ *Index, p *[]Page) { lineOf(*p).Series[0].Values[0] = 0 },
			[]string{`Series[0] ("butterfly"): Values[0] is 0, but YLog needs values > 0`}},
		{"series name", func(_ *Index, p *[]Page) { lineOf(*p).Series[1].Name = "butterfly" },
			[]string{`Series[1] ("butterfly"): Name is used by an earlier series`}},
		{"digits", func(_ *Index, p *[]Page) { lineOf(*p).Digits = 40 },
			[]string{`line chart "fig2": Digits is 40`}},
		{"table row", func(_ *Index, p *[]Page) { tableOf(*p).Rows[1] = []string{"x"} },
			[]string{`table "tab1": Rows[1] has 1 cells, want 4`}},
		{"verdict", func(_ *Index, p *[]Page) {
			f := (*p)[0].Sections[1].Items[1].(Findings)
			f.Items[0].Verdict = "yes"
			(*p)[0].Sections[1].Items[1] = f
		}, []string{`tiny.html: section 2 ("Numbers") findings 2: Items[0]: Verdict "yes" is unknown`}},
		{"item type", func(_ *Index, p *[]Page) { (*p)[0].Sections[1].Items[0] = "text" },
			[]string{`tiny.html: section 2 ("Numbers") item 1: unsupported type string`}},
		{"index.html", func(_ *Index, p *[]Page) { (*p)[0].File = "index.html" },
			[]string{`File "index.html" is reserved for the index`}},
		{"page file", func(_ *Index, p *[]Page) { (*p)[0].File = "sub/x.html" },
			[]string{`File "sub/x.html" must be a plain name`}},
		{"index link", func(idx *Index, _ *[]Page) {
			idx.Pages = []IndexEntry{{Link: "https://example.org", Title: "x"}}
		}, []string{`index entry 1 ("x"): Link "https://example.org" must be a relative path`}},
		{"several", func(_ *Index, p *[]Page) { heatOf(*p).ZName = ""; lineOf(*p).YName = "" },
			[]string{`heat map "fig1": ZName is empty`, `line chart "fig2": YName is empty`}},
		// Intervals.
		{"Lo without Hi", func(_ *Index, p *[]Page) { heatOf(*p).Hi = nil },
			[]string{`heat map "fig1": Lo and Hi go together: set both or neither`}},
		{"Lo rows", func(_ *Index, p *[]Page) { heatOf(*p).Lo = heatOf(*p).Lo[:1] },
			[]string{`heat map "fig1": Lo has 1 rows, want 2 (shaped as Z: one per Y label)`}},
		{"Hi row length", func(_ *Index, p *[]Page) { heatOf(*p).Hi[0] = []float64{1} },
			[]string{`heat map "fig1": Hi[0] has 1 values, want 3 (shaped as Z: one per X label)`}},
		{"Lo above Hi", func(_ *Index, p *[]Page) { heatOf(*p).Lo[1][1] = 8 },
			[]string{`heat map "fig1": the interval at Lo[1][1], Hi[1][1] is [8, 7.5]: Lo is above Hi`}},
		{"one bound", func(_ *Index, p *[]Page) { heatOf(*p).Hi[1][2] = 4 },
			[]string{`the interval at Lo[1][2], Hi[1][2] is [NaN, 4]: give both bounds or neither (NaN)`}},
		{"interval on NaN", func(_ *Index, p *[]Page) { heatOf(*p).Lo[0][2], heatOf(*p).Hi[0][2] = 1, 2 },
			[]string{`the interval at Lo[0][2], Hi[0][2] is [1, 2], but the value there is NaN`}},
		{"infinite bound", func(_ *Index, p *[]Page) { heatOf(*p).Hi[0][0] = math.Inf(1) },
			[]string{`the interval at Lo[0][0], Hi[0][0] is [1.4, +Inf]; use NaN for a value without an interval`}},
		{"Wide", func(_ *Index, p *[]Page) { heatOf(*p).Wide = -0.1 },
			[]string{`heat map "fig1": Wide is -0.1, want 0 (the default, ±10 %) or a positive relative half-width`}},
		{"Wide alone", func(_ *Index, p *[]Page) { heatOf(*p).Lo, heatOf(*p).Hi, heatOf(*p).Wide = nil, nil, 0.2 },
			[]string{`heat map "fig1": Wide is 0.2, but Lo and Hi are not set`}},
		{"series interval length", func(_ *Index, p *[]Page) { lineOf(*p).Series[0].Lo = []float64{1} },
			[]string{`line chart "fig2": Series[0] ("butterfly"): Lo has 1 values and Hi 4, want 4 each`}},
		{"log interval", func(_ *Index, p *[]Page) { lineOf(*p).Series[0].Lo[0] = 0 },
			[]string{`Series[0] ("butterfly"): the interval at Lo[0], Hi[0] is [0, 1.2], but YLog needs bounds > 0`}},
		{"interval column", func(_ *Index, p *[]Page) { lineOf(*p).Series[1].Name = "butterfly_hi" },
			[]string{`line chart "fig2": the CSV would have two columns named "butterfly_hi"`}},
		{"heat map columns", func(_ *Index, p *[]Page) { heatOf(*p).ZName = "P" },
			[]string{`heat map "fig1": the CSV would have two columns named "P"`}},
		// Links.
		{"link shape", func(_ *Index, p *[]Page) { heatOf(*p).Links = heatOf(*p).Links[:1] },
			[]string{`heat map "fig1": Links has 1 rows, want 2`}},
		{"link path", func(_ *Index, p *[]Page) { heatOf(*p).Links[0][0].Path = "javascript:alert(1)" },
			[]string{`heat map "fig1": Links[0][0].Path "javascript:alert(1)" must be a path relative to the site's root`}},
		{"link escapes", func(_ *Index, p *[]Page) { lineOf(*p).Series[1].Links[1].Path = "../../etc/passwd" },
			[]string{`Series[1] ("redundant, 2x"): Links[1].Path "../../etc/passwd" must be a path relative`}},
		{"absolute link", func(_ *Index, p *[]Page) { lineOf(*p).Series[1].Links[1].Path = "/scene.html" },
			[]string{`Links[1].Path "/scene.html" must be`}},
		{"link title", func(_ *Index, p *[]Page) { tableOf(*p).RowLinks[0].Title = " " },
			[]string{`table "tab1": RowLinks[0].Title is empty: the hover says what the click will open`}},
		{"row links", func(_ *Index, p *[]Page) { tableOf(*p).RowLinks = tableOf(*p).RowLinks[:1] },
			[]string{`table "tab1": RowLinks has 1 links, want 2 (one per row, nil for none)`}},
		{"series links", func(_ *Index, p *[]Page) { lineOf(*p).Series[1].Links = nil; lineOf(*p).Series[0].Links = []*Link{nil} },
			[]string{`Series[0] ("butterfly"): Links has 1 links, want 4`}},
		{"site base", func(idx *Index, _ *[]Page) { idx.SiteBase = "https://x.org" },
			[]string{`index: SiteBase: site base "https://x.org" does not end in "/"`}},
		// Live sections, figures, thumbnails.
		{"live ID", func(_ *Index, p *[]Page) { (*p)[0].Sections[2].Items[0].(*Table).ID = "measured" },
			[]string{`tiny.html: table "measured": section 3 ("Measured here") is Live, so its items' IDs start with "live-"`}},
		{"live prefix outside", func(_ *Index, p *[]Page) { lineOf(*p).ID = "live-fig2" },
			[]string{`line chart "live-fig2": IDs starting with "live-" are kept for the items of Live sections`}},
		{"live page taken", func(_ *Index, p *[]Page) {
			*p = append(*p, Page{File: "tiny-live.html", Title: "X"})
		}, []string{`tiny.html: its Live sections are written as tiny-live.html, which is also a page's File`}},
		{"figure unknown", func(_ *Index, p *[]Page) {
			f := (*p)[0].Sections[1].Items[1].(Findings)
			f.Items[1].Figures = []string{"fig9"}
		}, []string{`tiny.html: section 2 ("Numbers") findings 2: Items[1]: Figures[0] "fig9" is no chart or table of the page`}},
		{"figure live", func(_ *Index, p *[]Page) {
			f := (*p)[0].Sections[1].Items[1].(Findings)
			f.Items[1].Figures = []string{"fig2", "live-tab"}
		}, []string{`Items[1]: Figures[1] "live-tab" is in a Live section`}},
		{"thumbnail unknown", func(_ *Index, p *[]Page) { (*p)[0].Thumbnail = "fig9" },
			[]string{`tiny.html: Thumbnail "fig9" is no chart of the page`}},
		{"thumbnail table", func(_ *Index, p *[]Page) { (*p)[0].Thumbnail = "tab1" },
			[]string{`tiny.html: Thumbnail "tab1" is a table, want a heat map, line chart or bar chart`}},
		{"thumbnail live", func(_ *Index, p *[]Page) { (*p)[0].Thumbnail = "live-tab" },
			[]string{`tiny.html: Thumbnail "live-tab" is in a Live section`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx, pages := tiny()
			tc.change(&idx, &pages)
			err := validate(idx, pages)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("validate = nil, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("validate = %v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

func heatOf(p []Page) *HeatMap   { return p[0].Sections[0].Items[0].(*HeatMap) }
func lineOf(p []Page) *LineChart { return p[0].Sections[0].Items[1].(*LineChart) }
func tableOf(p []Page) *Table    { return p[0].Sections[1].Items[0].(*Table) }

// TestWriteAtomic makes Write fail in several ways over an existing report and wants that
// report untouched and nothing left beside it.
func TestWriteAtomic(t *testing.T) {
	for _, tc := range []struct {
		name string
		// break returns the report to write and undoes any injected fault.
		brk  func(t *testing.T) (Index, []Page, func())
		want string
	}{
		{"invalid chart", func(t *testing.T) (Index, []Page, func()) {
			idx, pages := tiny()
			heatOf(pages).Z = heatOf(pages).Z[:1]
			return idx, pages, func() {}
		}, `heat map "fig1": Z has 1 rows`},
		{"fails half-way", func(t *testing.T) (Index, []Page, func()) {
			idx, pages := tiny()
			n := 0
			writeFile = func(name string, data []byte, perm os.FileMode) error {
				if n++; n == 4 {
					return &fs.PathError{Op: "write", Path: name, Err: errors.New("disk full")}
				}
				return os.WriteFile(name, data, perm)
			}
			return idx, pages, func() { writeFile = os.WriteFile }
		}, "disk full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "reports")
			idx, pages := tiny()
			pages[0].Title = "Previous report"
			if err := Write(dir, idx, pages...); err != nil {
				t.Fatal(err)
			}
			before := readTree(t, dir)

			idx, pages, undo := tc.brk(t)
			err := Write(dir, idx, pages...)
			undo()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write = %v, want an error containing %q", err, tc.want)
			}
			after := readTree(t, dir)
			if len(after) != len(before) {
				t.Errorf("report has %d files after the failed Write, %d before", len(after), len(before))
			}
			for name, b := range before {
				if !bytes.Equal(after[name], b) {
					t.Errorf("%s changed by the failed Write", name)
				}
			}
			assertOnly(t, parent, "reports")
		})
	}
}

// assertOnly fails unless dir holds exactly the named entries (no temporary directories).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestWriteReplaces(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "reports")
	idx, pages := tiny()
	if err := Write(dir, idx, pages...); err != nil {
		t.Fatal(err)
	}
	// The second report drops the table: its data files must go too.
	pages[0].Sections = pages[0].Sections[:1]
	if err := Write(dir, idx, pages...); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	if _, ok := files["data/tab1.csv"]; ok {
		t.Error("data/tab1.csv of the previous report is still there")
	}
	if _, ok := files["data/fig1.csv"]; !ok {
		t.Error("data/fig1.csv missing")
	}
	assertOnly(t, parent, "reports")
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("report directory mode %v (%v), want 0755", fi.Mode().Perm(), err)
	}
}

func TestWriteRefuses(t *testing.T) {
	idx, pages := tiny()

	t.Run("foreign directory", func(t *testing.T) {
		dir := t.TempDir()
		keep := filepath.Join(dir, "README")
		if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := Write(dir, idx, pages...)
		if err == nil || !strings.Contains(err.Error(), "refusing to replace "+dir) {
			t.Fatalf("Write = %v, want a refusal naming %s", err, dir)
		}
		if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
			t.Errorf("README is %q, %v after the refusal", b, err)
		}
	})

	t.Run("unwritable", func(t *testing.T) {
		parent := t.TempDir()
		blocker := filepath.Join(parent, "file")
		if err := os.WriteFile(blocker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(blocker, "reports") // a path below a regular file
		err := Write(dir, idx, pages...)
		if err == nil || !strings.Contains(err.Error(), dir) {
			t.Fatalf("Write = %v, want an error naming %s", err, dir)
		}
	})

	t.Run("empty directory is fine", func(t *testing.T) {
		dir := t.TempDir()
		if err := Write(dir, idx, pages...); err != nil {
			t.Fatal(err)
		}
	})
}

// demoBar is the demo page's stacked bar chart.
func demoBar(t *testing.T) *BarChart {
	t.Helper()
	_, pages := demo()
	for _, sec := range pages[0].Sections {
		for _, it := range sec.Items {
			if b, ok := it.(*BarChart); ok {
				return b
			}
		}
	}
	t.Fatal("the demo page has no bar chart")
	return nil
}

// TestBarChart checks the echarts option of a stacked bar chart (the stacks, the empty
// value for NaN, the category axis) and its data files, read back exactly.
func TestBarChart(t *testing.T) {
	b := demoBar(t)
	spec, err := barChartSpec(b, DefaultSiteBase)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Kind != "bar" || spec.Digits != 3 {
		t.Errorf("kind %q digits %d, want bar, 3", spec.Kind, spec.Digits)
	}
	opt := roundTrip(t, spec.Option)
	series := opt["series"].([]any)
	if len(series) != 4 {
		t.Fatalf("%d series, want 4", len(series))
	}
	for i, want := range []any{"time", "time", "time", nil} {
		s := series[i].(map[string]any)
		if s["type"] != "bar" || s["stack"] != want {
			t.Errorf("series %d: type %v stack %v, want bar, %v", i, s["type"], s["stack"], want)
		}
	}
	data := series[3].(map[string]any)["data"].([]any)
	if v := data[2].(map[string]any)["value"]; v != "-" {
		t.Errorf("NaN bar is %v, want echarts' empty value \"-\"", v)
	}
	if v, ok := data[0].(map[string]any)["value"]; !ok || v != 0.0 {
		t.Errorf("a zero bar is %v (present %v), want 0", v, ok)
	}
	x := opt["xAxis"].([]any)[0].(map[string]any)
	if x["type"] != "category" || len(x["data"].([]any)) != 3 {
		t.Errorf("x axis %v, want a category axis with 3 labels", x)
	}
	if tt := opt["tooltip"].(map[string]any); tt["trigger"] != "axis" || tt["axisPointer"].(map[string]any)["type"] != "shadow" {
		t.Errorf("tooltip %v, want the axis trigger with a shadow pointer", tt)
	}
	for _, k := range []string{"title", "toolbox"} {
		if _, ok := opt[k]; ok {
			t.Errorf("bar chart option has %q", k)
		}
	}

	csvData, jsonData, err := barChartData(b)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(csvData)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"case", "compute", "communication", "overheads", "overlap"},
		{"blocking", "30", "12", "0.5", "0"},
		{"progress function", "30", "3", "1.5", "9"},
		{"progress thread", "32", "1", "2", ""},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("CSV %v, want %v", rows, want)
	}
	var back struct {
		Series []struct {
			Name   string     `json:"name"`
			Stack  string     `json:"stack"`
			Values []*float64 `json:"values"`
		} `json:"series"`
	}
	if err := json.Unmarshal(jsonData, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Series) != 4 || back.Series[0].Stack != "time" || back.Series[3].Stack != "" || back.Series[3].Values[2] != nil || *back.Series[1].Values[1] != 3 {
		t.Errorf("JSON data %s", jsonData)
	}
}

func TestValidateBarChart(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(b *BarChart)
		want   string
	}{
		{"ok", func(*BarChart) {}, ""},
		{"length", func(b *BarChart) { b.Series[1].Values = []float64{1} }, `bar chart "demo-bar": Series[1] ("communication"): Values has 1 values, want 3`},
		{"negative stacked", func(b *BarChart) { b.Series[0].Values[1] = -1 }, `Series[0] ("compute"): Values[1] is -1, but a stacked series needs values >= 0`},
		{"Inf", func(b *BarChart) { b.Series[3].Values[0] = math.Inf(1) }, `Series[3] ("overlap"): Values[0] is +Inf; use NaN for no bar`},
		{"name", func(b *BarChart) { b.Series[2].Name = "compute" }, `Series[2] ("compute"): Name is used by an earlier series`},
		{"no series", func(b *BarChart) { b.Series = nil }, `bar chart "demo-bar": Series is empty`},
		{"y name", func(b *BarChart) { b.YName = "" }, `bar chart "demo-bar": YName is empty`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := demoBar(t)
			tc.change(b)
			err := validate(Index{}, []Page{{File: "bars.html", Title: "Bars", Sections: []Section{{Items: []any{b}}}}})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("validate = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	// A negative value is fine in a bar of its own (a difference, say).
	b := demoBar(t)
	b.Series[3].Values[0] = -1
	if err := validate(Index{}, []Page{{File: "bars.html", Title: "Bars", Sections: []Section{{Items: []any{b}}}}}); err != nil {
		t.Errorf("negative unstacked value: %v", err)
	}
}
