package allreduce

import (
	"bytes"
	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/clitest"
	"commlab/cmd/internal/budget"
	engine "commlab/engine/allreduce"
	"commlab/engine/cost"
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
		out, _, err := clitest.Run(t, cmd, "eval", "allreduce", "-P", "64", "-T", fmt.Sprint(T), "-trials", "3")
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

// TestEvalAllreduceOptions pins a stationary and an inverse-wait point, and
// checks that the options change the numbers (they are not ignored).
func TestEvalAllreduceOptions(t *testing.T) {
	const base = "eval allreduce -P 1024 -period 1e-2 -duration 1e-4 -alpha 1e-7 -N 0 -trials 10 -seed 3"
	clitest.EvalGolden(t, cmd, "eval_allreduce_stationary.stdout", base+" -os_phase stationary")
	clitest.EvalGolden(t, cmd, "eval_allreduce_inverse.stdout", base+" -net_wait inverse")
	conv := func(args ...string) float64 {
		out, _, err := clitest.Run(t, cmd, append([]string{"eval", "allreduce", "-P", "1024", "-period", "1e-2", "-duration", "1e-4", "-alpha", "1e-7", "-N", "0", "-trials", "10", "-seed", "3"}, args...)...)
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
	} {
		t.Run(tc.args, func(t *testing.T) { clitest.BadInput(t, cmd, tc.args, tc.want) })
	}
}

// TestEvalAllreduce runs the example and pins its output: the same
// seed gives the same bytes.
func TestEvalAllreduce(t *testing.T) {
	args := strings.Fields("eval allreduce -P 4096 -alpha 1e-6 -N 8 -period 1e-3 -duration 1e-5 -trials 30 -seed 1")
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
