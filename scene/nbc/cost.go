package nbc

import (
	"commlab/engine/cost"
	"commlab/engine/nbc"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): its two traced runs
// (TCC and the LibNBC contrast), each nbc.Estimate with its trace, about
// as many records again as the run's events.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) {
	pt, pf, err := Params(v)
	if err != nil {
		return cost.Cost{}, err
	}
	var c cost.Cost
	for _, p := range []nbc.Params{pt, pf} {
		e := nbc.Estimate(p)
		e.Spans = e.Events
		e.Bytes *= 2
		e.Seconds *= 2
		if c.Why == "" {
			c = e
			continue
		}
		c.Events += e.Events
		c.Spans += e.Spans
		c.Bytes += e.Bytes
		c.Seconds += e.Seconds
	}
	return c, nil
}
