package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/report"
)

// The "paper vs commlab" tables of the per-paper pages docs/PAGE.md are
// generated from the findings of a full report, never typed in. Every
// report writes, beside its charts' data, one findings file per page
// (data/findings-PAGE.json); `gen-report readme -from DIR` renders each
// into docs/PAGE.md (PAGE is the report page's file name without .html)
// between markers
//
//	<!-- paper-vs-commlab:PAGE ... -->
//	...
//	<!-- /paper-vs-commlab:PAGE -->
//
// (the verb is still called readme: the tables were the README's until
// issue 23 made it a front door). What ties a table to the code that must
// have produced it is the quick signature: a hash of the page's findings on
// the quick grid (claims, verdicts, the paper's numbers, ours, tolerances,
// evidence), which takes seconds to recompute. A full report records the
// signature of the code that wrote it (it runs the quick grid too), the
// readme verb refuses a report whose signature is not the current code's,
// and TestReadmeTables recomputes the signatures and fails when a table
// carries another: any change to a model or a finding that shows on the
// quick grid makes the table stale until `make report` and `make readme`
// are run again. A change that alters only the full grid's numbers (P
// beyond the quick grid) is not caught; the quick grid covers every model
// and every finding's code path.

// findingsFile is data/findings-PAGE.json.
type findingsFile struct {
	Page      string           `json:"page"`  // the page's file name without .html
	Title     string           `json:"title"` // the page's title
	Full      bool             `json:"full"`  // written by a full report (not -quick)
	Seed      uint64           `json:"seed"`
	Signature string           `json:"quick_signature"` // see above
	Findings  []findingsRecord `json:"findings"`
}

type findingsRecord struct {
	Claim    string `json:"claim"`
	Verdict  string `json:"verdict"`
	Paper    string `json:"paper,omitempty"`
	Ours     string `json:"ours,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// Tolerance is the range the paper's words allow for its number, with
	// the words (report.Finding.Tolerance): what the verdict compares ours
	// against.
	Tolerance string `json:"tolerance,omitempty"`
}

// pageFindings returns every finding a page shows outside its Live
// sections, in page order.
func pageFindings(p report.Page) []findingsRecord {
	var out []findingsRecord
	for _, sec := range p.Sections {
		if sec.Live {
			continue
		}
		for _, it := range sec.Items {
			var fs report.Findings
			switch v := it.(type) {
			case report.Findings:
				fs = v
			case *report.Findings:
				fs = *v
			default:
				continue
			}
			for _, f := range fs.Items {
				out = append(out, findingsRecord{Claim: f.Claim, Verdict: string(f.Verdict), Paper: f.Paper, Ours: f.Ours, Evidence: f.Evidence, Tolerance: f.Tolerance})
			}
		}
	}
	return out
}

func pageName(p report.Page) string { return strings.TrimSuffix(p.File, ".html") }

// signature hashes a page's findings (16 hex digits of SHA-256 over their
// JSON).
func signature(fs []findingsRecord) string {
	b, err := json.Marshal(fs)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// findingsPath is where a report keeps a page's findings.
func findingsPath(dir, page string) string {
	return filepath.Join(dir, "data", "findings-"+page+".json")
}

// writeFindings writes data/findings-PAGE.json for every page with
// findings into the report directory out. A quick report signs its own
// findings; a full one runs the quick grid (seconds) to sign with.
func writeFindings(out string, full bool, seed uint64, pages []report.Page) error {
	var quick map[string]string
	if full {
		var err error
		if quick, err = quickSignatures(); err != nil {
			return err
		}
	}
	for _, p := range pages {
		fs := pageFindings(p)
		if len(fs) == 0 {
			continue
		}
		ff := findingsFile{Page: pageName(p), Title: p.Title, Full: full, Seed: seed, Findings: fs}
		ff.Signature = signature(fs)
		if full {
			ff.Signature = quick[ff.Page]
		}
		b, err := json.MarshalIndent(ff, "", "  ")
		if err != nil {
			return err
		}
		if err := cli.WriteFileAtomic(findingsPath(out, ff.Page), append(b, '\n')); err != nil {
			return fmt.Errorf("gen-report: %w", err)
		}
	}
	return nil
}

// quickSignatures runs the quick report (default seed and trials) into a
// temporary directory and returns each page's signature.
func quickSignatures() (map[string]string, error) {
	tmp, err := os.MkdirTemp("", "gen-report-quick-*")
	if err != nil {
		return nil, fmt.Errorf("gen-report: quick signatures: %w", err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "reports")
	if err := runReport(io.Discard, io.Discard, []string{"-quick", "-out", dir}); err != nil {
		return nil, fmt.Errorf("gen-report: quick signatures: %w", err)
	}
	files, err := readFindingsDir(dir)
	if err != nil {
		return nil, err
	}
	sig := map[string]string{}
	for _, f := range files {
		sig[f.Page] = f.Signature
	}
	return sig, nil
}

// readFindingsDir reads every data/findings-*.json of a report directory,
// in page-name order.
func readFindingsDir(dir string) ([]findingsFile, error) {
	names, err := filepath.Glob(filepath.Join(dir, "data", "findings-*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no data/findings-*.json: not a report written by this gen-report", dir)
	}
	slices.Sort(names)
	var out []findingsFile
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var f findingsFile
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil || f.Page == "" {
			if err == nil {
				err = fmt.Errorf("no page name")
			}
			return nil, fmt.Errorf("%s: not a findings file: %w", n, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// readmeBlock matches one generated table: its opening marker (with the
// page name and the line of provenance), the table, the closing marker.
var readmeBlock = regexp.MustCompile(`(?s)<!-- paper-vs-commlab:([a-z0-9_-]+)(?: [^\n]*?)? -->\n(.*?)<!-- /paper-vs-commlab:([a-z0-9_-]+) -->`)

// tableHeader is the generated tables' first two lines. "commlab" is the
// finding's Ours: our number with its 95 % interval where it comes from
// Monte Carlo trials (a deterministic model's number has none).
const tableHeader = "| the paper's finding | the paper | commlab | tolerance (from the paper's words) | verdict |\n| --- | --- | --- | --- | --- |\n"

// renderTable is the table of one page's findings: the marker lines
// included, so a block is replaced as a whole.
func renderTable(f findingsFile) string {
	cell := func(s string) string {
		s = strings.ReplaceAll(s, "|", `\|`)
		if s = strings.Join(strings.Fields(s), " "); s == "" {
			return "—"
		}
		return s
	}
	var t strings.Builder
	t.WriteString(tableHeader)
	for _, r := range f.Findings {
		fmt.Fprintf(&t, "| %s | %s | %s | %s | %s |\n", cell(r.Claim), cell(r.Paper), cell(r.Ours), cell(r.Tolerance), cell(r.Verdict))
	}
	table := t.String()
	mode := "quick"
	if f.Full {
		mode = "full"
	}
	return fmt.Sprintf("<!-- paper-vs-commlab:%s generated by gen-report readme; report=%s; seed=%d; quick-signature=%s; table-sha256=%s; do not edit by hand -->\n%s<!-- /paper-vs-commlab:%s -->",
		f.Page, mode, f.Seed, f.Signature, tableSum(table), table, f.Page)
}

// readmeTable is a parsed block.
type readmeTable struct {
	page, header, table string
	start, end          int // byte range of the whole block
}

// parseReadme returns the generated blocks of a Markdown text.
func parseReadme(text string) ([]readmeTable, error) {
	var out []readmeTable
	for _, m := range readmeBlock.FindAllStringSubmatchIndex(text, -1) {
		page, closing := text[m[2]:m[3]], text[m[6]:m[7]]
		if page != closing {
			return nil, fmt.Errorf("block paper-vs-commlab:%s is closed by /paper-vs-commlab:%s", page, closing)
		}
		header := text[m[0] : strings.IndexByte(text[m[0]:], '\n')+m[0]]
		out = append(out, readmeTable{page: page, header: header, table: text[m[4]:m[5]], start: m[0], end: m[1]})
	}
	return out, nil
}

// headerField returns the value of "; name=value;" in a block's opening
// line, or "".
func headerField(header, name string) string {
	_, rest, ok := strings.Cut(header, "; "+name+"=")
	if !ok {
		return ""
	}
	w, _, _ := strings.Cut(rest, ";")
	return strings.TrimSpace(w)
}

// tableSum is the table-sha256 of a rendered table.
func tableSum(table string) string {
	sum := sha256.Sum256([]byte(table))
	return hex.EncodeToString(sum[:8])
}

// pageDoc is the per-paper page that holds a report page's table.
func pageDoc(docs, page string) string { return filepath.Join(docs, page+".md") }

// pageBlock returns the one block of a per-paper page's text, which must
// be its own page's: nil when the page has no markers.
func pageBlock(path, page, text string) (*readmeTable, error) {
	blocks, err := parseReadme(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var own *readmeTable
	for i, b := range blocks {
		if b.page != page {
			return nil, fmt.Errorf("%s holds the table of page %s, which belongs in %s", path, b.page, pageDoc(filepath.Dir(path), b.page))
		}
		if own != nil {
			return nil, fmt.Errorf("%s holds the table of page %s twice", path, page)
		}
		own = &blocks[i]
	}
	return own, nil
}

// runReadme is `gen-report readme`: it rewrites the per-paper pages'
// tables from a report's findings, after checking the report was written
// by this code.
func runReadme(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("readme", stderr, "gen-report readme -from DIR [-docs DIR] [-check]")
	from := fs.String("from", filepath.Join("site", "reports"), "the report directory whose data/findings-*.json to use (a full report: make report)")
	docs := fs.String("docs", "docs", "the directory of the per-paper pages: page PAGE's table goes into DIR/PAGE.md between its <!-- paper-vs-commlab:PAGE --> markers")
	check := fs.Bool("check", false, "only check: fail if a page's table differs from the report's, or a page lacks its markers")
	quickOK := fs.Bool("quick-ok", false, "accept a quick report (for trying the verb; the committed tables come from the full report)")
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	files, err := readFindingsDir(*from)
	if err != nil {
		return fmt.Errorf("readme: -from %w", err)
	}
	for _, f := range files {
		if !f.Full && !*quickOK {
			return fmt.Errorf("readme: %s is a quick report; the tables come from the full report (make report), or pass -quick-ok", *from)
		}
	}
	sigs, err := quickSignatures()
	if err != nil {
		return err
	}
	// Every page is read and checked before any is written, so a refused
	// report or a broken page leaves every page as it was.
	type update struct{ path, text string }
	var updates []update
	var missing []string
	for _, f := range files {
		if sigs[f.Page] != f.Signature {
			return fmt.Errorf("readme: %s was written by other code than this (quick signature %s, this code's %s): regenerate it (make report)", findingsPath(*from, f.Page), f.Signature, sigs[f.Page])
		}
		path := pageDoc(*docs, f.Page)
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			missing = append(missing, f.Page)
			continue
		}
		if err != nil {
			return fmt.Errorf("readme: %w", err)
		}
		text := string(b)
		bl, err := pageBlock(path, f.Page, text)
		if err != nil {
			return fmt.Errorf("readme: %w", err)
		}
		if bl == nil {
			missing = append(missing, f.Page)
			continue
		}
		if next := text[:bl.start] + renderTable(f) + text[bl.end:]; next != text {
			updates = append(updates, update{path, next})
		}
	}
	for _, p := range missing {
		fmt.Fprintf(stderr, "readme: no table for page %s: add the two lines <!-- paper-vs-commlab:%s --> and <!-- /paper-vs-commlab:%s --> to %s where it belongs and run again\n", p, p, p, pageDoc(*docs, p))
	}
	if *check {
		var paths []string
		for _, u := range updates {
			paths = append(paths, u.path)
		}
		if len(paths) > 0 {
			return fmt.Errorf("readme: the tables of %s differ from %s's findings: run gen-report readme -from %s", strings.Join(paths, ", "), *from, *from)
		}
		if len(missing) > 0 {
			return fmt.Errorf("readme: %d pages have no table (above)", len(missing))
		}
		_, err = fmt.Fprintf(stdout, "%s: %d tables as %s's findings\n", *docs, len(files), *from)
		return err
	}
	for _, u := range updates {
		if err := cli.WriteFileAtomic(u.path, []byte(u.text)); err != nil {
			return fmt.Errorf("readme: %w", err)
		}
	}
	_, err = fmt.Fprintf(stdout, "%s: %d tables from %s, %d rewritten\n", *docs, len(files)-len(missing), *from, len(updates))
	return err
}
