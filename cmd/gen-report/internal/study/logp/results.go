package logp

import (
	"errors"
	"fmt"
	"math"

	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/logp"
	"commlab/engine/stats"
)

// logpOptimum is the optimal planning latency of one machine and what it
// buys. Times are in additions.
type logpOptimum struct {
	P         int
	Mu, Sigma float64
	PlannedMu float64 // T_s(μ): LogP's prediction with the mean latency
	// The closed form's optimum, E[T] there and E[T](μ), where the plan is
	// a star (P = 2, and P = 3 in the slides' setting); NaN otherwise.
	StarLs, StarExpected, StarMu float64
	// One entry per replicate search: the L_s* it found, and on fresh
	// draws (the same for both) E[T] of the plan it found and of the plan
	// of μ. Each replicate ran Trials trials.
	Ls, Expected, ExpectedMu []float64
	Trials                   int
}

// HasStar says whether the closed form holds for this machine.
func (o logpOptimum) HasStar() bool { return !math.IsNaN(o.StarLs) }

// StarOffset, StarExcess and StarSaving are the closed form's L_s* − μ,
// E[T](L_s*) − T_s(μ) and E[T](μ) − E[T](L_s*).
func (o logpOptimum) StarOffset() float64 { return o.StarLs - o.Mu }
func (o logpOptimum) StarExcess() float64 { return o.StarExpected - o.PlannedMu }
func (o logpOptimum) StarSaving() float64 { return o.StarMu - o.StarExpected }

// replicateT is the Student-t interval of a quantity over the replicate
// searches (len(xs) − 1 degrees of freedom). Its N is the trials behind
// it, every replicate's, so that an inconclusive verdict's "trials that
// would decide it" counts trials, not searches. Where it cannot be formed
// (fewer than two replicates, a value not finite) it reaches from −∞ to
// +∞: it decides nothing.
func (o logpOptimum) replicateT(xs []float64) stats.Interval {
	iv, err := stats.MeanT(xs)
	if err != nil {
		m := math.NaN()
		if len(xs) == 1 {
			m = xs[0]
		}
		iv = stats.Interval{Mean: m, Lo: math.Inf(-1), Hi: math.Inf(1), Level: stats.Level, Method: stats.MethodT}
	}
	iv.N = len(xs) * o.Trials
	return iv
}

// each maps f over the replicates.
func (o logpOptimum) each(f func(k int) float64) []float64 {
	out := make([]float64, len(o.Ls))
	for k := range out {
		out[k] = f(k)
	}
	return out
}

// The Monte Carlo search's numbers, each with its interval over the
// replicate searches: L_s*, L_s* − μ, E[T](L_s*) − T_s(μ) (the slides'
// "0.87 above"), E[T](μ) − E[T](L_s*) (what planning for the fluctuation
// buys), E[T](L_s*) and E[T](μ). The times are the out-of-sample replays.
func (o logpOptimum) LsIv() stats.Interval { return o.replicateT(o.Ls) }
func (o logpOptimum) OffsetIv() stats.Interval {
	return o.replicateT(o.each(func(k int) float64 { return o.Ls[k] - o.Mu }))
}
func (o logpOptimum) ExcessIv() stats.Interval {
	return o.replicateT(o.each(func(k int) float64 { return o.Expected[k] - o.PlannedMu }))
}
func (o logpOptimum) SavingIv() stats.Interval {
	return o.replicateT(o.each(func(k int) float64 { return o.ExpectedMu[k] - o.Expected[k] }))
}
func (o logpOptimum) ExpectedIv() stats.Interval   { return o.replicateT(o.Expected) }
func (o logpOptimum) ExpectedMuIv() stats.Interval { return o.replicateT(o.ExpectedMu) }

// logpCurve is E[T](L_s) on the grid, for one P at the base σ.
type logpCurve struct {
	P        int
	Trials   int // per point
	Ls       []float64
	Mean, SE []float64
	Planned  []float64 // T_s(L_s)
	Closed   []float64 // the closed form where the plan is a star, else NaN
	Opt      logpOptimum
}

// point is E[T] at grid point i with its t interval (trials − 1 degrees
// of freedom).
func (c logpCurve) point(i int) stats.Interval {
	return tInterval(c.Mean[i], c.SE[i], c.Trials)
}

// tInterval is mean ± t(0.975, n − 1)·se.
func tInterval(mean, se float64, n int) stats.Interval {
	if n < 2 {
		return stats.Interval{Mean: mean, N: n, Lo: math.Inf(-1), Hi: math.Inf(1), Level: stats.Level, Method: stats.MethodT}
	}
	h := stats.TQuantile(0.5+stats.Level/2, n-1) * se
	return stats.Interval{Mean: mean, N: n, Lo: mean - h, Hi: mean + h, Level: stats.Level, Method: stats.MethodT}
}

// covered counts the grid points at which the closed form lies in the
// Monte Carlo's interval, of those that have a closed form.
func (c logpCurve) covered() (in, of int) {
	for i := range c.Mean {
		if math.IsNaN(c.Closed[i]) {
			continue
		}
		of++
		if c.point(i).Contains(c.Closed[i]) {
			in++
		}
	}
	return in, of
}

// logpResults is everything the page shows.
type logpResults struct {
	Trials      int             // per point of a curve
	SigmaTrials int             // per replicate search of the σ sweep
	Curves      []logpCurve     // one per curvePs
	ByP         [][]logpOptimum // [ratio][P]
	Sigma       []logpOptimum   // P = 3, one per σ of the sweep
	P3AtP2Sigma logpOptimum     // P = 3 at the σ of the slides' P = 2 plot
	Fit         slidesFit       // the σ the slides' numbers need, closed form
}

func optimumOf(j logpJob, r []float64) logpOptimum {
	p := j.p
	o := logpOptimum{P: p.P, Mu: p.L, Sigma: p.Sigma, PlannedMu: r[optPlannedMu], Trials: j.perReplicate(),
		StarLs: r[optStarLs], StarExpected: r[optStarExpected], StarMu: r[optStarMu]}
	for k := range logpReplicates {
		x := r[optReplicates+optPerReplicate*k:]
		o.Ls, o.Expected, o.ExpectedMu = append(o.Ls, x[0]), append(o.Expected, x[1]), append(o.ExpectedMu, x[2])
	}
	return o
}

func (s *logpStudy) assemble(res [][]study.Float) (*logpResults, error) {
	out := &logpResults{Trials: s.curveTr, SigmaTrials: optimumJob(s.params(3, 1), s.sigmaTr).perReplicate()}
	i := 0
	next := func() (logpJob, []float64) {
		j, r := s.jobs[i], make([]float64, len(res[i]))
		for k, v := range res[i] {
			r[k] = float64(v)
		}
		i++
		return j, r
	}
	for _, P := range s.curvePs {
		c := logpCurve{P: P, Trials: s.curveTr}
		for range s.lsSigmas {
			j, r := next()
			sch, err := engine.Plan(j.p, j.ls)
			if err != nil {
				return nil, err
			}
			c.Ls = append(c.Ls, j.ls)
			c.Mean, c.SE = append(c.Mean, r[0]), append(c.SE, r[1])
			c.Planned = append(c.Planned, sch.Planned())
			cf, err := engine.ExpectedStar(j.p, j.ls)
			if errors.Is(err, engine.ErrNotStar) {
				cf, err = math.NaN(), nil
			}
			if err != nil {
				return nil, err
			}
			c.Closed = append(c.Closed, cf)
		}
		j, r := next()
		c.Opt = optimumOf(j, r)
		out.Curves = append(out.Curves, c)
	}
	j, r := next()
	out.P3AtP2Sigma = optimumOf(j, r)
	for range s.ratios {
		row := make([]logpOptimum, len(s.ps))
		for k := range s.ps {
			j, r := next()
			row[k] = optimumOf(j, r)
		}
		out.ByP = append(out.ByP, row)
	}
	for range s.sigmas {
		j, r := next()
		out.Sigma = append(out.Sigma, optimumOf(j, r))
	}
	out.Fit = s.fitSlides()
	return out, nil
}

// slidesFit is what the closed form says of the slides' numbers at P = 3,
// whose σ they do not give. Each array holds a number's low end, its
// value and its high end as the slides round it: "+0.7" is [0.65, 0.75),
// "0.76" [0.755, 0.765), "0.87" [0.865, 0.875). Offsets and excesses are
// the closed form's L_s* − μ and E[T](L_s*) − T_s(μ) at P = 3; a σ for
// which no σ up to fitSigmaMax gives the number is NaN, and so is what
// depends on it.
type slidesFit struct {
	OK  bool   // the closed form held wherever the fit needed it
	Why string // when not OK: why

	// The σ the P = 2 plot's +0.7 implies (σ/√(2π) = 0.7) and P = 3 there.
	SigmaP2, OffsetAtP2, ExcessAtP2 [3]float64
	// The σ at which P = 3's optimum lies 0.76 above μ, and the excess there.
	Sigma76, ExcessAt76 [3]float64
	// The σ at which P = 3's excess is 0.87, and the offset there.
	Sigma87, OffsetAt87 [3]float64
}

// fitSigmaMax is the largest σ the fit looks at: the scene's largest,
// where the latency's truncation at 0 (μ = 10) has long changed the model.
const fitSigmaMax = 20

// rounded is [x − h, x, x + h] for a number printed with half-unit h.
func rounded(x, h float64) [3]float64 { return [3]float64{x - h, x, x + h} }

// fitSlides solves the closed form for the σ each of the slides' numbers
// needs, at each end of its rounding.
func (s *logpStudy) fitSlides() slidesFit {
	var f slidesFit
	at := func(sigma float64) (offset, excess float64, err error) {
		p := s.params(3, sigma)
		ls, e, err := engine.OptimalStar(p)
		if err != nil {
			return 0, 0, err
		}
		sch, err := engine.Plan(p, p.L)
		if err != nil {
			return 0, 0, err
		}
		return ls - p.L, e - sch.Planned(), nil
	}
	var bad error
	// solve finds σ in (0, fitSigmaMax] at which part (0: the offset, 1:
	// the excess) equals target. Both grow with σ, nearly in proportion,
	// so regula falsi (the Illinois variant, which halves the weight of
	// an end that stays) needs a handful of evaluations.
	solve := func(part int, target float64) float64 {
		val := func(sg float64) float64 {
			o, e, err := at(sg)
			if err != nil {
				bad = err
				return math.NaN()
			}
			return [2]float64{o, e}[part] - target
		}
		a, b := 1e-3, float64(fitSigmaMax)
		fa, fb := val(a), val(b)
		if !(fa <= 0 && fb >= 0) {
			return math.NaN()
		}
		side := 0
		for range 100 {
			c := (a*fb - b*fa) / (fb - fa)
			fc := val(c)
			switch {
			case math.IsNaN(fc):
				return math.NaN()
			case fc == 0 || b-a < 1e-9*b:
				return c
			case fc < 0:
				a, fa = c, fc
				if side == -1 {
					fb /= 2
				}
				side = -1
			default:
				b, fb = c, fc
				if side == 1 {
					fa /= 2
				}
				side = 1
			}
			if math.Abs(fc) < 1e-12 {
				return c
			}
		}
		return (a + b) / 2
	}
	other := func(part int, sigma float64) float64 {
		if math.IsNaN(sigma) {
			return math.NaN()
		}
		o, e, err := at(sigma)
		if err != nil {
			bad = err
			return math.NaN()
		}
		return [2]float64{o, e}[1-part]
	}
	p2 := rounded(slidesExcessP2, 0.05)
	o76, e87 := rounded(slidesOffsetP3, 0.005), rounded(slidesExcessP3, 0.005)
	for k := range 3 {
		f.SigmaP2[k] = p2[k] * sqrt2Pi
		f.OffsetAtP2[k], f.ExcessAtP2[k], _ = at(f.SigmaP2[k])
		f.Sigma76[k] = solve(0, o76[k])
		f.ExcessAt76[k] = other(0, f.Sigma76[k])
		f.Sigma87[k] = solve(1, e87[k])
		f.OffsetAt87[k] = other(1, f.Sigma87[k])
	}
	if _, _, err := at(f.SigmaP2[1]); err != nil {
		bad = err
	}
	f.OK = bad == nil
	if bad != nil {
		f.Why = fmt.Sprintf("the closed form does not hold at P = 3 on this machine: %v", bad)
	}
	return f
}
