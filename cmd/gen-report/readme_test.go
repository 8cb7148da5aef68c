package main

import (
	"encoding/json"
	"fmt"
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

// TestReadmeTables holds the README's "paper vs commlab" tables to the
// code: each was generated from a full report (its header says so), is
// unedited (its table-sha256 matches), and carries the quick signature of
// the current code, so a change to a model or a finding that shows on the
// quick grid fails here until `make report` and `gen-report readme` run
// again. See readme.go for what the signature does not catch.
func TestReadmeTables(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := parseReadme(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) == 0 {
		t.Fatal("README.md has no <!-- paper-vs-commlab:PAGE --> tables")
	}
	sigs, err := quickSigs()
	if err != nil {
		t.Fatal(err)
	}
	const fix = "make report && go run ./cmd/gen-report readme -from site/reports"
	for _, bl := range blocks {
		if strings.TrimSpace(bl.table) == "" {
			t.Errorf("README table %s is empty: %s", bl.page, fix)
			continue
		}
		if got := headerField(bl.header, "report"); got != "full" {
			t.Errorf("README table %s comes from a %q report, want the full one: %s", bl.page, got, fix)
		}
		if got, want := headerField(bl.header, "table-sha256"), tableSum(bl.table); got != want {
			t.Errorf("README table %s was edited by hand (table-sha256 %s, its text hashes to %s): %s", bl.page, got, want, fix)
		}
		sig, ok := sigs[bl.page]
		if !ok {
			t.Errorf("README table %s: no report page of that name", bl.page)
			continue
		}
		if got := headerField(bl.header, "quick-signature"); got != sig {
			t.Errorf("README table %s is stale: made by code with quick signature %s, this code's is %s: %s", bl.page, got, sig, fix)
		}
	}
}

// TestReadmeVerb runs the verb on a quick report and a README of its own.
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
	for _, f := range files {
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
	readme := filepath.Join(tmp, "README.md")
	const before, after = "# x\n\nintro\n\n", "\n\nrest | with a bar\n"
	if err := os.WriteFile(readme, []byte(before+"<!-- paper-vs-commlab:allreduce -->\n<!-- /paper-vs-commlab:allreduce -->"+after), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"readme", "-from", dir, "-readme", readme}
	if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "quick report") {
		t.Fatalf("a quick report without -quick-ok: got %v", err)
	}
	args = append(args, "-quick-ok")
	_, stderr, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "no table for page nbc") {
		t.Errorf("pages without a marker are not named: stderr %q", stderr)
	}
	b, _ := os.ReadFile(readme)
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
	// Idempotent, and -check agrees; a hand edit fails -check.
	if _, _, err := runCmd(t, args...); err != nil {
		t.Fatal(err)
	}
	if b2, _ := os.ReadFile(readme); string(b2) != text {
		t.Error("a second run changed the README")
	}
	if _, _, err := runCmd(t, append(args, "-check")...); err != nil {
		t.Errorf("-check on a fresh README: %v", err)
	}
	// Every page's block, in the README's order (not the file names'),
	// with text between them: each block is replaced in place and the
	// text between them is kept (a verb that replaced in file-name order
	// wrote the mmdl table inside the word before it).
	pages := []string{"allreduce", "logp", "nbc", "mmdl", "overlay"}
	var all strings.Builder
	for i, p := range pages {
		fmt.Fprintf(&all, "text %d before %s\n<!-- paper-vs-commlab:%s -->\n<!-- /paper-vs-commlab:%s -->\n", i, p, p, p)
	}
	all.WriteString("the end\n")
	readme5 := filepath.Join(tmp, "README5.md")
	os.WriteFile(readme5, []byte(all.String()), 0o644)
	if _, _, err := runCmd(t, "readme", "-from", dir, "-readme", readme5, "-quick-ok"); err != nil {
		t.Fatal(err)
	}
	b5, _ := os.ReadFile(readme5)
	blocks5, err := parseReadme(string(b5))
	if err != nil || len(blocks5) != len(pages) {
		t.Fatalf("five pages: %d blocks, %v", len(blocks5), err)
	}
	for i, bl := range blocks5 {
		if bl.page != pages[i] || strings.TrimSpace(bl.table) == "" {
			t.Errorf("block %d: page %s, %d bytes of table; want page %s with a table", i, bl.page, len(bl.table), pages[i])
		}
		if want := fmt.Sprintf("text %d before %s\n<!-- paper-vs-commlab:%s ", i, pages[i], pages[i]); !strings.Contains(string(b5), want) {
			t.Errorf("the text before %s's block is no longer right before it", pages[i])
		}
	}
	if !strings.HasSuffix(string(b5), "<!-- /paper-vs-commlab:overlay -->\nthe end\n") {
		t.Errorf("the text after the last block changed")
	}
	edited := strings.Replace(text, string(ar.Findings[0].Verdict), "reproduced!", 1)
	os.WriteFile(readme, []byte(edited), 0o644)
	if _, _, err := runCmd(t, append(args, "-check")...); err == nil || !strings.Contains(err.Error(), "differ") {
		t.Errorf("-check on an edited README: %v", err)
	}
	// A report written by other code is refused.
	ar.Signature = "0000000000000000"
	bj, _ := json.Marshal(ar)
	os.WriteFile(findingsPath(dir, "allreduce"), bj, 0o644)
	if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "other code") {
		t.Errorf("a stale report: %v", err)
	}
}
