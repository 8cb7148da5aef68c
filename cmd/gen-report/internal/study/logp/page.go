package logp

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	"commlab/engine/stats"
	sclogp "commlab/scene/logp"
)

// fmtNum is a compact label for an axis value.
func fmtNum(v float64) string { return fmt.Sprintf("%.4g", v) }

// searchWords says how an optimum's interval was found, for captions.
func (r *logpResults) searchWords() string {
	return fmt.Sprintf("%d replicate searches (logp.Optimal), each on draws of its own; the interval is Student's t over the replicates (%d degrees of freedom), and E[T] at the L_s* a search found is replayed on fresh draws", logpReplicates, logpReplicates-1)
}

// page builds the LogP report page.
func (s *logpStudy) page(r *logpResults) report.Page {
	mode := "full grids"
	if !s.Full {
		mode = "quick grid (make report regenerates the full grids)"
	}
	b := s.base
	p := report.Page{
		File:      "logp.html",
		Title:     "LogP under fluctuating latency: the optimal planning latency",
		Subtitle:  fmt.Sprintf("Paper 002 (slides, Fujitsu Laboratories, 1999): the slides' P = 2 and P = 3 plots regenerated and extended to P = %d, %s", s.ps[len(s.ps)-1], mode),
		Thumbnail: "logp-p3",
		Intro: strings.Join([]string{
			"A LogP summation schedule is fixed in advance with a planning latency L_s and then runs with latencies drawn per message from Normal(μ, σ²) truncated at 0: a message that arrives early does not help (its receiver is busy with its planned additions), one that arrives late stalls its receiver and everything after it. The slides choose L_s to minimise the expected completion time E[T](L_s). Model and schedule as in specs/logp-fluctuation.md; the schedule for each P is the optimal LogP summation tree (Karp, Sahay, Santos, Schauser 1993) planned with L_s.",
			fmt.Sprintf("Machine: mean latency μ = L = %g, o = %g, g = %g, one addition = 1 time unit; n = %d numbers for P = 2 and 3 (n = %d·P/3 beyond, so every processor adds). T_s(L_s) is LogP's fluctuation-free prediction for the schedule planned with L_s. E[T] is a Monte Carlo mean (seed %d, the same draws at every L_s of a curve) with its 95 %% t interval. The optimal L_s* is the minimum of such a curve, which no standard error describes: it comes from %s. Where the plan is a star (every partial sum sent straight to the root: P = 2, and P = 3 here) the engine also has E[T] in closed form, and the findings use it; the Monte Carlo is its check.",
				b.L, b.O, b.G, b.N, b.N, s.Seed, r.searchWords()),
			"Every chart links to its data as CSV and JSON, and every point and row to the logp scene with its configuration.",
		}, "\n\n"),
	}
	var curves []any
	for _, c := range r.Curves {
		curves = append(curves, s.curveChart(c))
	}
	curves = append(curves, s.optimaTable(r))
	p.Sections = append(p.Sections, report.Section{
		Title: "The slides' two plots: E[T] versus the planning latency",
		Intro: fmt.Sprintf("The slides do not give σ. For P = 2 the model's expected time is E[T](L_s) = T_s(L_s) + E[max(0, L − L_s)]: T_s grows as L_s/2 and the expected stall falls with slope 1 − Φ((L_s − μ)/σ), so the optimum is at L_s = μ, where the excess over T_s(μ) is E[max(0, L − μ)] = σ/√(2π). The slides' P = 2 excess of +%g therefore means σ = %g·√(2π) = %.3f, and the P = 2 plot is drawn at that σ (σ/μ = %.3f). The P = 3 plot is drawn at the engine's default σ = %g: its two numbers need two different σ (next section). Times are drawn relative to T_s(μ), LogP's prediction with the mean latency, so the excess of the expected time over that prediction reads off directly; each caption gives T_s(μ).",
			slidesExcessP2, slidesExcessP2, slidesSigmaP2(), slidesSigmaP2()/b.L, s.curveSigma(3)),
		Items: curves,
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Which σ did the slides use?",
		Intro: fmt.Sprintf("The slides give the P = 3 optimum at L_s = μ + %g and an expected time %g above T_s(μ), but not σ. Both numbers are in the slides' units (one addition), so they fix σ once the machine is fixed: the sweep below shows where each is met.", slidesOffsetP3, slidesExcessP3),
		Items: []any{s.sigmaChart(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Beyond the slides: P up to 1024",
		Intro: "The optimal offset of the planning latency, in units of σ, and the excess of the expected time at the optimum over T_s(μ), for several σ/μ. Beyond P = 3 the plan is no star and only the Monte Carlo speaks.",
		Items: []any{s.offsetChart(r), s.excessChart(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: "The slides' claims, checked against the numbers above. Each claim's range comes from the slides' own words, quoted in its tolerance; a verdict compares our number (exact where the closed form holds, else its 95 % interval) with that range: reproduced inside, not reproduced outside, inconclusive across. The verdicts are computed, not written by hand.",
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

// nans is n NaNs.
func nans(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// bestLs is the optimum a link opens: the closed form's where it holds,
// else the Monte Carlo search's mean.
func (o logpOptimum) bestLs() (float64, string) {
	if o.HasStar() {
		return o.StarLs, "the closed form's optimum"
	}
	return o.LsIv().Mean, "the Monte Carlo search's optimum"
}

func (s *logpStudy) curveChart(c logpCurve) *report.LineChart {
	ref := c.Opt.PlannedMu
	p := s.params(c.P, c.Opt.Sigma)
	x := report.Axis{Name: "L_s"}
	rel := func(vs []float64) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			out[i] = v - ref
		}
		return out
	}
	var links []*report.Link
	mc := report.Series{Name: "E[T](L_s), Monte Carlo"}
	for i, ls := range c.Ls {
		x.Labels = append(x.Labels, fmtNum(ls))
		x.Values = append(x.Values, ls)
		v, lo, hi := ivPoint(c.point(i))
		mc.Values, mc.Lo, mc.Hi = append(mc.Values, v-ref), append(mc.Lo, lo-ref), append(mc.Hi, hi-ref)
		links = append(links, s.sceneLink(p, ls, fmt.Sprintf("L_s = %.4g of the P = %d plot", ls, c.P)))
	}
	mc.Links = links
	series := []report.Series{mc}
	hasClosed := !slices.ContainsFunc(c.Closed, math.IsNaN)
	if hasClosed {
		series = append(series, report.Series{Name: "E[T](L_s), closed form", Values: rel(c.Closed), Links: links})
	}
	series = append(series, report.Series{Name: "T_s(L_s), fluctuation-free", Values: rel(c.Planned), Links: links})
	mark := func(ls float64, on []float64, what string) report.Series {
		i := nearest(c.Ls, ls)
		sr := report.Series{Values: nans(len(c.Ls)), Links: make([]*report.Link, len(c.Ls))}
		sr.Values[i] = on[i] - ref
		sr.Links[i] = s.sceneLink(p, ls, fmt.Sprintf("%s of the P = %d plot, L_s* = %.4g", what, c.P, ls))
		return sr
	}
	o := c.Opt
	ls, ex := o.LsIv(), o.ExcessIv()
	m := mark(ls.Mean, c.Mean, "the Monte Carlo search's optimum")
	m.Name = "optimum, Monte Carlo search"
	series = append(series, m)
	caption := fmt.Sprintf("P = %d, n = %d, μ = %g, σ = %.4g; T_s(μ) = %.6g. %d trials per point, each with its 95 %% t interval. The search finds L_s* = %s (marked at the nearest grid point) with E[T](L_s*) = T_s(μ) + %s (%d replicate searches of %d trials).",
		c.P, p.N, o.Mu, o.Sigma, ref, c.Trials, verdict.Number(ls), verdict.Number(ex), len(o.Ls), s.replicateTrials(c.P))
	if hasClosed {
		m := mark(o.StarLs, c.Closed, "the closed form's optimum")
		m.Name = "optimum, closed form"
		series = append(series, m)
		in, of := c.covered()
		caption += fmt.Sprintf(" Closed form: L_s* = %.4g, E[T](L_s*) = T_s(μ) + %.4g; it lies inside the Monte Carlo's interval at %d of the %d points (the points share their draws, so they miss together).", o.StarLs, o.StarExcess(), in, of)
		if c.P == 2 {
			caption += fmt.Sprintf(" It is the spec's E[T] = T_s(L_s) + E[max(0, L − L_s)], minimal at L_s = μ with excess σ/√(2π) = %.4g: σ = %.4g is the σ that makes it the slides' +%g.", o.Sigma/sqrt2Pi, o.Sigma, slidesExcessP2)
		} else {
			caption += fmt.Sprintf(" The plan is a star (both partial sums go to the root), so T = T_s + max(0, max(L21, L31) − L_s) and E[T] = T_s(L_s) + ∫ from L_s of (1 − F(x)^%d) dx; T_s grows as %d/%d·L_s, so the optimum is where F(L_s)^%d = 1/%d.", c.P-1, c.P-1, c.P, c.P-1, c.P)
		}
	}
	caption += " A click on a point opens the logp scene with that planning latency."
	return &report.LineChart{
		ID:      fmt.Sprintf("logp-p%d", c.P),
		Title:   fmt.Sprintf("E[T] versus L_s, P = %d", c.P),
		Caption: caption,
		X:       x, YName: "time − T_s(μ) (additions)", Digits: 4,
		Series: series,
	}
}

// replicateTrials is the trials of one replicate search of the optimum
// of a plot for P.
func (s *logpStudy) replicateTrials(P int) int {
	return optimumJob(s.params(P, 1), s.optTrials(P)).perReplicate()
}

// ivPoint is an interval as a chart draws it: its estimate and ends, an
// end that is not finite (an interval that could not be formed) as NaN.
func ivPoint(iv stats.Interval) (v, lo, hi float64) {
	fin := func(x float64) float64 {
		if math.IsInf(x, 0) {
			return math.NaN()
		}
		return x
	}
	return iv.Mean, fin(iv.Lo), fin(iv.Hi)
}

// ivCell prints an interval for a table cell.
func ivCell(iv stats.Interval) string { return verdict.Number(iv) }

func (s *logpStudy) optimaTable(r *logpResults) *report.Table {
	t := &report.Table{
		ID:    "logp-optima",
		Title: "The optima of the two plots",
		Caption: fmt.Sprintf("L_s* from %s. E[T](μ) is the schedule planned with the mean latency, replayed on the same fresh draws; the saving is E[T](μ) − E[T](L_s*). Each Monte Carlo number is given with its 95 %% interval. The closed-form columns are the optimum, the excess E[T](L_s*) − T_s(μ) and the saving of the closed form (the spec's for P = 2, its star extension for P = 3). A click on a row opens the logp scene planned with the optimum.",
			r.searchWords()),
		Header: []string{"P", "σ", "L_s*", "L_s* − μ", "(L_s* − μ)/σ", "T_s(μ)", "E[T](L_s*)", "E[T](L_s*) − T_s(μ)", "E[T](μ)", "saving", "closed form: L_s*, excess, saving"},
	}
	for _, c := range r.Curves {
		o := c.Opt
		cf := "—"
		if o.HasStar() {
			cf = fmt.Sprintf("%.4g, %.4g, %.3g", o.StarLs, o.StarExcess(), o.StarSaving())
		}
		off := o.OffsetIv()
		z := stats.Interval{Mean: off.Mean / o.Sigma, Lo: off.Lo / o.Sigma, Hi: off.Hi / o.Sigma, N: off.N, Level: off.Level, Method: off.Method}
		t.Rows = append(t.Rows, []string{
			fmt.Sprint(o.P), fmt.Sprintf("%.4g", o.Sigma), ivCell(o.LsIv()), ivCell(off), ivCell(z),
			fmt.Sprintf("%.6g", o.PlannedMu), ivCell(o.ExpectedIv()), ivCell(o.ExcessIv()), ivCell(o.ExpectedMuIv()), ivCell(o.SavingIv()), cf,
		})
		ls, what := o.bestLs()
		t.RowLinks = append(t.RowLinks, s.sceneLink(s.params(o.P, o.Sigma), ls, fmt.Sprintf("%s of the P = %d plot", what, o.P)))
	}
	return t
}

func (s *logpStudy) sigmaChart(r *logpResults) *report.LineChart {
	x := report.Axis{Name: "σ"}
	n := len(r.Sigma)
	off, exc := report.Series{Name: "L_s* − μ, Monte Carlo"}, report.Series{Name: "E[T(L_s*)] − T_s(μ), Monte Carlo"}
	cfOff, cfExc, so, se := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	var links []*report.Link
	for i, o := range r.Sigma {
		x.Labels = append(x.Labels, fmtNum(o.Sigma))
		x.Values = append(x.Values, o.Sigma)
		a, alo, ahi := ivPoint(o.OffsetIv())
		b, blo, bhi := ivPoint(o.ExcessIv())
		off.Values, off.Lo, off.Hi = append(off.Values, a), append(off.Lo, alo), append(off.Hi, ahi)
		exc.Values, exc.Lo, exc.Hi = append(exc.Values, b), append(exc.Lo, blo), append(exc.Hi, bhi)
		so[i], se[i] = slidesOffsetP3, slidesExcessP3
		cfOff[i], cfExc[i] = o.StarOffset(), o.StarExcess()
		ls, what := o.bestLs()
		links = append(links, s.sceneLink(s.params(3, o.Sigma), ls, fmt.Sprintf("%s at P = 3, σ = %.4g", what, o.Sigma)))
	}
	off.Links, exc.Links = links, links
	f := r.Fit
	fit := ""
	if f.OK {
		fit = fmt.Sprintf(" Solved in closed form: the optimum lies %g above μ at σ = %.4g, the excess is %g at σ = %.4g.", slidesOffsetP3, f.Sigma76[1], slidesExcessP3, f.Sigma87[1])
	}
	return &report.LineChart{
		ID:    "logp-sigma",
		Title: "P = 3: optimal offset and excess versus σ, against the slides' numbers",
		Caption: fmt.Sprintf("P = 3, n = %d, μ = %g, o = %g, g = %g. Closed form (the plan is a star) and the Monte Carlo search (%d replicate searches of %d trials each, 95 %% t interval over the replicates). The flat lines are the slides' %g (L_s* − μ) and %g (E[T(L_s*)] − T_s(μ)); where a curve crosses its line is the σ that number implies.%s A click on a point opens the logp scene planned with that σ's optimum.",
			s.params(3, 1).N, s.base.L, s.base.O, s.base.G, logpReplicates, r.SigmaTrials, slidesOffsetP3, slidesExcessP3, fit),
		X: x, YName: "additions", Digits: 4,
		Series: []report.Series{
			{Name: "L_s* − μ, closed form", Values: cfOff, Links: links},
			{Name: "E[T(L_s*)] − T_s(μ), closed form", Values: cfExc, Links: links},
			off, exc,
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

// byPSeries is one σ/μ's series of a chart over P: the interval of
// quantity iv of each optimum, and links to its optimum.
func (s *logpStudy) byPSeries(row []logpOptimum, ratio float64, iv func(o logpOptimum) stats.Interval) report.Series {
	sr := report.Series{Name: fmt.Sprintf("σ/μ = %g", ratio)}
	for _, o := range row {
		v, lo, hi := ivPoint(iv(o))
		sr.Values, sr.Lo, sr.Hi = append(sr.Values, v), append(sr.Lo, lo), append(sr.Hi, hi)
		ls, what := o.bestLs()
		sr.Links = append(sr.Links, s.sceneLink(s.params(o.P, o.Sigma), ls, fmt.Sprintf("%s at P = %d, σ/μ = %g", what, o.P, ratio)))
	}
	return sr
}

func (s *logpStudy) offsetChart(r *logpResults) *report.LineChart {
	lc := &report.LineChart{
		ID:    "logp-offset",
		Title: "Optimal offset (L_s* − μ)/σ versus P",
		Caption: fmt.Sprintf("μ = %g, o = %g, g = %g, n = %d·P/3 (%d for P = 2); the optimal LogP summation tree for each P. P on a log axis (powers of two). The Monte Carlo search's optimum with its 95 %% interval from %s. A click on a point opens the logp scene planned with that optimum (P capped to %d, the most the scene draws).",
			s.base.L, s.base.O, s.base.G, s.base.N, s.base.N, r.searchWords(), sclogp.MaxP),
		X: s.pAxis(), YName: "(L_s* − μ)/σ", Digits: 3,
	}
	for ri, ratio := range s.ratios {
		lc.Series = append(lc.Series, s.byPSeries(r.ByP[ri], ratio, func(o logpOptimum) stats.Interval {
			iv := o.OffsetIv()
			iv.Mean, iv.Lo, iv.Hi = iv.Mean/o.Sigma, iv.Lo/o.Sigma, iv.Hi/o.Sigma
			return iv
		}))
	}
	return lc
}

func (s *logpStudy) excessChart(r *logpResults) *report.LineChart {
	lc := &report.LineChart{
		ID:      "logp-excess",
		Title:   "Excess E[T(L_s*)] − T_s(μ) versus P",
		Caption: "How much longer the best schedule takes, on average, than LogP predicts with the mean latency; same machines and intervals as the chart above (E[T] of the plan each search found, on fresh draws).",
		X:       s.pAxis(), YName: "E[T(L_s*)] − T_s(μ) (additions)", Digits: 4,
	}
	for ri, ratio := range s.ratios {
		lc.Series = append(lc.Series, s.byPSeries(r.ByP[ri], ratio, logpOptimum.ExcessIv))
	}
	return lc
}
