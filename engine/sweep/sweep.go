package sweep

import (
	"context"
	"math/rand/v2"

	"commlab/internal/errf"
)

// Plan describes a grid and how to run it.
type Plan struct {
	Points int // grid points, ≥ 1
	// Trials is the number of Monte Carlo trials per point for Run, ≥ 1.
	// With Until set (RunUntil) it must be 0: the rule decides.
	Trials int
	Seed   uint64 // the sweep's seed
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Cost estimates one trial's relative cost at a point (e.g.
	// process-stage updates). Heavy points run first, shards split the
	// total cost evenly, and progress is reported in these units. It must
	// be a deterministic function of the point: every shard computes the
	// split from it independently. nil: every trial costs 1.
	Cost func(point int) float64
	// Progress, if set, is called after each trial with the cost done so
	// far and the total, always from the goroutine that called Run. Under
	// an adaptive rule the total grows when a point needs another block.
	Progress func(done, total float64)
	// Shard restricts the run to one slice of the points (see Owners).
	Shard Shard
	// Until makes the trials adaptive (RunUntil): each point runs blocks
	// of trials until its statistic is precise enough.
	Until *Rule
}

// RNG returns the random source of one job: PCG seeded from the sweep's
// seed, the point and the trial, and nothing else.
func RNG(seed uint64, point, trial int) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix(seed^splitmix(uint64(point))), splitmix(seed+0x9e3779b97f4a7c15*uint64(trial+1))))
}

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Trial runs trial number trial of point on a worker's W with the job's
// own random source, RNG(seed, point, trial).
type Trial[W, R any] func(w W, point, trial int, rng *rand.Rand) (R, error)

// Run runs trial for every (point, trial) of the plan that its shard owns.
// Each worker goroutine gets its own W from newWorker (a simulator with its
// buffers, say). The result is indexed [point][trial]; points outside the
// shard are nil. The first error stops the sweep and is returned with the
// point and trial that caused it; so does the context's cancellation.
func Run[W, R any](ctx context.Context, p Plan, newWorker func() W, trial Trial[W, R]) ([][]R, error) {
	if p.Until != nil {
		return nil, errf.Errorf("sweep: the plan has an adaptive rule: use RunUntil")
	}
	if p.Points < 1 || p.Trials < 1 {
		return nil, errf.Errorf("sweep: plan needs ≥ 1 point and ≥ 1 trial, got %d × %d", p.Points, p.Trials)
	}
	res, err := execute(ctx, p, nil, newWorker, trial)
	return res.Results, err
}

// RunUntil runs the plan's points in blocks of trials under its rule
// (p.Until): a point stops at the first checkpoint where stat says its
// estimate is precise enough, or at its last checkpoint (see Rule). The
// decision to run another block depends only on that point's earlier
// trials, which depend only on (seed, point, trial): the result is the
// same for any number of workers, any order of completion and any shards.
// Points outside the shard have nil results and a zero Stop.
func RunUntil[W, R any](ctx context.Context, p Plan, stat Statistic[R], newWorker func() W, trial Trial[W, R]) (Result[R], error) {
	if p.Until == nil {
		return Result[R]{}, errf.Errorf("sweep: RunUntil needs a rule (Plan.Until)")
	}
	if stat == nil {
		return Result[R]{}, errf.Errorf("sweep: RunUntil needs a statistic")
	}
	return execute(ctx, p, stat, newWorker, trial)
}
