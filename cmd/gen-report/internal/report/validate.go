package report

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
)

var (
	// IDs name files under data/ and HTML anchors, so they stay plain.
	validID   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	validFile = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.html$`)
)

const maxDigits = 17 // beyond this a float64 has no more digits to show

// validate checks the whole report before anything is written. It returns every problem it
// finds, each naming the page, the chart or table and the field.
func validate(idx Index, pages []Page) error {
	var errs []error
	add := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("report: "+format, args...))
	}

	files := make(map[string]bool, len(pages))
	for i, p := range pages {
		switch {
		case p.File == "":
			add("page %d (%q): File is empty", i+1, p.Title)
		case p.File == "index.html":
			add("page %d (%q): File %q is reserved for the index", i+1, p.Title, p.File)
		case !validFile.MatchString(p.File):
			add("page %d (%q): File %q must be a plain name ending in .html (letters, digits, '-', '_')", i+1, p.Title, p.File)
		case files[p.File]:
			add("page %d (%q): File %q is used by an earlier page", i+1, p.Title, p.File)
		}
		files[p.File] = true
		if p.Title == "" {
			add("%s: Title is empty", pageName(i, p))
		}
	}

	for i, e := range idx.Pages {
		where := fmt.Sprintf("index entry %d (%q)", i+1, e.Title)
		switch {
		case e.Link == "":
			add("%s: Link is empty", where)
		case strings.Contains(e.Link, ":") || strings.HasPrefix(e.Link, "/") || strings.Contains(e.Link, "\\"):
			add("%s: Link %q must be a relative path (the report is offline)", where, e.Link)
		}
		if e.Title == "" {
			add("%s: Title is empty", where)
		}
	}

	if idx.SiteBase != "" {
		if err := CheckSiteBase(idx.SiteBase); err != nil {
			add("index: SiteBase: %v", err)
		}
	}
	for i, p := range pages {
		if !hasLive(p) || p.File == "" {
			continue
		}
		if live := livePage(p); files[live] {
			add("%s: its Live sections are written as %s, which is also a page's File", pageName(i, p), live)
		}
	}

	// Every chart and table writes data/<ID>.*, so IDs are unique across all pages.
	ids := make(map[string]string)
	for i, p := range pages {
		pn := pageName(i, p)
		onPage := map[string]placed{} // this page's charts and tables
		type findingsAt struct {
			si, ii int
			f      *Findings
		}
		var findings []findingsAt
		for si, sec := range p.Sections {
			for ii, raw := range sec.Items {
				it, ok := normalize(raw)
				if !ok {
					add("%s: section %d (%q) item %d: unsupported type %T (want *HeatMap, *LineChart, *BarChart, *Gantt, *Table or Findings)",
						pn, si+1, sec.Title, ii+1, raw)
					continue
				}
				if it.findings != nil {
					findings = append(findings, findingsAt{si, ii, it.findings})
					continue
				}
				id, title, kind := it.ident()
				where := fmt.Sprintf("%s: %s %q", pn, kind, id)
				if id == "" {
					where = fmt.Sprintf("%s: section %d (%q) %s %d (title %q)", pn, si+1, sec.Title, kind, ii+1, title)
					add("%s: ID is empty", where)
				} else if !validID.MatchString(id) {
					add("%s: ID %q must be 1-64 letters, digits, '-' or '_', starting with a letter or digit", where, id)
				} else if prev, dup := ids[id]; dup {
					add("%s: ID %q is also used by %s", where, id, prev)
				} else {
					ids[id] = fmt.Sprintf("%s %s", pn, kind)
				}
				switch live := strings.HasPrefix(id, livePrefix); {
				case sec.Live && !live && id != "":
					add("%s: section %d (%q) is Live, so its items' IDs start with %q (their data are data/%s*.csv and .json)", where, si+1, sec.Title, livePrefix, livePrefix)
				case !sec.Live && live:
					add("%s: IDs starting with %q are kept for the items of Live sections", where, livePrefix)
				}
				if id != "" {
					onPage[id] = placed{it: it, live: sec.Live}
				}
				var problems []string
				switch {
				case it.heat != nil:
					problems = checkHeatMap(it.heat)
				case it.line != nil:
					problems = checkLineChart(it.line)
				case it.bar != nil:
					problems = checkBarChart(it.bar)
				case it.gantt != nil:
					problems = checkGantt(it.gantt)
				case it.table != nil:
					problems = checkTable(it.table)
				}
				for _, pr := range problems {
					add("%s: %s", where, pr)
				}
			}
		}
		for _, f := range findings {
			errs = append(errs, checkFindings(pn, f.si, p.Sections[f.si], f.ii, f.f, onPage)...)
		}
		if p.Thumbnail != "" {
			switch t, ok := onPage[p.Thumbnail]; {
			case !ok:
				add("%s: Thumbnail %q is no chart of the page", pn, p.Thumbnail)
			case t.live:
				add("%s: Thumbnail %q is in a Live section, whose numbers differ from run to run", pn, p.Thumbnail)
			case t.it.heat == nil && t.it.line == nil && t.it.bar == nil:
				_, _, kind := t.it.ident()
				add("%s: Thumbnail %q is a %s, want a heat map, line chart or bar chart", pn, p.Thumbnail, kind)
			}
		}
	}
	return errors.Join(errs...)
}

func pageName(i int, p Page) string {
	if p.File != "" {
		return p.File
	}
	return fmt.Sprintf("page %d (%q)", i+1, p.Title)
}

// item is one normalized Section item: exactly one field is set.
type item struct {
	heat     *HeatMap
	line     *LineChart
	bar      *BarChart
	gantt    *Gantt
	table    *Table
	findings *Findings
}

func normalize(x any) (item, bool) {
	switch v := x.(type) {
	case *HeatMap:
		return item{heat: v}, v != nil
	case HeatMap:
		return item{heat: &v}, true
	case *LineChart:
		return item{line: v}, v != nil
	case LineChart:
		return item{line: &v}, true
	case *BarChart:
		return item{bar: v}, v != nil
	case BarChart:
		return item{bar: &v}, true
	case *Gantt:
		return item{gantt: v}, v != nil
	case Gantt:
		return item{gantt: &v}, true
	case *Table:
		return item{table: v}, v != nil
	case Table:
		return item{table: &v}, true
	case Findings:
		return item{findings: &v}, true
	case *Findings:
		return item{findings: v}, v != nil
	}
	return item{}, false
}

// ident returns the ID, title and kind of a chart or table item.
func (it item) ident() (id, title, kind string) {
	switch {
	case it.heat != nil:
		return it.heat.ID, it.heat.Title, "heat map"
	case it.line != nil:
		return it.line.ID, it.line.Title, "line chart"
	case it.bar != nil:
		return it.bar.ID, it.bar.Title, "bar chart"
	case it.gantt != nil:
		return it.gantt.ID, it.gantt.Title, "Gantt chart"
	case it.table != nil:
		return it.table.ID, it.table.Title, "table"
	}
	return "", "", "findings"
}

func checkAxis(field string, a Axis) []string {
	var pr []string
	if a.Name == "" {
		pr = append(pr, field+".Name is empty")
	}
	if len(a.Labels) == 0 {
		pr = append(pr, field+".Labels is empty")
	}
	if a.Values != nil {
		if len(a.Values) != len(a.Labels) {
			pr = append(pr, fmt.Sprintf("%s.Values has %d values for %d labels", field, len(a.Values), len(a.Labels)))
		}
		for i, v := range a.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				pr = append(pr, fmt.Sprintf("%s.Values[%d] is %v, want a finite number", field, i, v))
				break
			}
		}
	}
	return pr
}

func checkDigits(d int) []string {
	if d < 0 || d > maxDigits {
		return []string{fmt.Sprintf("Digits is %d, want 0 (default 3) to %d", d, maxDigits)}
	}
	return nil
}

func checkHeatMap(h *HeatMap) []string {
	var pr []string
	if h.Title == "" {
		pr = append(pr, "Title is empty")
	}
	pr = append(pr, checkAxis("X", h.X)...)
	pr = append(pr, checkAxis("Y", h.Y)...)
	if h.ZName == "" {
		pr = append(pr, "ZName is empty")
	}
	if len(h.Z) != len(h.Y.Labels) {
		pr = append(pr, fmt.Sprintf("Z has %d rows, want %d (one per Y label)", len(h.Z), len(h.Y.Labels)))
	}
	badValue := false
	for y, row := range h.Z {
		if len(row) != len(h.X.Labels) {
			pr = append(pr, fmt.Sprintf("Z[%d] has %d values, want %d (one per X label)", y, len(row), len(h.X.Labels)))
		}
		for x, v := range row {
			if math.IsInf(v, 0) && !badValue {
				pr = append(pr, fmt.Sprintf("Z[%d][%d] is %v; use NaN for an infeasible cell", y, x, v))
				badValue = true
			}
		}
	}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"ZMin", h.ZMin}, {"ZMax", h.ZMax}} {
		if b.v != nil && (math.IsNaN(*b.v) || math.IsInf(*b.v, 0)) {
			pr = append(pr, fmt.Sprintf("%s is %v, want a finite number or nil", b.name, *b.v))
		}
	}
	if h.ZMin != nil && h.ZMax != nil && !(*h.ZMin < *h.ZMax) {
		pr = append(pr, fmt.Sprintf("ZMin %v is not below ZMax %v", *h.ZMin, *h.ZMax))
	}
	pr = append(pr, checkHeatIntervals(h)...)
	if h.Links != nil {
		pr = append(pr, checkGridShape("Links", len(h.Links), func(y int) int { return len(h.Links[y]) }, len(h.Y.Labels), len(h.X.Labels))...)
	link:
		for y, row := range h.Links {
			for x, l := range row {
				if p := checkLink(fmt.Sprintf("Links[%d][%d]", y, x), l); p != nil {
					pr = append(pr, p...)
					break link // one bad link is enough to say; a grid has hundreds
				}
			}
		}
	}
	pr = append(pr, checkColumns(heatMapColumns(h))...)
	switch h.Palette {
	case "", Sequential, Diverging:
	default:
		pr = append(pr, fmt.Sprintf("Palette %q is unknown, want %q or %q", h.Palette, Sequential, Diverging))
	}
	return append(pr, checkDigits(h.Digits)...)
}

func checkLineChart(l *LineChart) []string {
	var pr []string
	if l.Title == "" {
		pr = append(pr, "Title is empty")
	}
	pr = append(pr, checkAxis("X", l.X)...)
	if l.YName == "" {
		pr = append(pr, "YName is empty")
	}
	if len(l.Series) == 0 {
		pr = append(pr, "Series is empty")
	}
	names := make(map[string]bool, len(l.Series))
	for i, s := range l.Series {
		field := fmt.Sprintf("Series[%d] (%q)", i, s.Name)
		switch {
		case s.Name == "":
			pr = append(pr, field+": Name is empty")
		case s.Name == l.X.Name:
			pr = append(pr, field+": Name equals X.Name, so the CSV header would repeat it")
		case names[s.Name]:
			pr = append(pr, field+": Name is used by an earlier series")
		}
		names[s.Name] = true
		if len(s.Values) != len(l.X.Labels) {
			pr = append(pr, fmt.Sprintf("%s: Values has %d values, want %d (one per X label)", field, len(s.Values), len(l.X.Labels)))
		}
		for j, v := range s.Values {
			if math.IsInf(v, 0) {
				pr = append(pr, fmt.Sprintf("%s: Values[%d] is %v; use NaN for a gap", field, j, v))
				break
			}
			if l.YLog && v <= 0 {
				pr = append(pr, fmt.Sprintf("%s: Values[%d] is %v, but YLog needs values > 0 (NaN for a gap)", field, j, v))
				break
			}
		}
		pr = append(pr, checkSeriesIntervals(field, s, len(l.X.Labels), l.YLog)...)
		pr = append(pr, checkSeriesLinks(field, s.Links, len(l.X.Labels))...)
	}
	// The names are checked above; with intervals, their columns must not
	// repeat one.
	for _, s := range l.Series {
		if s.Lo != nil {
			pr = append(pr, checkColumns(lineChartColumns(l))...)
			break
		}
	}
	return append(pr, checkDigits(l.Digits)...)
}

func checkBarChart(b *BarChart) []string {
	var pr []string
	if b.Title == "" {
		pr = append(pr, "Title is empty")
	}
	pr = append(pr, checkAxis("X", b.X)...)
	if b.YName == "" {
		pr = append(pr, "YName is empty")
	}
	if len(b.Series) == 0 {
		pr = append(pr, "Series is empty")
	}
	names := make(map[string]bool, len(b.Series))
	for i, s := range b.Series {
		field := fmt.Sprintf("Series[%d] (%q)", i, s.Name)
		switch {
		case s.Name == "":
			pr = append(pr, field+": Name is empty")
		case s.Name == b.X.Name:
			pr = append(pr, field+": Name equals X.Name, so the CSV header would repeat it")
		case names[s.Name]:
			pr = append(pr, field+": Name is used by an earlier series")
		}
		names[s.Name] = true
		if len(s.Values) != len(b.X.Labels) {
			pr = append(pr, fmt.Sprintf("%s: Values has %d values, want %d (one per X label)", field, len(s.Values), len(b.X.Labels)))
		}
		for j, v := range s.Values {
			if math.IsInf(v, 0) {
				pr = append(pr, fmt.Sprintf("%s: Values[%d] is %v; use NaN for no bar", field, j, v))
				break
			}
			// echarts stacks negative values downwards from zero, apart from the positive
			// ones, so a stacked bar would no longer read as a total and its parts.
			if s.Stack != "" && v < 0 {
				pr = append(pr, fmt.Sprintf("%s: Values[%d] is %v, but a stacked series needs values >= 0 (NaN for none)", field, j, v))
				break
			}
		}
		pr = append(pr, checkSeriesLinks(field, s.Links, len(b.X.Labels))...)
	}
	return append(pr, checkDigits(b.Digits)...)
}

func checkTable(t *Table) []string {
	var pr []string
	if t.Title == "" {
		pr = append(pr, "Title is empty")
	}
	if len(t.Header) == 0 {
		pr = append(pr, "Header is empty")
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Header) {
			pr = append(pr, fmt.Sprintf("Rows[%d] has %d cells, want %d (one per Header column)", i, len(r), len(t.Header)))
		}
	}
	if t.RowLinks != nil {
		if len(t.RowLinks) != len(t.Rows) {
			pr = append(pr, fmt.Sprintf("RowLinks has %d links, want %d (one per row, nil for none)", len(t.RowLinks), len(t.Rows)))
		}
		for i, l := range t.RowLinks {
			if p := checkLink(fmt.Sprintf("RowLinks[%d]", i), l); p != nil {
				pr = append(pr, p...)
				break
			}
		}
	}
	return pr
}

// livePrefix starts the IDs of a Live section's charts and tables, and so
// the names of their data files.
const livePrefix = "live-"

// hasLive reports whether p has a Live section.
func hasLive(p Page) bool {
	for _, s := range p.Sections {
		if s.Live {
			return true
		}
	}
	return false
}

// livePage is the file p's Live sections are written to: mmdl.html's is
// mmdl-live.html.
func livePage(p Page) string { return strings.TrimSuffix(p.File, ".html") + "-live.html" }

// checkGridShape checks that a grid shaped as Z (rows Y, columns X) has
// rows rows of cols values.
func checkGridShape(field string, n int, rowLen func(int) int, rows, cols int) []string {
	if n != rows {
		return []string{fmt.Sprintf("%s has %d rows, want %d (shaped as Z: one per Y label)", field, n, rows)}
	}
	for y := range n {
		if m := rowLen(y); m != cols {
			return []string{fmt.Sprintf("%s[%d] has %d values, want %d (shaped as Z: one per X label)", field, y, m, cols)}
		}
	}
	return nil
}

// checkInterval checks one value's interval: both bounds or neither (NaN),
// finite, lo <= hi, and none where the value itself is missing.
func checkInterval(at string, v, lo, hi float64, logScale bool) string {
	switch {
	case math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return fmt.Sprintf("the interval at %s is [%v, %v]; use NaN for a value without an interval", at, lo, hi)
	case math.IsNaN(lo) != math.IsNaN(hi):
		return fmt.Sprintf("the interval at %s is [%v, %v]: give both bounds or neither (NaN)", at, lo, hi)
	case math.IsNaN(lo):
		return ""
	case math.IsNaN(v):
		return fmt.Sprintf("the interval at %s is [%v, %v], but the value there is NaN (missing values have no interval)", at, lo, hi)
	case lo > hi:
		return fmt.Sprintf("the interval at %s is [%v, %v]: Lo is above Hi", at, lo, hi)
	case logScale && lo <= 0:
		return fmt.Sprintf("the interval at %s is [%v, %v], but YLog needs bounds > 0", at, lo, hi)
	}
	return ""
}

func checkHeatIntervals(h *HeatMap) []string {
	var pr []string
	switch {
	case h.Lo == nil && h.Hi == nil:
		if h.Wide != 0 {
			pr = append(pr, fmt.Sprintf("Wide is %v, but Lo and Hi are not set", h.Wide))
		}
		return pr
	case h.Lo == nil || h.Hi == nil:
		return []string{"Lo and Hi go together: set both or neither"}
	}
	if math.IsNaN(h.Wide) || math.IsInf(h.Wide, 0) || h.Wide < 0 {
		pr = append(pr, fmt.Sprintf("Wide is %v, want 0 (the default, ±10 %%) or a positive relative half-width", h.Wide))
	}
	rows, cols := len(h.Y.Labels), len(h.X.Labels)
	lo := checkGridShape("Lo", len(h.Lo), func(y int) int { return len(h.Lo[y]) }, rows, cols)
	hi := checkGridShape("Hi", len(h.Hi), func(y int) int { return len(h.Hi[y]) }, rows, cols)
	pr = append(append(pr, lo...), hi...)
	if lo != nil || hi != nil || len(h.Z) != rows {
		return pr
	}
	for y := range rows {
		if len(h.Z[y]) != cols {
			return pr
		}
		for x := range cols {
			if p := checkInterval(fmt.Sprintf("Lo[%d][%d], Hi[%d][%d]", y, x, y, x), h.Z[y][x], h.Lo[y][x], h.Hi[y][x], false); p != "" {
				return append(pr, p) // one bad cell is enough to say
			}
		}
	}
	return pr
}

func checkSeriesIntervals(field string, s Series, n int, logScale bool) []string {
	switch {
	case s.Lo == nil && s.Hi == nil:
		return nil
	case s.Lo == nil || s.Hi == nil:
		return []string{field + ": Lo and Hi go together: set both or neither"}
	case len(s.Lo) != n || len(s.Hi) != n:
		return []string{fmt.Sprintf("%s: Lo has %d values and Hi %d, want %d each (one per X label, NaN for none)", field, len(s.Lo), len(s.Hi), n)}
	case len(s.Values) != n:
		return nil // said above
	}
	for j := range n {
		if p := checkInterval(fmt.Sprintf("Lo[%d], Hi[%d]", j, j), s.Values[j], s.Lo[j], s.Hi[j], logScale); p != "" {
			return []string{field + ": " + p}
		}
	}
	return nil
}

// checkColumns says which CSV column name repeats, if any: the CSV of a
// chart has one column per axis, series and interval bound.
func checkColumns(cols []string) []string {
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c] {
			return []string{fmt.Sprintf("the CSV would have two columns named %q (the axes' names, the series' names and their %q and %q columns must all differ)", c, loColumn("NAME"), hiColumn("NAME"))}
		}
		seen[c] = true
	}
	return nil
}

// placed is a chart or table of a page, and whether it is in a Live section.
type placed struct {
	it   item
	live bool
}

func checkFindings(pn string, si int, sec Section, ii int, f *Findings, onPage map[string]placed) []error {
	var errs []error
	for i, x := range f.Items {
		where := fmt.Sprintf("report: %s: section %d (%q) findings %d: Items[%d]", pn, si+1, sec.Title, ii+1, i)
		if x.Claim == "" {
			errs = append(errs, fmt.Errorf("%s: Claim is empty", where))
		}
		for j, id := range x.Figures {
			switch t, ok := onPage[id]; {
			case !ok:
				errs = append(errs, fmt.Errorf("%s: Figures[%d] %q is no chart or table of the page", where, j, id))
			case t.live && !sec.Live:
				errs = append(errs, fmt.Errorf("%s: Figures[%d] %q is in a Live section, on a page of its own: a finding that stays the same from run to run cannot rest on it", where, j, id))
			}
		}
		if verdictClass(x.Verdict) == "" {
			errs = append(errs, fmt.Errorf("%s: Verdict %q is unknown, want %q, %q, %q, %q or %q",
				where, x.Verdict, Reproduced, PartlyReproduced, NotReproduced, Inconclusive, NotCheckable))
		}
	}
	return errs
}

// verdictClass is the CSS class of a verdict's badge, "" for an unknown verdict.
func verdictClass(v Verdict) string {
	switch v {
	case Reproduced:
		return "reproduced"
	case PartlyReproduced:
		return "partial"
	case NotReproduced:
		return "not-reproduced"
	case NotCheckable:
		return "not-checkable"
	case Inconclusive:
		return "inconclusive"
	}
	return ""
}

// checkSeriesLinks checks a line or bar series' Links: one per X label
// (nil for none), each a link the site can open.
func checkSeriesLinks(field string, links []*Link, labels int) []string {
	if links == nil {
		return nil
	}
	var pr []string
	if len(links) != labels {
		pr = append(pr, fmt.Sprintf("%s: Links has %d links, want %d (one per X label, nil for none)", field, len(links), labels))
	}
	for j, ln := range links {
		if p := checkLink(fmt.Sprintf("%s: Links[%d]", field, j), ln); p != nil {
			return append(pr, p...) // one bad link is enough to say
		}
	}
	return pr
}
