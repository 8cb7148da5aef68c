package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:embed templates/page.html.tmpl
var templateFS embed.FS

var pageTemplate = template.Must(template.ParseFS(templateFS, "templates/page.html.tmpl"))

// pageView is what the page template draws: a report page or, with IsIndex, the index.
type pageView struct {
	Status    template.HTML // StatusSlot; html/template drops comments written in the template
	Edition   string
	Note      []string
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

	Header []template.HTML // table: each header cell but the prose columns', see wordsHTML
	Rows   []rowView       // table

	Findings []findingView
}

// rowView is a table row: its cells, then the row's prose columns (a "why"),
// each drawn as a line of its own under the row, across the whole table.
type rowView struct {
	Cells []cellView
	Notes []noteView
}

type noteView struct {
	Label string
	Text  template.HTML // see proseHTML
}

// proseMeanRunes is the mean cell length above which a column is prose: a
// column of sentences squeezed beside a dozen numbers is either a sliver a
// word wide or a table wider than the window, so it goes under its row.
const proseMeanRunes = 80

func proseColumns(t *Table) []bool {
	prose := make([]bool, len(t.Header))
	if len(t.Rows) == 0 || len(t.Header) < 2 {
		return prose
	}
	for i := range t.Header {
		n := 0
		for _, r := range t.Rows {
			n += utf8.RuneCountInString(r[i])
		}
		prose[i] = n > proseMeanRunes*len(t.Rows)
	}
	return prose
}

type cellView struct {
	HTML  template.HTML // the text, see wordsHTML
	Class string        // "num" (right-aligned, never wraps), "short" (never wraps) or ""
}

// shortRunes is the length up to which a cell never wraps: "2 nodes,
// 4,000 × 4,000" on one line reads better than in four, and costs the
// table little width.
const shortRunes = 24

func cellClass(s string) string {
	switch {
	case isNumber(s):
		return "num"
	case utf8.RuneCountInString(s) <= shortRunes:
		return "short"
	}
	return ""
}

// wordsHTML escapes a table cell's text and puts each word a browser could
// break inside (at a hyphen, a bracket, a slash) in a span.nw, so a cell
// wraps at its spaces but never inside "NBCF-ovlp" or "E[T](L_s*)": a
// column is never narrower than its longest word, and a table of short
// phrases still fits the window. A web address (a cited source) is the
// exception: it breaks after a slash (span.url).
func wordsHTML(s string) template.HTML {
	var b strings.Builder
	for i, w := range strings.Fields(s) {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.Contains(w, "://") {
			// A cited web address is longer than a phone's column: it
			// may break after its slashes, and only there.
			b.WriteString(urlHTML(w))
		} else if strings.IndexFunc(w, breaksWord) >= 0 {
			b.WriteString(`<span class="nw">` + template.HTMLEscapeString(w) + `</span>`)
		} else {
			b.WriteString(template.HTMLEscapeString(w))
		}
	}
	return template.HTML(b.String())
}

// proseHTML escapes a prose cell's text; a web address in it (a cited
// source) may break after its slashes, since on a phone it is wider than
// the table.
func proseHTML(s string) template.HTML {
	var b strings.Builder
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.Contains(w, "://") {
			b.WriteString(urlHTML(w))
		} else {
			b.WriteString(template.HTMLEscapeString(w))
		}
	}
	return template.HTML(b.String())
}

// urlHTML is a web address with a line-break opportunity after each slash.
func urlHTML(w string) string {
	return `<span class="url">` + strings.ReplaceAll(template.HTMLEscapeString(w), "/", "/<wbr>") + `</span>`
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

// StatusSlot is the comment every page carries where cmd/serve, the
// development server, puts what it is building ("a full report is on its
// way"); a static host serves it as it is, an HTML comment.
const StatusSlot = "<!--commlab:status-->"

func renderPage(v pageView) ([]byte, error) {
	v.Status = StatusSlot
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
func buildPage(idx Index, p Page) (html []byte, data []file, err error) {
	v := pageView{Edition: idx.Edition, Note: paragraphs(idx.Note), Title: p.Title, Subtitle: p.Subtitle, Intro: paragraphs(p.Intro)}
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
		v = itemView{Kind: "table", ID: t.ID, Title: t.Title, Caption: paragraphs(t.Caption)}
		prose := proseColumns(t)
		for i, h := range t.Header {
			if !prose[i] {
				v.Header = append(v.Header, wordsHTML(h))
			}
		}
		for _, r := range t.Rows {
			var row rowView
			for i, s := range r {
				if prose[i] {
					if s != "" {
						row.Notes = append(row.Notes, noteView{Label: t.Header[i], Text: proseHTML(s)})
					}
					continue
				}
				row.Cells = append(row.Cells, cellView{HTML: wordsHTML(s), Class: cellClass(s)})
			}
			v.Rows = append(v.Rows, row)
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
	v := pageView{Edition: idx.Edition, Note: paragraphs(idx.Note), Title: idx.Title, Intro: paragraphs(idx.Intro), IsIndex: true}
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

// breaksWord reports whether r may let a browser break a line inside a word.
func breaksWord(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
