package allreduce

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	engine "commlab/engine/allreduce"
	"commlab/engine/stats"
	"commlab/scene"
)

// A quantity is one number the page shows of a cell.
type quantity struct {
	name  string
	get   func(c *cell, p engine.Params) stats.Interval
	exact bool // shown without an interval (a count, a choice of T, a jitter-free time)
}

var (
	qConventional = quantity{"conventional time", func(c *cell, _ engine.Params) stats.Interval { return c.Conventional }, false}
	qProposed     = quantity{"proposed time", func(c *cell, _ engine.Params) stats.Interval { return c.Proposed }, false}
	qInfluence    = quantity{"influence", func(c *cell, p engine.Params) stats.Interval { return c.influence(p) }, false}
	qEffect       = quantity{"effect", func(c *cell, _ engine.Params) stats.Interval { return c.Effect }, false}
	qSpeedup      = quantity{"speedup", func(c *cell, _ engine.Params) stats.Interval { return c.Speedup }, false}
	qOptimalT     = quantity{"optimal T", func(c *cell, _ engine.Params) stats.Interval { return verdict.Exact(float64(c.OptimalT)) }, true}
	qTrials       = quantity{"trials", func(c *cell, _ engine.Params) stats.Interval { return verdict.Exact(float64(c.Trials)) }, true}
	qNoJitter     = quantity{"jitter-free time", func(_ *cell, p engine.Params) stats.Interval { return verdict.Exact(p.NoJitterTime()) }, true}
)

// placement is one number of a cell on the page: Z[row][col] of heat map
// item, or point col of series of line chart item.
type placement struct {
	item, series string
	row, col     int
	pt           int
	q            string
}

func (s *Sweep) place(item, series string, row, col, pt int, q quantity) {
	s.placed = append(s.placed, placement{item, series, row, col, pt, q.name})
}

// placeRow records that row of table item is about point pt (its link
// opens pt's cell).
func (s *Sweep) placeRow(item string, row, pt int) {
	s.placed = append(s.placed, placement{item: item, row: row, pt: pt, q: "row"})
}

// heatMap draws quantity q of set si's cells under reading r, each cell
// with its interval and a link to sc.
func (s *Sweep) heatMap(id string, si, r int, q quantity, sc scene.Scene, cells []*cell) *report.HeatMap {
	set := s.sets[si]
	h := &report.HeatMap{ID: id, X: s.xAxis(set), Y: s.pAxis(set), Digits: 3}
	nan := func() [][]float64 {
		m := make([][]float64, len(set.K))
		for ki := range m {
			m[ki] = make([]float64, len(set.XExp))
			for xi := range m[ki] {
				m[ki][xi] = math.NaN()
			}
		}
		return m
	}
	h.Z = nan()
	if !q.exact {
		h.Lo, h.Hi = nan(), nan()
	}
	h.Links = make([][]*report.Link, len(set.K))
	for ki := range set.K {
		h.Links[ki] = make([]*report.Link, len(set.XExp))
		for xi := range set.XExp {
			pt := s.point(si, xi, ki, r)
			if pt < 0 {
				continue
			}
			iv := q.get(cells[pt], s.params[pt])
			h.Z[ki][xi] = iv.Mean
			if !q.exact {
				h.Lo[ki][xi], h.Hi[ki][xi] = iv.Lo, iv.Hi
			}
			h.Links[ki][xi] = s.link(pt, sc)
			s.place(id, "", ki, xi, pt, q)
		}
	}
	return h
}

// lineSeries is quantity q along P at cell column (si, xi) under reading
// r, named name, with intervals and links to sc.
func (s *Sweep) lineSeries(id, name string, si, xi, r int, q quantity, sc scene.Scene, cells []*cell) report.Series {
	pts := make([]int, len(s.sets[si].K))
	for ki := range pts {
		pts[ki] = s.point(si, xi, ki, r)
	}
	return s.series(id, name, pts, q, sc, cells)
}

// series is quantity q of the points pts (-1: a gap), one per X label,
// named name, with intervals and links to sc.
func (s *Sweep) series(id, name string, pts []int, q quantity, sc scene.Scene, cells []*cell) report.Series {
	v := make([]float64, len(pts))
	sr := report.Series{Name: name, Values: v, Links: make([]*report.Link, len(pts))}
	if !q.exact {
		sr.Lo, sr.Hi = make([]float64, len(pts)), make([]float64, len(pts))
	}
	for i, pt := range pts {
		v[i] = math.NaN()
		if !q.exact {
			sr.Lo[i], sr.Hi[i] = math.NaN(), math.NaN()
		}
		if pt < 0 {
			continue
		}
		iv := q.get(cells[pt], s.params[pt])
		v[i] = iv.Mean
		if !q.exact {
			sr.Lo[i], sr.Hi[i] = iv.Lo, iv.Hi
		}
		sr.Links[i] = s.link(pt, sc)
		s.place(id, name, 0, i, pt, q)
	}
	return sr
}

func (s *Sweep) pAxis(set engine.Set) report.Axis {
	a := report.Axis{Name: "P"}
	for _, k := range set.K {
		a.Labels = append(a.Labels, kLabel(k))
		a.Values = append(a.Values, float64(int(1)<<k))
	}
	return a
}

func (s *Sweep) xAxis(set engine.Set) report.Axis {
	a := report.Axis{Name: set.X.String()}
	for xi, e := range set.XExp {
		a.Labels = append(a.Labels, set.Label(xi))
		a.Values = append(a.Values, math.Pow(10, e))
	}
	return a
}

// allreduceFigure is one figure of the paper.
type allreduceFigure struct {
	num        int
	set        string
	kind       string // influence, effect, optimalT, timeVsP
	zmin, zmax *float64
}

var allreduceFigures = []allreduceFigure{
	{num: 5, set: "A", kind: "influence"},
	{num: 6, set: "A", kind: "effect"},
	{num: 7, set: "A", kind: "optimalT"},
	{num: 8, set: "B", kind: "influence", zmin: report.Float(0), zmax: report.Float(120)},
	{num: 9, set: "B", kind: "influence", zmin: report.Float(1), zmax: report.Float(5)},
	{num: 10, set: "B", kind: "effect"},
	{num: 11, set: "B", kind: "optimalT"},
	{num: 12, set: "B", kind: "timeVsP"},
	{num: 13, set: "C1", kind: "influence", zmin: report.Float(1), zmax: report.Float(12)},
	{num: 14, set: "C1", kind: "influence", zmin: report.Float(1), zmax: report.Float(3)},
	{num: 15, set: "C1", kind: "effect"},
	{num: 16, set: "C1", kind: "optimalT"},
	{num: 17, set: "C2", kind: "influence", zmin: report.Float(0), zmax: report.Float(80)},
	{num: 18, set: "C2", kind: "influence", zmin: report.Float(1), zmax: report.Float(5)},
	{num: 19, set: "C2", kind: "effect"},
	{num: 20, set: "C2", kind: "optimalT"},
	{num: 21, set: "C1", kind: "timeVsP"},
}

func figID(num int) string { return fmt.Sprintf("fig%02d", num) }

// setCaption states a set's fixed parameters.
func setCaption(set engine.Set) string {
	b := set.Base
	fixed := fmt.Sprintf("α = %g s, period = %g s", b.Alpha, b.Period)
	if set.X == engine.TcommOverDuration {
		fixed += fmt.Sprintf(", duration = %g s; x varies N", b.Duration)
	} else {
		fixed += fmt.Sprintf(", N = %g B; x varies duration", b.N)
	}
	r := readings[defaultReading()]
	return fmt.Sprintf("Set %s: %s; β = %g s/B, γ = %g s/B, both jitters on (os_hits=%s, os_phase=%s, net_wait=%s, unless a series names another reading).", set.Name, fixed, b.Beta, b.Gamma, r.hits, r.phase, r.wait)
}

// intervalNote is the sentence every chart with intervals carries.
const intervalNote = " Every value carries its 95 % interval (the CSV and JSON have both ends); a click opens the scene with the cell's parameters."

// page builds the allreduce report page from the cells.
func (s *Sweep) page(cells []*cell) report.Page {
	mode := "full sweeps"
	if !s.Full {
		mode = "quick grid (make report regenerates the full sweeps)"
	}
	tr := s.account(cells)
	def := readings[s.def]
	p := report.Page{
		File:      "allreduce.html",
		Title:     "Butterfly allreduce under jitter, with redundant exchanges",
		Subtitle:  "Paper 000 (Matsumoto, Suda): Fig. 5-21 regenerated, " + mode,
		Thumbnail: figID(12),
		Intro: strings.Join([]string{
			"The butterfly (recursive-doubling) allreduce runs K = log2 P stages; process i exchanges with i XOR 2^(k-1) and reduces (eq. 1, 2). The proposed method adds T redundant exchanges after stage K along the partner patterns of stages 1..T: every process forwards the earliest copy of the final result it holds and adopts the earliest copy it sees. OS jitter is periodic, process i's first window at a phase φ_i uniform in [0, period) (4.1.3 A: os_phase=first); network noise is Poisson per port with a mean wait of one period (net_wait=period). The paper leaves open which OS windows delay a reduction; this page's figures take " + def.name + ": " + def.what + ". The section on the readings shows the others side by side, and why this one fits the paper best.",
			s.ruleText(tr),
			fmt.Sprintf("Influence = conventional time with jitter / without (K·(Tcomm + γN)). Effect = proposed / conventional and speedup = conventional / proposed, where proposed is the least mean over T = 1..K (the paper's choice; its interval is that T's). Optimal T is the smallest T whose mean is within %g %% of the best (settled in the spec). Empty cells are infeasible: the x value would need N < 0. Axes are logarithmic as in the paper: x in thirds of a decade (10^-1.67 is about 0.0215), y as P = 2^K. Every chart links to its data as CSV and JSON, with each value's interval.", 100*engine.OptimalTol),
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
		sec.Items = append(sec.Items, s.figure(f, si, cells))
	}
	for _, name := range order {
		p.Sections = append(p.Sections, *bySet[name])
	}
	rd := s.readingsStudy(cells)
	p.Sections = append(p.Sections, s.readingsSection(cells, rd), s.trialsSection(cells, tr))
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: "Each of the paper's findings, checked against the cells above. Every check sets our 95 % interval against the range the paper's own words allow, quoted beside it: reproduced when the interval lies inside, not reproduced when it lies outside, inconclusive when it reaches across a bound (with about how many trials would decide it). A finding made of several checks is partly reproduced when some are and some are not. The verdicts are computed, not written by hand.",
		Items: []any{report.Findings{Title: "The paper's findings against this simulation", Items: s.findings(cells, rd)}},
	})
	return p
}

// figure draws one of the paper's figures from the default reading's cells.
func (s *Sweep) figure(f allreduceFigure, si int, cells []*cell) any {
	set := s.sets[si]
	id := figID(f.num)
	if f.kind == "timeVsP" {
		xi := slices.Index(set.XExp, cutExp)
		lc := &report.LineChart{
			ID:    id,
			Title: fmt.Sprintf("Fig. %d  Allreduce time vs P at %s = %s", f.num, set.X, engine.ExpLabel(cutExp)),
			Caption: fmt.Sprintf("Paper Fig. %d. %s Conventional butterfly with jitter, the proposed method (least mean over T = 1..K) and the jitter-free time.%s",
				f.num, setCaption(set), intervalNote),
			X: s.pAxis(set), YName: "allreduce time (s)", YLog: true, Digits: 4,
		}
		if f.num == 12 {
			lc.Caption += " The paper's caption of Fig. 12 names period = 1e-3 s and duration = 1e-5 s, but its text places the figure in experiment B (period 1e-2 s, duration 1e-4 s, α = 1e-7 s); the spec follows the text."
		}
		lc.Series = []report.Series{
			s.lineSeries(id, "conventional", si, xi, s.def, qConventional, jitterScene, cells),
			s.lineSeries(id, "proposed (best T)", si, xi, s.def, qProposed, jitterScene, cells),
			s.lineSeries(id, "no jitter", si, xi, s.def, qNoJitter, jitterScene, cells),
		}
		return lc
	}
	rangeNote := ""
	if f.zmax != nil {
		rangeNote = fmt.Sprintf(" z range [%g, %g] as in the paper; values beyond it take the end colours.", *f.zmin, *f.zmax)
	}
	var h *report.HeatMap
	switch f.kind {
	case "influence":
		h = s.heatMap(id, si, s.def, qInfluence, jitterScene, cells)
		h.ZMin, h.ZMax = f.zmin, f.zmax
		h.Title = fmt.Sprintf("Fig. %d  Influence of jitter", f.num)
		h.ZName = "influence (with / without jitter)"
		h.Caption = fmt.Sprintf("Paper Fig. %d: conventional time with jitter / without. %s%s%s", f.num, setCaption(set), rangeNote, intervalNote)
	case "effect":
		h = s.heatMap(id, si, s.def, qEffect, butterflyScene, cells)
		h.Title = fmt.Sprintf("Fig. %d  Effect of the proposed method", f.num)
		h.ZName = "effect (proposed / conventional)"
		h.ZMin, h.ZMax = report.Float(0), report.Float(1)
		h.Caption = fmt.Sprintf("Paper Fig. %d: proposed time (best T) / conventional time, both with jitter; below 1 the redundant exchanges help. %s%s", f.num, setCaption(set), intervalNote)
	case "optimalT":
		h = s.heatMap(id, si, s.def, qOptimalT, butterflyScene, cells)
		h.Title = fmt.Sprintf("Fig. %d  Optimal number of redundant exchanges", f.num)
		h.ZName = "optimal T"
		h.ZMin, h.ZMax = report.Float(0), report.Float(float64(set.K[len(set.K)-1]))
		h.Digits = 2
		h.Caption = fmt.Sprintf("Paper Fig. %d: the smallest T within %g %% of the best mean time (0: no redundant exchange is worth it). %s A click opens the butterfly scene with the cell's parameters.", f.num, 100*engine.OptimalTol, setCaption(set))
	}
	return h
}

// trialAccount is what the trials came to: in all, per set of cells, and
// the cells that stopped at their cap or short of their minimum.
type trialAccount struct {
	trials, points   int
	capped, short    []int // points
	readingTrials    int
	readingPoints    int
	largestMin       int
	largestMinPt     int
	medianPrecision  float64
	precisePoints    int
	mainTrialsBySet  []int
	mainCappedBySet  []int
	mainPointsBySet  []int
	mainShortBySet   []int
	mainPreciseBySet []int
}

func (s *Sweep) account(cells []*cell) trialAccount {
	a := trialAccount{largestMinPt: -1, mainTrialsBySet: make([]int, len(s.sets)), mainCappedBySet: make([]int, len(s.sets)),
		mainPointsBySet: make([]int, len(s.sets)), mainShortBySet: make([]int, len(s.sets)), mainPreciseBySet: make([]int, len(s.sets))}
	var precs []float64
	for pt, c := range cells {
		a.trials += c.Trials
		a.points++
		if c.Capped {
			a.capped = append(a.capped, pt)
		} else {
			a.precisePoints++
		}
		if c.short() {
			a.short = append(a.short, pt)
		}
		if c.Need > a.largestMin {
			a.largestMin, a.largestMinPt = c.Need, pt
		}
		precs = append(precs, c.Precision)
		if ref := s.points[pt]; ref.reading != s.def {
			a.readingTrials += c.Trials
			a.readingPoints++
		} else {
			a.mainTrialsBySet[ref.set] += c.Trials
			a.mainPointsBySet[ref.set]++
			if c.Capped {
				a.mainCappedBySet[ref.set]++
			} else {
				a.mainPreciseBySet[ref.set]++
			}
			if c.short() {
				a.mainShortBySet[ref.set]++
			}
		}
	}
	a.medianPrecision = verdict.Median(precs)
	return a
}

// ruleText says the rule and what it came to, for the page's intro.
func (s *Sweep) ruleText(a trialAccount) string {
	r := s.rule
	return fmt.Sprintf("Every number carries its 95 %% interval, and every cell ran as many trials as it needed (issue 22): blocks of %d trials until the half-widths of its conventional mean, its proposed mean and their paired ratio are within %g %% of them, never fewer than its minimum, at most its cap. The minimum is Params.MinTrials(%g): enough trials to see %d times every rare event (a window meeting a run, a late redundant copy) that could move a mean by more than %g %%, computed from the model's hit probabilities (docs/allreduce.md); it wins over the cap up to %s process-stage updates, and a cell whose minimum costs more runs what that affords and is marked short of it. The cap is %d trials, or fewer where they would cost more than %s updates (%s on the cuts of Fig. 12 and 21), %d at least (a cell whose cap is below %d runs one block of its cap). The other readings' corners (the z ranges' cells, whose influence alone the page shows) run the conventional butterfly alone (T = 0), which gives the conventional time of a trial bit for bit. "+
		"%d cells ran %s trials in all (%s for the other readings' %d cells); %d reached the precision, %d stopped at their cap and %d are short of their minimum (listed under \"Trials\"). Intervals: Student's t for the means; Fieller's for the paired ratios, since the conventional and the proposed time at every T come from one run and every reading of a cell draws the same random numbers (common random numbers), which makes a ratio's interval far narrower than its parts'. Every half-width is at least %g %% of its estimate, the share of a mean the minimum lets rare events move unseen.",
		r.Block, 100*r.Precision, r.Waive, engine.MinHits, 100*r.Waive, sci(r.MinBudget), r.Cap, sci(r.Budget), sci(r.CutBudget), r.MinCap, r.Block,
		a.points, thousands(a.trials), thousands(a.readingTrials), a.readingPoints, a.precisePoints, len(a.capped), len(a.short), 100*r.Waive)
}

// sci writes 2e8 as 2·10^8.
func sci(x float64) string {
	e := math.Floor(math.Log10(x))
	m := x / math.Pow(10, e)
	if math.Abs(m-1) < 1e-9 {
		return fmt.Sprintf("10^%g", e)
	}
	return fmt.Sprintf("%g·10^%g", math.Round(m*100)/100, e)
}

// thousands writes 1234567 as 1,234,567.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// trialsSection shows the trials every cell ran and lists the cells that
// stopped at their cap or short of their minimum.
func (s *Sweep) trialsSection(cells []*cell, a trialAccount) report.Section {
	sec := report.Section{Title: "Trials"}
	var lines []string
	for si, set := range s.sets {
		lines = append(lines, fmt.Sprintf("set %s: %d cells, %s trials, %d precise, %d capped, %d short of their minimum",
			set.Name, a.mainPointsBySet[si], thousands(a.mainTrialsBySet[si]), a.mainPreciseBySet[si], a.mainCappedBySet[si], a.mainShortBySet[si]))
	}
	largest := ""
	if pt := a.largestMinPt; pt >= 0 {
		c := s.points[pt]
		set := s.sets[c.set]
		largest = fmt.Sprintf(" The largest minimum is %s trials (set %s, %s = %s, P = %s, %s): its rare event has a probability of %.2g per trial, and %d sightings of it take that many.",
			thousands(a.largestMin), set.Name, set.X, set.Label(c.xi), kLabel(set.K[c.ki]), readings[c.reading].name, float64(engine.MinHits)/float64(a.largestMin), engine.MinHits)
	}
	sec.Intro = "The trials each cell of the figures ran, by the rule of the introduction. " + strings.Join(lines, "; ") + "." + largest +
		fmt.Sprintf(" The median cell stopped with its widest half-width at %.2g %% of its estimate. A capped cell's interval is honest but wider than the rule's precision (the heat maps hatch the wide ones); a cell short of its minimum may not yet have seen the rare event its mean depends on (the table below lists both).", 100*a.medianPrecision)
	for si, set := range s.sets {
		h := s.heatMap("allreduce-trials-"+strings.ToLower(set.Name), si, s.def, qTrials, butterflyScene, cells)
		h.Title = fmt.Sprintf("Trials per cell, set %s", set.Name)
		h.ZName = "trials"
		h.Digits = 4
		h.Caption = fmt.Sprintf("The trials each cell of set %s ran (the default reading). %s A click opens the butterfly scene with the cell's parameters.", set.Name, setCaption(set))
		sec.Items = append(sec.Items, h)
	}
	tab := &report.Table{
		ID:      "allreduce-capped",
		Title:   "Cells that stopped at their cap or short of their minimum",
		Header:  []string{"set", "x", "P", "reading", "trials", "cap", "minimum (needed)", "widest half-width", "stopped"},
		Caption: fmt.Sprintf("Every cell of the sweep (the figures' and the other readings') that did not reach the rule's %g %% precision, or ran fewer trials than its minimum needs. A click on a row opens the butterfly scene with the cell's parameters.", 100*s.rule.Precision),
	}
	for pt, c := range cells {
		if !c.Capped && !c.short() {
			continue
		}
		ref := s.points[pt]
		set := s.sets[ref.set]
		why := "at its cap"
		switch {
		case !c.Capped:
			why = "precise"
		case c.Trials > s.caps[pt]:
			why = "at its minimum, above its cap"
		}
		if c.short() {
			why += ", short of its minimum"
		}
		tab.Rows = append(tab.Rows, []string{set.Name, set.Label(ref.xi), kLabel(set.K[ref.ki]), readings[ref.reading].name,
			fmt.Sprint(c.Trials), fmt.Sprint(s.caps[pt]), fmt.Sprintf("%d (%d)", c.Min, c.Need), fmt.Sprintf("%.2g %%", 100*c.Precision), why})
		s.placeRow(tab.ID, len(tab.RowLinks), pt)
		tab.RowLinks = append(tab.RowLinks, s.link(pt, butterflyScene))
	}
	sec.Items = append(sec.Items, tab)
	return sec
}
