package butterfly

import "commlab/scene"

// numberSpecs label the run's Numbers for the page, in the order it
// lists them.
var numberSpecs = []scene.NumberSpec{
	{Key: "conventional", Label: "completion, conventional butterfly", Unit: scene.UnitTime},
	{Key: "redundant", Label: "completion with the T redundant exchanges", Unit: scene.UnitTime},
	{Key: "no_jitter", Label: "completion without jitter, K·(Tcomm + γN)", Unit: scene.UnitTime},
	{Key: "critical_conventional", Label: "last to finish, conventional", Unit: scene.UnitProcess},
	{Key: "critical_redundant", Label: "last to finish, redundant", Unit: scene.UnitProcess},
	{Key: "P", Label: "processes P", Unit: scene.UnitCount},
	{Key: "K", Label: "butterfly stages K = log2 P", Unit: scene.UnitCount},
	{Key: "T", Label: "redundant exchanges T", Unit: scene.UnitCount},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *Run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
