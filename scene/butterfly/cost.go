package butterfly

import (
	"commlab/engine/allreduce"
	"commlab/engine/cost"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): the traced trial
// (allreduce.Estimate) and the run's own tables: finish times, stalls and
// adoptions per process and row (13 bytes), arrivals (8), a drawn message
// per message (56) and a stall per OS window that interrupted a reduction
// (32).
func (Scene) Estimate(v scene.Values) (cost.Cost, error) { return checked.Estimate(v) }

// Cost is Estimate once the values are checked.
func (m *model) Cost(scene.Values) (cost.Cost, error) { return Estimate(m.p), nil }

// Estimate is the butterfly scene's cost for p (valid, P ≤ MaxTraceP); the
// jitter scene adds its trials to it. The stalls are counted at their
// bound (allreduce.MaxStalls), as the trace reserves them.
func Estimate(p allreduce.Params) cost.Cost {
	c := allreduce.Estimate(p, true)
	P, K, T := float64(p.P), float64(p.K()), float64(p.T)
	rows := K + 1 + T
	// and about 200 bytes more per process and row for the layout's
	// tables (measured at P = 4096, N = 2.9e7: 65 MB allocated in all).
	c.Bytes += 13*rows*P + 8*rows*P + 56*P*(K+T) + 32*allreduce.MaxStalls(p) + 200*rows*P
	c.Knobs = func() cost.Knobs { return allreduce.Knobs(p, Estimate) }
	return c
}
