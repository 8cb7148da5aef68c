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
)

// The claims the readings are held to: the paper's numbers on the cuts of
// Fig. 12 and 21 and the z ranges of Fig. 8, 13 and 17, each with the
// range its words allow.
var (
	claimAbout10 = verdict.Claim{What: "the largest speedup", Paper: "about 10x at most (abstract)", Lo: 5, Hi: 20,
		Words: `the abstract's "最大で従来手法のおよそ 10倍の性能向上" (at most about 10 times the conventional method's performance), "about" read as within a factor 2`}
	claimFarFaster = verdict.Claim{What: "the least speedup over P = 2^7..2^14", Paper: "far faster for P = 2^7..2^14", Lo: 2, Hi: math.Inf(1),
		Words: `"プロセッサ数が 2^7 から 2^14 の場合は, 従来手法に比べ提案手法の方が実行時間が大変小さく" (from 2^7 to 2^14 processors the proposed method's time is very much smaller than the conventional one's): at most half of it at every P of the range`}
	claimClimb = verdict.Claim{What: "the P (as K) at the end of the first doubling over which the proposed time grows by half or more", Paper: "beyond 2^14 (abstract: from 2^15 on)", Lo: 15, Hi: 16,
		Words: `"プロセッサ数が 2^14 よりも大きくなると提案手法の計算時間が急激に大きくなる" (once P exceeds 2^14 the proposed method's time grows sharply) and the abstract's "2^15 以上" (2^15 and more): the first sharp doubling (by half again or more, where the jitter-free time grows by 7 %) ends at 2^15, or one doubling later for the grid's step`}
	claimFig8 = verdict.Claim{What: "the largest influence in set B", Paper: "z range [0, 120] (Fig. 8's caption)", Lo: 60, Hi: 120,
		Words: `Fig. 8's caption "Z 軸の範囲 [0,120]" with its text "左上端を除くと全体的にジッタの影響が一様に見える" (apart from the upper-left corner the influence looks uniform): a range chosen to hold the figure's values, its largest one in its upper half (the text's "1から20まで" for the same figure contradicts the caption; with it, the corner would look no different from the rest)`}
	claimAxis = verdict.Claim{What: "the gap between the axis ends at which Fig. 13's and Fig. 17's largest values fill the upper halves of their z ranges", Paper: "z ranges [1, 12] and [0, 80] on one x axis (Fig. 13, 17)", Lo: math.Inf(-1), Hi: 0,
		Words: `the captions "Z 軸の範囲 [1,12]" and "[0,80]" and the text "いずれも右上端を除くと全体的にジッタの影響が一様に見える" (both look uniform apart from the upper-right corner): the two figures share their axes (duration/period and P), so one x axis end must put set C1's corner influence in [6, 12] and set C2's in [40, 80]; a gap ≤ 0 decades means such an end exists`}
)

// paperP says whether the grid reaches 2^20, the largest P of the paper's
// figures as the spec reads them (the quick report's stops at 2^12).
func (s *Sweep) paperP() bool {
	for _, set := range s.sets {
		if set.K[len(set.K)-1] < 20 {
			return false
		}
	}
	return true
}

// steep is the growth of the proposed time over one doubling of P that
// counts as the climb: half again, where the jitter-free time grows by
// (K+1)/K, 7 % at 2^14.
const steep = 1.5

// cutResult is what a cut (Fig. 12 or 21) says under one reading.
type cutResult struct {
	fig            int
	peak           stats.Interval // the largest speedup, envelope
	peakK          int
	far, climb     verdict.Check
	farAt          int    // K of the least speedup over 2^7..2^14 (-1: not on the grid)
	climbText      string // the growth at the onset
	peakCheck      verdict.Check
	checkableRange bool
}

// readingResult is everything a reading is held to.
type readingResult struct {
	r           int
	fig8        verdict.Check
	fig8At      string
	axis        verdict.Check
	c1At12      stats.Interval // x where set C1's corner influence reaches 12
	c2At80      stats.Interval // and set C2's 80
	cuts        []cutResult    // Fig. 12, Fig. 21
	reproduced  int            // checks reproduced
	decided     int            // checks decided
	inconclusiv int
}

// checks are the reading's checks, in the table's order.
func (rr readingResult) checks() []verdict.Check {
	out := []verdict.Check{rr.fig8, rr.axis}
	for _, c := range rr.cuts {
		if c.fig == 12 {
			out = append(out, c.peakCheck)
		}
		out = append(out, c.far, c.climb)
	}
	return out
}

// column returns the cells of cut (set name, x = 10^cutExp) under
// reading r, one per K (nil where the grid has none).
func (s *Sweep) column(name string, r int, cells []*cell) (ks []int, col []*cell, pts []int) {
	si := s.setIndex(name)
	set := s.sets[si]
	xi := slices.Index(set.XExp, cutExp)
	for ki, k := range set.K {
		ks = append(ks, k)
		pt := s.point(si, xi, ki, r)
		pts = append(pts, pt)
		if pt < 0 {
			col = append(col, nil)
			continue
		}
		col = append(col, cells[pt])
	}
	return ks, col, pts
}

// cut holds the cut of Fig. 12 or 21 under reading r to the paper's
// claims.
func (s *Sweep) cut(fig int, name string, r int, cells []*cell) cutResult {
	ks, col, _ := s.column(name, r, cells)
	res := cutResult{fig: fig, farAt: -1}
	var sp []stats.Interval
	for _, c := range col {
		sp = append(sp, c.Speedup)
	}
	var at int
	res.peak, at = extreme(sp, 1)
	res.peakK = ks[at]
	res.peakCheck = verdict.Compare(claimAbout10, res.peak)
	if at == len(ks)-1 && !s.paperP() {
		// The largest speedup at the grid's top P may be passed beyond it.
		res.peakCheck = notCheckable(claimAbout10)
	}
	idx := kIndexRange(ks, 7, 14)
	if idx == nil || ks[len(ks)-1] < 16 {
		// The grid stops below 2^14 (the quick report): neither the range
		// nor the climb beyond it shows.
		res.far, res.climb = notCheckable(claimFarFaster), notCheckable(claimClimb)
		res.climbText = "the grid stops at " + kLabel(ks[len(ks)-1])
		return res
	}
	res.checkableRange = true
	var in []stats.Interval
	for _, i := range idx {
		in = append(in, sp[i])
	}
	least, li := extreme(in, -1)
	res.farAt = ks[idx[li]]
	res.far = verdict.Compare(claimFarFaster, least)
	res.climb, res.climbText = climb(ks, col)
	return res
}

// climb finds the first doubling of P, from 2^7→2^8 on, over which the
// proposed time grows by steep or more. Each growth g_K = prop_K/prop_{K-1}
// has the interval [lo_K/hi_{K-1}, hi_K/lo_{K-1}] (independent cells); the
// onset is no earlier than the first K whose upper end reaches steep and
// no later than the first whose lower end does. Past the grid's end when
// no growth is steep. Inconclusive checks say how many trials would
// decide the doublings in between.
func climb(ks []int, col []*cell) (verdict.Check, string) {
	past := float64(ks[len(ks)-1] + 1)
	est, early, late := past, past, past
	var gs []stats.Interval
	var gk []int
	for i := 1; i < len(ks); i++ {
		if ks[i] < 8 {
			continue
		}
		a, b := col[i-1].Proposed, col[i].Proposed
		g := envelope(b.Mean/a.Mean, b.Lo/a.Hi, b.Hi/a.Lo, min(a.N, b.N))
		gs, gk = append(gs, g), append(gk, ks[i])
		k := float64(ks[i])
		if g.Mean >= steep && est == past {
			est = k
		}
		if g.Hi >= steep && early == past {
			early = k
		}
		if g.Lo >= steep && late == past {
			late = k
		}
	}
	ch := verdict.Compare(claimClimb, envelope(est, early, late, 0))
	if ch.Verdict == report.Inconclusive {
		// The doublings whose growth is not yet known to be below or above
		// steep decide it: the trials that would settle the least settled.
		for i, g := range gs {
			if k := float64(gk[i]); k >= early && k <= late {
				ch.Trials = max(ch.Trials, verdict.Compare(verdict.Claim{Lo: steep, Hi: math.Inf(1)}, stats.Interval{Mean: g.Mean, N: g.N, Lo: g.Lo, Hi: g.Hi, Level: stats.Level, Method: stats.MethodT}).Trials)
			}
		}
	}
	text := "no doubling grows the proposed time by half or more"
	for i, g := range gs {
		if float64(gk[i]) == est {
			text = fmt.Sprintf("%.3gx [%.3g, %.3g] from %s to %s", g.Mean, g.Lo, g.Hi, kLabel(gk[i]-1), kLabel(gk[i]))
		}
	}
	steepest, si := extreme(gs, 1)
	if si >= 0 {
		text += fmt.Sprintf(" (the steepest: %.3gx [%.3g, %.3g] from %s to %s)", steepest.Mean, steepest.Lo, steepest.Hi, kLabel(gk[si]-1), kLabel(gk[si]))
	}
	return ch, text
}

// corner returns the influence of the top-P cell of set name at every x
// from x0 on under reading r, with the x exponents.
func (s *Sweep) corner(name string, x0 float64, r int, cells []*cell) (xs []float64, ivs []stats.Interval, pts []int) {
	si := s.setIndex(name)
	set := s.sets[si]
	top := len(set.K) - 1
	for xi, e := range set.XExp {
		if e < x0-1e-9 {
			continue
		}
		pt := s.point(si, xi, top, r)
		if pt < 0 {
			continue
		}
		xs, ivs, pts = append(xs, e), append(ivs, cells[pt].influence(s.params[pt])), append(pts, pt)
	}
	return xs, ivs, pts
}

// readingsStudy holds every reading to the claims.
func (s *Sweep) readingsStudy(cells []*cell) []readingResult {
	var out []readingResult
	for r := range readings {
		rr := readingResult{r: r}
		// Fig. 8: set B's largest influence among the cells every reading
		// ran: the corner (first x, top P) and the cut.
		b := s.setIndex("B")
		var infl []stats.Interval
		var where []string
		bset := s.sets[b]
		for _, pt := range []int{s.point(b, 0, len(bset.K)-1, r)} {
			infl = append(infl, cells[pt].influence(s.params[pt]))
			where = append(where, fmt.Sprintf("%s = %s, P = %s", bset.X, bset.Label(0), kLabel(bset.K[len(bset.K)-1])))
		}
		ks, col, _ := s.column("B", r, cells)
		xi := slices.Index(bset.XExp, cutExp)
		for i, c := range col {
			infl = append(infl, c.influence(s.params[s.point(b, xi, i, r)]))
			where = append(where, fmt.Sprintf("%s = %s, P = %s", bset.X, bset.Label(xi), kLabel(ks[i])))
		}
		big, at := extreme(infl, 1)
		rr.fig8, rr.fig8At = verdict.Compare(claimFig8, big), where[at]
		// Fig. 13 and 17: one axis end for both.
		x1, i1, _ := s.corner("C1", cutExp, r, cells)
		x2, i2, _ := s.corner("C2", cutExp, r, cells)
		// A curve that never reaches the lower end of its range on the grid
		// puts no axis end there at all: its lower crossing counts as a
		// decade past the grid's end, so that the gap stays open.
		lower := func(iv stats.Interval, xs []float64) stats.Interval {
			end := xs[len(xs)-1]
			for _, v := range []*float64{&iv.Mean, &iv.Lo, &iv.Hi} {
				if *v > end {
					*v = end + 1
				}
			}
			return iv
		}
		c1lo, c1hi := lower(crossingOf(x1, i1, 6), x1), crossingOf(x1, i1, 12)
		c2lo, c2hi := lower(crossingOf(x2, i2, 40), x2), crossingOf(x2, i2, 80)
		rr.c1At12, rr.c2At80 = c1hi, c2hi
		gap := envelope(math.Max(c1lo.Mean, c2lo.Mean)-math.Min(c1hi.Mean, c2hi.Mean),
			math.Max(c1lo.Lo, c2lo.Lo)-math.Min(c1hi.Hi, c2hi.Hi),
			math.Max(c1lo.Hi, c2lo.Hi)-math.Min(c1hi.Lo, c2hi.Lo), min(c1lo.N, c2lo.N))
		rr.axis = verdict.Compare(claimAxis, gap)
		if !s.paperP() {
			// The z ranges describe the paper's largest P.
			rr.fig8, rr.axis = notCheckable(claimFig8), notCheckable(claimAxis)
		}
		rr.cuts = []cutResult{s.cut(12, "B", r, cells), s.cut(21, "C1", r, cells)}
		for _, c := range rr.checks() {
			switch c.Verdict {
			case report.Reproduced:
				rr.reproduced++
				rr.decided++
			case report.NotReproduced, report.PartlyReproduced:
				rr.decided++
			case report.Inconclusive:
				rr.inconclusiv++
			}
		}
		out = append(out, rr)
	}
	return out
}

// xText prints a crossing: "10^-1.45 [-1.52, -1.38]", or that the curve
// never reaches the level on the grid.
func (s *Sweep) xText(iv stats.Interval, name string) string {
	set := s.sets[s.setIndex(name)]
	end := set.XExp[len(set.XExp)-1]
	if iv.Mean > end {
		return fmt.Sprintf("beyond 10^%g", end)
	}
	hi := fmt.Sprintf("%.2f", iv.Hi)
	if iv.Hi > end {
		hi = "beyond"
	}
	return fmt.Sprintf("10^%.2f [%.2f, %s]", iv.Mean, iv.Lo, hi)
}

// verdictText is a check in a table cell: "7.67 [7.31, 8.06]: reproduced".
func verdictText(ch verdict.Check) string {
	if ch.Verdict == report.NotCheckable {
		return string(report.NotCheckable)
	}
	s := verdict.Number(ch.Ours) + ": " + string(ch.Verdict)
	if ch.Trials > 0 {
		s += fmt.Sprintf(" (about %d trials would decide it)", ch.Trials)
	}
	return s
}

// kText prints a place on the P axis found from intervals: "2^15 [2^14, 2^16]".
func kText(iv stats.Interval, kmax int) string {
	f := func(x float64) string {
		if x > float64(kmax) {
			return "beyond " + kLabel(kmax)
		}
		return kLabel(int(x))
	}
	if iv.Lo == iv.Hi {
		return f(iv.Mean)
	}
	return fmt.Sprintf("%s [%s, %s]", f(iv.Mean), f(iv.Lo), f(iv.Hi))
}

// readingsSection puts the readings side by side: the cuts of Fig. 12 and
// 21 (times and speedups), the corners of Fig. 8, 13 and 17, and each
// reading's checks, with which fits the paper best and why.
func (s *Sweep) readingsSection(cells []*cell, rd []readingResult) report.Section {
	sec := report.Section{Title: "The readings of the jitter model, side by side"}
	var lines []string
	for _, r := range readings {
		lines = append(lines, r.name+": "+r.what)
	}
	tab := &report.Table{
		ID:    "allreduce-readings",
		Title: "Each reading against the paper's figures",
		Header: []string{"reading", "Fig. 8: largest influence of set B (z range [0, 120])", "Fig. 13/17: x where C1's corner reaches 12 / C2's 80; one axis end for both",
			"Fig. 12: largest speedup (about 10x)", "Fig. 12: least speedup, 2^7..2^14 (≥ 2)", "Fig. 12: climb of the proposed time (beyond 2^14)",
			"Fig. 21: least speedup, 2^7..2^14 (≥ 2)", "Fig. 21: climb of the proposed time (beyond 2^14)", "checks reproduced"},
		Caption: "Every number with its 95 % interval and the verdict of the paper's claim on it (the claims and the words they come from are in the findings below). Fig. 8's influence is the largest of the cells every reading ran (set B's corner at its first x and top P, and its cut at x = 10^-2). The climb is the P at the end of the first doubling (from 2^7→2^8 on) over which the proposed time grows by half again or more. A click on a row opens the jitter scene at the reading's largest speedup in Fig. 12's cut.",
	}
	best, bestN := -1, -1
	for _, rr := range rd {
		c12, c21 := rr.cuts[0], rr.cuts[1]
		name := readings[rr.r].name
		if rr.r == s.def {
			name += " (this page's figures)"
		}
		kmax := s.sets[s.setIndex("B")].K[len(s.sets[s.setIndex("B")].K)-1]
		climbCell := func(c cutResult) string {
			if c.climb.Verdict == report.NotCheckable {
				return verdictText(c.climb)
			}
			return kText(c.climb.Ours, kmax) + ", " + c.climbText + ": " + string(c.climb.Verdict) + trialsNote(c.climb)
		}
		farCell := func(c cutResult) string {
			if c.far.Verdict == report.NotCheckable {
				return verdictText(c.far)
			}
			return verdictText(c.far) + " (at " + kLabel(c.farAt) + ")"
		}
		tab.Rows = append(tab.Rows, []string{name,
			verdictText(rr.fig8) + " (at " + rr.fig8At + ")",
			s.xText(rr.c1At12, "C1") + " / " + s.xText(rr.c2At80, "C2") + "; gap " + verdictText(rr.axis),
			verdictText(c12.peakCheck) + " (at " + kLabel(c12.peakK) + ")",
			farCell(c12), climbCell(c12), farCell(c21), climbCell(c21),
			fmt.Sprintf("%d of %d decided (%d inconclusive)", rr.reproduced, rr.decided, rr.inconclusiv)})
		_, _, pts := s.column("B", rr.r, cells)
		peak := pts[slices.Index(s.sets[s.setIndex("B")].K, c12.peakK)]
		s.placeRow(tab.ID, len(tab.RowLinks), peak)
		tab.RowLinks = append(tab.RowLinks, s.link(peak, jitterScene))
		if rr.reproduced > bestN {
			best, bestN = rr.r, rr.reproduced
		}
	}
	var tied []string
	for _, rr := range rd {
		if rr.reproduced == bestN {
			tied = append(tied, readings[rr.r].name)
		}
	}
	def := rd[s.def]
	verb := "reproduces"
	if len(tied) > 1 {
		verb = "reproduce"
	}
	verdictLine := fmt.Sprintf("On this grid %s %s the most of these checks (%d); the page's figures take %s (%d).", strings.Join(tied, " and "), verb, bestN, readings[s.def].name, def.reproduced)
	if len(tied) > 1 || best != s.def {
		verdictLine += " Where the counts tie or favour another reading, the words decide: eq. 2 attaches the OS jitter to the computation, and os_hits=compute is the reading that does so."
	}
	sec.Intro = strings.Join([]string{
		"The paper's model is two sentences per jitter, and each admits more than one reading (docs/allreduce.md derives them). The readings swept here, each on the cuts of Fig. 12 and 21 at every P and on the corners the z ranges of Fig. 8, 13 and 17 describe, with the same random numbers trial by trial (every reading of a cell draws its cell's numbers), so that their differences are the readings' alone:\n\n" + strings.Join(lines, ".\n\n") + ".",
		"Which fits the paper best. Eq. 2 reads \"データの演算に要する時間 γ × N + OS-jitter\" (the time to compute on the data) and eq. 1, the reception, has no OS jitter: the paper charges a window to a stage when it falls in the computation, which is os_hits=compute; os_hits=wall, a window holding the CPU however the process spends it, is the spec's choice, not the paper's words. " + verdictLine + " What each reading changes in the verdicts is in the table: the findings below use " + readings[s.def].name + ".",
	}, "\n\n")
	sec.Items = append(sec.Items, tab)
	// The cuts' charts: times and speedups by reading.
	for _, f := range []struct {
		fig  int
		name string
	}{{12, "B"}, {21, "C1"}} {
		si := s.setIndex(f.name)
		set := s.sets[si]
		xi := slices.Index(set.XExp, cutExp)
		id := fmt.Sprintf("allreduce-fig%d-readings", f.fig)
		times := &report.LineChart{ID: id, Title: fmt.Sprintf("Fig. %d  Conventional and proposed time by reading", f.fig),
			Caption: fmt.Sprintf("Paper Fig. %d's cut (%s = %s) under each reading: the conventional time and the proposed time (best T), with the jitter-free time. %s%s", f.fig, set.X, engine.ExpLabel(cutExp), setCaption(set), intervalNote),
			X:       s.pAxis(set), YName: "allreduce time (s)", YLog: true, Digits: 4}
		speed := &report.LineChart{ID: id + "-speedup", Title: fmt.Sprintf("Fig. %d  Speedup by reading", f.fig),
			Caption: fmt.Sprintf("Paper Fig. %d's cut (%s = %s): conventional / proposed time under each reading, Fieller's interval over the paired trials. %s%s", f.fig, set.X, engine.ExpLabel(cutExp), setCaption(set), intervalNote),
			X:       s.pAxis(set), YName: "speedup (conventional / proposed)", YLog: true, Digits: 3}
		for r, rdg := range readings {
			times.Series = append(times.Series,
				s.lineSeries(id, "conventional, "+rdg.name, si, xi, r, qConventional, jitterScene, cells),
				s.lineSeries(id, "proposed, "+rdg.name, si, xi, r, qProposed, jitterScene, cells))
			speed.Series = append(speed.Series, s.lineSeries(id+"-speedup", rdg.name, si, xi, r, qSpeedup, jitterScene, cells))
		}
		times.Series = append(times.Series, s.lineSeries(id, "no jitter", si, xi, s.def, qNoJitter, jitterScene, cells))
		sec.Items = append(sec.Items, times, speed)
	}
	// The corners: influence along x at the top P.
	for _, f := range []struct {
		fig  int
		name string
		x0   float64
		top  float64
	}{{13, "C1", cutExp, 12}, {17, "C2", cutExp, 80}} {
		si := s.setIndex(f.name)
		set := s.sets[si]
		id := fmt.Sprintf("allreduce-fig%d-corner", f.fig)
		xs, _, _ := s.corner(f.name, f.x0, s.def, cells)
		ax := report.Axis{Name: set.X.String()}
		for _, e := range xs {
			ax.Labels = append(ax.Labels, engine.ExpLabel(e))
			ax.Values = append(ax.Values, math.Pow(10, e))
		}
		lc := &report.LineChart{ID: id, Title: fmt.Sprintf("Fig. %d  Influence at P = %s by reading", f.fig, kLabel(set.K[len(set.K)-1])),
			Caption: fmt.Sprintf("Set %s's top row (P = %s) from %s = %s on, under each reading: the corner whose influence Fig. %d's z range [.., %g] holds. %s%s", set.Name, kLabel(set.K[len(set.K)-1]), set.X, engine.ExpLabel(f.x0), f.fig, f.top, setCaption(set), intervalNote),
			X:       ax, YName: "influence", YLog: true, Digits: 3}
		for r, rdg := range readings {
			_, _, pts := s.corner(f.name, f.x0, r, cells)
			lc.Series = append(lc.Series, s.series(id, rdg.name, pts, qInfluence, jitterScene, cells))
		}
		sec.Items = append(sec.Items, lc)
	}
	return sec
}

func trialsNote(ch verdict.Check) string {
	if ch.Trials > 0 {
		return fmt.Sprintf(" (about %d trials would decide it)", ch.Trials)
	}
	return ""
}
