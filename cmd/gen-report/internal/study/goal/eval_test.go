package goal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/clitest"
	"commlab/engine/trace"
)

const goalExamples = "../../../../../engine/goal/testdata/examples/"

// TestEvalGoal pins `eval goal` on LogGOPSim's examples: the end times
// are LogGOPSim's own (expected.tsv), the rest is ours.
func TestEvalGoal(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"eval_goal_bcast.stdout", "eval goal -f " + goalExamples + "ex_binomialtreebcast_32.goal"},
		{"eval_goal_alltoall_rdv.stdout", "eval goal -f " + goalExamples + "ex_linear_alltoall_8.goal -L 3000 -o 1000 -g 2000 -G 4 -S 1024"},
		{"eval_goal_noise.stdout", "eval goal -f " + goalExamples + "ex_dissemination_16.goal -noise-trace testdata/goal/noise.txt -seed 3"},
		{"eval_goal_osnet.stdout", "eval goal -f " + goalExamples + "ex_dissemination_16.goal -os-period 20000 -os-duration 2000 -net-mean 10000 -net-delay 3000 -seed 3"},
	} {
		t.Run(tc.name, func(t *testing.T) { clitest.EvalGolden(t, cmd, tc.name, tc.args) })
	}
}

func TestEvalGoalEnds(t *testing.T) {
	for _, c := range []struct {
		args string
		end  int64
	}{
		{"ex_allreduce_recdoub_32.goal", 55684},
		{"ex_linear_alltoall_8.goal -L 3000 -o 1000 -g 2000 -G 4 -S 1024", 149660},
	} {
		out, _, err := clitest.Run(t, cmd, strings.Fields("eval goal -f "+goalExamples+c.args)...)
		if err != nil {
			t.Fatal(err)
		}
		var ev goalEval
		if err := json.Unmarshal([]byte(out), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.End != c.end {
			t.Errorf("%s: end %d, LogGOPSim %d", c.args, ev.End, c.end)
		}
		var sum int64
		if n := len(ev.Critical); n == 0 || ev.Critical[n-1].End != ev.End {
			t.Errorf("%s: critical path does not end at the end", c.args)
		}
		for _, st := range ev.Critical {
			sum += st.End - st.Start
		}
		if sum < ev.End/2 {
			t.Errorf("%s: critical path covers %d of %d ns", c.args, sum, ev.End)
		}
	}
}

func TestEvalGoalTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	if _, _, err := clitest.Run(t, cmd, strings.Fields("eval goal -f "+goalExamples+"ex_linear_alltoall_8.goal -noise-trace testdata/goal/noise.txt -trace "+path)...); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range doc.TraceEvents {
		if c, ok := e["cat"].(string); ok {
			kinds[c]++
		}
	}
	for _, k := range []string{trace.Send.String(), trace.Receive.String(), trace.Stall.String()} {
		if kinds[k] == 0 {
			t.Errorf("no %s events in the trace (%v)", k, kinds)
		}
	}
}

func TestEvalGoalBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.goal")
	os.WriteFile(bad, []byte("num_ranks 2\nrank 0 {\nl1: send 8b to 5 tag 0\n}\n"), 0o644)
	cyc := filepath.Join(t.TempDir(), "cyc.goal")
	os.WriteFile(cyc, []byte("num_ranks 1\nrank 0 {\nl1: calc 1\nl2: calc 1\nl1 requires l2\nl2 requires l1\n}\n"), 0o644)
	stuck := filepath.Join(t.TempDir(), "stuck.goal")
	os.WriteFile(stuck, []byte("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 2\n}\n"), 0o644)
	for _, c := range []struct{ args, want string }{
		{"eval goal", "eval goal: -f is required"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -L -1", "eval goal: -L = -1 is out of range: want an integer number of ns in [0, 2147483647]"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -o 3000000000", "-o = 3000000000 is out of range"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -S -1", "-S = -1 is out of range: want an integer number of bytes in [0, 4294967295]"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -noise-cosched", "-noise-cosched needs -noise-trace"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -os-period 100 -os-duration 100", "-os-duration = 100 is out of range: want an integer number of ns in [1, os-period = 100)"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -net-mean 100", "-net-delay = 0 (not given, so its default; you gave -f ../../../../../engine/goal/testdata/exam… (69 characters) -net-mean 100) is out of range"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -noise-trace nosuch.txt", "-noise-trace: open nosuch.txt"},
		{"eval goal -f nosuch.goal", "eval goal: -f: open nosuch.goal"},
		{"eval goal -f " + bad, "bad.goal:3:16: peer 5 out of range: want a rank in [0, 2)"},
		{"eval goal -f " + cyc, "cyc.goal:7:1: rank 0: dependency cycle through 2 operations: l1 -> l2 -> l1 (each waits for the next)"},
		{"eval goal -f " + stuck, "schedule did not complete: 0 operations never ran; unmatched: rank 1 l1: recv from 0 tag 2"},
		{"eval goal -f x -L abc", `invalid value "abc" for flag -L`},
		// Network noise whose delay is not under its mean: a flight could
		// grow without end (the run hung).
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -net-mean 1 -net-delay 2", "-net-delay = 2 is out of range: want an integer number of ns in [1, net-mean = 1): each noise event delays a flight"},
		// OS jitter that would stretch the run past the engine's int64
		// times (End came out negative), even with -force.
		{"eval goal -f " + goalExamples + "ex_allreduce_recdoub_32.goal -os-period 1000000000 -os-duration 999999999 -o 2000000000 -force",
			"-os-duration = 999999999 is out of range: want noise that stretches the run less: os-duration = 999999999 of every os-period = 1000000000 leaves 1 ns of work per period"},
	} {
		_, _, err := clitest.Run(t, cmd, strings.Fields(c.args)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.args, err, c.want)
		}
	}
}

// TestEvalGoalTraceOutput: -trace writes as every output does
// (internal/outfile): through a symlink to its target, leaving the link;
// "-" is refused, since standard output carries the eval's JSON.
func TestEvalGoalTraceOutput(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	args := "eval goal -f " + goalExamples + "ex_linear_alltoall_8.goal -trace "
	if _, _, err := clitest.Run(t, cmd, strings.Fields(args+link)...); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "traceEvents") {
		t.Errorf("the target holds %.40q, not the trace", b)
	}
	clitest.BadInput(t, cmd, args+"-", "eval goal: -trace -: standard output carries the eval's JSON; name a file")
	// Issue 26: -trace naming the input overwrote it.
	in := filepath.Join(dir, "in.goal")
	src, err := os.ReadFile(goalExamples + "ex_linear_alltoall_8.goal")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	clitest.BadInput(t, cmd, "eval goal -f "+in+" -trace "+in, "is the -f input: the trace would overwrite it")
	if b, _ := os.ReadFile(in); string(b) != string(src) {
		t.Errorf("the schedule was changed")
	}
}

// cmd is eval goal as gen-report's main runs it.
var cmd = clitest.Eval(Study{})
