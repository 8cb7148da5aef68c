package butterfly

import (
	"math/bits"
	"strconv"

	"commlab/scene"
)

// The allreduce fields' dependencies (scene.Follow): T's default is K =
// log2 P, the paper's full set of redundant exchanges, and T ≤ K; the
// OS-jitter window is shorter than its period.

// stages is K = log2 P for the values' P (0 if P is not a power of two).
func stages(v scene.Values) int {
	p := v.Int("P")
	if p < 1 || p&(p-1) != 0 {
		return 0
	}
	return bits.Len(uint(p)) - 1
}

// defaultT is T's default: K.
func defaultT(v scene.Values) string { return strconv.Itoa(stages(v)) }

// rangeT is T's range: [0, K].
func rangeT(v scene.Values) scene.Range {
	k := stages(v)
	return scene.Range{Lo: 0, Hi: float64(k), Why: "T ≤ K = log2 P = " + strconv.Itoa(k)}
}

// rangeDuration is duration's range: below period.
func rangeDuration(v scene.Values) scene.Range {
	return scene.Range{Lo: 0, Hi: v.Float("period"), OpenHi: true, Why: "duration < period = " + v["period"] + " s"}
}
