package logp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"commlab/engine/param"
	"commlab/engine/progress"
)

// trialStream reproduces sweep.RNG(seed, 0, trial) on a reused source, so
// a Monte Carlo loop re-seeds instead of allocating a generator per trial
// (a test checks the two streams are the same).
type trialStream struct {
	pcg rand.PCG
	rng *rand.Rand
}

func newTrialStream() *trialStream {
	t := &trialStream{}
	t.rng = rand.New(&t.pcg)
	return t
}

func (t *trialStream) at(seed uint64, trial int) *rand.Rand {
	t.pcg.Seed(splitmix(seed^splitmix(0)), splitmix(seed+0x9e3779b97f4a7c15*uint64(trial+1)))
	return t.rng
}

// splitmix is sweep's seed mixer (SplitMix64), repeated here because the
// stream must match sweep.RNG's.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// MaxTrials bounds a Monte Carlo estimate's trials.
const MaxTrials = 100_000_000

func checkTrials(trials int) error {
	if trials < 1 || trials > MaxTrials {
		return &param.Error{Field: "trials", Value: fmt.Sprint(trials), Want: fmt.Sprintf("an integer in [1, %d]", MaxTrials)}
	}
	return nil
}

// mc is a reusable Monte Carlo evaluator of one parameter set.
type mc struct {
	p      Params
	trials int
	seed   uint64
	st     *trialStream
	ex     Executor
	nz     Noise
	pr     progress.Func // hears the share of trials done (ExpectedProgress)
}

// expected replays the schedule planned with ls once per trial, trial t
// drawing from sweep.RNG(seed, 0, t): the same draws for every ls (common
// random numbers), so curves over ls are smooth and their minimum stable.
func (m *mc) expected(ls float64) (mean, stderr float64, err error) {
	s, err := Plan(m.p, ls)
	if err != nil {
		return 0, 0, err
	}
	mach := s.machine()
	// Welford's running mean and variance.
	var mu, m2 float64
	for t := range m.trials {
		drawNoise(s.Prog, m.p, m.st.at(m.seed, t), &m.nz)
		x := m.ex.RunOrdered(s.Prog, mach, m.nz)
		d := x - mu
		mu += d / float64(t+1)
		m2 += d * (x - mu)
		if m.pr != nil && t%16 == 15 {
			if err := m.pr.Report(float64(t+1) / float64(m.trials)); err != nil {
				return 0, 0, err
			}
		}
	}
	if m.trials > 1 {
		stderr = math.Sqrt(m2 / float64(m.trials-1) / float64(m.trials))
	}
	return mu, stderr, nil
}

// Expected estimates E[T](ls), the mean completion time of the schedule
// planned with ls under the fluctuation of p, by Monte Carlo over trials
// replays; trial t draws from sweep.RNG(seed, 0, t). It returns the mean
// and its standard error.
func Expected(p Params, ls float64, trials int, seed uint64) (mean, stderr float64, err error) {
	return ExpectedProgress(p, ls, trials, seed, nil)
}

// ExpectedProgress is Expected telling pr the share of the trials done
// (every 16 trials); an error pr returns stops it and comes back.
func ExpectedProgress(p Params, ls float64, trials int, seed uint64, pr progress.Func) (mean, stderr float64, err error) {
	if err := checkTrials(trials); err != nil {
		return 0, 0, err
	}
	m := &mc{p: p, trials: trials, seed: seed, st: newTrialStream(), pr: pr}
	return m.expected(ls)
}

// normCDF is Φ.
//
//go:noinline
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// normPDF is φ.
func normPDF(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }

// latencyCDF is the CDF of Normal(mu, sigma²) truncated at 0.
func latencyCDF(x, mu, sigma float64) float64 {
	if x < 0 {
		return 0
	}
	if sigma == 0 {
		if x >= mu {
			return 1
		}
		return 0
	}
	f0 := normCDF(-mu / sigma)
	return (normCDF((x-mu)/sigma) - f0) / (1 - f0)
}

// ExpectedP2 is the spec's closed form for P = 2: T = T_s(L_s) + max(0,
// L - L_s), so
//
//	E[T](L_s) = (n + 3o + L_s)/2 + E[max(0, L - L_s)]
//	          = T_s + σ(φ(z) - z(1 - Φ(z))) / Φ(μ/σ),  z = (L_s - μ)/σ,
//
// where the division by Φ(μ/σ) is the truncation of L at 0 (it is 1 to
// seven digits once μ ≥ 5σ). It is minimal at L_s = μ (for μ ≫ σ), where
// the excess over T_s(μ) is σ/√(2π). T_s is the plan's own (it equals
// (n + 3o + L_s)/2 whenever n is large enough for the second processor to
// pay, n > L_s + o + 1; otherwise the plan uses one processor, T = n - 1
// and nothing fluctuates).
func ExpectedP2(p Params, ls float64) (float64, error) {
	if p.P != 2 {
		return 0, &param.Error{Field: "P", Value: fmt.Sprint(p.P), Want: "2 (the closed form is for two processors)"}
	}
	s, err := Plan(p, ls)
	if err != nil {
		return 0, err
	}
	if s.Used == 1 {
		return s.Planned(), nil
	}
	return s.Planned() + excessOne(p.L, p.Sigma, ls), nil
}

// excessOne is E[max(0, L - ls)] for L ~ Normal(mu, sigma²) truncated at 0.
func excessOne(mu, sigma, ls float64) float64 {
	if sigma == 0 {
		return max(0, mu-ls)
	}
	z := (ls - mu) / sigma
	return sigma * (normPDF(z) - z*(1-normCDF(z))) / normCDF(mu/sigma)
}

// ErrNotStar is returned by the star closed forms when the plan is not a
// star (some processor sends to another than the root) or when the gap
// fluctuates with more than one message to receive.
var ErrNotStar = errors.New("logp: the closed form needs a star-shaped plan (every message to the root) and no gap fluctuation")

// ExpectedStar is E[T](ls) when the plan is a star: the root takes k
// messages in fixed slots, and a late message shifts everything after it
// on the root, so T = T_s + max(0, max_i L_i - L_s) and
//
//	E[T] = T_s(L_s) + ∫_{L_s}^∞ (1 - F(x)^k) dx
//
// with F the truncated normal's CDF. For P = 3 the plan is a star whenever
// max(g, o+1) ≤ L_s + 2o + 1, which covers the slides' case. The integral
// is evaluated by composite Simpson's rule to about 1e-10 relative.
func ExpectedStar(p Params, ls float64) (float64, error) {
	s, err := Plan(p, ls)
	if err != nil {
		return 0, err
	}
	k, err := s.star()
	if err != nil {
		return 0, err
	}
	return s.Planned() + excessMax(p.L, p.Sigma, ls, k), nil
}

// star returns the number of children of a star-shaped plan.
func (s *Schedule) star() (int, error) {
	k := s.Used - 1
	for q := 1; q < s.Used; q++ {
		if s.Parent[q] != 0 {
			return 0, ErrNotStar
		}
	}
	if k > 1 && s.Params.GapSigma > 0 {
		return 0, ErrNotStar
	}
	return k, nil
}

// excessMax is E[max(0, max of k latencies - ls)] = ∫_ls^∞ (1 - F^k).
func excessMax(mu, sigma, ls float64, k int) float64 {
	if k == 0 {
		return 0
	}
	if k == 1 || sigma == 0 {
		return excessOne(mu, sigma, ls)
	}
	hi := mu + 40*sigma
	if ls >= hi {
		return 0
	}
	lo := max(ls, 0)
	const n = 20000 // even
	h := (hi - lo) / n
	f := func(x float64) float64 { return 1 - math.Pow(latencyCDF(x, mu, sigma), float64(k)) }
	sum := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(lo+float64(i)*h)
	}
	return (lo - ls) + sum*h/3 // below 0 every latency exceeds ls
}

// OptimalStar is the optimum of ExpectedStar: with k children the plan's
// T_s grows as k/(k+1)·L_s, so d E[T]/d L_s = k/(k+1) - P(max L_i > L_s)
// vanishes where F(L_s)^k = 1/(k+1). P = 2: F = 1/2, L_s = μ. P = 3:
// F = 1/√3, L_s = μ + 0.195σ (untruncated). It fails with ErrNotStar if
// the plan at that L_s is not a star with the same k.
func OptimalStar(p Params) (ls, expected float64, err error) {
	if err := p.Validate(); err != nil {
		return 0, 0, err
	}
	s, err := Plan(p, p.L)
	if err != nil {
		return 0, 0, err
	}
	k, err := s.star()
	if err != nil {
		return 0, 0, err
	}
	ls = p.L
	if k > 0 && p.Sigma > 0 {
		u := math.Pow(1/float64(k+1), 1/float64(k))
		f0 := normCDF(-p.L / p.Sigma)
		ls = min(maxTime, max(0, p.L+p.Sigma*normQuantile(f0+u*(1-f0))))
	}
	s2, err := Plan(p, ls)
	if err != nil {
		return 0, 0, err
	}
	if k2, err := s2.star(); err != nil || k2 != k {
		return 0, 0, ErrNotStar
	}
	return ls, s2.Planned() + excessMax(p.L, p.Sigma, ls, k), nil
}

// normQuantile is Φ⁻¹(u) by bisection (ample for a handful of calls).
func normQuantile(u float64) float64 {
	lo, hi := -40.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if normCDF(mid) < u {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// Optimal searches the planning latency L_s that minimises the Monte Carlo
// E[T](L_s) (trials replays per point, the same draws at every point) and
// returns it with its E[T]. It scans 33 points over [max(0, μ-3σ), μ+5σ+3σ_g]
// (cut at 1e9, the largest L_s Plan takes)
// and refines the best bracket by golden-section search to 1e-4(σ+σ_g).
// Without fluctuation it returns μ. Cost: about 55 evaluations of
// Expected, each trials replays of about 3P operations.
func Optimal(p Params, trials int, seed uint64) (ls, expected float64, err error) {
	if err := p.Validate(); err != nil {
		return 0, 0, err
	}
	if err := checkTrials(trials); err != nil {
		return 0, 0, err
	}
	m := &mc{p: p, trials: trials, seed: seed, st: newTrialStream()}
	f := func(x float64) (float64, error) {
		v, _, err := m.expected(x)
		return v, err
	}
	spread := p.Sigma + p.GapSigma
	if spread == 0 {
		v, err := f(p.L)
		return p.L, v, err
	}
	// The search stays inside the planning latencies ValidateLs allows:
	// with μ and σ near maxTime the bracket would reach beyond it.
	lo := max(0, p.L-3*p.Sigma)
	hi := min(maxTime, p.L+5*p.Sigma+3*p.GapSigma)
	const grid = 33
	xs := make([]float64, grid)
	best, bestV := 0, math.Inf(1)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i)/(grid-1)
		v, err := f(xs[i])
		if err != nil {
			return 0, 0, err
		}
		if v < bestV {
			best, bestV = i, v
		}
	}
	a, b := xs[max(0, best-1)], xs[min(grid-1, best+1)]
	const phi = 0.6180339887498949
	c, d := b-phi*(b-a), a+phi*(b-a)
	fc, err := f(c)
	if err != nil {
		return 0, 0, err
	}
	fd, err := f(d)
	if err != nil {
		return 0, 0, err
	}
	for b-a > 1e-4*spread {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - phi*(b-a)
			if fc, err = f(c); err != nil {
				return 0, 0, err
			}
		} else {
			a, c, fc = c, d, fd
			d = a + phi*(b-a)
			if fd, err = f(d); err != nil {
				return 0, 0, err
			}
		}
	}
	ls, expected = xs[best], bestV
	for _, cand := range [][2]float64{{c, fc}, {d, fd}} {
		if cand[1] < expected {
			ls, expected = cand[0], cand[1]
		}
	}
	return ls, expected, nil
}
