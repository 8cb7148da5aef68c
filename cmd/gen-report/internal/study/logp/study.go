package logp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/logp"
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
	optTrials func(P int) int // trials per evaluation of a search
	sigmaTr   int             // the same, for the σ sweep
	jobs      []logpJob
}

type logpJobKind int

const (
	logpJobCurve   logpJobKind = iota // E[T](ls) and its standard error
	logpJobOptimum                    // L_s*, E[T](L_s*), T_s(μ), E[T](μ) and its standard error
)

type logpJob struct {
	kind   logpJobKind
	p      engine.Params
	ls     float64
	trials int
}

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
		s.jobs = append(s.jobs, logpJob{kind: logpJobOptimum, p: p, trials: s.optTrials(P)})
	}
	// The P = 2 plot's σ carried over to P = 3: a prediction of the
	// slides' 0.76 and 0.87 from the σ their +0.7 implies.
	s.jobs = append(s.jobs, logpJob{kind: logpJobOptimum, p: s.params(3, slidesSigmaP2()), trials: s.sigmaTr})
	for _, r := range s.ratios {
		for _, P := range s.ps {
			s.jobs = append(s.jobs, logpJob{kind: logpJobOptimum, p: s.params(P, r*s.base.L), trials: s.optTrials(P)})
		}
	}
	for _, sg := range s.sigmas {
		s.jobs = append(s.jobs, logpJob{kind: logpJobOptimum, p: s.params(3, sg), trials: s.sigmaTr})
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
	return fmt.Sprintf("logp/v1 full=%t seed=%d jobs=%d trials=%d", s.Full, s.Seed, len(s.jobs), n)
}

// Costs is each job's estimated time: engine.Estimate's for its trials
// (a search's tens of E[T] evaluations included).
func (s *logpStudy) Costs() []float64 {
	c := make([]float64, len(s.jobs))
	for i, j := range s.jobs {
		evals := 1
		if j.kind == logpJobOptimum {
			evals = 2 + engine.OptimalEvaluations(j.p)
		}
		c[i] = engine.Estimate(j.p, j.ls, j.trials, evals).Seconds
	}
	return c
}

// Run evaluates the owned jobs, spread over the cores. Each job seeds the
// engine with the study's seed: the points of one curve share their draws
// (common random numbers), so the curve is smooth and its differences,
// not just its values, are accurate.
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

// check vets job i's numbers read from a shard file.
func (s *logpStudy) check(i int, r []study.Float) error {
	want := 2
	if s.jobs[i].kind == logpJobOptimum {
		want = 8
	}
	if len(r) != want {
		return fmt.Errorf("%d numbers, want %d", len(r), want)
	}
	for k, v := range r {
		// The closed forms (the last three of an optimum) are NaN
		// where the plan is not a star; everything else is a time or
		// a standard error.
		if math.IsNaN(float64(v)) && want == 8 && k >= 5 {
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

func (s *logpStudy) job(j logpJob) ([]float64, error) {
	switch j.kind {
	case logpJobCurve:
		m, se, err := engine.Expected(j.p, j.ls, j.trials, s.Seed)
		return []float64{m, se}, err
	default:
		ls, e, err := engine.Optimal(j.p, j.trials, s.Seed)
		if err != nil {
			return nil, err
		}
		sch, err := engine.Plan(j.p, j.p.L)
		if err != nil {
			return nil, err
		}
		m, se, err := engine.Expected(j.p, j.p.L, j.trials, s.Seed)
		if err != nil {
			return nil, err
		}
		cfLs, cfE, err := engine.OptimalStar(j.p)
		var cfMu float64
		if err == nil {
			cfMu, err = engine.ExpectedStar(j.p, j.p.L)
		}
		if errors.Is(err, engine.ErrNotStar) {
			cfLs, cfE, cfMu, err = math.NaN(), math.NaN(), math.NaN(), nil
		}
		return []float64{ls, e, sch.Planned(), m, se, cfLs, cfE, cfMu}, err
	}
}

// logpOptimum is the optimal planning latency of one machine and what it
// buys. Times are in additions.
type logpOptimum struct {
	P                int
	Mu, Sigma        float64
	Ls, Expected     float64 // L_s* and E[T](L_s*)
	PlannedMu        float64 // T_s(μ): LogP's prediction with the mean latency
	ExpectedMu, SEMu float64 // E[T](μ): the schedule planned with the mean, replayed
	// The closed form's optimum and E[T] there (the plan a star: P = 2,
	// and P = 3 in the slides' setting), and E[T](μ); NaN otherwise.
	StarLs, StarExpected, StarMu float64
}

// StarOffset and StarExcess are Offset and Excess of the closed form.
func (o logpOptimum) StarOffset() float64 { return o.StarLs - o.Mu }
func (o logpOptimum) StarExcess() float64 { return o.StarExpected - o.PlannedMu }

// Offset is L_s* − μ.
func (o logpOptimum) Offset() float64 { return o.Ls - o.Mu }

// Excess is E[T](L_s*) − T_s(μ), the slides' "0.87 above".
func (o logpOptimum) Excess() float64 { return o.Expected - o.PlannedMu }

// Saving is E[T](μ) − E[T](L_s*): what planning for the fluctuation buys.
func (o logpOptimum) Saving() float64 { return o.ExpectedMu - o.Expected }

// logpCurve is E[T](L_s) on the grid, for one P at the base σ.
type logpCurve struct {
	P        int
	Ls       []float64
	Mean, SE []float64
	Planned  []float64 // T_s(L_s)
	Closed   []float64 // the closed form where the plan is a star, else NaN
	Opt      logpOptimum
}

// logpResults is everything the page shows.
type logpResults struct {
	Trials, OptTrials3 int
	Curves             []logpCurve     // one per curvePs
	ByP                [][]logpOptimum // [ratio][P]
	Sigma              []logpOptimum   // P = 3, one per σ of the sweep
	P3AtP2Sigma        logpOptimum     // P = 3 at the σ of the slides' P = 2 plot
}

func optimumOf(p engine.Params, r []float64) logpOptimum {
	return logpOptimum{P: p.P, Mu: p.L, Sigma: p.Sigma, Ls: r[0], Expected: r[1], PlannedMu: r[2], ExpectedMu: r[3], SEMu: r[4], StarLs: r[5], StarExpected: r[6], StarMu: r[7]}
}

func (s *logpStudy) assemble(res [][]study.Float) (*logpResults, error) {
	out := &logpResults{Trials: s.curveTr, OptTrials3: s.sigmaTr}
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
		c := logpCurve{P: P}
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
		c.Opt = optimumOf(j.p, r)
		out.Curves = append(out.Curves, c)
	}
	j, r := next()
	out.P3AtP2Sigma = optimumOf(j.p, r)
	for range s.ratios {
		row := make([]logpOptimum, len(s.ps))
		for k := range s.ps {
			j, r := next()
			row[k] = optimumOf(j.p, r)
		}
		out.ByP = append(out.ByP, row)
	}
	for range s.sigmas {
		j, r := next()
		out.Sigma = append(out.Sigma, optimumOf(j.p, r))
	}
	return out, nil
}

// fmtNum is a compact label for an axis value.
func fmtNum(v float64) string { return fmt.Sprintf("%.4g", v) }

// page builds the LogP report page.
func (s *logpStudy) page(r *logpResults) report.Page {
	mode := "full grids"
	if !s.Full {
		mode = "quick grid (make report regenerates the full grids)"
	}
	b := s.base
	p := report.Page{
		File:     "logp.html",
		Title:    "LogP under fluctuating latency: the optimal planning latency",
		Subtitle: fmt.Sprintf("Paper 002 (slides, Fujitsu Laboratories, 1999): the slides' P = 2 and P = 3 plots regenerated and extended to P = %d, %s", s.ps[len(s.ps)-1], mode),
		Intro: strings.Join([]string{
			"A LogP summation schedule is fixed in advance with a planning latency L_s and then runs with latencies drawn per message from Normal(μ, σ²) truncated at 0: a message that arrives early does not help (its receiver is busy with its planned additions), one that arrives late stalls its receiver and everything after it. The slides choose L_s to minimise the expected completion time E[T](L_s). Model and schedule as in specs/logp-fluctuation.md; the schedule for each P is the optimal LogP summation tree (Karp, Sahay, Santos, Schauser 1993) planned with L_s.",
			fmt.Sprintf("Machine: mean latency μ = L = %g, o = %g, g = %g, one addition = 1 time unit; n = %d numbers for P = 2 and 3 (n = %d·P/3 beyond, so every processor adds). T_s(L_s) is LogP's fluctuation-free prediction for the schedule planned with L_s. E[T] is a Monte Carlo mean (seed %d, the same draws at every L_s of a curve); optimal L_s* comes from the engine's search (logp.Optimal).",
				b.L, b.O, b.G, b.N, b.N, s.Seed),
			"Every chart links to its data as CSV and JSON.",
		}, "\n\n"),
	}
	var curves []any
	for _, c := range r.Curves {
		curves = append(curves, s.curveChart(c, r.Trials))
	}
	curves = append(curves, s.optimaTable(r))
	p.Sections = append(p.Sections, report.Section{
		Title: "The slides' two plots: E[T] versus the planning latency",
		Intro: fmt.Sprintf("The slides do not give σ. For P = 2 the model's expected time is E[T](L_s) = T_s(L_s) + E[max(0, L − L_s)]: T_s grows as L_s/2 and the expected stall falls with slope 1 − Φ((L_s − μ)/σ), so the optimum is at L_s = μ, where the excess over T_s(μ) is E[max(0, L − μ)] = σ/√(2π). The slides' P = 2 excess of +%g therefore means σ = %g·√(2π) = %.3f, and the P = 2 plot is drawn at that σ (σ/μ = %.3f); before issue 12 it was drawn at the engine's default σ = %g, whose excess is %.3f. The P = 3 plot stays at σ = %g: its two numbers need two different σ (next section). Times are drawn relative to T_s(μ), LogP's prediction with the mean latency, so the excess of the expected time over that prediction reads off directly; each caption gives T_s(μ).",
			slidesExcessP2, slidesExcessP2, slidesSigmaP2(), slidesSigmaP2()/b.L, b.Sigma, b.Sigma/sqrt2Pi, s.curveSigma(3)),
		Items: curves,
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Which σ did the slides use?",
		Intro: fmt.Sprintf("The slides give the P = 3 optimum at L_s = μ + %g and an expected time %g above T_s(μ), but not σ. Both numbers are in the slides' units (one addition), so they fix σ once the machine is fixed: the sweep below finds the σ for each.", slidesOffsetP3, slidesExcessP3),
		Items: []any{s.sigmaChart(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Beyond the slides: P up to 1024",
		Intro: "The optimal offset of the planning latency, in units of σ, and the excess of the expected time at the optimum over T_s(μ), for several σ/μ.",
		Items: []any{s.offsetChart(r), s.excessChart(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: "The slides' claims, checked against the numbers above. Each piece of evidence states its threshold; the verdicts are computed, not written by hand.",
		Items: []any{report.Findings{Title: "The slides' findings against this simulation", Items: logpFindings(r)}},
	})
	return p
}

// nearest is the index of the grid value closest to v.
func nearest(grid []float64, v float64) int {
	best := 0
	for i, g := range grid {
		if math.Abs(g-v) < math.Abs(grid[best]-v) {
			best = i
		}
	}
	return best
}

func (s *logpStudy) curveChart(c logpCurve, trials int) *report.LineChart {
	ref := c.Opt.PlannedMu
	x := report.Axis{Name: "L_s"}
	rel := func(vs []float64) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			out[i] = v - ref
		}
		return out
	}
	for _, ls := range c.Ls {
		x.Labels = append(x.Labels, fmtNum(ls))
		x.Values = append(x.Values, ls)
	}
	mark := func(i int, v float64) []float64 {
		out := make([]float64, len(c.Ls))
		for k := range out {
			out[k] = math.NaN()
		}
		out[i] = v
		return out
	}
	series := []report.Series{{Name: "E[T](L_s), Monte Carlo", Values: rel(c.Mean)}}
	hasClosed := !slices.ContainsFunc(c.Closed, math.IsNaN)
	if hasClosed {
		series = append(series, report.Series{Name: "E[T](L_s), closed form", Values: rel(c.Closed)})
	}
	series = append(series, report.Series{Name: "T_s(L_s), fluctuation-free", Values: rel(c.Planned)})
	oi := nearest(c.Ls, c.Opt.Ls)
	series = append(series, report.Series{Name: "optimum, Monte Carlo search", Values: mark(oi, c.Mean[oi]-ref)})
	caption := fmt.Sprintf("P = %d, n = %d, μ = %g, σ = %.4g; T_s(μ) = %.6g. %d trials per point. The search finds L_s* = %.4g (marked at the nearest grid point) with E[T](L_s*) = T_s(μ) + %.3g.",
		c.P, s.params(c.P, c.Opt.Sigma).N, c.Opt.Mu, c.Opt.Sigma, ref, trials, c.Opt.Ls, c.Opt.Excess())
	if hasClosed {
		ci := nearest(c.Ls, c.Opt.StarLs)
		series = append(series, report.Series{Name: "optimum, closed form", Values: mark(ci, c.Closed[ci]-ref)})
		caption += fmt.Sprintf(" Closed form: L_s* = %.4g, E[T](L_s*) = T_s(μ) + %.4g.", c.Opt.StarLs, c.Opt.StarExcess())
		if c.P == 2 {
			caption += fmt.Sprintf(" It is the spec's E[T] = T_s(L_s) + E[max(0, L − L_s)], minimal at L_s = μ with excess σ/√(2π) = %.4g: σ = %.4g is the σ that makes it the slides' +%g.", c.Opt.Sigma/sqrt2Pi, c.Opt.Sigma, slidesExcessP2)
		} else {
			caption += fmt.Sprintf(" The plan is a star (both partial sums go to the root), so T = T_s + max(0, max(L21, L31) − L_s) and E[T] = T_s(L_s) + ∫ from L_s of (1 − F(x)^%d) dx; T_s grows as %d/%d·L_s, so the optimum is where F(L_s)^%d = 1/%d.", c.P-1, c.P-1, c.P, c.P-1, c.P)
		}
	}
	return &report.LineChart{
		ID:      fmt.Sprintf("logp-p%d", c.P),
		Title:   fmt.Sprintf("E[T] versus L_s, P = %d", c.P),
		Caption: caption,
		X:       x, YName: "time − T_s(μ) (additions)", Digits: 4,
		Series: series,
	}
}

func (s *logpStudy) optimaTable(r *logpResults) *report.Table {
	t := &report.Table{
		ID:      "logp-optima",
		Title:   "The optima of the two plots",
		Caption: "L_s* from the engine's search; E[T](μ) is the schedule planned with the mean latency, replayed with the same draws; its standard error is given. The closed-form column is the optimum and the excess E[T](L_s*) − T_s(μ) of the closed form (the spec's for P = 2, its star extension for P = 3).",
		Header:  []string{"P", "σ", "L_s*", "L_s* − μ", "(L_s* − μ)/σ", "T_s(μ)", "E[T](L_s*)", "E[T](L_s*) − T_s(μ)", "E[T](μ)", "E[T](μ) stderr", "closed form: L_s*, excess"},
	}
	for _, c := range r.Curves {
		o := c.Opt
		cf := "—"
		if !math.IsNaN(o.StarLs) {
			cf = fmt.Sprintf("%.4g, %.4g", o.StarLs, o.StarExcess())
		}
		t.Rows = append(t.Rows, []string{
			fmt.Sprint(o.P), fmt.Sprintf("%g", o.Sigma), fmt.Sprintf("%.4g", o.Ls), fmt.Sprintf("%.3g", o.Offset()),
			fmt.Sprintf("%.3g", o.Offset()/o.Sigma), fmt.Sprintf("%.6g", o.PlannedMu), fmt.Sprintf("%.6g", o.Expected),
			fmt.Sprintf("%.3g", o.Excess()), fmt.Sprintf("%.6g", o.ExpectedMu), fmt.Sprintf("%.2g", o.SEMu), cf,
		})
	}
	return t
}

func (s *logpStudy) sigmaChart(r *logpResults) *report.LineChart {
	x := report.Axis{Name: "σ"}
	n := len(r.Sigma)
	off, exc, cfOff, cfExc, so, se := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, o := range r.Sigma {
		x.Labels = append(x.Labels, fmtNum(o.Sigma))
		x.Values = append(x.Values, o.Sigma)
		off[i], exc[i], so[i], se[i] = o.Offset(), o.Excess(), slidesOffsetP3, slidesExcessP3
		cfOff[i], cfExc[i] = o.StarOffset(), o.StarExcess()
	}
	return &report.LineChart{
		ID:    "logp-sigma",
		Title: "P = 3: optimal offset and excess versus σ, against the slides' numbers",
		Caption: fmt.Sprintf("P = 3, n = %d, μ = %g, o = %g, g = %g. Closed form (the plan is a star) and the Monte Carlo search (%d trials per evaluation). The flat lines are the slides' %g (L_s* − μ) and %g (E[T(L_s*)] − T_s(μ)); where a curve crosses its line is the σ that number implies.",
			s.params(3, 1).N, s.base.L, s.base.O, s.base.G, r.OptTrials3, slidesOffsetP3, slidesExcessP3),
		X: x, YName: "additions", Digits: 4,
		Series: []report.Series{
			{Name: "L_s* − μ, closed form", Values: cfOff},
			{Name: "E[T(L_s*)] − T_s(μ), closed form", Values: cfExc},
			{Name: "L_s* − μ, Monte Carlo", Values: off},
			{Name: "E[T(L_s*)] − T_s(μ), Monte Carlo", Values: exc},
			{Name: "slides: L_s* − μ = 0.76", Values: so},
			{Name: "slides: excess 0.87", Values: se},
		},
	}
}

func (s *logpStudy) pAxis() report.Axis {
	x := report.Axis{Name: "P"}
	for _, P := range s.ps {
		x.Labels = append(x.Labels, fmt.Sprint(P))
		x.Values = append(x.Values, float64(P))
	}
	return x
}

func (s *logpStudy) offsetChart(r *logpResults) *report.LineChart {
	lc := &report.LineChart{
		ID:    "logp-offset",
		Title: "Optimal offset (L_s* − μ)/σ versus P",
		Caption: fmt.Sprintf("μ = %g, o = %g, g = %g, n = %d·P/3 (%d for P = 2); the optimal LogP summation tree for each P. P on a log axis (powers of two).",
			s.base.L, s.base.O, s.base.G, s.base.N, s.base.N),
		X: s.pAxis(), YName: "(L_s* − μ)/σ", Digits: 3,
	}
	for ri, ratio := range s.ratios {
		v := make([]float64, len(s.ps))
		for k, o := range r.ByP[ri] {
			v[k] = o.Offset() / o.Sigma
		}
		lc.Series = append(lc.Series, report.Series{Name: fmt.Sprintf("σ/μ = %g", ratio), Values: v})
	}
	return lc
}

func (s *logpStudy) excessChart(r *logpResults) *report.LineChart {
	lc := &report.LineChart{
		ID:      "logp-excess",
		Title:   "Excess E[T(L_s*)] − T_s(μ) versus P",
		Caption: "How much longer the best schedule takes, on average, than LogP predicts with the mean latency; same machines as the chart above.",
		X:       s.pAxis(), YName: "E[T(L_s*)] − T_s(μ) (additions)", Digits: 4,
	}
	for ri, ratio := range s.ratios {
		v := make([]float64, len(s.ps))
		for k, o := range r.ByP[ri] {
			v[k] = o.Excess()
		}
		lc.Series = append(lc.Series, report.Series{Name: fmt.Sprintf("σ/μ = %g", ratio), Values: v})
	}
	return lc
}
