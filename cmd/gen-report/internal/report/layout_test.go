package report

import (
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"commlab/internal/outfile"
)

// TestWordsHTML checks that a cell breaks only at its spaces: a word a
// browser could break at a hyphen or a bracket is kept whole in a span.nw,
// and the text is escaped.
func TestWordsHTML(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"simulated speedup", "simulated speedup"},
		{"NBCF-ovlp-test", `<span class="nw">NBCF-ovlp-test</span>`},
		{"E[T](L_s*) − T_s(μ)", `<span class="nw">E[T](L_s*)</span> <span class="nw">−</span> <span class="nw">T_s(μ)</span>`},
		{"a <b> & c", `a <span class="nw">&lt;b&gt;</span> <span class="nw">&amp;</span> c`},
	} {
		if got := string(wordsHTML(tc.in)); got != tc.want {
			t.Errorf("wordsHTML(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestProseColumnGoesUnderItsRow checks that a column of sentences is drawn
// as a line under each row, not as a column, and that the others stay.
func TestProseColumnGoesUnderItsRow(t *testing.T) {
	why := strings.Repeat("because of a reason that takes many words to say, ", 4)
	tab := &Table{ID: "t", Title: "T", Header: []string{"case", "speedup", "why"},
		Rows: [][]string{{"NBCF-ovlp", "1.2", why}, {"TCC", "1.3", ""}}}
	v, _, _, err := buildItem(item{table: tab}, DefaultSiteBase)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Header) != 2 {
		t.Fatalf("header %q: want the two short columns", v.Header)
	}
	if len(v.Rows[0].Cells) != 2 || len(v.Rows[0].Notes) != 1 || v.Rows[0].Notes[0].Label != "why" || string(v.Rows[0].Notes[0].Text) != template.HTMLEscapeString(why) {
		t.Errorf("row 0 = %+v, want two cells and the why as a note", v.Rows[0])
	}
	if len(v.Rows[1].Notes) != 0 {
		t.Errorf("row 1 has notes %+v for an empty why", v.Rows[1].Notes)
	}
	if c := v.Rows[0].Cells[1].Class; c != "num" {
		t.Errorf("1.2 has class %q, want num", c)
	}
	files, err := buildPage(Index{}, Page{File: "p.html", Title: "P", Sections: []Section{{Items: []any{tab}}}})
	if err != nil {
		t.Fatal(err)
	}
	html := files[0].data
	if !strings.Contains(string(html), `<tr class="note"><td colspan="2"><span class="note-label">why:</span> because`) {
		t.Errorf("the page has no note row spanning the table:\n%s", html)
	}
}

// TestEditionOnEveryPage checks that a report says which edition it is on
// every page (meta and note) and in its marker file, and that every page
// links the site's favicon.
func TestEditionOnEveryPage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	idx := Index{Title: "R", Edition: "quick", Note: "This is the quick report."}
	tab := &Table{ID: "t", Title: "T", Header: []string{"a"}, Rows: [][]string{{"1"}}}
	if err := Write(dir, idx, Page{File: "p.html", Title: "P", Sections: []Section{{Items: []any{tab}}}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "p.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`<meta name="commlab-report-edition" content="quick">`, `<div class="edition"><p>This is the quick report.</p></div>`, `<link rel="icon" href="../favicon.ico">`, "<!--commlab:status-->"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	m, err := os.ReadFile(filepath.Join(dir, Marker))
	if err != nil || !strings.Contains(string(m), "\nedition: quick\n") {
		t.Errorf("marker %q (%v) does not say edition: quick", m, err)
	}
}

// TestWriteRemovesStaleTemporaries checks that what a killed run left
// beside the report (.r.new-*, .r.old-*) goes once it is stale, and that a
// fresh one (a run in progress) stays.
func TestWriteRemovesStaleTemporaries(t *testing.T) {
	parent := t.TempDir()
	stale, fresh := filepath.Join(parent, ".r.new-123"), filepath.Join(parent, ".r.old-456")
	for _, d := range []string{stale, fresh} {
		if err := os.MkdirAll(filepath.Join(d, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * outfile.StaleAfter)
	os.Chtimes(stale, old, old)
	tab := &Table{ID: "t", Title: "T", Header: []string{"a"}, Rows: [][]string{{"1"}}}
	for range 2 { // the second write replaces the first
		if err := Write(filepath.Join(parent, "r"), Index{}, Page{File: "p.html", Title: "P", Sections: []Section{{Items: []any{tab}}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary report was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temporary directory (a run in progress) was removed")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside the report: %q; want r and the fresh one only", names)
	}
}
