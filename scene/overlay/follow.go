package overlay

import (
	"strconv"

	"commlab/scene"
)

// The cluster fields' dependencies (scene.Follow): the engine needs at
// least one process per node, at most one leaf switch per node and fewer
// shortcuts than other processes. The processes' default follows the
// nodes (one process per node), so that more nodes never meet a refusal
// for a processes value the user did not choose.

func defaultProcs(v scene.Values) string { return strconv.Itoa(max(MinProcs, v.Int(KeyNodes))) }

func rangeProcs(v scene.Values) scene.Range {
	lo := max(MinProcs, v.Int(KeyNodes))
	return scene.Range{Lo: float64(lo), Hi: MaxProcs, Why: "processes ≥ nodes = " + v[KeyNodes]}
}

func rangeSwitches(v scene.Values) scene.Range {
	hi := min(MaxSwitches, v.Int(KeyNodes))
	return scene.Range{Lo: 1, Hi: float64(hi), Why: "switches ≤ nodes = " + v[KeyNodes]}
}

func rangeCache(v scene.Values) scene.Range {
	hi := min(MaxCache, v.Int(KeyProcs)-1)
	return scene.Range{Lo: 0, Hi: float64(hi), Why: "cache < processes = " + v[KeyProcs]}
}

func rangeJoin(v scene.Values) scene.Range {
	return scene.Range{Lo: -1, Hi: float64(min(MaxSwitches, v.Int(KeySwitches)) - 1), Why: "join < switches = " + v[KeySwitches]}
}

func rangeLeave(v scene.Values) scene.Range {
	return scene.Range{Lo: -1, Hi: float64(min(MaxNodes, v.Int(KeyNodes)) - 1), Why: "leave < nodes = " + v[KeyNodes]}
}
