package logp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/logp"
	"commlab/engine/sweep"
)

// Study is paper 002's study (the LogP model under fluctuating latency): gen-report's eval logp and
// the logp page.
type Study struct{}

func (Study) Name() string { return "logp" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalLogp(stdout, stderr, args)
}

// Sweep lays out the study's jobs under cfg: the curves, the optima and
// the σ sweep, one point each.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	return newLogpStudy(cfg.Full, cfg.Seed), nil
}

// Paper 002's numbers for P = 3 (the slides' second plot): the optimum
// planning latency lies 0.76 above the mean latency, and the expected
// time there is 0.87 above LogP's prediction with the mean. The slides'
// P = 2 plot says the excess is "+0.7". All in the slides' time unit, one
// addition.
const (
	slidesOffsetP3 = 0.76
	slidesExcessP3 = 0.87
	slidesExcessP2 = 0.7
)

// slidesSigmaP2 is the σ of the slides' P = 2 plot, which they do not
// state: for P = 2 the model's expected time is E[T](L_s) = T_s(L_s) +
// E[max(0, L − L_s)], minimal at L_s = μ, where its excess over T_s(μ) is
// E[max(0, L − μ)] = σ/√(2π), the mean of a normal's upper half (the
// truncation at 0 is 5.7σ away and changes nothing). The slides' "+0.7"
// therefore means σ = 0.7·√(2π) = 1.755 (TestSlidesSigmaP2).
func slidesSigmaP2() float64 { return slidesExcessP2 * sqrt2Pi }

// logpStudy is the paper-002 study (specs/logp-fluctuation.md): E[T](L_s)
// for P = 2 and 3, the optimal planning latency for P up to 1024 at
// several σ/μ, and a σ sweep at P = 3 that looks for the slides' σ.
type logpStudy struct {
	Full bool
	Seed uint64

	base      engine.Params   // the slides' machine: μ = L, o, g, σ; n for P = 2, 3
	lsSigmas  []float64       // the L_s grid of the curves, as (L_s − μ)/σ
	curvePs   []int           // the slides' two plots
	ps        []int           // the P axis beyond the slides
	ratios    []float64       // σ/μ of the P axis charts
	sigmas    []float64       // the P = 3 σ sweep
	curveTr   int             // trials per point of a curve
	optTrials func(P int) int // trials per evaluation of a search, over all its replicates
	sigmaTr   int             // the same, for the σ sweep
	jobs      []logpJob
}

// logpReplicates is how many independent searches find an optimum. The
// optimal L_s* is the minimum of a Monte Carlo curve, which no standard
// error describes: its interval comes from the spread of replicate
// searches, each on draws of its own, as a Student-t interval over the
// replicates (df = logpReplicates − 1). Each replicate then replays the
// plan it found, and the plan of the mean latency, on fresh draws (the
// same for both): the expected time of the plan a search picks, and the
// saving over planning with μ, are estimated out of sample, free of the
// bias of a minimum taken over the draws that are then averaged.
const logpReplicates = 8

// logpMinReplicateTrials is the fewest trials a replicate search runs.
const logpMinReplicateTrials = 32

type logpJobKind int

const (
	logpJobCurve   logpJobKind = iota // E[T](ls) and its standard error
	logpJobOptimum                    // L_s*, E[T](L_s*), T_s(μ), E[T](μ) and its standard error
)

type logpJob struct {
	kind   logpJobKind
	p      engine.Params
	ls     float64
	trials int // a curve point's trials; an optimum's over all its replicate searches
}

// optimumJob is the job of the optimum of p with about trials trials in
// all, split over the replicate searches.
func optimumJob(p engine.Params, trials int) logpJob {
	per := max(logpMinReplicateTrials, trials/logpReplicates)
	return logpJob{kind: logpJobOptimum, p: p, trials: per * logpReplicates}
}

// perReplicate is an optimum job's trials per replicate search.
func (j logpJob) perReplicate() int { return j.trials / logpReplicates }

func newLogpStudy(full bool, seed uint64) *logpStudy {
	s := &logpStudy{Full: full, Seed: seed, base: engine.Default(), curvePs: []int{2, 3}}
	if full {
		for i := -20; i <= 30; i++ { // μ − 2σ … μ + 3σ in steps of σ/10
			s.lsSigmas = append(s.lsSigmas, float64(i)/10)
		}
		for k := 1; k <= 10; k++ {
			s.ps = append(s.ps, 1<<k)
		}
		s.ratios = []float64{0.05, 0.1, 0.2}
		for i := 1; i <= 20; i++ { // σ = 0.25 … 5: past both of the slides' numbers
			s.sigmas = append(s.sigmas, float64(i)/4)
		}
		s.curveTr = 20_000
		// A replay costs about 0.14 µs per processor and a search some 58
		// E[T] evaluations: trials fall as 1/P beyond P = 6, so the P axis
		// costs about the same per P, and the page stays well within its
		// 30 s on two cores. The P = 3 σ sweep has its closed form; its
		// Monte Carlo is the check.
		s.optTrials = func(P int) int { return max(250, min(10_000, 65_536/P)) }
		s.sigmaTr = 4_000
	} else {
		for i := -4; i <= 6; i++ {
			s.lsSigmas = append(s.lsSigmas, float64(i)/2)
		}
		s.ps = []int{2, 4, 8, 16}
		s.ratios = []float64{0.1, 0.2}
		s.sigmas = []float64{1, 2, 4}
		s.curveTr = 2_000
		s.optTrials = func(int) int { return 2_000 }
		s.sigmaTr = 2_000
	}
	for _, P := range s.curvePs {
		p := s.params(P, s.curveSigma(P))
		for _, z := range s.lsSigmas {
			s.jobs = append(s.jobs, logpJob{kind: logpJobCurve, p: p, ls: p.L + z*p.Sigma, trials: s.curveTr})
		}
		s.jobs = append(s.jobs, optimumJob(p, s.optTrials(P)))
	}
	// The P = 2 plot's σ carried over to P = 3: a prediction of the
	// slides' 0.76 and 0.87 from the σ their +0.7 implies.
	s.jobs = append(s.jobs, optimumJob(s.params(3, slidesSigmaP2()), s.sigmaTr))
	for _, r := range s.ratios {
		for _, P := range s.ps {
			s.jobs = append(s.jobs, optimumJob(s.params(P, r*s.base.L), s.optTrials(P)))
		}
	}
	for _, sg := range s.sigmas {
		s.jobs = append(s.jobs, optimumJob(s.params(3, sg), s.sigmaTr))
	}
	return s
}

// params is the base machine with P processors and latency spread σ.
// Beyond the slides, n grows with P so that every processor has numbers
// to add: n = 1000 for P ≤ 3 (the example), 1000·P/3 beyond.
func (s *logpStudy) params(P int, sigma float64) engine.Params {
	p := s.base
	p.P, p.Sigma = P, sigma
	if P > 3 {
		p.N = s.base.N * P / 3
	}
	return p
}

// curveSigma is the σ of the slides' plot for P: for P = 2 the σ its +0.7
// implies (slidesSigmaP2); for P = 3, whose two numbers need different σ
// (the section "Which σ did the slides use?"), the engine's default.
func (s *logpStudy) curveSigma(P int) float64 {
	if P == 2 {
		return slidesSigmaP2()
	}
	return s.base.Sigma
}

// Fingerprint names the grid: the mode, the seed, the jobs and their trials.
func (s *logpStudy) Fingerprint() string {
	n := 0
	for _, j := range s.jobs {
		n += j.trials
	}
	return fmt.Sprintf("logp/v2 full=%t seed=%d jobs=%d trials=%d replicates=%d", s.Full, s.Seed, len(s.jobs), n, logpReplicates)
}

// Costs is each job's estimated time: engine.Estimate's for its trials.
// An optimum's replicate searches each run tens of E[T] evaluations and
// two out-of-sample replays, every one of which plans its schedule anew:
// at P = 1024 planning outweighs the replays.
func (s *logpStudy) Costs() []float64 {
	c := make([]float64, len(s.jobs))
	for i, j := range s.jobs {
		if j.kind == logpJobOptimum {
			c[i] = engine.Estimate(j.p, j.ls, j.perReplicate(), logpReplicates*(2+engine.OptimalEvaluations(j.p))).Seconds
			continue
		}
		c[i] = engine.Estimate(j.p, j.ls, j.trials, 1).Seconds
	}
	return c
}

// Run evaluates the owned jobs, spread over the cores. A curve's points
// all draw from the study's seed: they share their draws (common random
// numbers), so the curve is smooth and its differences, not just its
// values, are accurate. Replicate search k of every optimum draws from
// its own seed (replicateSeed), the same for every machine, so the
// optima of one chart share their draws too.
func (s *logpStudy) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	return study.RunPoints(ctx, owned, s.Costs(), progress, func(i int) ([]study.Float, error) {
		r, err := s.job(s.jobs[i])
		out := make([]study.Float, len(r))
		for k, v := range r {
			out[k] = study.Float(v)
		}
		return out, err
	})
}

var _ study.TrialCounter = (*logpStudy)(nil) // gen-report status counts its trials

// PointTrials is job i's Monte Carlo trials, which its layout fixes (the
// result holds its numbers only). An optimum's search evaluates E[T] at
// some tens of planning latencies on the same trials (common random
// numbers), so they count once.
func (s *logpStudy) PointTrials(i int, _ json.RawMessage) (int, error) {
	if i < 0 || i >= len(s.jobs) {
		return 0, fmt.Errorf("job %d is outside [0, %d)", i, len(s.jobs))
	}
	return s.jobs[i].trials, nil
}

// Page builds the page from every job's numbers.
func (s *logpStudy) Page(raw []json.RawMessage) (report.Page, error) {
	r, err := s.results(raw)
	if err != nil {
		return report.Page{}, err
	}
	return s.page(r), nil
}

// An optimum job's numbers: T_s(μ); the closed form's L_s*, E[T](L_s*)
// and E[T](μ) (NaN where the plan is not a star); then, per replicate
// search, its L_s* and, on fresh draws, E[T] of the plan it found and of
// the plan of μ.
const (
	optPlannedMu = iota
	optStarLs
	optStarExpected
	optStarMu
	optReplicates // the first replicate's numbers
)

// optPerReplicate is how many numbers each replicate adds, optNumbers how
// many an optimum job returns.
const (
	optPerReplicate = 3
	optNumbers      = optReplicates + optPerReplicate*logpReplicates
)

// check vets job i's numbers read from a shard file.
func (s *logpStudy) check(i int, r []study.Float) error {
	want := 2
	if s.jobs[i].kind == logpJobOptimum {
		want = optNumbers
	}
	if len(r) != want {
		return fmt.Errorf("%d numbers, want %d", len(r), want)
	}
	for k, v := range r {
		// The closed forms are NaN where the plan is not a star;
		// everything else is a time or a standard error.
		if math.IsNaN(float64(v)) && want == optNumbers && k >= optStarLs && k <= optStarMu {
			continue
		}
		if err := study.NonNegative(fmt.Sprintf("number %d", k), float64(v)); err != nil {
			return err
		}
	}
	return nil
}

// results decodes the jobs' numbers and assembles them.
func (s *logpStudy) results(raw []json.RawMessage) (*logpResults, error) {
	res, err := study.Decode(raw, s.check)
	if err != nil {
		return nil, err
	}
	return s.assemble(res)
}

// replicateSeed is the seed of replicate search k of every optimum
// (fresh = false) and of its out-of-sample replays (fresh = true): drawn
// from the study's seed, so that every shard finds the same.
func replicateSeed(seed uint64, k int, fresh bool) uint64 {
	role := 0
	if fresh {
		role = 1
	}
	return sweep.RNG(seed, 1+k, role).Uint64()
}

func (s *logpStudy) job(j logpJob) ([]float64, error) {
	if j.kind == logpJobCurve {
		m, se, err := engine.Expected(j.p, j.ls, j.trials, s.Seed)
		return []float64{m, se}, err
	}
	out := make([]float64, optNumbers)
	sch, err := engine.Plan(j.p, j.p.L)
	if err != nil {
		return nil, err
	}
	out[optPlannedMu] = sch.Planned()
	cfLs, cfE, err := engine.OptimalStar(j.p)
	var cfMu float64
	if err == nil {
		cfMu, err = engine.ExpectedStar(j.p, j.p.L)
	}
	if errors.Is(err, engine.ErrNotStar) {
		cfLs, cfE, cfMu, err = math.NaN(), math.NaN(), math.NaN(), nil
	}
	if err != nil {
		return nil, err
	}
	out[optStarLs], out[optStarExpected], out[optStarMu] = cfLs, cfE, cfMu
	n := j.perReplicate()
	for k := range logpReplicates {
		ls, _, err := engine.Optimal(j.p, n, replicateSeed(s.Seed, k, false))
		if err != nil {
			return nil, err
		}
		fresh := replicateSeed(s.Seed, k, true)
		e, _, err := engine.Expected(j.p, ls, n, fresh)
		if err != nil {
			return nil, err
		}
		mu, _, err := engine.Expected(j.p, j.p.L, n, fresh)
		if err != nil {
			return nil, err
		}
		copy(out[optReplicates+optPerReplicate*k:], []float64{ls, e, mu})
	}
	return out, nil
}
