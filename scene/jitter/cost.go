package jitter

import (
	"fmt"

	"commlab/engine/allreduce"
	"commlab/engine/cost"
	"commlab/scene"
	"commlab/scene/butterfly"
)

// Estimate is what Build will take for v (parsed): the traced trial 0 and
// its tables, plus the histogram's trials, each an untraced trial on one
// reused Simulator (their time adds up, their memory does not).
func (Scene) Estimate(v scene.Values) (cost.Cost, error) { return checked.Estimate(v) }

// Cost is Estimate once the values are checked.
func (m *model) Cost(v scene.Values) (cost.Cost, error) { return Estimate(m.p, v.Int(KeyTrials)), nil }

// Estimate is the jitter scene's cost for p (valid) and n trials.
func Estimate(p allreduce.Params, n int) cost.Cost {
	c := butterfly.Estimate(p)
	one := allreduce.Estimate(p, false)
	c.Events += float64(n) * one.Events
	c.Seconds += float64(n) * one.Seconds
	c.Bytes += one.Bytes + 16*float64(n)
	if float64(n)*one.Seconds > c.Seconds/2 {
		// The trials are most of it: name them with what drives one.
		c.Key = "trials"
		c.Why = fmt.Sprintf("trials = %d of %s", n, one.Why)
	}
	// Only the trials scale with n (trial 0's trace and the tables stay),
	// so every knob moves this estimate, not the butterfly's.
	c.Knobs = func() cost.Knobs {
		trials := cost.Knob{Key: KeyTrials, Now: float64(n), Down: true, Min: 10, Max: 1000, Int: true}
		return allreduce.KnobsWith(p, []cost.Knob{trials}, func(q allreduce.Params, at []float64) cost.Cost { return Estimate(q, int(at[0])) })
	}
	return c
}
