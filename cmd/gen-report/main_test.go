package main

import (
	"bytes"
	"commlab/cmd/gen-report/internal/clitest"
	"commlab/cmd/gen-report/internal/study/mmdl"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args string
		want string // the message names the flag and the allowed range
	}{
		{"eval allreduce -P 3", "-P = 3 is out of range: want a power of two in [2, 16777216]"},
		{"eval allreduce -P 0", "-P = 0"},
		{"eval allreduce -alpha 0", "-alpha = 0 is out of range: want a number in (0, 1]"},
		{"eval allreduce -alpha -1e-6", "-alpha"},
		{"eval allreduce -period 0", "-period = 0"},
		{"eval allreduce -duration -1", "-duration = -1 is out of range"},
		{"eval allreduce -duration 0.5", "want a number in (0, period=0.001)"},
		{"eval allreduce -T 13", "-T = 13 is out of range: want an integer in [0, K=12]"},
		{"eval allreduce -trials 0", "-trials = 0 is out of range: want an integer in [1, 1000000]"},
		{"eval allreduce -bogus", "flag provided but not defined: -bogus"},
		{"eval allreduce -P x", `invalid value "x" for flag -P`},
		{"eval allreduce extra", `unexpected argument "extra"`},
		{"eval nosuchmodel", `unknown model "nosuchmodel"`},
		{"eval", "name a model"},
		{"-shard 0/3", "shard 0/3: want i/n"},
		{"-shard x", `shard "x": want i/n`},
		{"-trials -1", "-trials = -1 is out of range"},
		{"-quick -out /proc/commlab-cannot-be-here/reports", "-out /proc/commlab-cannot-be-here/reports"},
		{"-quick -shard 1/2 -out /proc/commlab-cannot-be-here", "-out /proc/commlab-cannot-be-here"},
		{"merge", "name the shard files"},
		{"merge testdata/quick/index.html.golden", "not a part file"},
		{"-trials 0", "-trials = 0 is out of range"},
		{"-shard 0/0", "shard 0/0: want i/n"},
		{"-shard 1/0", "shard 1/0: want i/n"},
		{"merge /nonexistent.json", "no such file"},
		{"merge -out /tmp/commlab-merge-zero /dev/zero", "/dev/zero holds more than 268 MB, the limit for reading an input"},
		{"-site-base x", `-site-base: site base "x" does not end in "/"`},
		{"-quick -site-base ftp://example.org/", `site base "ftp://example.org/" has the scheme "ftp"`},
		{"-quick -site-base https://example.org", `does not end in "/": want an absolute http(s) URL ending in "/"`},
		{"merge -site-base /site/ part.json", `-site-base: site base "/site/" starts with "/"`},
		{"-quick -shard 1/2 -site-base ../", "-site-base has no effect with -shard (a part holds no page): give it to merge"},
	} {
		t.Run(tc.args, func(t *testing.T) { checkBadInput(t, tc.args, tc.want) })
	}
}

// TestQuickReportGolden pins the quick report byte for byte (the vendored
// assets are the report package's business) and checks it is offline.
func TestQuickReportGolden(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "reports")
	if _, _, err := runCmd(t, "-quick", "-out", dir); err != nil {
		t.Fatal(err)
	}
	files := clitest.ReadTree(t, dir)
	for _, want := range []string{"index.html", "allreduce.html", "assets/echarts.min.js", "data/fig05.csv", "data/fig21.json"} {
		if files[want] == nil {
			t.Errorf("report lacks %s", want)
		}
	}
	pinned := func(name string) bool {
		// The findings files repeat the pages' findings, which the HTML
		// goldens pin (readme_test.go checks the files).
		return !strings.HasPrefix(name, "assets/") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "data/findings-")
	}
	for name, b := range files {
		if pinned(name) {
			golden(t, filepath.Join("quick", name+".golden"), b)
		}
	}
	// A golden whose file is no longer written is stale: -update does not
	// remove it, so say so.
	if !*clitest.Update {
		err := filepath.WalkDir(filepath.Join("testdata", "quick"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join("testdata", "quick"), p)
			if name := strings.TrimSuffix(filepath.ToSlash(rel), ".golden"); files[name] == nil {
				t.Errorf("%s is not written any more: remove its golden %s", name, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Nothing a page loads may come from the network: scripts, styles,
	// images, fonts, frames. A cited source's address in the text (the
	// overlay page cites a mailing-list post for its select() cost) loads
	// nothing.
	for name, b := range files {
		if m := networkLoad.Find(b); strings.HasSuffix(name, ".html") && m != nil {
			t.Errorf("%s loads from the network: %s", name, m)
		}
	}
}

// networkLoad matches what would make a page load from the network: a
// src, a <link>'s href, a CSS url() or an @import of an http(s) address.
var networkLoad = regexp.MustCompile(`(?i)(\bsrc\s*=\s*["']?|<link\b[^>]*\bhref\s*=\s*["']?|url\(\s*["']?|@import\s+["']?)(https?:)?//`)

// TestShardMerge: four shards merged give the same report as one run, and
// the result does not depend on the number of cores.
func TestShardMerge(t *testing.T) {
	tmp := t.TempDir()
	whole := filepath.Join(tmp, "whole")
	if _, _, err := runCmd(t, "-quick", "-trials", "3", "-out", whole); err != nil {
		t.Fatal(err)
	}
	names := shardedQuick(t) // on one core: a different worker count than the whole run
	merged := filepath.Join(tmp, "merged")
	if _, _, err := runCmd(t, append([]string{"merge", "-out", merged}, names...)...); err != nil {
		t.Fatal(err)
	}
	a, b := clitest.ReadTree(t, whole), clitest.ReadTree(t, merged)
	if len(a) != len(b) {
		t.Fatalf("%d files whole, %d merged", len(a), len(b))
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between the whole run and the merged shards", name)
		}
	}
	if _, _, err := runCmd(t, append([]string{"merge", "-out", merged}, names[:3]...)...); err == nil || !strings.Contains(err.Error(), "1 of 4 shards missing: 4/4") {
		t.Errorf("merging 3 of 4 shards: got %v", err)
	}
	testMergeRefuses(t, names, filepath.Join(tmp, "bad"))
}

// TestLiveMeasurementsApart runs the quick report twice with the MMDL
// calibration loop really live, as a user runs it: the live page and its
// data (mmdl-live.html, data/live-*) differ, since they are measured, and
// every other file of the report is byte for byte the same (issue 22);
// the findings files, which the README's tables and verdict counts read,
// hold no live finding.
func TestLiveMeasurementsApart(t *testing.T) {
	mmdl.UseLive()
	defer mmdl.UseStandIn()
	tmp := t.TempDir()
	var trees [2]map[string][]byte
	for i := range trees {
		dir := filepath.Join(tmp, string(rune('a'+i)))
		if _, _, err := runCmd(t, "-quick", "-trials", "2", "-out", dir); err != nil {
			t.Fatal(err)
		}
		trees[i] = clitest.ReadTree(t, dir)
	}
	a, b := trees[0], trees[1]
	live := func(name string) bool { return name == "mmdl-live.html" || strings.HasPrefix(name, "data/live-") }
	for _, want := range []string{"mmdl.html", "mmdl-live.html", "data/live-mmdl-calibration.csv", "data/live-mmdl-before.json"} {
		if a[want] == nil {
			t.Errorf("the report lacks %s", want)
		}
	}
	if len(a) != len(b) {
		t.Errorf("the runs wrote %d and %d files", len(a), len(b))
	}
	for name, x := range a {
		switch {
		case live(name):
		case b[name] == nil:
			t.Errorf("%s: written by the first run only", name)
		case !bytes.Equal(x, b[name]):
			t.Errorf("%s differs between two runs with the same flags (only mmdl-live.html and data/live-* may)", name)
		}
	}
	// The loop really ran live: its measured times differ.
	if bytes.Equal(a["data/live-mmdl-calibration.csv"], b["data/live-mmdl-calibration.csv"]) {
		t.Error("the live calibration table is the same in both runs: was the loop live?")
	}
	var ff findingsFile
	if err := json.Unmarshal(a["data/findings-mmdl.json"], &ff); err != nil {
		t.Fatal(err)
	}
	for _, f := range ff.Findings {
		if strings.Contains(f.Ours, "(live") || strings.Contains(f.Claim, "Refitting") {
			t.Errorf("findings-mmdl.json holds the live finding %q", f.Claim)
		}
	}
	if len(ff.Findings) == 0 || !bytes.Contains(a["mmdl-live.html"], []byte("Refitting the compute and communication parameters")) {
		t.Errorf("findings-mmdl.json has %d findings; the live page lists the calibration finding: %v", len(ff.Findings), bytes.Contains(a["mmdl-live.html"], []byte("Refitting")))
	}
}

// testMergeRefuses tampers with the parts of TestShardMerge as a careless
// or hostile user would and expects merge to refuse each, naming the file
// and what is wrong, and to write nothing.
func testMergeRefuses(t *testing.T, names []string, dir string) {
	orig, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(orig)
	// The first allreduce result held by part 1, to tamper with: a cell
	// of the adaptive sweep, {"trials":N,…,"mean_by_T":[t0,…],…}.
	i := strings.Index(text, `"results":{"`) + len(`"results":{"`)
	key := text[i : i+strings.Index(text[i:], `"`)]
	first := `"` + key + `":{"trials":`
	cellAt := strings.Index(text, first)
	trials := text[cellAt+len(first) : cellAt+len(first)+strings.IndexAny(text[cellAt+len(first):], ",}")]
	means := `"mean_by_T":[`
	at := cellAt + strings.Index(text[cellAt:], means) + len(means)
	num := text[at : at+strings.IndexAny(text[at:], ",]")]
	for _, tc := range []struct {
		name, text, want string
	}{
		{"negative time", text[:at] + "-" + text[at:], "allreduce point " + key + ": the mean time with T = 0 is -"},
		{"huge time", text[:at] + "1e308" + text[at+len(num):], "allreduce point " + key + ": the conventional interval"},
		{"beyond float64", text[:at] + "1e999" + text[at+len(num):], "cannot unmarshal number 1e999"},
		{"trials beyond the rule", strings.Replace(text, first+trials, first+"8000", 1), "allreduce point " + key + ": 8000 trials, but the rule stops it between"},
		{"shard count 0", strings.Replace(text, `"count":4`, `"count":0`, 1), "shard 1/0: want i/n"},
		{"duplicate key", strings.Replace(text, `"format":`, `"format":"x","format":`, 1), `key "format" given twice`},
		{"trailing data", text + "garbage", "invalid character 'g'"},
		{"trailing value", text + "{}", "data after the JSON value"},
		{"other flags", strings.Replace(text, `"seed":1`, `"seed":2`, 1), "parts of one report share their flags"},
		{"other build", strings.Replace(text, `"build":"`, `"build":"0`, 1), "merge with the binary that ran the shards"},
		{"point of another shard", strings.Replace(text, `"results":{"`+key+`"`, `"results":{"`+key+`":[],"100000"`, 1), "outside [0,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "part-1-of-4.json")
			if err := os.WriteFile(bad, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			checkBadInput(t, "merge -out "+out+" "+bad+" "+strings.Join(names[1:], " "), tc.want)
			if strings.Contains(tc.want, "point") && !strings.Contains(tc.want, "outside") {
				// A refused result names the file it came from.
				checkBadInput(t, "merge -out "+out+" "+bad+" "+strings.Join(names[1:], " "), bad)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("merge refused, yet wrote %s", out)
			}
		})
	}
}

// runCmd, checkBadInput and golden are clitest's, on the whole command.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return clitest.Run(t, run, args...)
}

func checkBadInput(t *testing.T, args, want string) {
	t.Helper()
	clitest.BadInput(t, run, args, want)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	clitest.Golden(t, name, got)
}

// goalExamples are the GOAL schedules the tests run.
const goalExamples = "../../engine/goal/testdata/examples/"

// TestMain puts the MMDL page's stand-in calibration in place: the quick
// report's goldens and the shard test compare pages byte for byte, and the
// live loop's measured times differ from run to run.
func TestMain(m *testing.M) {
	mmdl.UseStandIn()
	code := m.Run()
	if partsDir != "" {
		os.RemoveAll(partsDir)
	}
	os.Exit(code)
}
