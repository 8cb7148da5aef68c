package jitter

import "commlab/scene"

// numberSpecs label the run's Numbers for the page, in the order it
// lists them.
var numberSpecs = []scene.NumberSpec{
	{Key: "conventional", Label: "completion, conventional (this trial)", Unit: scene.UnitTime},
	{Key: "redundant", Label: "completion, redundant (this trial)", Unit: scene.UnitTime},
	{Key: "no_jitter", Label: "completion without jitter, K·(Tcomm + γN)", Unit: scene.UnitTime},
	{Key: "mean_conventional", Label: "mean completion over the trials, conventional", Unit: scene.UnitTime},
	{Key: "mean_redundant", Label: "mean completion over the trials, redundant", Unit: scene.UnitTime},
	{Key: "critical_conventional", Label: "last to finish, conventional", Unit: scene.UnitProcess},
	{Key: "critical_redundant", Label: "last to finish, redundant", Unit: scene.UnitProcess},
	{Key: "trials", Label: "trials in the histogram", Unit: scene.UnitCount},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
