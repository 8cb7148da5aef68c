package allreduce

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"

	"commlab/cmd/gen-report/internal/cli"
	engine "commlab/engine/allreduce"
	"commlab/engine/cost"
	"commlab/engine/sweep"
)

// allreduceEval is the JSON that `eval allreduce` prints.
type allreduceEval struct {
	Model  string        `json:"model"`
	Params engine.Params `json:"params"`
	Seed   uint64        `json:"seed"`
	engine.Summary
}

func evalAllreduce(stdout, stderr io.Writer, args []string) error {
	p := engine.Default()
	p.T = -1 // all K, whatever P is
	fs := cli.NewFlagSet("eval allreduce", stderr, "gen-report eval allreduce [flags]")
	cli.BindParams(fs.FlagSet, &p)
	trials := fs.Int("trials", 30, "Monte-Carlo trials, in [1, 1000000]")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output byte for byte")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if *trials < 1 || *trials > cli.MaxTrials {
		return fmt.Errorf("eval allreduce: -trials = %d is out of range: want an integer in [1, %d]", *trials, cli.MaxTrials)
	}
	if p.T == -1 && p.P >= 2 {
		p.T = p.K()
	}
	if err := p.Validate(); err != nil {
		return fs.ParamError(err)
	}
	workers, err := Workers(stderr, p, *trials, *force)
	if err != nil {
		return err
	}
	res, err := sweep.Run(context.Background(), sweep.Plan{Points: 1, Trials: *trials, Seed: *seed, Workers: workers},
		func() *engine.Simulator { return new(engine.Simulator) },
		func(s *engine.Simulator, _, _ int, rng *rand.Rand) ([]float64, error) {
			r, err := s.Run(p, rng, nil)
			return r.ByT, err
		})
	if err != nil {
		return err
	}
	sum, err := engine.Summarize(p, res[0])
	if err != nil {
		return err
	}
	return fs.WriteJSON(stdout, allreduceEval{Model: "allreduce", Params: p, Seed: *seed, Summary: sum})
}

// Workers is how many sweep workers eval allreduce runs: one per
// core, fewer when their process states together would not fit the memory
// budget (about 1 GiB each at P = 2^24), and refused when the trials would
// not fit its time or one worker its memory. It says on stderr when it
// runs fewer workers than cores.
func Workers(stderr io.Writer, p engine.Params, trials int, force bool) (int, error) {
	one := engine.Estimate(p, false)
	b := cli.Budget(force)
	cores := min(runtime.GOMAXPROCS(0), trials)
	w := cores
	if b.Bytes > 0 && !math.IsInf(b.Bytes, 1) {
		w = max(1, min(w, int(b.Bytes/one.Bytes)))
	}
	all := one
	all.Events *= float64(trials)
	all.Bytes *= float64(w)
	all.Seconds *= math.Ceil(float64(trials) / float64(w))
	if trials > 1 {
		all.Why = fmt.Sprintf("trials = %d of %s", trials, one.Why)
		all.Key = "trials"
	}
	if err := all.Check(b); err != nil {
		return 0, fmt.Errorf("eval allreduce: %w", err)
	}
	if w < cores {
		fmt.Fprintf(stderr, "eval allreduce: %d workers instead of %d: each holds %s at P = %d, and %d fit %s's %s\n",
			w, cores, cost.Bytes(one.Bytes), p.P, w, b.Name, cost.Bytes(b.Bytes))
	}
	return w, nil
}
