package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"strconv"
	"strings"
)

//go:embed templates/page.html.tmpl
var templateFS embed.FS

var pageTemplate = template.Must(template.ParseFS(templateFS, "templates/page.html.tmpl"))

// pageView is what the page template draws: a report page or, with IsIndex, the index.
type pageView struct {
	Title     string
	Subtitle  string
	Intro     []string
	IsIndex   bool
	HasCharts bool
	Entries   []entryView
	Sections  []sectionView
}

type entryView struct {
	Link, Title string
	Summary     []string
}

type sectionView struct {
	Anchor, Title string
	Intro         []string
	Items         []itemView
}

// itemView is a chart, table or findings list; Kind says which fields are set.
type itemView struct {
	Kind    string // "chart", "table" or "findings"
	ID      string
	Title   string
	Caption []string

	Class  string      // chart: "heatmap", "line", "bar" or "gantt"
	Option template.JS // chart: the chartSpec as JSON, HTML-escaped by encoding/json

	Header []string     // table
	Rows   [][]cellView // table

	Findings []findingView
}

type cellView struct {
	Text string
	Num  bool // right-aligned
}

type findingView struct {
	Claim       string
	Verdict     Verdict
	Class       string
	Paper, Ours string
	Evidence    []string
}

// paragraphs splits plain text at blank lines, dropping empty paragraphs.
func paragraphs(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func isNumber(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "%")
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func renderPage(v pageView) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTemplate.ExecuteTemplate(&b, "page", v); err != nil {
		return nil, fmt.Errorf("report: rendering %q: %w", v.Title, err)
	}
	return b.Bytes(), nil
}

// file is one file of the report, its path relative to the report directory.
type file struct {
	path string
	data []byte
}

// buildPage renders p and the data files of its charts and tables.
func buildPage(p Page) (html []byte, data []file, err error) {
	v := pageView{Title: p.Title, Subtitle: p.Subtitle, Intro: paragraphs(p.Intro)}
	for si, sec := range p.Sections {
		sv := sectionView{Anchor: fmt.Sprintf("section-%d", si+1), Title: sec.Title, Intro: paragraphs(sec.Intro)}
		for _, raw := range sec.Items {
			it, _ := normalize(raw) // validated
			iv, csvData, jsonData, err := buildItem(it)
			if err != nil {
				return nil, nil, fmt.Errorf("%w (page %s)", err, p.File)
			}
			if iv.Kind == "chart" {
				v.HasCharts = true
			}
			if iv.Kind != "findings" {
				data = append(data,
					file{"data/" + iv.ID + ".csv", csvData},
					file{"data/" + iv.ID + ".json", jsonData})
			}
			sv.Items = append(sv.Items, iv)
		}
		v.Sections = append(v.Sections, sv)
	}
	html, err = renderPage(v)
	return html, data, err
}

func buildItem(it item) (v itemView, csvData, jsonData []byte, err error) {
	var spec chartSpec
	switch {
	case it.heat != nil:
		h := it.heat
		v = itemView{Kind: "chart", ID: h.ID, Title: h.Title, Caption: paragraphs(h.Caption), Class: "heatmap"}
		if spec, err = heatMapSpec(h); err != nil {
			return
		}
		csvData, jsonData, err = heatMapData(h)
	case it.line != nil:
		l := it.line
		v = itemView{Kind: "chart", ID: l.ID, Title: l.Title, Caption: paragraphs(l.Caption), Class: "line"}
		if spec, err = lineChartSpec(l); err != nil {
			return
		}
		csvData, jsonData, err = lineChartData(l)
	case it.bar != nil:
		b := it.bar
		v = itemView{Kind: "chart", ID: b.ID, Title: b.Title, Caption: paragraphs(b.Caption), Class: "bar"}
		if spec, err = barChartSpec(b); err != nil {
			return
		}
		csvData, jsonData, err = barChartData(b)
	case it.gantt != nil:
		g := it.gantt
		v = itemView{Kind: "chart", ID: g.ID, Title: g.Title, Caption: paragraphs(g.Caption), Class: "gantt"}
		if spec, err = ganttSpec(g); err != nil {
			return
		}
		csvData, jsonData, err = ganttData(g)
	case it.table != nil:
		t := it.table
		v = itemView{Kind: "table", ID: t.ID, Title: t.Title, Caption: paragraphs(t.Caption), Header: t.Header}
		for _, r := range t.Rows {
			cells := make([]cellView, len(r))
			for i, s := range r {
				cells[i] = cellView{Text: s, Num: isNumber(s)}
			}
			v.Rows = append(v.Rows, cells)
		}
		csvData, jsonData, err = tableData(t)
		return
	case it.findings != nil:
		v = itemView{Kind: "findings", Title: it.findings.Title}
		for _, f := range it.findings.Items {
			v.Findings = append(v.Findings, findingView{
				Claim: f.Claim, Verdict: f.Verdict, Class: verdictClass(f.Verdict), Paper: f.Paper, Ours: f.Ours, Evidence: paragraphs(f.Evidence),
			})
		}
		return
	}
	if err != nil {
		return
	}
	option, err := encodeJSON(spec)
	if err != nil {
		return v, nil, nil, fmt.Errorf("report: chart %q: encoding the echarts option: %w", v.ID, err)
	}
	v.Option = template.JS(bytes.TrimSuffix(option, []byte("\n")))
	return
}

func buildIndex(idx Index, pages []Page) ([]byte, error) {
	v := pageView{Title: idx.Title, Intro: paragraphs(idx.Intro), IsIndex: true}
	if v.Title == "" {
		v.Title = "Reports"
	}
	if len(idx.Pages) > 0 {
		for _, e := range idx.Pages {
			v.Entries = append(v.Entries, entryView{Link: e.Link, Title: e.Title, Summary: paragraphs(e.Summary)})
		}
	} else {
		for _, p := range pages {
			v.Entries = append(v.Entries, entryView{Link: p.File, Title: p.Title, Summary: paragraphs(p.Subtitle)})
		}
	}
	return renderPage(v)
}
