package nbc

import (
	"commlab/engine/cost"
	"commlab/engine/nbc"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): its two traced runs
// (TCC and the LibNBC contrast), each nbc.Estimate with its trace.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) {
	pt, pf, err := Params(v)
	if err != nil {
		return cost.Cost{}, err
	}
	var c cost.Cost
	for _, p := range []nbc.Params{pt, pf} {
		e := nbc.Estimate(p)
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
