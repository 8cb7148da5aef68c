package chart

import (
	"math"
	"strconv"
)

// NiceTicks returns the multiples of the smallest step of the form 1, 2 or
// 5 × 10^n that puts at most maxTicks of them in [lo, hi]. Each tick is an
// integer times the step, so labels carry no rounding noise.
func NiceTicks(lo, hi float64, maxTicks int) (ticks []float64, step float64) {
	if !(hi > lo) || maxTicks < 1 {
		return []float64{lo}, 0
	}
	first := func(step float64) float64 { return math.Ceil(lo/step - 1e-9) }
	count := func(step float64) int { return int(math.Floor(hi/step+1e-9) - first(step) + 1) }
	// Start a decade below the step that would give exactly maxTicks.
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/float64(maxTicks)))-1)
search:
	for ; ; mag *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if step = m * mag; count(step) <= maxTicks {
				break search
			}
		}
	}
	for i := first(step); i*step <= hi+step*1e-9; i++ {
		// Adding +0 turns -0 into 0, so the first label never reads "-0".
		ticks = append(ticks, i*step+0)
	}
	return ticks, step
}

// AxisLabel formats tick x of an axis whose ticks are step apart with as
// many decimals as the step has, so 7 × 0.1 reads "0.7", not
// "0.7000000000000001".
func AxisLabel(x, step float64) string {
	d := 0
	if step > 0 {
		d = max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}
