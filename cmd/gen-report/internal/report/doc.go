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
// Layout of a written report directory:
//
//	index.html          the index (Index)
//	<page>.html         one per Page
//	data/<ID>.csv       the data of each chart and table, and the same as JSON:
//	data/<ID>.json
//	assets/             echarts.min.js with its LICENSE and NOTICE, charts.js, report.css
//	.commlab-report     marks the directory as Write's, so Write will replace it
//
// Write replaces the directory as a whole, and only after everything has been written
// beside it: a failed run leaves the previous report as it was.
package report
