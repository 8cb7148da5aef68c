package allreduce

import (
	"fmt"
	"math"
	"slices"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	"commlab/engine/stats"
)

// The findings compare numbers made of many cells: the largest speedup of
// a figure, the P where a curve climbs, the median influence of a region.
// Their intervals come from the cells' own:
//
//   - an extreme (largest, least) or a place on a curve (where it first
//     reaches a level) by the envelope of the cells' intervals: if every
//     cell's true value lies in its interval, the true extreme lies
//     between the extreme of the lower ends and that of the upper ends,
//     and a curve crosses a level no earlier than its upper ends do and no
//     later than its lower ends;
//   - a median or a rank correlation over a region by the percentile
//     bootstrap over its cells (stats.Bootstrap, seeded by the data): the
//     spread over the grid, far wider than any one cell's interval.
const (
	methodEnvelope  = "envelope of the cells' intervals"
	methodBootCells = "bootstrap over the cells"
)

// extreme is the largest (sign 1) or least (sign −1) of ivs by estimate,
// with the envelope of their intervals, and the index of the cell that
// holds it (−1 for none).
func extreme(ivs []stats.Interval, sign float64) (stats.Interval, int) {
	at := -1
	var out stats.Interval
	for i, iv := range ivs {
		if at < 0 {
			at, out = i, iv
			continue
		}
		if sign*iv.Mean > sign*out.Mean {
			at, out.Mean, out.N = i, iv.Mean, iv.N
		}
		if sign > 0 {
			out.Lo, out.Hi = math.Max(out.Lo, iv.Lo), math.Max(out.Hi, iv.Hi)
		} else {
			out.Lo, out.Hi = math.Min(out.Lo, iv.Lo), math.Min(out.Hi, iv.Hi)
		}
	}
	out.Method = methodEnvelope
	return out, at
}

// envelope is an interval made of cells' intervals (methodEnvelope), its
// ends widened, if need be, to hold the estimate.
func envelope(mean, lo, hi float64, n int) stats.Interval {
	return stats.Interval{Mean: mean, N: n, Lo: math.Min(lo, mean), Hi: math.Max(hi, mean), Level: stats.Level, Method: methodEnvelope}
}

// medianOver is the median of xs with its percentile bootstrap interval
// over the cells.
func medianOver(xs []float64) (stats.Interval, error) {
	if len(xs) < 2 {
		return stats.Interval{}, fmt.Errorf("a median over %d cells", len(xs))
	}
	buf := make([]float64, len(xs))
	lo, hi, err := stats.Bootstrap(len(xs), stats.Resamples, stats.DataSeed(xs), func(idx []int) float64 {
		for i, j := range idx {
			buf[i] = xs[j]
		}
		return verdict.Median(buf)
	})
	if err != nil {
		return stats.Interval{}, err
	}
	m := verdict.Median(xs)
	return stats.Interval{Mean: m, N: len(xs), Lo: math.Min(lo, m), Hi: math.Max(hi, m), Level: stats.Level, Method: methodBootCells}, nil
}

// spearmanOver is Spearman's ρ of (x, y) with its percentile bootstrap
// interval over the pairs; a resample in which a side is constant shows
// no trend and counts as ρ = 0.
func spearmanOver(x, y []float64) (stats.Interval, error) {
	rho := verdict.Spearman(x, y)
	if math.IsNaN(rho) {
		return stats.Interval{}, fmt.Errorf("no rank correlation over %d cells (too few, or a side constant)", len(x))
	}
	bx, by := make([]float64, len(x)), make([]float64, len(y))
	lo, hi, err := stats.Bootstrap(len(x), stats.Resamples, stats.DataSeed(x, y), func(idx []int) float64 {
		for i, j := range idx {
			bx[i], by[i] = x[j], y[j]
		}
		if r := verdict.Spearman(bx, by); !math.IsNaN(r) {
			return r
		}
		return 0
	})
	if err != nil {
		return stats.Interval{}, err
	}
	return stats.Interval{Mean: rho, N: len(x), Lo: math.Min(lo, rho), Hi: math.Max(hi, rho), Level: stats.Level, Method: methodBootCells}, nil
}

// crossing is where the curve ys over xs (ascending) first reaches level,
// interpolated linearly in log y between grid points; xs[0] if it starts
// there, +Inf if it never does.
func crossing(xs, ys []float64, level float64) float64 {
	for i, y := range ys {
		if !(y >= level) {
			continue
		}
		if i == 0 {
			return xs[0]
		}
		a, b := math.Log(ys[i-1]), math.Log(y)
		if !(b > a) || math.IsNaN(a) {
			return xs[i]
		}
		return xs[i-1] + (xs[i]-xs[i-1])*(math.Log(level)-a)/(b-a)
	}
	return math.Inf(1)
}

// crossingOf is where the curve of intervals ivs over xs first reaches
// level: the estimate's crossing, no earlier than the upper ends' and no
// later than the lower ends'. Never is past, the grid's end plus a step.
func crossingOf(xs []float64, ivs []stats.Interval, level float64) stats.Interval {
	mid, lo, hi := make([]float64, len(ivs)), make([]float64, len(ivs)), make([]float64, len(ivs))
	n := math.MaxInt
	for i, iv := range ivs {
		mid[i], lo[i], hi[i] = iv.Mean, iv.Lo, iv.Hi
		n = min(n, iv.N)
	}
	past := xs[len(xs)-1] + (xs[len(xs)-1]-xs[0])/float64(max(len(xs)-1, 1))
	clip := func(x float64) float64 {
		if math.IsInf(x, 1) {
			return past
		}
		return x
	}
	return envelope(clip(crossing(xs, mid, level)), clip(crossing(xs, hi, level)), clip(crossing(xs, lo, level)), n)
}

// notCheckable is a check the grid cannot decide: it lacks the P range
// the claim is about.
func notCheckable(c verdict.Claim) verdict.Check {
	return verdict.Check{Claim: c, Verdict: report.NotCheckable}
}

// combine is verdict.Combine over the checks the grid can decide; not
// checkable when it can decide none.
func combine(checks ...verdict.Check) report.Verdict {
	var decided []verdict.Check
	for _, c := range checks {
		if c.Verdict != report.NotCheckable {
			decided = append(decided, c)
		}
	}
	if len(decided) == 0 {
		return report.NotCheckable
	}
	return verdict.Combine(decided...)
}

// evidence lists the checks, one sentence each, a not-checkable one with
// why.
func evidence(why string, checks ...verdict.Check) string {
	var s []string
	for _, c := range checks {
		if c.Verdict == report.NotCheckable {
			s = append(s, fmt.Sprintf("%s against %s: not checkable on this grid (%s)", c.Claim.What, c.Claim.Paper, why))
			continue
		}
		s = append(s, verdict.Evidence(c))
	}
	out := ""
	for _, x := range s {
		if out != "" {
			out += " "
		}
		out += x
		if x[len(x)-1] != '.' {
			out += "."
		}
	}
	return out
}

// tolerance is a finding's Tolerance: each claim's allowed range with the
// words it comes from.
func tolerance(claims ...verdict.Claim) string {
	var s []string
	seen := map[string]bool{}
	for _, c := range claims {
		line := fmt.Sprintf("%s: %s, from %s", c.What, verdict.Range(c.Lo, c.Hi), c.Words)
		if !seen[line] {
			seen[line] = true
			s = append(s, line)
		}
	}
	return joinSemi(s)
}

func joinSemi(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

// kIndexRange returns the indices of ks within [lo, hi], or nil when the
// grid does not reach both ends.
func kIndexRange(ks []int, lo, hi int) []int {
	if !slices.Contains(ks, lo) || !slices.Contains(ks, hi) {
		return nil
	}
	var out []int
	for i, k := range ks {
		if k >= lo && k <= hi {
			out = append(out, i)
		}
	}
	return out
}
