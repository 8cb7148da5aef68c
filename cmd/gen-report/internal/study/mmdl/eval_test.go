package mmdl

import (
	"commlab/cmd/gen-report/internal/clitest"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestEvalMmdl pins `eval mmdl` for the example (the paper's
// schedule, 12.431889 s against Table 4's 12.431613) and the same case
// overlapped, the paper's before-calibration case with the scheduler
// choosing R, and a custom instance.
func TestEvalMmdl(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"eval_mmdl_ps2_load2.stdout", "eval mmdl -procset 2 -load 2 -rounds 5 -compute 0.294 -comm 0.0034"},
		{"eval_mmdl_ps2_load2_overlap.stdout", "eval mmdl -procset 2 -load 2 -rounds 5 -schedule overlap"},
		{"eval_mmdl_before_chosen.stdout", "eval mmdl -procset 1 -load 4 -compute 0.1 -comm 0.003"},
		{"eval_mmdl_custom.stdout", "eval mmdl -mhz 2400,2400,2000 -tasks 40000,50000,110000 -latency 1e-3 -throughput 1e9 -rounds 3"},
	} {
		t.Run(tc.name, func(t *testing.T) { clitest.EvalGolden(t, cmd, tc.name, tc.args) })
	}
}

// The paper's ProcSet 1, Load 1 moves nothing: T and the makespan are
// 75,000 × 0.1/2400 = 3.125 s, the paper's own simulated value.
func TestEvalMmdlBalanced(t *testing.T) {
	out, _, err := clitest.Run(t, cmd, "eval", "mmdl", "-procset", "1", "-load", "1", "-rounds", "5", "-compute", "0.1", "-comm", "0.003")
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		T, Makespan, FormulaTotal float64
		Flows                     []any
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(out, "formula_total", "FormulaTotal")), &ev); err != nil {
		t.Fatal(err)
	}
	// The closed form divides, so T is 3.125 to within rounding.
	if math.Abs(ev.T-3.125) > 1e-12 || math.Abs(ev.Makespan-3.125) > 1e-12 || len(ev.Flows) != 0 {
		t.Errorf("T %g, makespan %g, %d flows; want 3.125, 3.125, none", ev.T, ev.Makespan, len(ev.Flows))
	}
	if want := 3.125*1.2 + 5e-4; math.Abs(ev.FormulaTotal-want) > 1e-12 {
		t.Errorf("formula_total %g, want %g", ev.FormulaTotal, want)
	}
}

func TestEvalMmdlBadInput(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"eval mmdl -mhz 2400,2000 -tasks 1,2,3", "eval mmdl: -tasks = 3 entries is out of range: want one load per processor: as many as mhz (2)"},
		{"eval mmdl -mhz 2400,2400,2400", "eval mmdl: -tasks = 8 entries (not given, so its default; you gave -mhz 2400,2400,2400) is out of range: want one load per processor"},
		{"eval mmdl -mhz 0.5 -tasks 1", "-mhz[0] = 0.5 is out of range: want a clock rate in [1, 1e6] MHz"},
		{"eval mmdl -throughput 0.5", "-throughput = 0.5 is out of range: want bit/s in [1, 1e15]"},
		{"eval mmdl -tasks 1,2", "-tasks = 2 entries is out of range: want one load per processor: as many as mhz (8)"},
		{"eval mmdl -mhz 2400,0 -tasks 1,2", "-mhz[1] = 0 is out of range: want a clock rate in [1, 1e6] MHz"},
		{"eval mmdl -mhz 2400,2400 -tasks 5,-1", "-tasks[1] = -1 is out of range: want a load in [0, 1e+12] tasks"},
		{"eval mmdl -mhz 2400,x -tasks 1,2", `invalid value "2400,x" for flag -mhz: entry 1 ("x") is not a number`},
		{"eval mmdl -procset 3", "eval mmdl: -procset = 3 is out of range: want 1 or 2"},
		{"eval mmdl -load 5", `eval mmdl: -load = "5" is out of range: want one of "1", "2", "3-a", "3-b", "4"`},
		{"eval mmdl -rounds -1", "-rounds = -1 is out of range: want 0 (the scheduler chooses) or an integer in [1, 10000]"},
		{"eval mmdl -rounds 10001", "-rounds = 10001 is out of range"},
		{"eval mmdl -compute 0", "-compute = 0 is out of range"},
		{"eval mmdl -comm -1", "-comm = -1 is out of range"},
		{"eval mmdl -latency -1", "-latency = -1 is out of range"},
		{"eval mmdl -throughput 0", "-throughput = 0 is out of range"},
		{"eval mmdl extra", `unexpected argument "extra"`},
		{"eval mmdl -schedule overlapped", `eval mmdl: -schedule = "overlapped" is out of range: want "paper" or "overlap"`},
	} {
		clitest.BadInput(t, cmd, c.args, c.want)
	}
}

// cmd is eval mmdl as gen-report's main runs it.
var cmd = clitest.Eval(Study{})
