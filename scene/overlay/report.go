package overlay

import "commlab/scene"

// numberSpecs label the run's Numbers for the page, in the order it
// lists them. The connection counts are peaks over the whole run (each
// process's largest number of open connections), not counts at the
// playhead, which the picture's counters show.
var numberSpecs = []scene.NumberSpec{
	{Key: "time", Label: "Integer Sort time", Unit: scene.UnitTime},
	{Key: "conn_max", Label: "peak open connections, busiest process", Unit: scene.UnitCount},
	{Key: "conn_mean", Label: "peak open connections, mean over processes", Unit: scene.UnitPlain},
	{Key: "relayed", Label: "messages relayed", Unit: scene.UnitCount},
	{Key: "shortcuts", Label: "shortcuts opened", Unit: scene.UnitCount},
	{Key: "evicted", Label: "shortcuts evicted (LRU)", Unit: scene.UnitCount},
	{Key: "join_rtts", Label: "join: RTTs measured (one per switch)", Unit: scene.UnitCount},
	{Key: "join_switch", Label: "join: switch placed on (-1: refused)", Unit: scene.UnitPlain},
	{Key: "join_connections", Label: "join: connections opened", Unit: scene.UnitCount},
	{Key: "leave_closed", Label: "leave: connections closed", Unit: scene.UnitCount},
	{Key: "leave_opened", Label: "leave: replacement connections opened", Unit: scene.UnitCount},
	{Key: "rerouted", Label: "leave: routes whose next hop changed", Unit: scene.UnitCount},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
