package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// The README's "paper vs commlab" tables are generated from the findings
// of a full report, never typed in. Every report writes, beside its charts'
// data, one findings file per page (data/findings-PAGE.json); `gen-report
// readme -from DIR` renders them into the README between markers
//
//	<!-- paper-vs-commlab:PAGE ... -->
//	...
//	<!-- /paper-vs-commlab:PAGE -->
//
// What ties a table to the code that must have produced it is the quick
// signature: a hash of the page's findings on the quick grid (claims,
// verdicts, the paper's numbers, ours, evidence; only claim and paper for a
// finding measured live, marked "(live" in its number), which takes
// seconds to recompute. A full report records the signature of the code that wrote it
// (it runs the quick grid too), the readme verb refuses a report whose
// signature is not the current code's, and TestReadmeTables recomputes the
// signatures and fails when a README table carries another: any change to
// a model or a finding that shows on the quick grid makes the table stale
// until `make report` and `gen-report readme` are run again. A change that
// alters only the full grid's numbers (P beyond the quick grid) is not
// caught; the quick grid covers every model and every finding's code path.

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
				out = append(out, findingsRecord{Claim: f.Claim, Verdict: string(f.Verdict), Paper: f.Paper, Ours: f.Ours, Evidence: f.Evidence})
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

// renderTable is the README table of one page's findings: the marker
// lines included, so a block is replaced as a whole.
func renderTable(f findingsFile) string {
	cell := func(s string) string {
		s = strings.ReplaceAll(s, "|", `\|`)
		return strings.Join(strings.Fields(s), " ")
	}
	var t strings.Builder
	t.WriteString("| the paper's finding | the paper | commlab | verdict |\n| --- | --- | --- | --- |\n")
	for _, r := range f.Findings {
		fmt.Fprintf(&t, "| %s | %s | %s | %s |\n", cell(r.Claim), cell(r.Paper), cell(r.Ours), cell(r.Verdict))
	}
	table := t.String()
	mode := "quick"
	if f.Full {
		mode = "full"
	}
	return fmt.Sprintf("<!-- paper-vs-commlab:%s generated by gen-report readme; report=%s; seed=%d; quick-signature=%s; table-sha256=%s; do not edit by hand -->\n%s<!-- /paper-vs-commlab:%s -->",
		f.Page, mode, f.Seed, f.Signature, tableSum(table), table, f.Page)
}

// readmeTable is a parsed README block.
type readmeTable struct {
	page, header, table string
	start, end          int // byte range of the whole block
}

func parseReadme(text string) ([]readmeTable, error) {
	var out []readmeTable
	for _, m := range readmeBlock.FindAllStringSubmatchIndex(text, -1) {
		page, closing := text[m[2]:m[3]], text[m[6]:m[7]]
		if page != closing {
			return nil, fmt.Errorf("README: block paper-vs-commlab:%s is closed by /paper-vs-commlab:%s", page, closing)
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

// runReadme is `gen-report readme`: it rewrites the README's tables from
// a report's findings, after checking the report was written by this code.
func runReadme(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("readme", stderr, "gen-report readme -from DIR [-readme README.md] [-check]")
	from := fs.String("from", filepath.Join("site", "reports"), "the report directory whose data/findings-*.json to use (a full report: make report)")
	readme := fs.String("readme", "README.md", "the README to rewrite between its <!-- paper-vs-commlab:PAGE --> markers")
	check := fs.Bool("check", false, "only check: fail if the README's tables differ from the report's")
	quickOK := fs.Bool("quick-ok", false, "accept a quick report (for trying the verb; the README's tables come from the full report)")
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	files, err := readFindingsDir(*from)
	if err != nil {
		return fmt.Errorf("readme: -from %w", err)
	}
	sigs, err := quickSignatures()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(*readme)
	if err != nil {
		return fmt.Errorf("readme: -readme: %w", err)
	}
	text := string(b)
	blocks, err := parseReadme(text)
	if err != nil {
		return fmt.Errorf("readme: %s: %w", *readme, err)
	}
	var skipped []string
	type replacement struct {
		block readmeTable
		text  string
	}
	var reps []replacement
	for _, f := range files {
		if !f.Full && !*quickOK {
			return fmt.Errorf("readme: %s is a quick report; the README's tables come from the full report (make report), or pass -quick-ok", *from)
		}
		i := slices.IndexFunc(blocks, func(t readmeTable) bool { return t.page == f.Page })
		if i < 0 {
			skipped = append(skipped, f.Page)
			continue
		}
		if sigs[f.Page] != f.Signature {
			return fmt.Errorf("readme: %s was written by other code than this (quick signature %s, this code's %s): regenerate it (make report)", findingsPath(*from, f.Page), f.Signature, sigs[f.Page])
		}
		reps = append(reps, replacement{blocks[i], renderTable(f)})
	}
	// Replace from the last block in the README back, so the offsets of
	// the blocks before it stay valid. (The pages' order in the README is
	// not their file names' order: nbc comes before mmdl.)
	slices.SortFunc(reps, func(a, b replacement) int { return b.block.start - a.block.start })
	for _, r := range reps {
		text = text[:r.block.start] + r.text + text[r.block.end:]
	}
	if *check {
		if text != string(b) {
			return fmt.Errorf("readme: %s's tables differ from %s's findings: run gen-report readme -from %s", *readme, *from, *from)
		}
	} else if text != string(b) {
		if err := cli.WriteFileAtomic(*readme, []byte(text)); err != nil {
			return fmt.Errorf("readme: %w", err)
		}
	}
	for _, p := range slices.Backward(skipped) {
		fmt.Fprintf(stderr, "readme: no table for page %s in %s: add the two lines <!-- paper-vs-commlab:%s --> and <!-- /paper-vs-commlab:%s --> where it belongs and run again\n", p, *readme, p, p)
	}
	_, err = fmt.Fprintf(stdout, "%s: %d tables from %s\n", *readme, len(files)-len(skipped), *from)
	return err
}
