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

	// Every chart and table writes data/<ID>.*, so IDs are unique across all pages.
	ids := make(map[string]string)
	for i, p := range pages {
		pn := pageName(i, p)
		for si, sec := range p.Sections {
			for ii, raw := range sec.Items {
				it, ok := normalize(raw)
				if !ok {
					add("%s: section %d (%q) item %d: unsupported type %T (want *HeatMap, *LineChart, *BarChart, *Gantt, *Table or Findings)",
						pn, si+1, sec.Title, ii+1, raw)
					continue
				}
				if it.findings != nil {
					errs = append(errs, checkFindings(pn, si, sec, ii, it.findings)...)
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
	return pr
}

func checkFindings(pn string, si int, sec Section, ii int, f *Findings) []error {
	var errs []error
	for i, x := range f.Items {
		where := fmt.Sprintf("report: %s: section %d (%q) findings %d: Items[%d]", pn, si+1, sec.Title, ii+1, i)
		if x.Claim == "" {
			errs = append(errs, fmt.Errorf("%s: Claim is empty", where))
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
