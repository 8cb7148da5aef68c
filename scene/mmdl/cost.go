package mmdl

import (
	"commlab/engine/cost"
	emmdl "commlab/engine/mmdl"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): the steady state (solved
// here too: a closed form, cheap beside the rounds) and the round schedule,
// R rounds or the scheduler's choice.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) { return checked.Estimate(v) }

// Cost is Estimate once the values are checked.
func (m *model) Cost(v scene.Values) (cost.Cost, error) {
	in := m.in
	st, err := emmdl.SteadyState(in)
	if err != nil {
		return cost.Cost{}, err
	}
	sched, err := emmdl.ParseSched(v[KeySchedule])
	if err != nil {
		return cost.Cost{}, err
	}
	if R := v.Int(KeyRounds); R > 0 {
		return emmdl.Estimate(len(in.MHz), len(st.Transfers), R), nil
	}
	return emmdl.EstimateChoose(len(in.MHz), len(st.Transfers), st.T, in.Latency, sched), nil
}
