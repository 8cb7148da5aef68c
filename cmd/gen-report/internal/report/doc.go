// Package report writes the static HTML reports of the papers' parameter sweeps: one page per
// paper with heat maps, line charts, bar charts, tables and a list of findings, an index page, the data
// behind every chart and table as CSV and JSON, and the assets the pages need.
//
// The output is offline and byte-stable. echarts 5 is vendored in assets/ (refreshed by
// vendor-echarts.sh, embedded with //go:embed) and written beside the pages; nothing refers
// to a CDN or any other absolute URL (CheckOffline verifies a written report); chart IDs are
// the caller's fixed IDs; and the same inputs give byte-identical files.
//
// go-echarts builds each chart's echarts option object (its chart types, axes, series and
// a configuration visitor for the parts it types too narrowly, such as the float32 visual
// map bounds). The pages do not use go-echarts' HTML templates, which put an inline script
// after every chart: each option is instead written into the page as a JSON data block,
//
//	<div class="chart-canvas" id="chart-ID" data-option="option-ID"></div>
//	<script type="application/json" id="option-ID">{"kind":"heatmap",...,"option":{...}}</script>
//
// which browsers never execute, and one static script, assets/charts.js, draws every
// container on the page and marks it data-rendered="true". So the pages work from file://
// (no fetch) and under the Content-Security-Policy
//
//	default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'
//
// ('unsafe-inline' styles only because echarts builds its tooltips as HTML with style
// attributes; the pages themselves have none).
//
// A page opens with the summary of its findings (a row per finding: the verdict, the claim
// linked to its entry #finding-N, the paper's number, ours, links to the charts and tables
// that support it), then the method text, folded when long, and the sections. Charts show
// intervals (error bars, hatched heat-map cells) and open the scene a point, a cell or a
// table row links to, under the Index's SiteBase. A Live section (measured on the machine
// that writes the report) is drawn on a page of its own, so that every other file stays
// the same from run to run. The index shows each page's thumbnail, an inline SVG drawn from
// one of its charts' data, and its verdict counts. docs/reports.md says all of it for the
// reader and for a study.
//
// Layout of a written report directory:
//
//	index.html          the index (Index)
//	<page>.html         one per Page
//	<page>-live.html    a Page's Live sections, if it has any
//	data/<ID>.csv       the data of each chart and table, and the same as JSON
//	data/<ID>.json      (a Live section's IDs, and so its files, start with "live-")
//	assets/             echarts.min.js with its LICENSE and NOTICE, charts.js, report.css
//	.commlab-report     marks the directory as Write's, so Write will replace it
//
// Write replaces the directory as a whole, and only after everything has been written
// beside it: a failed run leaves the previous report as it was.
package report
