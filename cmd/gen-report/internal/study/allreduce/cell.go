package allreduce

import (
	"fmt"
	"math"

	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/allreduce"
	"commlab/engine/stats"
)

// A cell is one sweep point's trials reduced to what the page shows, each
// number with its 95 % interval: the result a shard writes and the page
// reads. The trials themselves (a million or more in the full report) are
// not kept.
type cell struct {
	Trials int `json:"trials"`
	// Min is the minimum the rule gave the cell: Need, or, when Need's
	// trials would cost more than the rule's budget for a minimum, what
	// that budget affords (the cell is then short of its minimum).
	Min  int `json:"min_trials"`
	Need int `json:"need_trials"` // Params.MinTrials(rule.Waive)
	// Capped: the cell stopped at its cap without reaching the precision.
	Capped bool `json:"capped"`
	// Precision is the relative half-width the rule saw at the stop: the
	// largest of the conventional mean's, the proposed mean's and the
	// effect's (delta method).
	Precision float64 `json:"precision"`
	// MeanByT[T] is the mean time with T redundant exchanges, T = 0..K.
	MeanByT []float64 `json:"mean_by_T"`
	// BestT is the T in 1..K with the least mean (the paper's proposed
	// time); OptimalT the smallest T in 0..K within engine.OptimalTol of
	// the least mean.
	BestT    int `json:"best_T"`
	OptimalT int `json:"optimal_T"`
	// The conventional time (T = 0) and the proposed time (T = BestT):
	// t-intervals. Effect = proposed/conventional and Speedup =
	// conventional/proposed over the paired trials (common random
	// numbers): Fieller's interval, or the delta method's where Fieller's
	// is unbounded. Every half-width is at least rule.Waive of its
	// estimate: the rare events MinTrials waives are not in the spread.
	Conventional stats.Interval `json:"conventional"`
	Proposed     stats.Interval `json:"proposed"`
	Effect       stats.Interval `json:"effect"`
	Speedup      stats.Interval `json:"speedup"`
	// LateConv and LateProp count the trials whose conventional or
	// proposed time is later than the jitter-free time by more than half
	// a duration: the rare event MinTrials is about, as seen.
	LateConv int `json:"late_conventional"`
	LateProp int `json:"late_proposed"`
}

// short says whether the cell ran fewer trials than its minimum asks.
func (c *cell) short() bool { return c.Min < c.Need }

// influence is the conventional time over the jitter-free time, with the
// conventional time's interval (the jitter-free time is exact).
func (c *cell) influence(p engine.Params) stats.Interval {
	return scale(c.Conventional, 1/p.NoJitterTime())
}

func scale(iv stats.Interval, f float64) stats.Interval {
	iv.Mean, iv.Lo, iv.Hi = iv.Mean*f, iv.Lo*f, iv.Hi*f
	return iv
}

// means returns the mean time by T over trials, summed in trial order, and
// the T in 1..K (0 when K = 0) with the least mean.
func means(byT [][]float64) (m []float64, best int) {
	m = make([]float64, len(byT[0]))
	for _, r := range byT {
		for t, v := range r {
			m[t] += v
		}
	}
	n := float64(len(byT))
	for t := range m {
		m[t] /= n
	}
	best = min(1, len(m)-1)
	for t := 2; t < len(m); t++ {
		if m[t] < m[best] {
			best = t
		}
	}
	return m, best
}

// precisionOf is the adaptive rule's statistic: the largest relative 95 %
// half-width among what the page shows of a cell, the conventional mean,
// the proposed mean (at the best T so far) and their paired ratio. It is
// +Inf while there are too few trials for an interval.
func precisionOf(byT [][]float64) float64 {
	if len(byT) < 2 {
		return math.Inf(1)
	}
	_, best := means(byT)
	var conv, prop stats.Running
	var pair stats.Paired
	for _, r := range byT {
		conv.Add(r[0])
		prop.Add(r[best])
		pair.Add(r[best], r[0])
	}
	worst := 0.0
	for _, f := range []func() (stats.Interval, error){conv.Interval, prop.Interval, pair.Ratio} {
		iv, err := f()
		if err != nil {
			return math.Inf(1)
		}
		worst = max(worst, iv.Relative())
	}
	return worst
}

// summarize reduces a cell's trials (each Result.ByT, T = 0..K) to a cell.
func summarize(p engine.Params, byT [][]float64, waive float64, min, need int, capped bool) (cell, error) {
	if len(byT) < 2 {
		return cell{}, fmt.Errorf("%d trials: an interval needs 2 at least", len(byT))
	}
	m, best := means(byT)
	c := cell{Trials: len(byT), Min: min, Need: need, Capped: capped, Precision: precisionOf(byT), MeanByT: m, BestT: best}
	least := m[best]
	for _, v := range m {
		least = math.Min(least, v)
	}
	for t, v := range m {
		if v <= least*(1+engine.OptimalTol) {
			c.OptimalT = t
			break
		}
	}
	var conv, prop stats.Running
	var effect, speedup stats.Paired
	late := p.NoJitterTime() + p.Duration/2
	for _, tr := range byT {
		conv.Add(tr[0])
		prop.Add(tr[best])
		effect.Add(tr[best], tr[0])
		speedup.Add(tr[0], tr[best])
		if tr[0] > late {
			c.LateConv++
		}
		if tr[best] > late {
			c.LateProp++
		}
	}
	var err error
	if c.Conventional, err = conv.Interval(); err != nil {
		return cell{}, err
	}
	if c.Proposed, err = prop.Interval(); err != nil {
		return cell{}, err
	}
	if c.Effect, err = ratio(&effect); err != nil {
		return cell{}, err
	}
	if c.Speedup, err = ratio(&speedup); err != nil {
		return cell{}, err
	}
	for _, iv := range []*stats.Interval{&c.Conventional, &c.Proposed, &c.Effect, &c.Speedup} {
		*iv = floor(*iv, waive)
	}
	return c, nil
}

// ratio is Fieller's interval of a paired ratio, or the delta method's
// where Fieller's is unbounded (a denominator not distinguishable from 0:
// it cannot happen with times bounded below by the jitter-free time, but
// the fallback keeps a pathological shard file from failing the page).
func ratio(p *stats.Paired) (stats.Interval, error) {
	if iv, err := p.Fieller(); err == nil {
		return iv, nil
	}
	return p.Ratio()
}

// floor widens iv to a half-width of at least rel of its estimate on each
// side.
func floor(iv stats.Interval, rel float64) stats.Interval {
	h := rel * math.Abs(iv.Mean)
	iv.Lo = math.Min(iv.Lo, iv.Mean-h)
	iv.Hi = math.Max(iv.Hi, iv.Mean+h)
	return iv
}

// check vets a cell read from a shard file against its point's parameters
// and the rule: the trial count is a stop of the rule, the means are
// finite times, every interval holds its estimate, and the best and
// optimal T agree with the means.
func (c *cell) check(p engine.Params, r study.Rule, pt int, need int) error {
	k := p.T // the cell ran T = 0..p.T
	if minT := r.MinTrials(pt); c.Min != minT || c.Need != need {
		return fmt.Errorf("minimum %d (need %d), but the rule gives %d (need %d)", c.Min, c.Need, minT, need)
	}
	if err := r.CheckStop(pt, c.Trials, c.Capped); err != nil {
		return err
	}
	if !(c.Precision >= 0) || (!c.Capped && c.Precision > r.Precision) || (c.Capped && c.Precision <= r.Precision) {
		return fmt.Errorf("precision %v with capped = %t, against the rule's %v", c.Precision, c.Capped, r.Precision)
	}
	if len(c.MeanByT) != k+1 {
		return fmt.Errorf("%d mean times, want T+1 = %d", len(c.MeanByT), k+1)
	}
	for t, v := range c.MeanByT {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("the mean time with T = %d is %v, want a finite time > 0", t, v)
		}
	}
	if c.BestT < min(1, k) || c.BestT > k {
		return fmt.Errorf("best T = %d, want one in [%d, %d]", c.BestT, min(1, k), k)
	}
	if c.OptimalT < 0 || c.OptimalT > k {
		return fmt.Errorf("optimal T = %d, want one in [0, %d]", c.OptimalT, k)
	}
	for t := min(1, k); t <= k; t++ {
		if c.MeanByT[t] < c.MeanByT[c.BestT] {
			return fmt.Errorf("best T = %d, but T = %d has a lower mean", c.BestT, t)
		}
	}
	if c.LateConv < 0 || c.LateConv > c.Trials || c.LateProp < 0 || c.LateProp > c.Trials {
		return fmt.Errorf("late trials %d and %d of %d", c.LateConv, c.LateProp, c.Trials)
	}
	for _, f := range []struct {
		what string
		iv   stats.Interval
		mean float64
	}{{"conventional", c.Conventional, c.MeanByT[0]}, {"proposed", c.Proposed, c.MeanByT[c.BestT]},
		{"effect", c.Effect, c.MeanByT[c.BestT] / c.MeanByT[0]}, {"speedup", c.Speedup, c.MeanByT[0] / c.MeanByT[c.BestT]}} {
		iv := f.iv
		for _, v := range []float64{iv.Mean, iv.Lo, iv.Hi} {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("the %s interval [%v, %v] around %v: want finite numbers > 0", f.what, iv.Lo, iv.Hi, iv.Mean)
			}
		}
		if !(iv.Lo <= iv.Mean && iv.Mean <= iv.Hi) || iv.N != c.Trials || math.Abs(iv.Mean-f.mean) > 1e-9*f.mean {
			return fmt.Errorf("the %s interval %v does not hold the mean %v of %d trials", f.what, iv, f.mean, c.Trials)
		}
	}
	return nil
}
