package nbc

import "commlab/scene"

// numberSpecs label the run's Numbers for the page, in the order it
// lists them: TCC's run first, then LibNBC's on the same workload.
var numberSpecs = []scene.NumberSpec{
	{Key: "speedup", Label: "TCC speedup over blocking MPI", Unit: scene.UnitRatio},
	{Key: "total", Label: "TCC, total time", Unit: scene.UnitTime},
	{Key: "baseline", Label: "blocking MPI, total time", Unit: scene.UnitTime},
	{Key: "compute", Label: "computation alone", Unit: scene.UnitTime},
	{Key: "comm", Label: "communication alone", Unit: scene.UnitTime},
	{Key: "overlap", Label: "communication hidden behind computation", Unit: scene.UnitTime},
	{Key: "overhead", Label: "library and thread overhead", Unit: scene.UnitTime},
	{Key: "collectives", Label: "collectives issued", Unit: scene.UnitCount},
	{Key: "queue", Label: "HandleQueue slots", Unit: scene.UnitCount},
	{Key: "blocked_enqueues", Label: "enqueues that found the queue full", Unit: scene.UnitCount},
	{Key: "blocked_time", Label: "main thread blocked on a full queue", Unit: scene.UnitTime},
	{Key: "compute_threads", Label: "compute threads", Unit: scene.UnitCount},
	{Key: "nbcf_speedup", Label: "LibNBC speedup over its no-overlap run", Unit: scene.UnitRatio},
	{Key: "nbcf_total", Label: "LibNBC (progress function), total time", Unit: scene.UnitTime},
	{Key: "nbcf_baseline", Label: "LibNBC without overlap, total time", Unit: scene.UnitTime},
	{Key: "progress_calls", Label: "LibNBC progress calls (NBC_Test)", Unit: scene.UnitCount},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
