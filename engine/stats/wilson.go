package stats

import (
	"fmt"
	"math"
)

// Wilson is Wilson's score interval for a proportion, hits of n trials:
// the p for which the observed hits are within Z95 standard errors,
// (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n). Unlike p̂ ± z·SE it
// never leaves [0, 1] and is not empty at 0 or n hits: 0 hits of 30 give
// [0, 0.114], not [0, 0] (Brown, Cai and DasGupta 2001 compare the two).
func Wilson(hits, n int) (Interval, error) {
	if n < 1 || hits < 0 || hits > n {
		return Interval{}, fmt.Errorf("stats: Wilson interval of %d hits in %d trials: want n ≥ 1 and 0 ≤ hits ≤ n", hits, n)
	}
	const z2 = Z95 * Z95
	fn := float64(n)
	ph := float64(hits) / fn
	den := 1 + z2/fn
	mid := (ph + z2/(2*fn)) / den
	h := Z95 * math.Sqrt(float64(ph*(1-ph))/fn+z2/float64(4*float64(fn*fn))) / den
	lo, hi := max(mid-h, 0), min(mid+h, 1)
	if hits == 0 {
		lo = 0
	}
	if hits == n {
		hi = 1
	}
	return Interval{Mean: ph, N: n, Lo: lo, Hi: hi, Level: Level, Method: MethodWilson}.finite()
}
