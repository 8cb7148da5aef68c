package report

// Axis is a category axis whose labels the caller formats ("2^10", "10^-2.5"). echarts heat
// maps need category axes, so a log scale is a log-spaced grid labelled as powers.
type Axis struct {
	Name   string   // axis title, also the column header in the CSV data
	Labels []string // one per category, in order (first at the left, or at the bottom)

	// Values optionally gives the number each label stands for (1024 for "2^10"). When set,
	// it must have one value per label, and the CSV and JSON data carry it beside the
	// labels so the data can be read without parsing labels.
	Values []float64
}

// Palette is the colour scale of a heat map. Both are colour-blind safe.
type Palette string

const (
	// Sequential is viridis, dark blue (low) to yellow (high). The zero Palette is Sequential.
	Sequential Palette = "sequential"
	// Diverging is ColorBrewer's RdBu, blue (low) through near-white to red (high), for data
	// with a meaningful midpoint: put it in the middle of [ZMin, ZMax].
	Diverging Palette = "diverging"
)

// HeatMap is a chart of Z over a grid of X by Y categories, what the papers drew as 3-D
// surfaces.
type HeatMap struct {
	ID      string // fixed chart ID ("fig05"): the HTML anchor, and the basename of its data files
	Title   string // "Fig. 5  Influence of jitter"
	Caption string // plain text: which figure of the paper, the fixed parameters
	X, Y    Axis   // Y.Labels[0] is at the bottom

	// Z[y][x] is the value at X.Labels[x], Y.Labels[y]. NaN marks an infeasible cell: it is
	// drawn empty (no data item), written as null in JSON and as an empty field in CSV.
	Z     [][]float64
	ZName string // the quantity and unit, "runtime (µs)": colour scale, tooltips, CSV header

	// ZMin and ZMax fix the colour scale; nil takes the bound from the data. Values beyond
	// them are drawn in the end colours (the paper: "values above 5 are red").
	ZMin, ZMax *float64

	Digits     int     // significant digits in tooltips and labels; 0 means 3
	Palette    Palette // the zero value is Sequential
	CellLabels bool    // print each cell's value in the cell (for small grids)

	// Lo and Hi, if set, are each cell's 95 % interval, shaped as Z (NaN
	// where Z is NaN or the cell has none). The CSV and JSON carry them,
	// the tooltip shows them, and a cell whose half-width exceeds Wide of
	// its value is hatched, the chart's legend saying what the hatching
	// means.
	Lo, Hi [][]float64
	Wide   float64 // relative half-width above which a cell is hatched; 0 means 0.1 (±10 %)

	// Links, if set, shaped as Z, is what a click on each cell opens
	// (nil for none): the scene that animates the cell's configuration.
	Links [][]*Link
}

// Link is what a click on a chart's point, a heat map's cell or a
// table's row opens: a page of the site, with the parameters in its URL.
type Link struct {
	// Path is relative to the site's root ("scene.html?scene=butterfly&P=64"):
	// the report writes it under the Index's SiteBase.
	Path string
	// Title says what the click will open, shown on hover ("the butterfly
	// scene at P = 64 (the cell's 2^12 capped to what the scene draws)").
	Title string
}

// Series is one line of a LineChart.
type Series struct {
	Name   string    // legend entry and CSV column header; unique within the chart
	Values []float64 // one per X label; NaN is a gap in the line

	// Lo and Hi, if set, are each value's 95 % interval, drawn as error
	// bars and carried by the CSV and JSON (NaN: none at that point).
	Lo, Hi []float64

	// Links, if set, one per X label (nil for none), is what a click on
	// each point opens.
	Links []*Link
}

// LineChart is a chart of one or more series over a category X axis.
type LineChart struct {
	ID, Title, Caption string // as for HeatMap
	X                  Axis
	YName              string // the quantity and unit on the Y axis
	YLog               bool   // logarithmic Y axis; all values must then be > 0 (or NaN)
	Series             []Series
	Digits             int // significant digits in tooltips; 0 means 3
}

// BarSeries is one series of a BarChart.
type BarSeries struct {
	Name string // legend entry and CSV column header; unique within the chart

	// Stack names the bar the series is drawn in: series with the same non-empty Stack are
	// drawn on top of each other, in order, so a bar shows a total and its parts. A series
	// with an empty Stack is a bar of its own beside the others.
	Stack string

	Values []float64 // one per X label; NaN draws nothing there

	// Links, if set, one per X label (nil for none), is what a click on
	// the series' bar at that label opens.
	Links []*Link
}

// BarChart is a chart of bars over a category X axis: at each label one bar per stack (and
// per unstacked series).
type BarChart struct {
	ID, Title, Caption string // as for HeatMap
	X                  Axis
	YName              string // the quantity and unit on the Y axis
	Series             []BarSeries
	Digits             int // significant digits in tooltips; 0 means 3
}

// Table is a plain HTML table, written also as CSV and JSON.
type Table struct {
	ID, Title, Caption string // as for HeatMap
	Header             []string
	Rows               [][]string // each as long as Header

	// RowLinks, if set, one per row (nil for none), is what a click on
	// each row opens.
	RowLinks []*Link
}

// Verdict says how far a finding of the paper was reproduced.
type Verdict string

const (
	Reproduced       Verdict = "reproduced"
	PartlyReproduced Verdict = "partially reproduced"
	NotReproduced    Verdict = "not reproduced"
	// Inconclusive is for a finding the data cannot decide: our interval
	// reaches across the range the paper's words allow. The evidence says
	// how many trials would decide it.
	Inconclusive Verdict = "inconclusive"
	// NotCheckable is for a finding the generated grid cannot decide, e.g.
	// one about P = 2^15 in a quick report that stops at 2^12.
	NotCheckable Verdict = "not checkable on this grid"
)

// Finding is one claim of the paper and what the simulation says about it.
// Paper and Ours put the paper's number beside ours: Paper as the paper gives
// it (quoted, with its figure or table), Ours computed from the report's own
// data, never typed in. Both are optional for a finding with no number.
type Finding struct {
	Claim    string
	Verdict  Verdict
	Paper    string // the paper's number, e.g. "about 10x (Fig. 9)"
	Ours     string // ours with its 95 % interval, computed from the data, e.g. "8.7x [7.9, 9.6]"
	Evidence string

	// Tolerance is the range the paper's words allow for its number, with
	// the words it comes from: "[5, 20]: "約10倍", about 10x".
	Tolerance string
	// Figures are the IDs of the charts and tables on the page that
	// support the finding: the summary at the top of the page links to them.
	Figures []string
}

// Findings is a list of findings, drawn with a coloured verdict badge each.
type Findings struct {
	Title string // optional heading
	Items []Finding
}

// Section is a titled part of a page. Items are drawn in order; each is a *HeatMap,
// *LineChart, *BarChart, *Gantt, *Table or Findings (the values HeatMap, LineChart,
// BarChart, Gantt, Table and the pointer *Findings are accepted too).
type Section struct {
	Title string
	Intro string // plain text; paragraphs separated by a blank line
	Items []any

	// Live marks a section measured on the machine that writes the report
	// (the MMDL calibration loop): its numbers differ from run to run. It is
	// drawn on a page of its own, <page>-live.html, under a marker that says
	// so, and the page keeps only a link to it, so that every other file of
	// the report is the same from run to run with the same flags. Its
	// charts' and tables' IDs start with "live-" (their data are
	// data/live-*.csv and .json), and its findings are listed in it but are
	// not in the page's summary nor in the verdict counts (nor in
	// gen-report's findings files, which the README's tables read).
	Live bool
}

// Page is one report page, usually one paper.
type Page struct {
	File     string // base name, "allreduce.html"; not "index.html"
	Title    string
	Subtitle string // optional, one line: the paper's authors, venue, year
	Intro    string // plain text; paragraphs separated by a blank line
	Sections []Section

	// The page opens with a summary of its findings (every Findings item
	// of its sections, in order: the claim, the paper's number, ours, the
	// verdict, links to the finding and its figures); the Intro and the
	// sections follow. A finding's anchor on the page is "finding-N",
	// N = 1, 2, … in that order.

	// Thumbnail is the ID of the chart the index draws as the page's
	// picture (a heat map, line or bar chart, not in a Live section); ""
	// takes the page's first such chart.
	Thumbnail string
}

// IndexEntry is one line of the index page.
type IndexEntry struct {
	Link    string // relative link, normally a Page's File
	Title   string
	Summary string // plain text; paragraphs separated by a blank line
}

// Index is the report's index.html.
type Index struct {
	Title string // "Reports" if empty
	Intro string // plain text; paragraphs separated by a blank line

	// Pages lists the entries in order. If it is empty, every page is listed with its
	// Subtitle as the summary.
	Pages []IndexEntry

	// Edition names which report this is, "quick" or "full" (or empty): it is written
	// into every page's <meta name="commlab-report-edition"> and into the Marker file
	// ("edition: quick"), where cmd/serve reads it.
	Edition string
	// Note is plain text shown at the top of every page, saying what the edition is
	// ("a quick report: smaller grids ...").
	Note string

	// SiteBase is what Link paths are written under: "../" by default (the
	// reports live in site/reports/, the scenes in site/), or the hosted
	// site's address ("https://commlab.example.org/") for a report opened
	// from file:// elsewhere.
	SiteBase string
}

// Float returns a pointer to v, for HeatMap.ZMin and ZMax.
func Float(v float64) *float64 { return &v }
