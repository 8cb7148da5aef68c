package scene

import (
	"math"
	"math/rand/v2"
	"strconv"

	"commlab/engine/sweep"
)

// RNG is the random source of trial number trial of a scene run with seed:
// trial 0 is the run a scene draws, further trials feed its histograms. It
// is sweep.RNG at point 0, so a native program reproduces a page's numbers
// from its seed alone.
func RNG(seed uint64, trial int) *rand.Rand { return sweep.RNG(seed, 0, trial) }

// Seconds formats a time in seconds for a label with an SI prefix and three
// significant digits: "12.3 µs", "1.05 ms", "0 s".
func Seconds(t float64) string {
	if t == 0 || math.IsNaN(t) || math.IsInf(t, 0) {
		return strconv.FormatFloat(t, 'g', -1, 64) + " s"
	}
	units := []struct {
		scale float64
		name  string
	}{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}
	a := math.Abs(t)
	u := units[len(units)-1]
	for _, c := range units {
		if a >= c.scale*0.9995 {
			u = c
			break
		}
	}
	return strconv.FormatFloat(t/u.scale, 'g', 3, 64) + " " + u.name
}

// Time formats a time of a run of the scene described by info: Seconds,
// or a plain number of info.TimeUnit ("47.36 additions").
func Time(info Info, t float64) string {
	if info.TimeUnit == "" {
		return Seconds(t)
	}
	return strconv.FormatFloat(t, 'g', 4, 64) + " " + info.TimeUnit
}
