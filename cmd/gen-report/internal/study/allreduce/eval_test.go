package allreduce

import (
	"bytes"
	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/clitest"
	"commlab/cmd/internal/budget"
	engine "commlab/engine/allreduce"
	"commlab/engine/cost"
	"commlab/engine/stats"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestEvalAllreduceEveryT: -T works for every t in [0, K] (it used to fail
// for every t < K: "trial 0 has 1 times, want K+1"), and the output holds
// the times for T = 0..t only, so a trial ran K + t stages.
func TestEvalAllreduceEveryT(t *testing.T) {
	for T := 0; T <= 6; T++ {
		out, _, err := clitest.Run(t, cmd, "eval", "allreduce", "-P", "64", "-T", fmt.Sprint(T), "-trials", "3", "-fixed")
		if err != nil {
			t.Fatalf("-T %d: %v", T, err)
		}
		var got struct {
			MeanByT      []float64 `json:"proposed_by_T"`
			Conventional float64   `json:"conventional"`
			Proposed     float64   `json:"proposed"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.MeanByT) != T+1 {
			t.Errorf("-T %d: %d mean times, want T+1 = %d", T, len(got.MeanByT), T+1)
		}
		if got.Proposed > got.Conventional {
			t.Errorf("-T %d: proposed %g > conventional %g", T, got.Proposed, got.Conventional)
		}
	}
}

// TestEvalAllreduceOptions pins a stationary and an inverse-wait point of the
// os_hits=wall reading (under os_hits=compute a window already running at
// t = 0 delays nothing, and with N = 0 none begins during a reduction), and
// checks that the options change the numbers (they are not ignored).
func TestEvalAllreduceOptions(t *testing.T) {
	const base = "eval allreduce -P 1024 -period 1e-2 -duration 1e-4 -alpha 1e-7 -N 0 -trials 10 -fixed -seed 3 -os_hits wall"
	clitest.EvalGolden(t, cmd, "eval_allreduce_stationary.stdout", base+" -os_phase stationary")
	clitest.EvalGolden(t, cmd, "eval_allreduce_inverse.stdout", base+" -net_wait inverse")
	conv := func(args ...string) float64 {
		out, _, err := clitest.Run(t, cmd, append([]string{"eval", "allreduce", "-P", "1024", "-period", "1e-2", "-duration", "1e-4", "-alpha", "1e-7", "-N", "0", "-trials", "10", "-fixed", "-seed", "3", "-os_hits", "wall"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Conventional float64 `json:"conventional"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		return got.Conventional
	}
	first, stat, inv := conv(), conv("-os_phase", "stationary"), conv("-net_wait", "inverse")
	if first == stat || first == inv {
		t.Errorf("conventional time: first %g, stationary %g, inverse %g: an option changed nothing", first, stat, inv)
	}
}

func TestEvalAllreduceBadOptions(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"eval allreduce -os_phase bogus", `invalid value "bogus" for flag -os_phase: want one of first, stationary`},
		{"eval allreduce -net_wait 1", `invalid value "1" for flag -net_wait: want one of period, inverse`},
		{"eval allreduce -net_wait inverse -period 1e-13 -duration 1e-14", "-period = 1e-13 is out of range: want a number in [1e-12, 1000] with net_wait=inverse"},
		{"eval allreduce -P 64 -T 7", "-T = 7 is out of range: want an integer in [0, K=6]"},
		{"eval allreduce -precision 0", "-precision = 0 is out of range: want a relative half-width in (0, 1]"},
		{"eval allreduce -precision 2", "-precision = 2 is out of range"},
	} {
		t.Run(tc.args, func(t *testing.T) { clitest.BadInput(t, cmd, tc.args, tc.want) })
	}
}

// TestEvalAllreduce runs the example with eval's defaults (the
// adaptive rule) and pins its output: the same seed gives the same bytes.
func TestEvalAllreduce(t *testing.T) {
	args := strings.Fields("eval allreduce -P 4096 -alpha 1e-6 -N 8 -period 1e-3 -duration 1e-5 -seed 1")
	out, _, err := clitest.Run(t, cmd, args...)
	if err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "eval_allreduce.stdout", []byte(out))
	again, _, _ := clitest.Run(t, cmd, args...)
	if again != out {
		t.Fatal("same seed, different output")
	}
}

// evalOut is what the tests read of eval allreduce's JSON.
type evalOut struct {
	Trials int `json:"trials"`
	Rule   struct {
		Adaptive  bool `json:"adaptive"`
		MinTrials int  `json:"min_trials"`
		BelowMin  bool `json:"below_min"`
		Capped    bool `json:"capped"`
	} `json:"rule"`
	Intervals struct {
		Proposed stats.Interval `json:"proposed"`
	} `json:"intervals"`
}

// TestEvalAuditCase is issue 22's case: 30 trials of the os_hits=wall
// reading at P = 4096, α = 1e-7, N = 90, period 1e-2, duration 1e-4 gave
// the proposed time as 2.559 µs ± 0.011, where 4,000 trials of an
// independent implementation gave 3.09 µs and 40,000 of the engine 3.13
// [3.06, 3.20] (docs/allreduce.md). Not one of the 30 trials met the rare
// event (both parity classes hit at stage 1, P = 0.006) that moves the
// mean. With its defaults eval runs the minimum the event's probability
// asks (1644 trials) and its interval holds the answer; a fixed 30 still
// misses it, and says it ran below the minimum.
func TestEvalAuditCase(t *testing.T) {
	// The command as it stands: eval's default reading is the
	// engine's, os_hits=wall, the reading the independent answer is of.
	const audit = "eval allreduce -P 4096 -alpha 1e-7 -N 90 -period 1e-2 -duration 1e-4"
	run := func(args string) (evalOut, string) {
		out, stderr, err := clitest.Run(t, cmd, strings.Fields(args)...)
		if err != nil {
			t.Fatal(err)
		}
		var ev evalOut
		if err := json.Unmarshal([]byte(out), &ev); err != nil {
			t.Fatal(err)
		}
		return ev, stderr
	}
	ev, _ := run(audit)
	truth := [2]float64{3.09e-6, 3.13e-6}
	if p := ev.Intervals.Proposed; !(p.Lo <= truth[0] && truth[1] <= p.Hi) || ev.Trials < ev.Rule.MinTrials || ev.Rule.MinTrials != 1644 || !ev.Rule.Adaptive {
		t.Errorf("defaults: proposed %v after %d trials (minimum %d); want an interval holding %v, at least the minimum 1644", p, ev.Trials, ev.Rule.MinTrials, truth)
	}
	few, stderr := run(audit + " -trials 30 -fixed")
	if p := few.Intervals.Proposed; p.Contains(truth[0]) || !few.Rule.BelowMin || !strings.Contains(stderr, "fewer than the 1644") {
		t.Errorf("30 fixed trials: proposed %v, below_min %t, stderr %q; want the interval missing %g and a warning", p, few.Rule.BelowMin, stderr, truth[0])
	}
}

// TestAllreduceWorkers: at P = 2^24 each worker holds about 1 GB; eval
// allreduce runs as many as fit the budget (and says so), and refuses when
// not even one does.
func TestAllreduceWorkers(t *testing.T) {
	old := cli.Budget
	t.Cleanup(func() { cli.Budget = old })
	p := engine.Default()
	p.P, p.T = engine.MaxP, 24
	one := engine.Estimate(p, false).Bytes
	cores := min(runtime.GOMAXPROCS(0), 4)
	for _, fit := range []float64{0.5, 1.5, 100} {
		cli.Budget = func(bool) cost.Budget {
			return cost.Budget{Name: "the command", Bytes: fit * one, Seconds: budget.Seconds, Force: "-force"}
		}
		var stderr bytes.Buffer
		w, err := Workers(&stderr, p, 4, false)
		want := min(cores, int(fit))
		if want == 0 {
			if err == nil || !strings.Contains(err.Error(), "P = 16777216") {
				t.Errorf("budget %s: %d workers, %v; want a refusal naming P", cost.Bytes(fit*one), w, err)
			}
			continue
		}
		if err != nil || w != want {
			t.Errorf("budget %s: %d workers, %v; want %d", cost.Bytes(fit*one), w, err, want)
		}
		if said := strings.Contains(stderr.String(), "workers instead of"); said != (want < cores) {
			t.Errorf("budget %s: %d workers of %d cores, stderr %q", cost.Bytes(fit*one), w, cores, stderr.String())
		}
	}
}

// cmd is eval allreduce as gen-report's main runs it.
var cmd = clitest.Eval(Study{})
