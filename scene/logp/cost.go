package logp

import (
	"commlab/engine/cost"
	elogp "commlab/engine/logp"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): the plan, its two
// traced replays, the running mean's replays and the Monte Carlo E[T]'s
// trials (as many as keep their operations near ExpectedOps).
func (Scene) Estimate(v scene.Values) (cost.Cost, error) { return checked.Estimate(v) }

// Cost is Estimate once the values are checked.
func (m *model) Cost(v scene.Values) (cost.Cost, error) {
	p, ls := m.p, m.ls
	ops := elogp.Ops(p, ls)
	trials := min(MaxExpectedTrials, max(MinExpectedTrials, ExpectedOps/max(1, ops)))
	c := elogp.Estimate(p, ls, 2+v.Int(KeyReplays)+trials, 1)
	c.Spans = 2 * float64(ops)
	// Two traces of about a span and a message per operation, and what
	// each replay of the running mean allocates (measured at P = 32,
	// n = 1e6, 2000 replays: 35.9 MB in all, about 110 bytes an operation
	// a replay).
	c.Bytes += 2*150*float64(ops) + 120*float64(ops)*float64(v.Int(KeyReplays))
	c.Key = KeyReplays
	return c, nil
}
