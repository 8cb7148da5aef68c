package logp

import "commlab/scene"

// numberSpecs label the run's Numbers for the page, in the order it
// lists them. Times are in additions (Info.TimeUnit).
var numberSpecs = []scene.NumberSpec{
	{Key: "planned", Label: "T_s(L_s), as planned", Unit: scene.UnitTime},
	{Key: "T", Label: "T of the replay drawn", Unit: scene.UnitTime},
	{Key: "stall", Label: "stall in the replay drawn (T − planned)", Unit: scene.UnitTime},
	{Key: "late_messages", Label: "late messages in the replay drawn", Unit: scene.UnitCount},
	{Key: "mean_T", Label: "mean T over all replays", Unit: scene.UnitTime},
	{Key: "replays", Label: "replays in the running mean", Unit: scene.UnitCount},
	{Key: "expected", Label: "E[T](L_s), Monte Carlo", Unit: scene.UnitTime},
	{Key: "expected_stderr", Label: "standard error of E[T](L_s)", Unit: scene.UnitTime},
	{Key: "expected_trials", Label: "trials behind E[T](L_s)", Unit: scene.UnitCount},
	{Key: "processors_used", Label: "processors the plan uses", Unit: scene.UnitCount},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
