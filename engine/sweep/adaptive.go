package sweep

import (
	"math"

	"commlab/internal/errf"
)

// MaxTrials bounds the trials of one point, whatever a rule or its
// minimum asks: a point's results are held in memory.
const MaxTrials = 1 << 24

// Rule says how many trials a point of an adaptive plan runs. A point runs
// blocks of Block trials; after each block (a checkpoint) the plan's
// statistic gives the estimate and its 95 % half-width from all the
// point's trials so far, and the point stops when
//
//	half-width ≤ Precision · |estimate|
//
// or at its last checkpoint. The first checkpoint is the point's minimum
// (MinTrials) rounded up to whole blocks; the last is Cap, or the first
// when the minimum is above the cap: the minimum wins, since stopping
// below it would trust a spread that only means a rare event has not
// happened yet. Checkpoints are first, first + Block, … up to the last.
type Rule struct {
	Block     int     // trials per block, ≥ 1
	Precision float64 // relative half-width to stop at, in (0, 1], e.g. 0.02
	Cap       int     // the last checkpoint (when the minimum is below it), in [1, MaxTrials]
	// MinTrials is the fewest trials a point may stop at (e.g. from the
	// probability of the rare event that drives its cost: enough trials
	// to see it several times). nil: one block. It must be deterministic.
	MinTrials func(point int) int
	// Expect is a prior estimate of the trials a point will run, for the
	// cost split between shards and for progress. nil: its first
	// checkpoint. It must be deterministic.
	Expect func(point int) float64
}

// Statistic gives a point's estimate and the half-width of its 95 %
// interval from the point's results so far, in trial order: for a mean,
// stats.MeanT's Mean and HalfWidth(); for a comparison under common
// random numbers, a paired ratio's. A NaN or infinite half-width counts as
// not precise yet (too few trials for an interval). It is called from the
// worker goroutines, one call per point at a time, and must be a pure
// function of its arguments.
type Statistic[R any] func(point int, results []R) (estimate, halfWidth float64, err error)

// Stop is how a point of an adaptive plan ended.
type Stop struct {
	Trials int  `json:"trials"` // trials run
	Min    int  `json:"min"`    // the minimum it was given (MinTrials)
	Capped bool `json:"capped"` // stopped at its last checkpoint without reaching the precision
}

// Result is an adaptive sweep's outcome: Results[point][trial] as Run's,
// with as many trials per point as the rule ran, and Stops[point] saying
// how each point ended. Points outside the shard are nil and zero.
type Result[R any] struct {
	Results [][]R
	Stops   []Stop
}

func (r *Rule) check() error {
	switch {
	case r.Block < 1 || r.Block > MaxTrials:
		return errf.Errorf("sweep: rule: Block = %d is out of range: want an integer in [1, %d]", r.Block, MaxTrials)
	case !(r.Precision > 0 && r.Precision <= 1):
		return errf.Errorf("sweep: rule: Precision = %v is out of range: want a relative half-width in (0, 1]", r.Precision)
	case r.Cap < 1 || r.Cap > MaxTrials:
		return errf.Errorf("sweep: rule: Cap = %d is out of range: want an integer in [1, %d]", r.Cap, MaxTrials)
	}
	return nil
}

// minimum is MinTrials(point), checked.
func (r *Rule) minimum(point int) (int, error) {
	if r.MinTrials == nil {
		return r.Block, nil
	}
	m := r.MinTrials(point)
	if m < 1 || m > MaxTrials {
		return 0, errf.Errorf("sweep: rule: MinTrials(%d) = %d is out of range: want an integer in [1, %d]", point, m, MaxTrials)
	}
	return m, nil
}

// span is a point's first and last checkpoints.
func (r *Rule) span(min int) (first, last int) {
	first = (min + r.Block - 1) / r.Block * r.Block
	return first, max(r.Cap, first)
}

// precise reports whether an estimate and half-width meet the precision.
func (r *Rule) precise(est, hw float64) bool {
	if math.IsNaN(est) || math.IsInf(est, 0) || math.IsNaN(hw) || math.IsInf(hw, 0) {
		return false
	}
	return hw <= r.Precision*math.Abs(est)
}

// expect is the trials a point is expected to run.
func (r *Rule) expect(point, first int) (float64, error) {
	if r.Expect == nil {
		return float64(first), nil
	}
	e := r.Expect(point)
	if !(e >= 1 && e <= MaxTrials) {
		return 0, errf.Errorf("sweep: rule: Expect(%d) = %v is out of range: want a trial count in [1, %d]", point, e, MaxTrials)
	}
	return e, nil
}
