package report

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// assetsDir is the folder, relative to the pages, that holds the vendored scripts and styles.
const assetsDir = "assets"

// echartsAsset is the only script go-echarts may ask for: the vendored echarts build.
const echartsAsset = assetsDir + "/echarts.min.js"

var (
	// viridis at nine stops (matplotlib's), dark (low) to light (high).
	viridis = []string{"#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725"}
	// ColorBrewer RdBu at nine classes, reversed so that low is blue and high is red.
	rdBu = []string{"#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7", "#fddbc7", "#f4a582", "#d6604d", "#b2182b"}
	// Okabe and Ito's colour-blind-safe qualitative palette, for line series.
	okabeIto = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442"}
)

// chartSpec is what a page's JSON data block holds for one chart: the echarts option and
// what assets/charts.js needs to add the formatters, which JSON cannot carry as functions.
type chartSpec struct {
	Kind   string         `json:"kind"` // "heatmap", "line", "bar" or "gantt"
	Digits int            `json:"digits"`
	X      string         `json:"x"`
	Y      string         `json:"y"`
	Z      string         `json:"z,omitempty"`
	Option map[string]any `json:"option"`

	// Intervals and links, which charts.js shows in the tooltips and opens
	// on a click: for a heat map indexed [y][x] as Z, for a line chart
	// [series][x] (null for a series without).
	Lo    [][]number    `json:"lo,omitempty"`
	Hi    [][]number    `json:"hi,omitempty"`
	Wide  *number       `json:"wide,omitempty"` // a heat map's hatching threshold
	Links [][]*linkJSON `json:"links,omitempty"`
}

// patch is a go-echarts configuration visitor that sets option keys go-echarts does not type
// (or types too narrowly) and drops the empty components it always emits.
type patch struct {
	charts.BaseConfigurationVisitor
	drop []string
	set  []keyValue // in order, so nothing depends on map iteration
}

type keyValue struct {
	key   string
	value any
}

func (p patch) Visit(o map[string]any) {
	for _, k := range p.drop {
		delete(o, k)
	}
	for _, kv := range p.set {
		o[kv.key] = kv.value
	}
}

// visualMap is echarts' continuous visualMap. go-echarts' opts.VisualMap has float32 bounds
// with omitempty, which would round them and drop a bound of 0.
type visualMap struct {
	Type      string `json:"type"`
	Min       number `json:"min"`
	Max       number `json:"max"`
	Dimension int    `json:"dimension"`
	// SeriesIndex limits the colouring to the heat map itself when other
	// series (the hatching) share the chart.
	SeriesIndex []int  `json:"seriesIndex,omitempty"`
	Calculable  bool   `json:"calculable"`
	Orient      string `json:"orient"`
	Right       int    `json:"right"`
	Top         string `json:"top"`
	ItemHeight  int    `json:"itemHeight"`
	InRange     struct {
		Color []string `json:"color"`
	} `json:"inRange"`
}

// gridBox is echarts' grid; go-echarts' opts.Grid has no backgroundColor.
type gridBox struct {
	Left            int    `json:"left"`
	Right           int    `json:"right"`
	Top             int    `json:"top"`
	Bottom          int    `json:"bottom"`
	ContainLabel    bool   `json:"containLabel"`
	Show            bool   `json:"show"`
	BackgroundColor string `json:"backgroundColor,omitempty"`
	BorderWidth     int    `json:"borderWidth"`
}

// emptyCell is the grid background that shows through where a heat map has no data item
// (NaN, an infeasible cell); neither palette has a neutral grey.
const emptyCell = "#d9d9d9"

func digits(d int) int {
	if d == 0 {
		return 3
	}
	return d
}

// pin fixes what go-echarts would otherwise pick by itself: the chart ID (random by
// default) and the assets (a CDN by default), so that the option is byte-stable and offline.
func pin(bc *charts.BaseConfiguration, id string) {
	bc.Initialization = opts.Initialization{ChartID: id, AssetsHost: assetsDir + "/"}
	bc.Initialization.Validate()
	bc.ClearPresetJSAssets()
	bc.ClearPresetCSSAssets()
	bc.AddCustomizedJSAssets(echartsAsset)
}

// checkAssets makes sure a chart asks for nothing but the vendored echarts, should a future
// go-echarts or a new option add a theme, map or CDN script.
func checkAssets(id string, a opts.Assets) error {
	for _, set := range [][]string{a.JSAssets.Values, a.CSSAssets.Values, a.CustomizedJSAssets.Values, a.CustomizedCSSAssets.Values, a.CustomizedHeaders.Values} {
		for _, v := range set {
			if v != echartsAsset {
				return fmt.Errorf("report: chart %q: go-echarts wants asset %q, but only %q is vendored", id, v, echartsAsset)
			}
		}
	}
	return nil
}

// zRange is the colour scale of h: ZMin and ZMax, or the finite extent of the data.
func zRange(h *HeatMap) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range h.Z {
		for _, z := range row {
			if !math.IsNaN(z) {
				lo, hi = math.Min(lo, z), math.Max(hi, z)
			}
		}
	}
	if h.ZMin != nil {
		lo = *h.ZMin
	}
	if h.ZMax != nil {
		hi = *h.ZMax
	}
	switch {
	case math.IsInf(lo, 1) && math.IsInf(hi, -1): // every cell infeasible
		lo, hi = 0, 1
	case math.IsInf(lo, 1):
		lo = hi - 1
	case math.IsInf(hi, -1):
		hi = lo + 1
	case lo == hi: // a constant map still needs a scale
		lo, hi = lo-0.5, hi+0.5
	case lo > hi: // one bound fixed beyond all the data
		if h.ZMin != nil {
			hi = lo + 1
		} else {
			lo = hi - 1
		}
	}
	return lo, hi
}

// defaultWide is HeatMap.Wide's default: a cell whose interval reaches
// further than ±10 % of its value is hatched.
const defaultWide = 0.1

// wideOf is h's hatching threshold.
func wideOf(h *HeatMap) float64 {
	if h.Wide == 0 {
		return defaultWide
	}
	return h.Wide
}

// hatchedCells lists the cells of h whose interval's half-width exceeds
// Wide of their value, as [x, y], Y outer as in Z.
func hatchedCells(h *HeatMap) [][2]int {
	if h.Lo == nil {
		return nil
	}
	wide := wideOf(h)
	cells := [][2]int{}
	for y, row := range h.Z {
		for x, z := range row {
			lo, hi := h.Lo[y][x], h.Hi[y][x]
			if math.IsNaN(z) || math.IsNaN(lo) || math.IsNaN(hi) {
				continue
			}
			if (hi-lo)/2 > wide*math.Abs(z) {
				cells = append(cells, [2]int{x, y})
			}
		}
	}
	return cells
}

// intervalCells counts the cells of h that have an interval.
func intervalCells(h *HeatMap) int {
	n := 0
	for y, row := range h.Lo {
		for x, lo := range row {
			if !math.IsNaN(lo) && !math.IsNaN(h.Z[y][x]) {
				n++
			}
		}
	}
	return n
}

// hatchColour is the stripes' colour in the legend's swatch; charts.js
// draws each stripe dark over a light halo, visible on either palette.
const hatchColour = "#000000"

func heatMapSpec(h *HeatMap, base string) (chartSpec, error) {
	c := charts.NewHeatMap()
	pin(&c.BaseConfiguration, h.ID)

	lo, hi := zRange(h)
	vm := visualMap{
		Type: "continuous", Min: number(lo), Max: number(hi), Dimension: 2, Calculable: true,
		Orient: "vertical", Right: 8, Top: "middle", ItemHeight: 260,
	}
	vm.InRange.Color = viridis
	if h.Palette == Diverging {
		vm.InRange.Color = rdBu
	}
	if h.Lo != nil {
		vm.SeriesIndex = []int{0}
	}
	c.Accept(patch{
		drop: []string{"title", "toolbox", "legend", "color"},
		set: []keyValue{
			{"visualMap", vm},
			{"grid", gridBox{Left: 16, Right: 110, Top: 40, Bottom: 36, ContainLabel: true, Show: true, BackgroundColor: emptyCell}},
		},
	})
	c.SetGlobalOptions(
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(opts.XAxis{
			Type: "category", Name: h.X.Name, NameLocation: "middle", NameGap: 30, Data: h.X.Labels,
		}),
		charts.WithYAxisOpts(opts.YAxis{
			Type: "category", Name: h.Y.Name, NameLocation: "end", Data: h.Y.Labels,
		}),
	)
	data := make([]opts.HeatMapData, 0, len(h.X.Labels)*len(h.Y.Labels))
	for y, row := range h.Z {
		for x, z := range row {
			if math.IsNaN(z) {
				continue // no data item: the cell stays empty
			}
			data = append(data, opts.HeatMapData{Value: [3]any{x, y, number(z)}})
		}
	}
	series := []charts.SeriesOpts{
		charts.WithEmphasisOpts(opts.Emphasis{ItemStyle: &opts.ItemStyle{BorderColor: "#000", BorderWidth: 1}}),
	}
	if h.CellLabels {
		series = append(series, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true)}))
	}
	c.AddSeries(h.ZName, data, series...)
	c.Validate()
	if err := checkAssets(h.ID, c.Assets); err != nil {
		return chartSpec{}, err
	}
	spec := chartSpec{
		Kind: "heatmap", Digits: digits(h.Digits),
		X: h.X.Name, Y: h.Y.Name, Z: h.ZName,
		Option: c.JSON(),
	}
	if h.Lo != nil {
		// The hatching: a custom series over the cells whose interval is
		// wide, drawn by charts.js (renderItem cannot travel in JSON);
		// silent, so the cell below takes the hover and the click.
		all := append([]any{}, seriesList(spec.Option)...)
		spec.Option["series"] = append(all, map[string]any{
			"type": "custom", "id": "hatch", "name": "wide interval", "silent": true, "z": 3,
			"encode":  map[string]any{"x": 0, "y": 1},
			"tooltip": map[string]any{"show": false},
			"data":    hatchedCells(h),
		})
		wide := number(wideOf(h))
		spec.Lo, spec.Hi, spec.Wide = grid(h.Lo), grid(h.Hi), &wide
	}
	if h.Links != nil {
		spec.Links = make([][]*linkJSON, len(h.Links))
		for y, row := range h.Links {
			spec.Links[y] = make([]*linkJSON, len(row))
			for x, l := range row {
				spec.Links[y][x] = resolve(base, l)
			}
		}
	}
	return spec, nil
}

// seriesList is the series of a go-echarts option, to append to.
func seriesList(option map[string]any) []any {
	var out []any
	switch s := option["series"].(type) {
	case charts.MultiSeries:
		for _, x := range s {
			out = append(out, x)
		}
	case []any:
		out = s
	}
	return out
}

func lineChartSpec(l *LineChart, base string) (chartSpec, error) {
	c := charts.NewLine()
	pin(&c.BaseConfiguration, l.ID)
	c.Accept(patch{
		drop: []string{"title", "toolbox"},
		set: []keyValue{
			{"grid", gridBox{Left: 16, Right: 32, Top: 64, Bottom: 36, ContainLabel: true}},
		},
	})
	yType := "value"
	if l.YLog {
		yType = "log"
	}
	legend := opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "0"}
	intervals := false
	for _, s := range l.Series {
		intervals = intervals || s.Lo != nil
	}
	if intervals {
		// One entry per line: its error bars share its name (so the
		// entry shows and hides both) but are no entry of their own.
		var names []string
		for _, s := range l.Series {
			names = append(names, s.Name)
		}
		legend.Data = names
	}
	c.SetGlobalOptions(
		charts.WithAnimation(false),
		charts.WithColorsOpts(okabeIto),
		charts.WithLegendOpts(legend),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: l.X.Name, NameLocation: "middle", NameGap: 30}),
		charts.WithYAxisOpts(opts.YAxis{Type: yType, Name: l.YName, NameLocation: "end"}),
	)
	c.SetXAxis(l.X.Labels)
	for _, s := range l.Series {
		data := make([]opts.LineData, len(s.Values))
		for i, v := range s.Values {
			if math.IsNaN(v) {
				data[i] = opts.LineData{Value: "-"} // echarts' empty value: a gap in the line
			} else {
				data[i] = opts.LineData{Value: number(v)}
			}
		}
		c.AddSeries(s.Name, data, charts.WithLineChartOpts(opts.LineChart{
			Symbol: "circle", SymbolSize: 7, ShowSymbol: opts.Bool(true), ConnectNulls: opts.Bool(false),
		}))
	}
	c.Validate()
	if err := checkAssets(l.ID, c.Assets); err != nil {
		return chartSpec{}, err
	}
	spec := chartSpec{
		Kind: "line", Digits: digits(l.Digits),
		X: l.X.Name, Y: l.YName,
		Option: c.JSON(),
	}
	if intervals {
		// The error bars: a custom series per line with intervals, after
		// the lines (so a series index is still a line's), drawn by
		// charts.js in the line's colour; silent and out of the tooltip,
		// which shows each value's interval itself.
		all := append([]any{}, seriesList(spec.Option)...)
		spec.Lo, spec.Hi = make([][]number, len(l.Series)), make([][]number, len(l.Series))
		for i, s := range l.Series {
			if s.Lo == nil {
				continue
			}
			spec.Lo[i], spec.Hi[i] = numbers(s.Lo), numbers(s.Hi)
			bars := [][3]number{}
			for x := range s.Lo {
				if !math.IsNaN(s.Lo[x]) {
					bars = append(bars, [3]number{number(x), number(s.Lo[x]), number(s.Hi[x])})
				}
			}
			all = append(all, map[string]any{
				"type": "custom", "id": fmt.Sprintf("interval-%d", i), "name": s.Name, "silent": true, "z": 1,
				"itemStyle": map[string]any{"color": okabeIto[i%len(okabeIto)]},
				"encode":    map[string]any{"x": 0, "y": []int{1, 2}},
				"tooltip":   map[string]any{"show": false},
				"data":      bars,
			})
		}
		spec.Option["series"] = all
	}
	for i, s := range l.Series {
		if s.Links == nil {
			continue
		}
		if spec.Links == nil {
			spec.Links = make([][]*linkJSON, len(l.Series))
		}
		spec.Links[i] = make([]*linkJSON, len(s.Links))
		for x, ln := range s.Links {
			spec.Links[i][x] = resolve(base, ln)
		}
	}
	return spec, nil
}

func barChartSpec(b *BarChart, base string) (chartSpec, error) {
	c := charts.NewBar()
	pin(&c.BaseConfiguration, b.ID)
	c.Accept(patch{
		drop: []string{"title", "toolbox"},
		set: []keyValue{
			{"grid", gridBox{Left: 16, Right: 32, Top: 64, Bottom: 36, ContainLabel: true}},
		},
	})
	c.SetGlobalOptions(
		charts.WithAnimation(false),
		charts.WithColorsOpts(okabeIto),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "0"}),
		// The shadow pointer highlights the whole category, so the tooltip lists every
		// part of the bars under the cursor.
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis", AxisPointer: &opts.AxisPointer{Type: "shadow"}}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: b.X.Name, NameLocation: "middle", NameGap: 30}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: b.YName, NameLocation: "end"}),
	)
	c.SetXAxis(b.X.Labels)
	for _, s := range b.Series {
		data := make([]opts.BarData, len(s.Values))
		for i, v := range s.Values {
			if math.IsNaN(v) {
				data[i] = opts.BarData{Value: "-"} // echarts' empty value: no bar
			} else {
				data[i] = opts.BarData{Value: number(v)}
			}
		}
		c.AddSeries(s.Name, data, charts.WithBarChartOpts(opts.BarChart{Stack: s.Stack}))
	}
	c.Validate()
	if err := checkAssets(b.ID, c.Assets); err != nil {
		return chartSpec{}, err
	}
	spec := chartSpec{
		Kind: "bar", Digits: digits(b.Digits),
		X: b.X.Name, Y: b.YName,
		Option: c.JSON(),
	}
	for i, s := range b.Series {
		if s.Links == nil {
			continue
		}
		if spec.Links == nil {
			spec.Links = make([][]*linkJSON, len(b.Series))
		}
		spec.Links[i] = make([]*linkJSON, len(s.Links))
		for x, ln := range s.Links {
			spec.Links[i][x] = resolve(base, ln)
		}
	}
	return spec, nil
}
