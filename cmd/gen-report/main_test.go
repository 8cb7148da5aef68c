package main

import (
	"bytes"
	"commlab/cmd/gen-report/internal/clitest"
	"commlab/cmd/gen-report/internal/study/mmdl"
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
	for name, b := range files {
		// The findings files repeat the pages' findings, which the HTML
		// goldens pin (readme_test.go checks the files).
		if strings.HasPrefix(name, "assets/") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "data/findings-") {
			continue
		}
		golden(t, filepath.Join("quick", name+".golden"), b)
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

// testMergeRefuses tampers with the parts of TestShardMerge as a careless
// or hostile user would and expects merge to refuse each, naming the file
// and what is wrong, and to write nothing.
func testMergeRefuses(t *testing.T, names []string, dir string) {
	orig, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(orig)
	// The first allreduce result held by part 1, to tamper with.
	i := strings.Index(text, `"results":{"`) + len(`"results":{"`)
	key := text[i : i+strings.Index(text[i:], `"`)]
	first := `"` + key + `":[[`
	at := strings.Index(text, first) + len(first)
	num := text[at : at+strings.IndexAny(text[at:], ",]")]
	for _, tc := range []struct {
		name, text, want string
	}{
		{"negative time", text[:at] + "-" + text[at:], "allreduce point " + key + ": trial 0: the time with T = 0 is -"},
		{"huge time", text[:at] + "1e308" + text[at+len(num):], "allreduce point " + key + ": the trials' conventional_stderr is +Inf"},
		{"beyond float64", text[:at] + "1e999" + text[at+len(num):], "cannot unmarshal number 1e999"},
		{"trials beyond the flags", strings.Replace(text, first, `"`+key+`":[`+strings.Repeat("[1,1,1],", 7997)+`[`, 1), "allreduce point " + key + ": 8000 trials, want 3 (from -trials 3)"},
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
