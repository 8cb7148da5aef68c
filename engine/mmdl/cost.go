package mmdl

import (
	"fmt"

	"commlab/engine/cost"
)

// opBytes is what Rounds allocates per operation of Ops's bound: the Op
// (56 bytes) in the schedule and in the per-processor lists, each grown by
// appending (measured: 400-420 bytes per operation placed, 290-330 per
// operation of the bound). nsOp is the time to place one on one core of
// the development machine: 134 ns in the mmdl scene's overlap schedule
// with the scheduler choosing (1.7 M operations in 0.22 s), 0.16-1 µs in
// single Rounds calls, up to 5.6 µs in one run under a load of 17.
// Re-measure with go test -run EstimateBounds -v ./engine/mmdl/.
const (
	opBytes = 420
	nsOp    = 600
)

// Ops bounds the operations of R rounds of flows transfers among procs
// processors: a send and a receive per flow and round, and a computation
// piece before each and after the last on every processor.
func Ops(procs, flows, R int) float64 {
	return float64(R) * (4*float64(flows) + float64(procs))
}

// Estimate is the cost of Rounds for procs processors, flows transfers (a
// steady state's Transfers) and R rounds. ChooseRounds builds one schedule
// at a time for round counts up to 4·R* (at most MaxChooseRounds): its
// peak is Estimate at that top.
func Estimate(procs, flows, R int) cost.Cost {
	ops := Ops(procs, flows, R)
	c := cost.Cost{
		Events:  ops,
		Bytes:   opBytes*ops + 64*float64(procs+R) + 64<<10,
		Seconds: nsOp * ops * 1e-9,
		Key:     "rounds",
		Why:     fmt.Sprintf("%d processors with %d transfers and rounds = %d schedule about %s operations", procs, flows, R, cost.Num(ops)),
	}
	c.Knobs = func() cost.Knobs {
		return cost.Knobs{
			List: []cost.Knob{{Key: "rounds", Now: float64(R), Down: true, Min: 1, Max: MaxRounds, Int: true}},
			Cost: func(at []float64) (cost.Cost, bool) { return Estimate(procs, flows, int(at[0])), true },
		}
	}
	// When no round count fits, it is the processors.
	c.Fit = func(float64) string {
		return fmt.Sprintf("use fewer processors: rounds = 1 alone schedules %s operations", cost.Num(Ops(procs, flows, 1)))
	}
	return c
}

// ChooseTop is the largest round count ChooseRounds tries for a steady
// state of length T with latency alpha.
func ChooseTop(T, alpha float64) int {
	return min(MaxChooseRounds, max(16, 4*OptimalRounds(T, alpha)))
}

// EstimateChoose is the cost of ChooseRounds: the paper's schedule tries
// round counts by a closed form and builds the best (at most the top); the
// overlap schedule builds every one of its grid (about five times the top's
// operations in all, since the grid grows by 1.25).
func EstimateChoose(procs, flows int, T, alpha float64, sched Sched) cost.Cost {
	top := ChooseTop(T, alpha)
	c := Estimate(procs, flows, top)
	if sched == Overlap {
		c.Events *= 6
		c.Seconds *= 6
	}
	c.Key = "rounds"
	c.Why = fmt.Sprintf("%d processors with %d transfers, the scheduler trying up to %d rounds, schedule about %s operations", procs, flows, top, cost.Num(c.Events))
	c.Fit = func(float64) string { return "give -rounds, or fewer processors" }
	return c
}
