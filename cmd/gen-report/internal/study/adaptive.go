package study

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"commlab/engine/sweep"
)

// Rule is an adaptive study's stopping rule (issue 22): every point runs
// blocks of Block trials until its statistic's 95 % half-width is within
// Precision of its estimate, from its minimum on and up to its cap. It is
// sweep.Rule with a cap of each point's own: a point whose trials cost
// much stops earlier than a cheap one, and a point whose cap is below
// Block runs blocks of its cap. Cap and MinTrials must be deterministic
// functions of the point (every shard lays them out alone).
type Rule struct {
	Block     int     // trials per block (or the point's cap, if less)
	Precision float64 // relative 95 % half-width to stop at
	// Cap is the point's last checkpoint, unless its minimum is above it
	// (then the minimum wins: see sweep.Rule).
	Cap func(point int) int
	// MinTrials is the fewest trials the point may stop at.
	MinTrials func(point int) int
}

// Span is a point's first and last checkpoint under r, as sweep.Rule
// places them: the minimum rounded up to whole blocks, and the cap or the
// first checkpoint, whichever is later.
func (r Rule) Span(point int) (first, last int) {
	m, b := r.MinTrials(point), r.block(point)
	first = (m + b - 1) / b * b
	return first, max(r.Cap(point), first)
}

// block is point's block: Block, or its cap if that is less.
func (r Rule) block(point int) int { return max(1, min(r.Block, r.Cap(point))) }

// CheckStop says whether trials is where r can stop point: a checkpoint
// (the first, a whole number of blocks after it, or the last), and the
// last one when capped says the point stopped without its precision. It
// cannot replay the decisions before (a study that keeps only its
// summaries has no trials to replay), but it refuses a count no run of the
// rule gives.
func (r Rule) CheckStop(point, trials int, capped bool) error {
	first, last := r.Span(point)
	switch {
	case trials < first || trials > last:
		return fmt.Errorf("%d trials, but the rule stops it between %d and %d", trials, first, last)
	case trials != last && (trials-first)%r.block(point) != 0:
		b := r.block(point)
		return fmt.Errorf("%d trials, not a checkpoint of the rule (%d, %d, … every %d up to %d)", trials, first, first+b, b, last)
	case capped && trials != last:
		return fmt.Errorf("capped after %d trials, but its cap is %d", trials, last)
	}
	return nil
}

// RunUntil runs every owned point (every point when owned is nil) under
// rule, over the cores, and returns reduce's summary of each owned point's
// trials (the zero S for the others). trialCost is one trial's cost at
// each point, in the units of progress. Trial t of point pt draws from
// sweep.RNG(seed, pt, t) whichever points the run covers, and a point's
// decision to run another block reads only its own trials so far, so a
// point's trials, and its summary, are the same in every shard.
//
// The points are run in groups of equal cap, one sweep.RunUntil each, the
// group with the costliest trial first; a group's trials are dropped once
// reduce has summarized them, so a sweep of millions of trials holds one
// group's at a time.
func RunUntil[W, R, S any](ctx context.Context, owned []bool, trialCost []float64, rule Rule, seed uint64,
	progress func(done, total float64), stat sweep.Statistic[R], newWorker func() W,
	trial func(w W, point, trial int, rng *rand.Rand) (R, error),
	reduce func(point int, results []R, stop sweep.Stop) (S, error)) ([]S, error) {
	pts := Owned(owned, len(trialCost))
	out := make([]S, len(trialCost))
	byCap := map[int][]int{}
	var caps []int
	var planned float64 // the cost expected of the groups not yet run
	for _, pt := range pts {
		c := rule.Cap(pt)
		if byCap[c] == nil {
			caps = append(caps, c)
		}
		byCap[c] = append(byCap[c], pt)
		first, _ := rule.Span(pt)
		planned += trialCost[pt] * float64(first)
	}
	heaviest := func(c int) float64 {
		var m float64
		for _, pt := range byCap[c] {
			m = max(m, trialCost[pt])
		}
		return m
	}
	slices.SortFunc(caps, func(a, b int) int {
		if c := cmp.Compare(heaviest(b), heaviest(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var doneBefore float64
	for _, c := range caps {
		group := byCap[c]
		var expect float64
		for _, pt := range group {
			first, _ := rule.Span(pt)
			expect += trialCost[pt] * float64(first)
		}
		planned -= expect
		plan := sweep.Plan{
			Points: len(group), Seed: seed,
			Cost: func(i int) float64 { return trialCost[group[i]] },
			Until: &sweep.Rule{Block: max(1, min(rule.Block, c)), Precision: rule.Precision, Cap: c,
				MinTrials: func(i int) int { return rule.MinTrials(group[i]) }},
		}
		var last float64
		if progress != nil {
			plan.Progress = func(done, total float64) {
				last = done
				progress(doneBefore+done, doneBefore+total+planned)
			}
		}
		res, err := sweep.RunUntil(ctx, plan,
			func(i int, rs []R) (float64, float64, error) { return stat(group[i], rs) },
			newWorker, func(w W, i, t int, _ *rand.Rand) (R, error) {
				return trial(w, group[i], t, sweep.RNG(seed, group[i], t))
			})
		if err != nil {
			return nil, err
		}
		doneBefore += last
		for i, pt := range group {
			if out[pt], err = reduce(pt, res.Results[i], res.Stops[i]); err != nil {
				return nil, fmt.Errorf("point %d: %w", pt, err)
			}
			res.Results[i] = nil
		}
	}
	return out, nil
}
