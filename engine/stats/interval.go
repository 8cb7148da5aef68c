package stats

import (
	"fmt"
	"math"
)

// Level is the confidence level of every interval here.
const Level = 0.95

// Z95 is the standard normal's 0.975 quantile, Φ⁻¹(0.975): the Wilson
// interval's z. (TestZ95 checks it against TQuantile at 10⁹ degrees of
// freedom.)
const Z95 = 1.959963984540054

// The methods an Interval names.
const (
	MethodT         = "t"                    // Student's t for a mean: MeanT, Running.Interval
	MethodDelta     = "ratio-delta-t"        // delta method with t quantiles for a ratio of paired means
	MethodFieller   = "fieller"              // Fieller's interval for a ratio of paired means
	MethodBootstrap = "bootstrap-percentile" // percentile bootstrap (RatioBootstrap)
	MethodWilson    = "wilson"               // Wilson's score interval for a proportion
	// MethodExact is a number without sampling error (a deterministic
	// model's output, a count): Lo = Mean = Hi.
	MethodExact = "exact"
)

// Interval is an estimate with its 95 % confidence interval. Its JSON
// field names are part of the reports' data format: keep them.
type Interval struct {
	// Mean is the point estimate: the sample mean, the ratio of the two
	// means, or the proportion of hits.
	Mean float64 `json:"mean"`
	// N is the number of trials (pairs, for a ratio) behind it.
	N int `json:"n"`
	// Lo and Hi bound the interval; Lo ≤ Mean ≤ Hi.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Level is the confidence level, 0.95.
	Level float64 `json:"level"`
	// Method names how Lo and Hi were found (the Method constants).
	Method string `json:"method"`
}

// HalfWidth is half the interval's width; for the asymmetric intervals
// (Fieller, bootstrap, Wilson) it is not the distance from Mean to either
// end.
func (iv Interval) HalfWidth() float64 { return (iv.Hi - iv.Lo) / 2 }

// Relative is HalfWidth over |Mean|: the precision an adaptive sweep
// stops at (+Inf for a zero mean).
func (iv Interval) Relative() float64 { return iv.HalfWidth() / math.Abs(iv.Mean) }

// Contains reports whether x lies in [Lo, Hi].
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// String prints the estimate, the interval and how it was found, to four
// significant digits: "2.559 [2.537, 2.581] (95 % t, n = 30)".
func (iv Interval) String() string {
	return fmt.Sprintf("%.4g [%.4g, %.4g] (%g %% %s, n = %d)", iv.Mean, iv.Lo, iv.Hi, 100*iv.Level, iv.Method, iv.N)
}

// finite checks an interval before it is returned: a NaN or an infinity
// would not survive JSON and says the data could not carry an interval.
func (iv Interval) finite() (Interval, error) {
	for _, v := range []float64{iv.Mean, iv.Lo, iv.Hi} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Interval{}, fmt.Errorf("stats: %s interval of %d values is not finite (mean %v, [%v, %v]): are there NaN or infinite values in the data?", iv.Method, iv.N, iv.Mean, iv.Lo, iv.Hi)
		}
	}
	return iv, nil
}
