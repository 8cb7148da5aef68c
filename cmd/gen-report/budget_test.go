package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/internal/budget"
	"commlab/engine/cost"
	"commlab/engine/sweep"
	"commlab/engine/topology"
)

// machine8GB puts a fixed machine in place of this one for the test: 8 GB
// (a 4 GB budget) and the commands' 10 minutes, so the refusals do not
// depend on where the tests run.
func machine8GB(t *testing.T) {
	t.Helper()
	old := cli.Budget
	cli.Budget = func(force bool) cost.Budget {
		if force {
			return cost.Unlimited
		}
		return cost.Budget{Name: "the command", Bytes: 4e9, Seconds: budget.Seconds, Force: "-force"}
	}
	t.Cleanup(func() { cli.Budget = old })
}

func list(n int, f func(i int) string) string {
	s := make([]string, n)
	for i := range s {
		s[i] = f(i)
	}
	return strings.Join(s, ",")
}

// TestBudgetRefuses holds the commands to issue 16's cases: inputs inside
// the documented ranges that would need gigabytes or hours are refused
// before they allocate, with an error naming the parameters that drive the
// cost and what would fit, and nothing on stdout.
func TestBudgetRefuses(t *testing.T) {
	machine8GB(t)
	dir := t.TempDir()
	// topology infer on 600 nodes, two on each of 300 leaf switches,
	// without interference observations: every one of (L-1)(L-2)(L-3)/2 =
	// 1.3e7 questions would be listed (the issue: 49 M lines on 4,096
	// nodes, out of memory on 8,192).
	flat, err := topology.Spread(600, 300)
	if err != nil {
		t.Fatal(err)
	}
	var rtt bytes.Buffer
	if err := topology.WriteRTTCSV(&rtt, flat.Nodes, topology.MeasureRTT(flat, topology.DefaultNet(), sweep.RNG(1, 0, 0))); err != nil {
		t.Fatal(err)
	}
	rttPath := filepath.Join(dir, "rtt.csv")
	if err := os.WriteFile(rttPath, rtt.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// topology measure --tree of 20,000 nodes: the tree JSON has no node
	// limit, its RTT matrix would take 22 GB.
	names := make([]string, 20000)
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i)
	}
	tree, _ := json.Marshal(map[string]any{"nodes": names, "switches": []any{map[string]any{"id": 0, "parent": -1, "nodes": names}}})
	treePath := filepath.Join(dir, "big.json")
	if err := os.WriteFile(treePath, tree, 0o644); err != nil {
		t.Fatal(err)
	}
	mhz := list(512, func(i int) string { return fmt.Sprint(500 + 7*i%2500) })
	tasks := list(512, func(i int) string { return fmt.Sprint(13 * i % 5000) })

	for _, c := range []struct {
		args  string
		names []string
	}{
		{"eval allreduce -period 1e-20 -duration 1e-21", []string{"period = 1e-20", "jitter windows", "engine time", "raise period to at least"}},
		{"eval allreduce -N 1e12", []string{"N = 1e12", "engine time", "lower N to at most"}},
		{"eval logp -P 1024 -n 1000000000", []string{"P = 1024", "n = 1e9", "trials = 100000", "min of engine time", "lower trials to at most"}},
		{"eval overlay -procs 1024 -nodes 512 -iterations 100", []string{"procs = 1024", "iterations = 100", "GB", "lower iterations to at most"}},
		{"eval mmdl -rounds 10000 -mhz " + mhz + " -tasks " + tasks, []string{"512 processors", "rounds = 10000", "GB", "lower rounds to at most"}},
		{"topology infer --rtt " + rttPath, []string{"300 leaf groups", "interference questions", "GB", "leaf groups fit"}},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -net-mean 2 -net-delay 1 -L 2000000000",
			[]string{"net-mean = 2 with net-delay = 1 and L = 2e9", "network-noise buckets and events over", "engine time", "raise net-mean to at least"}},
		{"topology measure --tree " + treePath + " --out " + filepath.Join(dir, "out"), []string{"20000 nodes", "RTT matrix of 4e8 entries", "GB", "nodes fit"}},
	} {
		name := c.args
		if len(name) > 60 {
			name = name[:60]
		}
		t0 := time.Now()
		out, _, err := runCmd(t, strings.Fields(c.args)...)
		took := time.Since(t0)
		if err == nil {
			t.Errorf("%s: ran, want a refusal", name)
			continue
		}
		if out != "" {
			t.Errorf("%s: refused but wrote %d bytes to stdout", name, len(out))
		}
		msg := err.Error()
		for _, n := range append(c.names, "(-force runs it anyway)") {
			if !strings.Contains(msg, n) {
				t.Errorf("%s: message does not name %q: %s", name, n, msg)
			}
		}
		if took > 3*time.Second {
			t.Errorf("%s: refusing took %v: the estimate must run nothing", name, took)
		}
		t.Logf("%s: %s", name, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("topology measure refused but made its -out directory: %v", err)
	}
}

// TestBudgetForce: -force runs what the budget refuses (a budget of a few
// bytes here, so the run itself stays small).
func TestBudgetForce(t *testing.T) {
	old := cli.Budget
	t.Cleanup(func() { cli.Budget = old })
	cli.Budget = func(force bool) cost.Budget {
		if force {
			return cost.Unlimited
		}
		return cost.Budget{Name: "the command", Bytes: 10, Seconds: 1e-9, Force: "-force"}
	}
	for _, args := range []string{"eval allreduce -P 64 -trials 2", "eval logp -trials 10", "eval nbc", "eval mmdl", "eval overlay -iterations 1"} {
		if _, _, err := runCmd(t, strings.Fields(args)...); err == nil || !strings.Contains(err.Error(), "-force runs it anyway") {
			t.Errorf("%s: %v, want a refusal", args, err)
		}
		if out, _, err := runCmd(t, append(strings.Fields(args), "-force")...); err != nil || out == "" {
			t.Errorf("%s -force: %v, want it to run", args, err)
		}
	}
}
