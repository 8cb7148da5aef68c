package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"commlab/cmd/gen-report/internal/clitest"
)

// quickParts are the 4 parts of a quick report with -trials 3, run once
// per test binary (in a directory TestMain removes): TestShardMerge merges
// them, the status tests read copies.
var quickParts = sync.OnceValues(func() ([]string, error) {
	dir, err := os.MkdirTemp("", "gen-report-parts-*")
	if err != nil {
		return nil, err
	}
	partsDir = dir
	prev := runtime.GOMAXPROCS(1) // a different worker count than a whole run's
	defer runtime.GOMAXPROCS(prev)
	var names []string
	for i := 1; i <= 4; i++ {
		var out, errs strings.Builder
		if err := run(&out, &errs, []string{"-quick", "-trials", "3", "-shard", fmt.Sprintf("%d/4", i), "-out", dir}); err != nil {
			return nil, fmt.Errorf("shard %d/4: %v\n%s", i, err, errs.String())
		}
		names = append(names, strings.TrimSpace(strings.TrimPrefix(out.String(), "wrote ")))
	}
	return names, nil
})

// partsDir is quickParts' directory, for TestMain to remove.
var partsDir string

// shardedQuick returns quickParts' files, failing the test if they could
// not be made.
func shardedQuick(t *testing.T) []string {
	t.Helper()
	names, err := quickParts()
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// timedCopy copies part file name into dir with its times and memory set
// as given: every study took rate seconds per estimated second, and the
// process held rss bytes on workers goroutines. (The measured ones differ
// from run to run; a golden needs fixed ones.)
func timedCopy(t *testing.T, name, dir string, rate float64, rss int64, workers int, edit func(*partFile)) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var p partFile
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	for i := range p.Studies {
		p.Studies[i].Seconds = rate * p.Studies[i].Estimate
	}
	p.MaxRSS, p.Workers, p.CPU = rss, workers, 3*float64(workers)
	if edit != nil {
		edit(&p)
	}
	if b, err = json.Marshal(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// statusOf runs `gen-report status args... dir` and returns what it
// printed, with dir and the build (the test binary's) made constant.
func statusOf(t *testing.T, dir string, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errs, err := runCmd(t, append(append([]string{"status"}, args...), dir)...)
	if err != nil {
		t.Fatal(err)
	}
	fix := strings.NewReplacer(dir, "DIR", buildID(), "BUILD")
	return fix.Replace(out), fix.Replace(errs)
}

// TestStatus reads a parts directory as a run in progress leaves it: two
// shards done, one truncated, one not started, and a stray part of another
// run; then the same with every shard done.
func TestStatus(t *testing.T) {
	names := shardedQuick(t)
	dir := t.TempDir()
	timedCopy(t, names[0], dir, 2, 150e6, 4, nil)
	timedCopy(t, names[1], dir, 2, 180e6, 4, nil)
	// A part cut short (a full disk, a node that died while writing past
	// the atomic rename) and a part of a run in 8 shards.
	b, err := os.ReadFile(names[2])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-3-of-4.json"), b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-1-of-8.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := statusOf(t, dir, "-shards", "4")
	golden(t, "status/in-progress.txt", []byte(out))
	for _, want := range []string{
		"shards: 2 of 4 done; missing: 3-4 of 4",
		// shards 3 and 4 are estimated at half the work; the done ones ran
		// at 2 s per estimated second.
		"part-3-of-4.json: not a part file written by gen-report -shard",
		"ignored: 1 part file of 8 shards",
		"--array=3-4",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status does not say %q:\n%s", want, out)
		}
	}
	missing, errs := statusOf(t, dir, "-shards", "4", "-missing")
	if missing != "3-4\n" || !strings.Contains(errs, "part-3-of-4.json: not a part file") {
		t.Errorf("status -missing printed %q and %q, want 3-4 and the truncated file named", missing, errs)
	}

	timedCopy(t, names[2], dir, 2, 120e6, 4, nil)
	timedCopy(t, names[3], dir, 2, 120e6, 4, nil)
	out, _ = statusOf(t, dir, "-shards", "4")
	golden(t, "status/done.txt", []byte(out))
	if missing, _ := statusOf(t, dir, "-shards", "4", "-missing"); missing != "" {
		t.Errorf("every shard done, yet status -missing printed %q", missing)
	}
}

// TestStatusTimeLeft: the time left is the missing shards' estimate at
// the seconds per estimated second the done parts took.
func TestStatusTimeLeft(t *testing.T) {
	names := shardedQuick(t)
	dir := t.TempDir()
	timedCopy(t, names[0], dir, 3, 0, 1, nil)
	st, err := readStatus(dir, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Estimated || st.CostLeft <= 0 {
		t.Fatalf("no estimate: %+v", st.Status)
	}
	if got, want := st.SecondsLeft, 3*st.CostLeft; !near(got, want) {
		t.Errorf("time left %v s, want 3 × the missing shards' estimate, %v s", got, want)
	}
	if st.LongestLeft > st.SecondsLeft || 3*st.LongestLeft < st.SecondsLeft {
		t.Errorf("the longest missing shard takes %v s of the %v s left by 3 missing shards", st.LongestLeft, st.SecondsLeft)
	}
	if st.Trials == 0 || st.Points == 0 {
		t.Errorf("shard 1 done, yet %d points and %d trials counted", st.Points, st.Trials)
	}
}

func near(a, b float64) bool { return a-b < 1e-9*b && b-a < 1e-9*b }

// TestStatusNamesUnusableParts: a part merge would refuse counts as
// missing, named with the reason.
func TestStatusNamesUnusableParts(t *testing.T) {
	names := shardedQuick(t)
	for _, tc := range []struct {
		name string
		edit func(*partFile)
		want string
	}{
		{"other build", func(p *partFile) { p.Build = "0123456789abcdef" }, "was written by gen-report build 0123456789abcdef"},
		{"other flags", func(p *partFile) { p.Config.Seed = 2 }, "was run with -quick -trials 3 -seed 2, the run with -quick -trials 3 -seed 1"},
		{"other shard inside", func(p *partFile) { p.Shard.Index = 3 }, "holds shard 3/4, not the 2/4 its name says"},
		{"point of another shard", func(p *partFile) {
			for pt, r := range p.Studies[0].Results {
				p.Studies[0].Results[pt+100000] = r
				break
			}
		}, "is outside [0,"},
		{"a point missing", func(p *partFile) {
			for pt := range p.Studies[0].Results {
				delete(p.Studies[0].Results, pt)
				break
			}
		}, "is missing: the split gives it to this file's shard 2/4"},
		{"trials unreadable", func(p *partFile) {
			for pt := range p.Studies[0].Results {
				p.Studies[0].Results[pt] = json.RawMessage(`{"trials":3}`)
				break
			}
		}, "cannot count its trials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			timedCopy(t, names[0], dir, 1, 0, 1, nil)
			timedCopy(t, names[1], dir, 1, 0, 1, tc.edit)
			out, _ := statusOf(t, dir)
			if !strings.Contains(out, "shards: 1 of 4 done; missing: 2-4 of 4") || !strings.Contains(out, "DIR/part-2-of-4.json") || !strings.Contains(out, tc.want) {
				t.Errorf("status does not count shard 2 as missing for %q:\n%s", tc.want, out)
			}
		})
	}
	// A directory where a part should be.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "part-2-of-4.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, _ := statusOf(t, dir); !strings.Contains(out, "DIR/part-2-of-4.json is a directory") || !strings.Contains(out, "missing: 1-4 of 4") {
		t.Errorf("a directory named as a part:\n%s", out)
	}
}

func TestStatusBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	two := t.TempDir()
	for _, name := range []string{"part-1-of-4.json", "part-2-of-8.json"} {
		if err := os.WriteFile(filepath.Join(two, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ args, want string }{
		{"status", "status: name one parts directory"},
		{"status " + dir + " " + dir, "status: name one parts directory"},
		{"status /nonexistent-commlab-parts", "/nonexistent-commlab-parts: no such directory"},
		{"status " + file, "is not a directory"},
		{"status -shards 0 " + dir, "-shards = 0 is out of range: want an integer in [1, 65536]"},
		{"status -shards 70000 " + dir, "-shards = 70000 is out of range"},
		{"status -trials 0 " + dir, "-trials = 0 is out of range"},
		{"status " + empty, "holds no part file yet"},
		{"status " + two, "holds the parts of several runs (1 of 4 shards, 1 of 8 shards): give -shards N"},
		{"status -bogus " + dir, "flag provided but not defined: -bogus"},
	} {
		t.Run(tc.args, func(t *testing.T) { checkBadInput(t, tc.args, tc.want) })
	}
	// -shards lists the missing shards of a run not started yet.
	out, _, err := runCmd(t, "status", "-shards", "3", "-missing", empty)
	if err != nil || out != "1-3\n" {
		t.Errorf("status -shards 3 -missing of an empty directory: %q, %v", out, err)
	}
}

// TestPlan pins the split's estimates and Slurm's sizing for the quick
// report.
func TestPlan(t *testing.T) {
	out, _, err := runCmd(t, "plan", "-quick", "-shards", "4", "-cpus", "2")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "plan/quick-4.txt", []byte(out))
	out, _, err = runCmd(t, "plan", "-shards", "8", "-cpus", "4", "-sbatch")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "plan/full-8-sbatch.txt", []byte(out))
	for _, tc := range []struct{ args, want string }{
		{"plan", "plan: give -shards N"},
		{"plan -shards 0", "-shards = 0 is out of range: want an integer in [1, 65536]"},
		{"plan -shards 4 -cpus 0", "-cpus = 0 is out of range: want an integer in [1, 1024]"},
		{"plan -shards 4 -trials 0", "-trials = 0 is out of range"},
		{"plan -shards 4 extra", `unexpected argument "extra"`},
		{"plan -shards 4 -out /proc/commlab-cannot-be-here/report", "-out /proc/commlab-cannot-be-here/report"},
	} {
		t.Run(tc.args, func(t *testing.T) { checkBadInput(t, tc.args, tc.want) })
	}
}

// TestSlurmTime: Slurm's D-HH:MM:SS, rounded up to the minute.
func TestSlurmTime(t *testing.T) {
	for s, want := range map[float64]string{1: "0-00:01:00", 60: "0-00:01:00", 61: "0-00:02:00", 3600: "0-01:00:00", 90000: "1-01:00:00"} {
		if got := slurmTime(s); got != want {
			t.Errorf("slurmTime(%v) = %s, want %s", s, got, want)
		}
	}
}

var _ = clitest.Golden // the goldens above go through main_test.go's golden
