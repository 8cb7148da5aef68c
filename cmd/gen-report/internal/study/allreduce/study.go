package allreduce

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	"commlab/cmd/gen-report/internal/verdict"
	engine "commlab/engine/allreduce"
	"commlab/engine/sweep"
)

// Study is paper 000's study: gen-report's eval allreduce and the
// allreduce page.
type Study struct{}

func (Study) Name() string { return "allreduce" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalAllreduce(stdout, stderr, args)
}

// Sweep lays out the sweep of sets A, B, C1 and C2 and the variant
// columns under cfg.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	return NewSweep(cfg.Full, cfg.Trials, cfg.Seed), nil
}

// Page builds the page from every point's trials (Run's results, or the
// shards' put together). A point's result is its trials' times by T
// ([trial][T]), the variant points' for their first variantTrials
// trials only.
func (s *Sweep) Page(raw []json.RawMessage) (report.Page, error) {
	res, err := study.Decode(raw, func(pt int, trials [][]float64) error {
		want := s.Trials
		if s.twin[pt] >= 0 {
			want = s.variantTrials()
		}
		if len(trials) != want {
			return fmt.Errorf("%d trials, want %d (from -trials %d)", len(trials), want, s.Trials)
		}
		p := s.params(pt)
		for t, byT := range trials {
			if len(byT) != p.T+1 {
				return fmt.Errorf("trial %d has %d times, want T+1 = %d", t, len(byT), p.T+1)
			}
			for k, v := range byT {
				if !(v > 0) || math.IsInf(v, 0) {
					return fmt.Errorf("trial %d: the time with T = %d is %v, want a finite time > 0", t, k, v)
				}
			}
		}
		return nil
	})
	if err != nil {
		return report.Page{}, err
	}
	cells, err := s.cells(res)
	if err != nil {
		return report.Page{}, err
	}
	return s.page(cells), nil
}

// Points is the number of sweep points (cells and variant cells).
func (s *Sweep) Points() int { return len(s.points) }

// Sweep is the paper-000 sweep: sets A, B, C1, C2 on one grid
// each, every feasible cell a sweep point, then the variant columns (the
// cuts of Fig. 12 and 21 under the other readings of the model).
type Sweep struct {
	Full     bool
	Trials   int
	Seed     uint64
	sets     []engine.Set
	variants []allreduceVariant
	points   []cellRef // sweep point index -> cell
	// twin[pt] is, for a variant point, the main point of the same cell,
	// whose trials' random numbers it reuses (-1 for main points): the two
	// readings then see the same OS phases, so their difference is the
	// reading's alone, not sampling noise.
	twin []int
}

// cellRef is a sweep point: cell (xi, ki) of set, or with variant ≥ 0 cell
// ki of variants[variant]'s column.
type cellRef struct{ set, xi, ki, variant int }

// allreduceVariant is one column of the side-by-side section: the cut of a
// time-vs-P figure (set, x = 10^atExp) under another reading of the model.
type allreduceVariant struct {
	fig   int
	set   string
	atExp float64
	name  string // the option as the flags write it: "os_phase=stationary"
	edit  func(*engine.Params)
}

// allreduceVariants are the two readings the issue asks to see side by
// side (the OS windows' onset) and the paper's literal network wait, each
// for Fig. 12 and Fig. 21.
func allreduceVariants() []allreduceVariant {
	stationary := func(p *engine.Params) { p.OSPhase = engine.PhaseStationary }
	inverse := func(p *engine.Params) { p.NetWait = engine.WaitInverse }
	return []allreduceVariant{
		{fig: 12, set: "B", atExp: -2, name: "os_phase=stationary", edit: stationary},
		{fig: 21, set: "C1", atExp: -2, name: "os_phase=stationary", edit: stationary},
		{fig: 12, set: "B", atExp: -2, name: "net_wait=inverse", edit: inverse},
		{fig: 21, set: "C1", atExp: -2, name: "net_wait=inverse", edit: inverse},
	}
}

func NewSweep(full bool, trials int, seed uint64) *Sweep {
	s := &Sweep{Full: full, Trials: trials, Seed: seed, sets: engine.PaperSets(full), variants: allreduceVariants()}
	for si, set := range s.sets {
		for xi := range set.XExp {
			for ki, k := range set.K {
				if _, ok := set.Point(xi, k); ok {
					s.points = append(s.points, cellRef{si, xi, ki, -1})
				}
			}
		}
	}
	s.twin = make([]int, len(s.points), 2*len(s.points))
	for pt := range s.twin {
		s.twin[pt] = -1
	}
	for vi, v := range s.variants {
		si := s.setIndex(v.set)
		xi := slices.Index(s.sets[si].XExp, v.atExp)
		for ki := range s.sets[si].K {
			s.points = append(s.points, cellRef{si, xi, ki, vi})
			s.twin = append(s.twin, slices.Index(s.points, cellRef{si, xi, ki, -1}))
		}
	}
	return s
}

// fingerprint names the grid so that shards of different grids never merge.
func (s *Sweep) Fingerprint() string {
	return fmt.Sprintf("allreduce/v2 full=%t trials=%d seed=%d points=%d variants=%d×%d trials, paired", s.Full, s.Trials, s.Seed, len(s.points), len(s.variants), s.variantTrials())
}

func (s *Sweep) params(pt int) engine.Params {
	c := s.points[pt]
	set := s.sets[c.set]
	p, _ := set.Point(c.xi, set.K[c.ki])
	if c.variant >= 0 {
		s.variants[c.variant].edit(&p)
	}
	return p
}

// Costs is each point's estimated time: engine.Estimate's for one trial
// times the trials it runs.
func (s *Sweep) Costs() []float64 {
	c := make([]float64, len(s.points))
	for pt := range c {
		n := s.Trials
		if s.twin[pt] >= 0 {
			n = s.variantTrials()
		}
		c[pt] = engine.Estimate(s.params(pt), false).Seconds * float64(n)
	}
	return c
}

// Run sweeps the owned points; a point's result is its trials' ByT. A
// variant point reuses its main cell's random numbers (twin).
func (s *Sweep) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	res, err := study.RunTrials(ctx, owned, s.Costs(), s.Trials, s.Seed, progress,
		func() *engine.Simulator { return new(engine.Simulator) },
		func(sim *engine.Simulator, pt, trial int, rng *rand.Rand) ([]float64, error) {
			if tw := s.twin[pt]; tw >= 0 {
				if trial >= s.variantTrials() {
					return nil, nil // not run: see variantTrials
				}
				rng = sweep.RNG(s.Seed, tw, trial)
			}
			r, err := sim.Run(s.params(pt), rng, nil)
			return r.ByT, err
		})
	if err != nil {
		return nil, err
	}
	for pt := range res {
		if res[pt] != nil && s.twin[pt] >= 0 {
			res[pt] = res[pt][:s.variantTrials()]
		}
	}
	return study.Encode(res, func(pt int) bool { return res[pt] != nil })
}

var _ study.TrialCounter = (*Sweep)(nil) // gen-report status counts its trials

// PointTrials counts the trials a point's result holds, one element each
// ([trial][T]): a variant point holds its first variantTrials only.
func (s *Sweep) PointTrials(_ int, result json.RawMessage) (int, error) {
	return study.CountArray(result)
}

// variantTrials is how many trials a variant column runs: 10 (or all, if
// fewer). The variant columns are paired with the main cells' first trials
// (the same random numbers), so a third of the paper's 30 trials shows the
// readings' difference clearly, and keeps the whole page as fast as before
// os_phase existed (the four columns at 30 trials would add about 8 % to
// the allreduce sweep).
func (s *Sweep) variantTrials() int { return min(s.Trials, 10) }

// allreduceCells are the sweep's summaries: main[set][xi][ki] (nil where
// the cell is infeasible), variants[variant][ki], and pairs[variant][ki],
// the main cell of the same column over the variant's trials only.
type allreduceCells struct {
	main     [][][]*engine.Summary
	variants [][]*engine.Summary
	pairs    [][]*engine.Summary
}

// cells reduces the sweep to one Summary per grid cell.
func (s *Sweep) cells(results [][][]float64) (*allreduceCells, error) {
	out := &allreduceCells{main: make([][][]*engine.Summary, len(s.sets)), variants: make([][]*engine.Summary, len(s.variants)), pairs: make([][]*engine.Summary, len(s.variants))}
	for si, set := range s.sets {
		out.main[si] = make([][]*engine.Summary, len(set.XExp))
		for xi := range out.main[si] {
			out.main[si][xi] = make([]*engine.Summary, len(set.K))
		}
	}
	for vi, v := range s.variants {
		out.variants[vi] = make([]*engine.Summary, len(s.sets[s.setIndex(v.set)].K))
		out.pairs[vi] = make([]*engine.Summary, len(out.variants[vi]))
	}
	nv := s.variantTrials()
	for pt, c := range s.points {
		if c.variant < 0 {
			sum, err := s.summarize(pt, results[pt])
			if err != nil {
				return nil, err
			}
			out.main[c.set][c.xi][c.ki] = sum
			continue
		}
		sum, err := s.summarize(pt, results[pt][:nv])
		if err != nil {
			return nil, err
		}
		tw := s.twin[pt]
		pair, err := s.summarize(tw, results[tw][:nv])
		if err != nil {
			return nil, err
		}
		out.variants[c.variant][c.ki], out.pairs[c.variant][c.ki] = sum, pair
	}
	return out, nil
}

// summarize is engine.Summarize of point pt's trials; a summary that is
// not finite (a time read from a shard file so large that the means or
// ratios overflow) is the point's error.
func (s *Sweep) summarize(pt int, trials [][]float64) (*engine.Summary, error) {
	sum, err := engine.Summarize(s.params(pt), trials)
	if err != nil {
		return nil, &study.PointError{Point: pt, Err: err}
	}
	for _, f := range []struct {
		what string
		v    float64
	}{{"conventional", sum.Conventional}, {"proposed", sum.Proposed}, {"conventional_stderr", sum.ConventionalSE},
		{"proposed_stderr", sum.ProposedSE}, {"influence", sum.Influence}, {"effect", sum.Effect}} {
		if err := study.Finite("the trials' "+f.what, f.v); err != nil {
			return nil, &study.PointError{Point: pt, Err: fmt.Errorf("%w: a time in its trials is beyond what the model gives", err)}
		}
	}
	return &sum, nil
}

// allreduceFigure is one figure of the paper.
type allreduceFigure struct {
	num        int
	set        string
	kind       string // influence, effect, optimalT, timeVsP
	zmin, zmax *float64
	atExp      float64 // timeVsP: the x axis value (a power of ten) of the cut
}

var allreduceFigures = []allreduceFigure{
	{num: 5, set: "A", kind: "influence"},
	{num: 6, set: "A", kind: "effect"},
	{num: 7, set: "A", kind: "optimalT"},
	{num: 8, set: "B", kind: "influence", zmin: report.Float(0), zmax: report.Float(120)},
	{num: 9, set: "B", kind: "influence", zmin: report.Float(1), zmax: report.Float(5)},
	{num: 10, set: "B", kind: "effect"},
	{num: 11, set: "B", kind: "optimalT"},
	{num: 12, set: "B", kind: "timeVsP", atExp: -2},
	{num: 13, set: "C1", kind: "influence", zmin: report.Float(1), zmax: report.Float(12)},
	{num: 14, set: "C1", kind: "influence", zmin: report.Float(1), zmax: report.Float(3)},
	{num: 15, set: "C1", kind: "effect"},
	{num: 16, set: "C1", kind: "optimalT"},
	{num: 17, set: "C2", kind: "influence", zmin: report.Float(0), zmax: report.Float(80)},
	{num: 18, set: "C2", kind: "influence", zmin: report.Float(1), zmax: report.Float(5)},
	{num: 19, set: "C2", kind: "effect"},
	{num: 20, set: "C2", kind: "optimalT"},
	{num: 21, set: "C1", kind: "timeVsP", atExp: -2},
}

func (s *Sweep) setIndex(name string) int {
	return slices.IndexFunc(s.sets, func(x engine.Set) bool { return x.Name == name })
}

// setCaption states a set's fixed parameters.
func setCaption(set engine.Set) string {
	b := set.Base
	fixed := fmt.Sprintf("α = %g s, period = %g s", b.Alpha, b.Period)
	if set.X == engine.TcommOverDuration {
		fixed += fmt.Sprintf(", duration = %g s; x varies N", b.Duration)
	} else {
		fixed += fmt.Sprintf(", N = %g B; x varies duration", b.N)
	}
	return fmt.Sprintf("Set %s: %s; β = %g s/B, γ = %g s/B, both jitters on (os_phase=%s, net_wait=%s).", set.Name, fixed, b.Beta, b.Gamma, b.OSPhase, b.NetWait)
}

func kLabel(k int) string { return fmt.Sprintf("2^%d", k) }

// page builds the allreduce report page from the cell summaries.
func (s *Sweep) page(cells *allreduceCells) report.Page {
	mode := "full sweeps"
	if !s.Full {
		mode = "quick grid (make report regenerates the full sweeps)"
	}
	p := report.Page{
		File:     "allreduce.html",
		Title:    "Butterfly allreduce under jitter, with redundant exchanges",
		Subtitle: "Paper 000 (Matsumoto, Suda): Fig. 5-21 regenerated, " + mode,
		Intro: strings.Join([]string{
			"The butterfly (recursive-doubling) allreduce runs K = log2 P stages; process i exchanges with i XOR 2^(k-1) and reduces (eq. 1, 2). The proposed method adds T redundant exchanges after stage K along the partner patterns of stages 1..T: every process forwards the earliest copy of the final result it holds and adopts the earliest copy it sees. OS jitter is periodic: process i's first window starts at a phase φ_i uniform in [0, period), so none is running at t = 0 (the paper draws the time of the first jitter at random, 4.1.3 A; os_phase=first). Network noise is Poisson per port with a mean wait of one period (net_wait=period). Both as in specs/allreduce-jitter.md; the two sections before the findings show the other readings (os_phase=stationary, net_wait=inverse).",
			fmt.Sprintf("Each cell is the mean of %d trials (seed %d; every trial's seed derives from the seed, the cell and the trial only). Influence = conventional time with jitter / without (K·(Tcomm + γN)). Effect = proposed / conventional, where proposed is the least mean over T = 1..K (the paper's choice). Optimal T is the smallest T whose mean is within %g %% of the best (settled in the spec). Empty cells are infeasible: the x value would need N < 0.", s.Trials, s.Seed, 100*engine.OptimalTol),
			"Axes are logarithmic as in the paper: x in thirds of a decade (10^-1.67 is about 0.0215), y as P = 2^K. Every chart links to its data as CSV and JSON.",
		}, "\n\n"),
	}
	bySet := map[string]*report.Section{}
	var order []string
	for _, f := range allreduceFigures {
		si := s.setIndex(f.set)
		set := s.sets[si]
		sec, ok := bySet[f.set]
		if !ok {
			sec = &report.Section{Title: "Set " + f.set, Intro: setCaption(set)}
			bySet[f.set] = sec
			order = append(order, f.set)
		}
		sec.Items = append(sec.Items, s.figure(f, set, cells.main[si]))
	}
	for _, name := range order {
		p.Sections = append(p.Sections, *bySet[name])
	}
	p.Sections = append(p.Sections, s.readingsSection(cells), s.netWaitSection(cells))
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: "Each of the paper's six findings, checked against the data above. The thresholds are stated in each piece of evidence; the verdicts are computed, not written by hand.",
		Items: []any{report.Findings{Title: "The paper's findings against this simulation", Items: s.findings(cells)}},
	})
	return p
}

func (s *Sweep) figure(f allreduceFigure, set engine.Set, cells [][]*engine.Summary) any {
	id := fmt.Sprintf("fig%02d", f.num)
	yAxis := report.Axis{Name: "P"}
	for _, k := range set.K {
		yAxis.Labels = append(yAxis.Labels, kLabel(k))
		yAxis.Values = append(yAxis.Values, float64(int(1)<<k))
	}
	if f.kind == "timeVsP" {
		xi := slices.Index(set.XExp, f.atExp)
		lc := &report.LineChart{
			ID:    id,
			Title: fmt.Sprintf("Fig. %d  Allreduce time vs P at %s = %s", f.num, set.X, engine.ExpLabel(f.atExp)),
			Caption: fmt.Sprintf("Paper Fig. %d. %s Conventional butterfly with jitter, the proposed method (least mean over T = 1..K) and the jitter-free time, mean of %d trials.",
				f.num, setCaption(set), s.Trials),
			X: yAxis, YName: "allreduce time (s)", YLog: true, Digits: 4,
		}
		if f.num == 12 {
			lc.Caption += " The paper's caption of Fig. 12 names period = 1e-3 s and duration = 1e-5 s, but its text places the figure in experiment B (period 1e-2 s, duration 1e-4 s, α = 1e-7 s); the spec follows the text."
		}
		conv, prop, none := make([]float64, len(set.K)), make([]float64, len(set.K)), make([]float64, len(set.K))
		for ki := range set.K {
			conv[ki], prop[ki], none[ki] = math.NaN(), math.NaN(), math.NaN()
			if xi >= 0 && cells[xi][ki] != nil {
				c := cells[xi][ki]
				conv[ki], prop[ki], none[ki] = c.Conventional, c.Proposed, c.NoJitter
			}
		}
		lc.Series = []report.Series{{Name: "conventional", Values: conv}, {Name: "proposed (best T)", Values: prop}, {Name: "no jitter", Values: none}}
		return lc
	}
	xAxis := report.Axis{Name: set.X.String()}
	for xi, e := range set.XExp {
		xAxis.Labels = append(xAxis.Labels, set.Label(xi))
		xAxis.Values = append(xAxis.Values, math.Pow(10, e))
	}
	z := make([][]float64, len(set.K))
	for ki := range set.K {
		z[ki] = make([]float64, len(set.XExp))
		for xi := range set.XExp {
			z[ki][xi] = math.NaN()
			if c := cells[xi][ki]; c != nil {
				switch f.kind {
				case "influence":
					z[ki][xi] = c.Influence
				case "effect":
					z[ki][xi] = c.Effect
				case "optimalT":
					z[ki][xi] = float64(c.OptimalT)
				}
			}
		}
	}
	h := &report.HeatMap{ID: id, X: xAxis, Y: yAxis, Z: z, ZMin: f.zmin, ZMax: f.zmax, Digits: 3}
	rangeNote := ""
	if f.zmax != nil {
		rangeNote = fmt.Sprintf(" z range [%g, %g] as in the paper; values beyond it take the end colours.", *f.zmin, *f.zmax)
	}
	switch f.kind {
	case "influence":
		h.Title = fmt.Sprintf("Fig. %d  Influence of jitter", f.num)
		h.ZName = "influence (with / without jitter)"
		h.Caption = fmt.Sprintf("Paper Fig. %d: conventional time with jitter / without. %s%s", f.num, setCaption(set), rangeNote)
	case "effect":
		h.Title = fmt.Sprintf("Fig. %d  Effect of the proposed method", f.num)
		h.ZName = "effect (proposed / conventional)"
		h.ZMin, h.ZMax = report.Float(0), report.Float(1)
		h.Caption = fmt.Sprintf("Paper Fig. %d: proposed time (best T) / conventional time, both with jitter; below 1 the redundant exchanges help. %s", f.num, setCaption(set))
	case "optimalT":
		h.Title = fmt.Sprintf("Fig. %d  Optimal number of redundant exchanges", f.num)
		h.ZName = "optimal T"
		h.ZMin, h.ZMax = report.Float(0), report.Float(float64(set.K[len(set.K)-1]))
		h.Digits = 2
		h.Caption = fmt.Sprintf("Paper Fig. %d: the smallest T within %g %% of the best mean time (0: no redundant exchange is worth it). %s", f.num, 100*engine.OptimalTol, setCaption(set))
	}
	return h
}

// variantIndex returns the index of the variant column (fig, name), or -1.
func (s *Sweep) variantIndex(fig int, name string) int {
	return slices.IndexFunc(s.variants, func(v allreduceVariant) bool { return v.fig == fig && v.name == name })
}

// readingCut is one time-vs-P figure's cut under one reading of the model.
type readingCut struct {
	fig   int
	name  string // "os_phase=first (default)", ...
	col   []*engine.Summary
	ks    []int
	setNm string
}

// cuts returns the cut of Fig. 12 or 21 under the default reading and under
// the variant named name.
func (s *Sweep) cuts(cells *allreduceCells, fig int, name, defName string) (def, alt readingCut) {
	vi := s.variantIndex(fig, name)
	v := s.variants[vi]
	si := s.setIndex(v.set)
	ks := s.sets[si].K
	def = readingCut{fig: fig, name: defName, col: cells.pairs[vi], ks: ks, setNm: v.set}
	alt = readingCut{fig: fig, name: name, col: cells.variants[vi], ks: ks, setNm: v.set}
	return def, alt
}

// readingsChart draws the conventional and proposed times of two readings
// of one figure's cut, with the jitter-free time.
func (s *Sweep) readingsChart(id, title, caption string, a, b readingCut) *report.LineChart {
	x := report.Axis{Name: "P"}
	for _, k := range a.ks {
		x.Labels = append(x.Labels, kLabel(k))
		x.Values = append(x.Values, float64(int(1)<<k))
	}
	series := func(name string, col []*engine.Summary, f func(*engine.Summary) float64) report.Series {
		v := make([]float64, len(col))
		for i, c := range col {
			v[i] = math.NaN()
			if c != nil {
				v[i] = f(c)
			}
		}
		return report.Series{Name: name, Values: v}
	}
	conv := func(c *engine.Summary) float64 { return c.Conventional }
	prop := func(c *engine.Summary) float64 { return c.Proposed }
	return &report.LineChart{
		ID: id, Title: title, Caption: caption, X: x, YName: "allreduce time (s)", YLog: true, Digits: 4,
		Series: []report.Series{
			series("conventional, "+a.name, a.col, conv), series("proposed, "+a.name, a.col, prop),
			series("conventional, "+b.name, b.col, conv), series("proposed, "+b.name, b.col, prop),
			series("no jitter", a.col, func(c *engine.Summary) float64 { return c.NoJitter }),
		},
	}
}

// readingsSection puts the two readings of the OS jitter's onset side by
// side for Fig. 12 and 21 (issue 12), with a table of what each reading
// says about findings 2 and 5.
func (s *Sweep) readingsSection(cells *allreduceCells) report.Section {
	const def = "os_phase=first"
	tab := &report.Table{
		ID:      "allreduce-readings",
		Title:   "Fig. 12 and 21 under the two readings",
		Header:  []string{"figure", "reading", "largest speedup", "at P", "speedup ≥ 2 at P", "steepest climb of the proposed time", "share of processes a window meets during a jitter-free run at P = 2^13"},
		Caption: "Speedup = conventional / proposed (best T), means over the paired trials. The climb is the largest growth of the proposed time over one doubling of P from 2^8 on. The last column is the probability that a process meets an OS window before the jitter-free run time t13 = K·(Tcomm + γN) at P = 2^13 is over: t13/period when the first window starts at a random phase, (duration + t13)/period when a window may already be running at t = 0.",
	}
	sec := report.Section{
		Title: "Two readings of the OS jitter: the paper's first jitter at a random time, or stationary windows",
		Intro: strings.Join([]string{
			"The paper draws the time at which each process's OS jitter first occurs at random (4.1.3 A), so nothing is running at t = 0: os_phase=first, the default of every figure above. The project's earlier reading, os_phase=stationary, lets windows recur for every integer m, so a window may already be running at t = 0.",
		}, "\n\n"),
	}
	var climbs, shares []string
	for _, fig := range []int{12, 21} {
		a, b := s.cuts(cells, fig, "os_phase=stationary", def)
		v := s.variants[s.variantIndex(fig, "os_phase=stationary")]
		set := s.sets[s.setIndex(v.set)]
		sec.Items = append(sec.Items, s.readingsChart(fmt.Sprintf("allreduce-fig%d-readings", fig),
			fmt.Sprintf("Fig. %d  first jitter at a random time vs stationary windows", fig),
			fmt.Sprintf("Paper Fig. %d's cut (%s = %s) under both readings of the OS jitter: means of the cells' first %d trials, with the same random numbers (OS phases, network noise) under both readings, so the curves differ only by the windows running at t = 0. %s", fig, set.X, engine.ExpLabel(v.atExp), s.variantTrials(), setCaption(set)),
			a, b))
		p, _ := set.Point(slices.Index(set.XExp, v.atExp), 13)
		run := p.NoJitterTime()
		for _, rc := range []readingCut{a, b} {
			kn := kneeOf(rc.ks, rc.col)
			share := run / p.Period
			if rc.name != def {
				share = (p.Duration + run) / p.Period
			}
			tab.Rows = append(tab.Rows, []string{fmt.Sprintf("Fig. %d", fig), rc.name, fmt.Sprintf("%.3gx", kn.peak), kLabel(kn.peakK), kn.fastRange(), kn.climbText(), fmt.Sprintf("%.3g", share)})
			climbs = append(climbs, fmt.Sprintf("Fig. %d %s: %s", fig, rc.name, kn.climbText()))
			shares = append(shares, fmt.Sprintf("%.2g %%", 100*share))
		}
	}
	sec.Items = append(sec.Items, tab)
	sec.Intro += "\n\nWhy they differ: the redundant exchanges repair a late process only while some residue class of processes met no window, and a stationary window running at t = 0 makes many more processes late: at P = 2^13 a process meets a window during the jitter-free run with probability " +
		shares[0] + " (Fig. 12) in the paper's reading against " + shares[1] + " in the stationary one (" + shares[2] + " against " + shares[3] + " in Fig. 21), so the stationary reading runs out of clean residue classes, and its proposed time climbs, at a smaller P. Steepest climbs of the proposed time: " + strings.Join(climbs, "; ") + "."
	return sec
}

// netWaitSection shows the paper's literal network noise, a mean wait of
// 1/period, against the spec's mean wait of period, on the same cuts, and
// states its effect from the data.
func (s *Sweep) netWaitSection(cells *allreduceCells) report.Section {
	const def = "net_wait=period"
	sec := report.Section{Title: "The paper's literal network noise: a mean wait of 1/period"}
	var effects []string
	for _, fig := range []int{12, 21} {
		a, b := s.cuts(cells, fig, "net_wait=inverse", def)
		v := s.variants[s.variantIndex(fig, "net_wait=inverse")]
		set := s.sets[s.setIndex(v.set)]
		sec.Items = append(sec.Items, s.readingsChart(fmt.Sprintf("allreduce-fig%d-netwait", fig),
			fmt.Sprintf("Fig. %d  network noise every period vs every 1/period", fig),
			fmt.Sprintf("Paper Fig. %d's cut (%s = %s), os_phase=first, with the network noise's mean wait = period (default) and = 1/period: means of the cells' first %d trials, with the same OS phases under both. %s", fig, set.X, engine.ExpLabel(v.atExp), s.variantTrials(), setCaption(set)),
			a, b))
		// The change of each time, per P, with network noise all but gone.
		var dConv, dProp []float64
		for ki := range a.col {
			if ca, cb := a.col[ki], b.col[ki]; ca != nil && cb != nil {
				dConv, dProp = append(dConv, cb.Conventional/ca.Conventional-1), append(dProp, cb.Proposed/ca.Proposed-1)
			}
		}
		last := len(a.col) - 1
		p, _ := set.Point(slices.Index(set.XExp, v.atExp), a.ks[last])
		effects = append(effects, fmt.Sprintf("in Fig. %d (period %g s: one network event every %g s instead of every %g s) the conventional time changes by %+.3g %% and the proposed time by %+.3g %% in the median over P = 2^%d..2^%d; at P = 2^%d the conventional time goes from %.3g s to %.3g s and the proposed from %.3g s to %.3g s",
			fig, p.Period, 1/p.Period, p.Period, 100*verdict.Median(dConv), 100*verdict.Median(dProp), a.ks[0], a.ks[last], a.ks[last],
			a.col[last].Conventional, b.col[last].Conventional, a.col[last].Proposed, b.col[last].Proposed))
	}
	sec.Intro = strings.Join([]string{
		"The paper's text says network jitter follows a Poisson distribution with mean wait 1/period (4.1.3 B). Taken literally, with period = 1e-3 s or 1e-2 s that is one noise event every 1000 s or 100 s per port, against runs of microseconds, so network noise all but vanishes and only the OS jitter is left. The spec reads it as a mean wait of period (net_wait=period, the default); net_wait=inverse is the literal reading.",
		"Its effect, computed from the two charts: " + strings.Join(effects, "; ") + ".",
	}, "\n\n")
	return sec
}
