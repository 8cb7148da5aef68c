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
		fit := one.Fit
		// Only the trials scale with n: trial 0's trace and the tables
		// stay, so what fits is what the budget leaves after them (a plain
		// n/over suggested 77 trials where 64 fit).
		total, fixed := c.Seconds, c.Seconds-float64(n)*one.Seconds
		c.Fit = func(over float64) string {
			m := int((total/cost.Scale(over, 1) - fixed) / one.Seconds)
			if m >= 10 {
				return fmt.Sprintf("lower trials to at most %d, or %s", m, fit(over))
			}
			return fit(over * 10 / float64(n))
		}
	}
	return c
}
