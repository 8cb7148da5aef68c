package nbc

import (
	"commlab/engine/cost"
	enbc "commlab/engine/nbc"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): its two traced runs
// (TCC and the LibNBC contrast), each enbc.Estimate with its trace.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) { return checked.Estimate(v) }

// Cost is Estimate once the values are checked.
func (m *model) Cost(scene.Values) (cost.Cost, error) {
	var c cost.Cost
	for _, p := range []enbc.Params{m.tcc, m.nbcf} {
		e := enbc.Estimate(p)
		// Tracing: about a record per event, half again the time.
		e.Spans = e.Events
		e.Bytes *= 2
		e.Seconds *= 1.5
		if e.Seconds > c.Seconds { // the heavier run names the cost
			c.Key, c.Why, c.Fit = e.Key, e.Why, e.Fit
		}
		c.Events += e.Events
		c.Spans += e.Spans
		c.Bytes += e.Bytes
		c.Seconds += e.Seconds
	}
	return c, nil
}
