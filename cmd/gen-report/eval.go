package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"commlab/engine/allreduce"
	"commlab/engine/sweep"
)

func runEval(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("eval: name a model: allreduce, logp, nbc, mmdl, overlay, goal")
	}
	switch args[0] {
	case "allreduce":
		return evalAllreduce(stdout, stderr, args[1:])
	case "logp":
		return evalLogp(stdout, stderr, args[1:])
	case "nbc":
		return evalNbc(stdout, stderr, args[1:])
	case "mmdl":
		return evalMmdl(stdout, stderr, args[1:])
	case "overlay":
		return evalOverlay(stdout, stderr, args[1:])
	case "goal":
		return evalGoal(stdout, stderr, args[1:])
	}
	return fmt.Errorf("eval: unknown model %q (models: allreduce, logp, nbc, mmdl, overlay, goal)", args[0])
}

// maxTrials bounds -trials: enough for any standard error anyone needs,
// small enough that a typo does not run for a day.
const maxTrials = 1_000_000

// allreduceEval is the JSON that `eval allreduce` prints.
type allreduceEval struct {
	Model  string           `json:"model"`
	Params allreduce.Params `json:"params"`
	Seed   uint64           `json:"seed"`
	allreduce.Summary
}

func evalAllreduce(stdout, stderr io.Writer, args []string) error {
	p := allreduce.Default()
	p.T = -1 // all K, whatever P is
	fs := newFlagSet("eval allreduce", stderr, "gen-report eval allreduce [flags]")
	bindParams(fs.FlagSet, &p)
	trials := fs.Int("trials", 30, "Monte-Carlo trials, in [1, 1000000]")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output byte for byte")
	force := addForce(fs.FlagSet)
	if err := fs.parse(args, false); err != nil {
		return err
	}
	if *trials < 1 || *trials > maxTrials {
		return fmt.Errorf("eval allreduce: -trials = %d is out of range: want an integer in [1, %d]", *trials, maxTrials)
	}
	if p.T == -1 && p.P >= 2 {
		p.T = p.K()
	}
	if err := p.Validate(); err != nil {
		return fs.paramError(err)
	}
	workers, err := allreduceWorkers(stderr, p, *trials, *force)
	if err != nil {
		return err
	}
	res, err := sweep.Run(context.Background(), sweep.Plan{Points: 1, Trials: *trials, Seed: *seed, Workers: workers},
		func() *allreduce.Simulator { return new(allreduce.Simulator) },
		func(s *allreduce.Simulator, _, _ int, rng *rand.Rand) ([]float64, error) {
			r, err := s.Run(p, rng, nil)
			return r.ByT, err
		})
	if err != nil {
		return err
	}
	sum, err := allreduce.Summarize(p, res[0])
	if err != nil {
		return err
	}
	return fs.writeJSON(stdout, allreduceEval{Model: "allreduce", Params: p, Seed: *seed, Summary: sum})
}
