package mmdl

import "commlab/scene"

// numberSpecs label the run's Numbers for the page, in the order it
// lists them.
var numberSpecs = []scene.NumberSpec{
	{Key: "makespan", Label: "makespan of the R-round schedule", Unit: scene.UnitTime},
	{Key: "T", Label: "steady-state time T", Unit: scene.UnitTime},
	{Key: "overhead", Label: "makespan − T", Unit: scene.UnitTime},
	{Key: "formula_total", Label: "the paper's T + T/R + α·R", Unit: scene.UnitTime},
	{Key: "rounds", Label: "rounds R", Unit: scene.UnitCount},
	{Key: "optimal_rounds", Label: "R* = √(T/α), rounded", Unit: scene.UnitCount},
	{Key: "optimal_total", Label: "T + T/R* + α·R*", Unit: scene.UnitTime},
	{Key: "latency", Label: "latency α per message", Unit: scene.UnitTime},
	{Key: "tasks", Label: "tasks in all", Unit: scene.UnitCount},
	{Key: "moved", Label: "tasks moved between processors", Unit: scene.UnitCount},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
