package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:embed templates/page.html.tmpl
var templateFS embed.FS

var pageTemplate = template.Must(template.New("page.html.tmpl").Funcs(template.FuncMap{
	"liveMarker":   func() string { return LiveMarker },
	"introSummary": func() string { return introSummary },
	"hatchColour":  func() string { return hatchColour },
}).ParseFS(templateFS, "templates/page.html.tmpl"))

// pageView is what the page template draws: a report page, its Live
// sections' page (IsLive) or, with IsIndex, the index.
type pageView struct {
	Status      template.HTML // StatusSlot; html/template drops comments written in the template
	Edition     string
	Note        []string
	DocTitle    string // the <title>, when it says more than the heading
	Title       string
	Subtitle    string
	Intro       []string
	IntroFolded bool // the Intro is long: it is drawn folded, under introSummary
	IsIndex     bool
	HasCharts   bool // the page loads echarts and charts.js (charts, or table rows with links)
	Entries     []entryView
	Summary     *summaryView
	Sections    []sectionView

	IsLive bool
	Parent *parentView // a Live page's page
}

type parentView struct{ Link, Title string }

// introFoldRunes is the Intro's length above which it is folded: the
// findings' summary comes first, and a reader who wants the method opens it.
const introFoldRunes = 600

// introSummary is what the folded Intro's summary line says.
const introSummary = "How this page was made: the model, its parameters and the method"

// LiveMarker is what a Live section's page says of its numbers.
const LiveMarker = "Measured live on the machine that wrote this report; differs from run to run."

type entryView struct {
	Link, Title string
	Summary     []string
	Thumb       template.HTML // the page's picture, an inline SVG (thumbnail.go)
	Counts      []countView   // the page's verdicts, counted
	Live        string        // the page's Live sections' page, if any
}

// countView is how many findings have one verdict: "4 reproduced".
type countView struct {
	N     int
	Label string
	Class string
}

// summaryView is the summary a page opens with: a row per finding.
type summaryView struct {
	Counts   []countView
	Total    int
	Live     bool   // the Live page's summary: its findings are not counted
	LiveLink string // the page's Live page, whose findings are not counted here
	Rows     []summaryRow
}

type summaryRow struct {
	Anchor  string
	Claim   template.HTML
	Verdict Verdict
	Class   string
	Paper   template.HTML
	Ours    template.HTML
	Figures []figureLink
}

// figureLink is a link to a chart or table that supports a finding.
type figureLink struct{ Href, Label, Title string }

type sectionView struct {
	Anchor, Title string
	Intro         []string
	Items         []itemView
	LiveLink      string // a Live section's stand-in on its page: the link to the Live page
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

	// A heat map with intervals says under it what its hatching means.
	HatchKey string
}

// rowView is a table row: its cells, then the row's prose columns (a "why"),
// each drawn as a line of its own under the row, across the whole table.
// A row with a link opens it on a click (charts.js) and its first cell
// is the link itself, for the keyboard and for a page without scripts.
type rowView struct {
	Cells     []cellView
	Notes     []noteView
	Href      string
	LinkTitle string
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
	Anchor      string // "finding-N"
	Claim       string
	Verdict     Verdict
	Class       string
	Paper, Ours string
	Tolerance   string
	Evidence    []string
	Figures     []figureLink
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

// buildPage renders p, its Live sections' page if it has any, and the
// data files of its charts and tables.
func buildPage(idx Index, p Page) ([]file, error) {
	base := siteBase(idx)
	v := pageView{Edition: idx.Edition, Note: paragraphs(idx.Note), Title: p.Title, Subtitle: p.Subtitle, Intro: paragraphs(p.Intro)}
	v.IntroFolded = utf8.RuneCountInString(p.Intro) > introFoldRunes
	live := pageView{Edition: idx.Edition, Note: paragraphs(idx.Note), Title: "Measured live", DocTitle: "Measured live: " + p.Title,
		IsLive: true, Parent: &parentView{Link: p.File, Title: p.Title}}
	liveFile := livePage(p)

	// The charts and tables a finding may cite, by ID: where they are.
	figures := map[string]figureLink{}
	for _, sec := range p.Sections {
		for _, raw := range sec.Items {
			it, _ := normalize(raw) // validated
			if id, title, kind := it.ident(); kind != "findings" {
				href := "#" + id
				if sec.Live {
					href = liveFile + href
				}
				figures[id] = figureLink{Href: href, Label: figureLabel(title), Title: title}
			}
		}
	}

	var data []file
	summary, liveSummary := &summaryView{}, &summaryView{Live: true}
	for si, sec := range p.Sections {
		sv := sectionView{Anchor: fmt.Sprintf("section-%d", si+1), Title: sec.Title, Intro: paragraphs(sec.Intro)}
		into, sum := &v, summary
		if sec.Live {
			into, sum = &live, liveSummary
			v.Sections = append(v.Sections, sectionView{Anchor: sv.Anchor, Title: sec.Title, LiveLink: liveFile})
		}
		for _, raw := range sec.Items {
			it, _ := normalize(raw) // validated
			iv, csvData, jsonData, err := buildItem(it, base)
			if err != nil {
				return nil, fmt.Errorf("%w (page %s)", err, p.File)
			}
			if iv.Kind == "chart" || (iv.Kind == "table" && it.table.RowLinks != nil) {
				into.HasCharts = true
			}
			if iv.Kind != "findings" {
				data = append(data,
					file{"data/" + iv.ID + ".csv", csvData},
					file{"data/" + iv.ID + ".json", jsonData})
			}
			if iv.Kind == "findings" {
				for k, f := range it.findings.Items {
					fv := &iv.Findings[k]
					fv.Anchor = fmt.Sprintf("finding-%d", len(sum.Rows)+1)
					for _, id := range f.Figures {
						fl := figures[id]
						if sec.Live && strings.HasPrefix(fl.Href, liveFile) {
							fl.Href = strings.TrimPrefix(fl.Href, liveFile)
						} else if sec.Live {
							fl.Href = p.File + fl.Href // a figure of the page, from its Live page
						}
						fv.Figures = append(fv.Figures, fl)
					}
					sum.Rows = append(sum.Rows, summaryRow{Anchor: fv.Anchor, Claim: wordsHTML(f.Claim), Verdict: f.Verdict, Class: fv.Class,
						Paper: wordsHTML(f.Paper), Ours: wordsHTML(f.Ours), Figures: fv.Figures})
				}
			}
			sv.Items = append(sv.Items, iv)
		}
		into.Sections = append(into.Sections, sv)
	}
	if len(summary.Rows) > 0 {
		v.Summary = summary
		summary.Total = len(summary.Rows)
		summary.Counts = countVerdicts(pageVerdicts(p))
	}
	files := []file{}
	if len(live.Sections) > 0 {
		if len(summary.Rows) > 0 || len(liveSummary.Rows) > 0 {
			if v.Summary == nil {
				v.Summary = summary
			}
			v.Summary.LiveLink = liveFile
		}
		if len(liveSummary.Rows) > 0 {
			live.Summary = liveSummary
		}
	}
	html, err := renderPage(v)
	if err != nil {
		return nil, err
	}
	files = append(files, file{p.File, html})
	if len(live.Sections) > 0 {
		html, err := renderPage(live)
		if err != nil {
			return nil, err
		}
		files = append(files, file{liveFile, html})
	}
	return append(files, data...), nil
}

// verdictOrder is the order verdicts are counted in, and their short labels.
var verdictOrder = []struct {
	v     Verdict
	label string
}{
	{Reproduced, "reproduced"},
	{PartlyReproduced, "partially"},
	{NotReproduced, "not reproduced"},
	{Inconclusive, "inconclusive"},
	{NotCheckable, "not checkable"},
}

// countVerdicts counts findings by verdict, in verdictOrder, leaving out
// the verdicts no finding has.
func countVerdicts(vs []Verdict) []countView {
	var out []countView
	for _, o := range verdictOrder {
		n := 0
		for _, v := range vs {
			if v == o.v {
				n++
			}
		}
		if n > 0 {
			out = append(out, countView{N: n, Label: o.label, Class: verdictClass(o.v)})
		}
	}
	return out
}

// pageVerdicts are the verdicts of p's findings outside its Live sections.
func pageVerdicts(p Page) []Verdict {
	var out []Verdict
	for _, sec := range p.Sections {
		if sec.Live {
			continue
		}
		for _, raw := range sec.Items {
			if it, ok := normalize(raw); ok && it.findings != nil {
				for _, f := range it.findings.Items {
					out = append(out, f.Verdict)
				}
			}
		}
	}
	return out
}

// figureLabel is a short name for a chart or table in a finding's list of
// support: "Fig. 5" of "Fig. 5  Influence of jitter", the title up to its
// colon when that is short, else its first words (the link's title
// attribute gives the whole title).
func figureLabel(title string) string {
	if m := figureNumber.FindString(title); m != "" {
		return m
	}
	if head, _, ok := strings.Cut(title, ":"); ok && utf8.RuneCountInString(head) <= 24 {
		return strings.TrimSpace(head)
	}
	words := strings.Fields(title)
	label := ""
	for i, w := range words {
		if i > 0 && utf8.RuneCountInString(label) >= 16 {
			return strings.TrimRight(label, ",;") + "…"
		}
		if i > 0 {
			label += " "
		}
		label += w
	}
	return label
}

var figureNumber = regexp.MustCompile(`^(Fig\.|Figure|Table)\s*[0-9]+[a-z]?\b`)

func buildItem(it item, base string) (v itemView, csvData, jsonData []byte, err error) {
	var spec chartSpec
	switch {
	case it.heat != nil:
		h := it.heat
		v = itemView{Kind: "chart", ID: h.ID, Title: h.Title, Caption: paragraphs(h.Caption), Class: "heatmap"}
		if spec, err = heatMapSpec(h, base); err != nil {
			return
		}
		if h.Lo != nil {
			v.HatchKey = hatchKey(h)
		}
		csvData, jsonData, err = heatMapData(h)
	case it.line != nil:
		l := it.line
		v = itemView{Kind: "chart", ID: l.ID, Title: l.Title, Caption: paragraphs(l.Caption), Class: "line"}
		if spec, err = lineChartSpec(l, base); err != nil {
			return
		}
		csvData, jsonData, err = lineChartData(l)
	case it.bar != nil:
		b := it.bar
		v = itemView{Kind: "chart", ID: b.ID, Title: b.Title, Caption: paragraphs(b.Caption), Class: "bar"}
		if spec, err = barChartSpec(b, base); err != nil {
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
		for ri, r := range t.Rows {
			var row rowView
			if t.RowLinks != nil && t.RowLinks[ri] != nil {
				l := resolve(base, t.RowLinks[ri])
				row.Href, row.LinkTitle = l.Href, "Opens "+l.Title
			}
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
				Claim: f.Claim, Verdict: f.Verdict, Class: verdictClass(f.Verdict), Paper: f.Paper, Ours: f.Ours,
				Tolerance: f.Tolerance, Evidence: paragraphs(f.Evidence),
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

// hatchKey is the line under a heat map with intervals that says what its
// hatching means, and how many cells it marks.
func hatchKey(h *HeatMap) string {
	wide := wideOf(h)
	return fmt.Sprintf("Hatched: the cell's 95 %% interval reaches further than ±%s %% of its value (%d of the %d cells with an interval). The tooltip gives each cell's interval.",
		strconv.FormatFloat(100*wide, 'g', 4, 64), len(hatchedCells(h)), intervalCells(h))
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
	// An entry that links to a page shows its picture and its verdicts.
	for i := range v.Entries {
		e := &v.Entries[i]
		for _, p := range pages {
			if p.File != e.Link {
				continue
			}
			if it, ok := thumbnailChart(p); ok {
				e.Thumb = thumbnailSVG(it)
			}
			e.Counts = countVerdicts(pageVerdicts(p))
			if hasLive(p) {
				e.Live = livePage(p)
			}
		}
	}
	return renderPage(v)
}

// breaksWord reports whether r may let a browser break a line inside a word.
func breaksWord(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
