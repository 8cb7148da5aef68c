package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// quickSigs runs the quick grid once for the tests that need its
// signatures.
var quickSigs = sync.OnceValues(quickSignatures)

// tableClaims returns the first column of a rendered table's rows.
func tableClaims(table string) []string {
	var out []string
	for i, line := range strings.Split(strings.TrimSpace(table), "\n") {
		if i < 2 || line == "" { // the header and the rule
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		out = append(out, strings.ReplaceAll(cells[0], `\|`, "|"))
	}
	return out
}

// TestReadmeTables holds the per-paper pages' "paper vs commlab" tables
// to the code: every report page with findings has its table in
// docs/PAGE.md (and nowhere else: not in README.md), generated from a full
// report (its header says so), unedited (its table-sha256 matches), and
// carrying the quick signature of the current code, so a change to a model
// or a finding that shows on the quick grid fails here until `make report`
// and `make readme` run again. See readme.go for what the signature does
// not catch.
func TestReadmeTables(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if blocks, err := parseReadme(string(readme)); err != nil || len(blocks) > 0 {
		t.Errorf("README.md holds %d paper-vs-commlab tables (%v): they belong in docs/PAGE.md", len(blocks), err)
	}
	all, err := quickSigs()
	if err != nil {
		t.Fatal(err)
	}
	sigs := maps.Clone(all) // each page's is deleted once seen
	if len(sigs) == 0 {
		t.Fatal("the quick report wrote no findings files")
	}
	const fix = "make report && make readme"
	docs := filepath.Join(root, "docs")
	names, err := filepath.Glob(filepath.Join(docs, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		page := strings.TrimSuffix(filepath.Base(name), ".md")
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		bl, err := pageBlock(name, page, string(b))
		if err != nil {
			t.Error(err)
			continue
		}
		sig, ok := sigs[page]
		if !ok {
			if bl != nil {
				t.Errorf("%s: a table for page %s, which the report does not have", name, page)
			}
			continue
		}
		delete(sigs, page)
		if bl == nil {
			t.Errorf("%s has no paper-vs-commlab table: add the two lines <!-- paper-vs-commlab:%s --> and <!-- /paper-vs-commlab:%s -->, then %s", name, page, page, fix)
			continue
		}
		if strings.TrimSpace(bl.table) == "" {
			t.Errorf("%s: the table is empty: %s", name, fix)
			continue
		}
		if got := headerField(bl.header, "report"); got != "full" {
			t.Errorf("%s: the table comes from a %q report, want the full one: %s", name, got, fix)
		}
		if got, want := headerField(bl.header, "table-sha256"), tableSum(bl.table); got != want {
			t.Errorf("%s: the table was edited by hand (table-sha256 %s, its text hashes to %s): %s", name, got, want, fix)
		}
		if got := headerField(bl.header, "quick-signature"); got != sig {
			t.Errorf("%s: the table is stale: made by code with quick signature %s, this code's is %s: %s", name, got, sig, fix)
		}
	}
	for page := range sigs {
		t.Errorf("report page %s has findings but no docs/%s.md to hold its table", page, page)
	}
}

// TestReadmeVerb runs the verb on a quick report and per-paper pages of
// its own.
func TestReadmeVerb(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "reports")
	if _, _, err := runCmd(t, "-quick", "-out", dir); err != nil {
		t.Fatal(err)
	}
	files, err := readFindingsDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ar findingsFile
	var pages []string
	for _, f := range files {
		pages = append(pages, f.Page)
		if f.Page == "allreduce" {
			ar = f
		}
	}
	if len(ar.Findings) < 8 || ar.Full || ar.Signature == "" {
		t.Fatalf("allreduce findings file: %d findings, full %t, signature %q", len(ar.Findings), ar.Full, ar.Signature)
	}
	for _, f := range ar.Findings {
		if f.Paper == "" || f.Ours == "" {
			t.Errorf("finding %q lacks the paper's number or ours", f.Claim)
		}
	}
	docs := filepath.Join(tmp, "docs")
	os.Mkdir(docs, 0o755)
	page := filepath.Join(docs, "allreduce.md")
	const before, after = "# x\n\nintro\n\n", "\n\nrest | with a bar\n"
	if err := os.WriteFile(page, []byte(before+"<!-- paper-vs-commlab:allreduce -->\n<!-- /paper-vs-commlab:allreduce -->"+after), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"readme", "-from", dir, "-docs", docs}
	if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "quick report") {
		t.Fatalf("a quick report without -quick-ok: got %v", err)
	}
	args = append(args, "-quick-ok")
	_, stderr, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "no table for page nbc") || !strings.Contains(stderr, filepath.Join(docs, "nbc.md")) {
		t.Errorf("pages without a marker are not named with their file: stderr %q", stderr)
	}
	if _, _, err := runCmd(t, append(args, "-check")...); err == nil || !strings.Contains(err.Error(), "no table") {
		t.Errorf("-check with pages lacking their table: %v", err)
	}
	b, _ := os.ReadFile(page)
	text := string(b)
	if !strings.HasPrefix(text, before) || !strings.HasSuffix(text, after) {
		t.Errorf("text outside the markers changed:\n%s", text)
	}
	blocks, err := parseReadme(text)
	if err != nil || len(blocks) != 1 {
		t.Fatalf("%d blocks, %v", len(blocks), err)
	}
	bl := blocks[0]
	if headerField(bl.header, "quick-signature") != ar.Signature || headerField(bl.header, "report") != "quick" || headerField(bl.header, "table-sha256") != tableSum(bl.table) {
		t.Errorf("header %q", bl.header)
	}
	claims := tableClaims(bl.table)
	if len(claims) != len(ar.Findings) {
		t.Fatalf("%d rows, %d findings", len(claims), len(ar.Findings))
	}
	for i, c := range claims {
		if want := strings.Join(strings.Fields(ar.Findings[i].Claim), " "); c != want {
			t.Errorf("row %d: %q, want %q", i, c, want)
		}
	}
	// Every finding's tolerance is in its row.
	for _, f := range ar.Findings {
		if f.Tolerance != "" && !strings.Contains(bl.table, strings.ReplaceAll(strings.Join(strings.Fields(f.Tolerance), " "), "|", `\|`)) {
			t.Errorf("the tolerance %q is not in the table", f.Tolerance)
		}
	}

	// Every page's file, each with text around its block: each block is
	// replaced in place and the text around it is kept; then -check agrees
	// and a second run changes nothing.
	for i, p := range pages {
		os.WriteFile(filepath.Join(docs, p+".md"), []byte(fmt.Sprintf("text %d before %s\n<!-- paper-vs-commlab:%s -->\n<!-- /paper-vs-commlab:%s -->\nthe end\n", i, p, p, p)), 0o644)
	}
	if _, _, err := runCmd(t, args...); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for i, p := range pages {
		b, _ := os.ReadFile(filepath.Join(docs, p+".md"))
		texts[p] = string(b)
		bl, err := pageBlock(p+".md", p, string(b))
		if err != nil || bl == nil || strings.TrimSpace(bl.table) == "" {
			t.Errorf("%s: block %v, %v", p, bl, err)
		}
		if want := fmt.Sprintf("text %d before %s\n<!-- paper-vs-commlab:%s ", i, p, p); !strings.HasPrefix(string(b), want) || !strings.HasSuffix(string(b), "<!-- /paper-vs-commlab:"+p+" -->\nthe end\n") {
			t.Errorf("%s: the text around the block changed:\n%s", p, b)
		}
	}
	if _, _, err := runCmd(t, append(args, "-check")...); err != nil {
		t.Errorf("-check on fresh pages: %v", err)
	}
	if _, _, err := runCmd(t, args...); err != nil {
		t.Fatal(err)
	}
	for p, text := range texts {
		if b, _ := os.ReadFile(filepath.Join(docs, p+".md")); string(b) != text {
			t.Errorf("a second run changed %s.md", p)
		}
	}

	// A hand edit fails -check, naming the page.
	text = texts["allreduce"]
	edited := strings.Replace(text, string(ar.Findings[0].Verdict)+" |", "reproduced! |", 1)
	os.WriteFile(page, []byte(edited), 0o644)
	if _, _, err := runCmd(t, append(args, "-check")...); err == nil || !strings.Contains(err.Error(), "differ") || !strings.Contains(err.Error(), "allreduce.md") {
		t.Errorf("-check on an edited page: %v", err)
	}
	// A page holding another page's table is refused, and nothing is written.
	os.WriteFile(page, []byte(text+"\n<!-- paper-vs-commlab:nbc -->\n<!-- /paper-vs-commlab:nbc -->\n"), 0o644)
	if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "belongs in") {
		t.Errorf("a page with another page's table: %v", err)
	}
	os.WriteFile(page, []byte(edited), 0o644)
	// A report written by other code is refused, and nothing is written.
	ar.Signature = "0000000000000000"
	bj, _ := json.Marshal(ar)
	os.WriteFile(findingsPath(dir, "allreduce"), bj, 0o644)
	if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "other code") {
		t.Errorf("a stale report: %v", err)
	}
	if b, _ := os.ReadFile(page); string(b) != edited {
		t.Error("a refused report rewrote a page")
	}
}
