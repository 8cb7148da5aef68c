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
	"commlab/engine/stats"
	"commlab/engine/sweep"
)

// allreduceEval is the JSON that `eval allreduce` prints: the point's
// summary (engine.Summary: the means by T, standard errors) with the rule
// its trials ran under and every number's 95 % interval.
type allreduceEval struct {
	Model  string        `json:"model"`
	Params engine.Params `json:"params"`
	Seed   uint64        `json:"seed"`
	engine.Summary
	Rule      evalRule      `json:"rule"`
	Intervals evalIntervals `json:"intervals"`
}

// evalRule says how many trials ran and why.
type evalRule struct {
	// Adaptive: blocks of Block trials until the conventional mean, the
	// proposed mean and their ratio are within Precision (relative 95 %
	// half-width), from MinTrials on, up to Cap unless MinTrials is
	// above it. Not adaptive (-fixed): exactly Cap trials.
	Adaptive  bool    `json:"adaptive"`
	Precision float64 `json:"precision,omitempty"`
	Block     int     `json:"block,omitempty"`
	Cap       int     `json:"cap"`
	// MinTrials is Params.MinTrials(Precision/4): the trials that see
	// every rare event able to move a mean by a quarter of the precision
	// engine.MinHits times. BelowMin: the trials ran fewer (-fixed), so
	// the intervals may not yet hold the rare event's share.
	MinTrials int  `json:"min_trials"`
	BelowMin  bool `json:"below_min,omitempty"`
	// Capped: the rule stopped at its last checkpoint without reaching the
	// precision (the intervals are wider than it).
	Capped bool `json:"capped"`
	// Reached is the widest relative half-width at the stop.
	Reached float64 `json:"reached_precision"`
}

// evalIntervals are the summary's numbers with their 95 % intervals: the
// means by Student's t, the ratios over the paired trials by Fieller's
// theorem (the conventional and the proposed time of a trial come from one
// run), every half-width at least a quarter of the precision.
type evalIntervals struct {
	Conventional stats.Interval `json:"conventional"`
	Proposed     stats.Interval `json:"proposed"`
	Influence    stats.Interval `json:"influence"`
	Effect       stats.Interval `json:"effect"`
	Speedup      stats.Interval `json:"speedup"`
}

// evalBlock is the adaptive rule's block of trials.
const evalBlock = 10

func evalAllreduce(stdout, stderr io.Writer, args []string) error {
	p := engine.Default()
	p.T = -1 // all K, whatever P is
	fs := cli.NewFlagSet("eval allreduce", stderr, "gen-report eval allreduce [flags]")
	cli.BindParams(fs.FlagSet, &p)
	trials := fs.Int("trials", 1000, "Monte-Carlo trials, in [1, 1000000]: the most the adaptive rule runs (unless the rare event's minimum asks for more), or exactly this many with -fixed")
	precision := fs.Float64("precision", 0.02, "the adaptive rule stops when the 95 % half-widths of the conventional mean, the proposed mean and their ratio are within this share of them, in (0, 1]")
	fixed := fs.Bool("fixed", false, "run exactly -trials trials: no precision rule and no minimum (the paper ran 30)")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output byte for byte")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if *trials < 1 || *trials > cli.MaxTrials {
		return fmt.Errorf("eval allreduce: -trials = %d is out of range: want an integer in [1, %d]", *trials, cli.MaxTrials)
	}
	if !(*precision > 0 && *precision <= 1) {
		return fmt.Errorf("eval allreduce: -precision = %v is out of range: want a relative half-width in (0, 1]", *precision)
	}
	if p.T == -1 && p.P >= 2 {
		p.T = p.K()
	}
	if err := p.Validate(); err != nil {
		return fs.ParamError(err)
	}
	waive := *precision / 4
	rule := evalRule{Adaptive: !*fixed, Cap: *trials, MinTrials: p.MinTrials(waive)}
	worst := *trials
	plan := sweep.Plan{Points: 1, Seed: *seed}
	if *fixed {
		plan.Trials = *trials
		rule.BelowMin = *trials < rule.MinTrials
	} else {
		rule.Precision, rule.Block = *precision, evalBlock
		if rule.MinTrials > sweep.MaxTrials {
			return fmt.Errorf("eval allreduce: the rare event of these parameters needs %d trials (engine.MinHits = %d sightings), beyond the %d a run holds; run a fixed count with -fixed", rule.MinTrials, engine.MinHits, sweep.MaxTrials)
		}
		plan.Until = &sweep.Rule{Block: evalBlock, Precision: *precision, Cap: *trials,
			MinTrials: func(int) int { return rule.MinTrials }}
		worst = max(worst, (rule.MinTrials+evalBlock-1)/evalBlock*evalBlock)
	}
	workers, err := Workers(stderr, p, worst, *force)
	if err != nil {
		return err
	}
	plan.Workers = workers
	newSim := func() *engine.Simulator { return new(engine.Simulator) }
	run := func(s *engine.Simulator, _, _ int, rng *rand.Rand) ([]float64, error) {
		r, err := s.Run(p, rng, nil)
		return r.ByT, err
	}
	var byT [][]float64
	if *fixed {
		res, err := sweep.Run(context.Background(), plan, newSim, run)
		if err != nil {
			return err
		}
		byT = res[0]
	} else {
		res, err := sweep.RunUntil(context.Background(), plan, func(_ int, rs [][]float64) (float64, float64, error) { return 1, precisionOf(rs), nil }, newSim, run)
		if err != nil {
			return err
		}
		byT, rule.Capped = res.Results[0], res.Stops[0].Capped
	}
	sum, err := engine.Summarize(p, byT)
	if err != nil {
		return err
	}
	out := allreduceEval{Model: "allreduce", Params: p, Seed: *seed, Summary: sum, Rule: rule}
	if len(byT) >= 2 {
		c, err := summarize(p, byT, waive, rule.MinTrials, rule.MinTrials, rule.Capped)
		if err != nil {
			return err
		}
		out.Rule.Reached = c.Precision
		out.Intervals = evalIntervals{Conventional: c.Conventional, Proposed: c.Proposed, Influence: c.influence(p), Effect: c.Effect, Speedup: c.Speedup}
	} else {
		fmt.Fprintln(stderr, "eval allreduce: one trial carries no interval; the intervals are left empty")
	}
	if rule.BelowMin {
		fmt.Fprintf(stderr, "eval allreduce: %d trials are fewer than the %d these parameters need to see their rare event %d times: the intervals may miss it\n", *trials, rule.MinTrials, engine.MinHits)
	}
	return fs.WriteJSON(stdout, out)
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
