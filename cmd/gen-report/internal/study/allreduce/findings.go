package allreduce

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	"commlab/engine/stats"
)

// findings checks the paper's six findings (spec: "What the paper found")
// and its readings of Fig. 10 and 11 against the default reading's cells.
// Every check is verdict.Compare of our interval against the range the
// paper's words allow (verdict.Claim, the words quoted in Tolerance).
func (s *Sweep) findings(cells []*cell, rd []readingResult) []report.Finding {
	return []report.Finding{
		s.findingHides(cells),
		s.findingHelpsWhereHurts(cells, rd[s.def]),
		s.findingLatency(cells),
		s.findingDurationRatio(cells),
		s.findingLargeP(rd[s.def]),
		s.findingOptimalT(cells),
		s.findingFig10Window(cells),
		s.findingFig11Trend(cells),
	}
}

// region returns the default reading's cells of set name whose x exponent
// and K pass keep, with their points.
func (s *Sweep) region(name string, cells []*cell, keep func(xExp float64, k int) bool) (cs []*cell, pts []int) {
	si := s.setIndex(name)
	set := s.sets[si]
	for xi, e := range set.XExp {
		for ki, k := range set.K {
			if pt := s.point(si, xi, ki, s.def); pt >= 0 && keep(e, k) {
				cs, pts = append(cs, cells[pt]), append(pts, pt)
			}
		}
	}
	return cs, pts
}

// 1. Jitter hurts most when its duration exceeds Tcomm and P is large;
// when Tcomm exceeds the duration it hides.
var (
	claimHidden = verdict.Claim{What: "the largest influence where Tcomm > duration", Paper: "small where Tcomm > duration (Fig. 5, 8, 9)", Lo: math.Inf(-1), Hi: 2,
		Words: `"ジッタの長さよりも通信時間の方が長い場合はジッタの影響が小さい" (where Tcomm is longer than the jitter, its influence is small): in the lowest quarter of Fig. 9's z range [1, 5], at most 2`}
	claimHurts = verdict.Claim{What: "the median influence where duration > Tcomm and P ≥ 2^7", Paper: "especially large for duration > Tcomm and P ≥ 2^7 (abstract)", Lo: 5, Hi: math.Inf(1),
		Words: `the abstract's "ジッタの長さが 1対 1通信の時間よりも長く，かつプロセッサ数が 2^7 以上の場合に，従来手法はジッタの影響を特に大きく受ける" (the conventional method suffers especially): beyond Fig. 9's z range, whose top 5 and above the paper paints red ("zの値が 5倍以上は赤色")`}
)

func (s *Sweep) findingHides(cells []*cell) report.Finding {
	var checks []verdict.Check
	var ours []string
	for _, name := range []string{"A", "B"} {
		hid, hpts := s.region(name, cells, func(e float64, _ int) bool { return e > 1e-9 })
		var ivs []stats.Interval
		for i, c := range hid {
			ivs = append(ivs, c.influence(s.params[hpts[i]]))
		}
		big, _ := extreme(ivs, 1)
		hurt, pts := s.region(name, cells, func(e float64, k int) bool { return e < -1e-9 && k >= 7 })
		var xs []float64
		for i, c := range hurt {
			xs = append(xs, c.influence(s.params[pts[i]]).Mean)
		}
		med, err := medianOver(xs)
		chH := verdict.Compare(withSet(claimHidden, name), big)
		chM := verdict.Compare(withSet(claimHurts, name), med)
		if err != nil {
			chM = notCheckable(withSet(claimHurts, name))
		}
		checks = append(checks, chH, chM)
		ours = append(ours, fmt.Sprintf("set %s: %s where Tcomm > duration, median %s where duration > Tcomm and P ≥ 2^7 (%d cells)", name, verdict.Number(big), verdict.Number(med), len(xs)))
	}
	return report.Finding{
		Claim:     "1. Jitter hurts most when its duration exceeds Tcomm and P is large; when Tcomm exceeds the duration the jitter hides in the communication.",
		Verdict:   combine(checks...),
		Paper:     "influence small for Tcomm > duration, especially large for duration > Tcomm and P ≥ 2^7 (Fig. 5, 8, 9, abstract; no number given)",
		Ours:      strings.Join(ours, "; "),
		Evidence:  evidence("", checks...),
		Tolerance: tolerance(claimHidden, claimHurts),
		Figures:   []string{figID(5), figID(8), figID(9)},
	}
}

// withSet names the set a claim is checked on.
func withSet(c verdict.Claim, name string) verdict.Claim {
	c.What = fmt.Sprintf("set %s: %s", name, c.What)
	return c
}

// withFig names the figure a claim is checked on.
func withFig(c verdict.Claim, fig int) verdict.Claim {
	c.What = fmt.Sprintf("Fig. %d: %s", fig, c.What)
	return c
}

// 2. The proposed method helps most where jitter hurts most: up to ~10x,
// for P ≥ 2^7 (the abstract).
var (
	claimTracks = verdict.Claim{What: "Spearman's ρ between influence and speedup over the cells", Paper: "the effect is large where the influence is (Fig. 6, summary)", Lo: 0.5, Hi: 1,
		Words: `"ジッタの影響が大きいときに提案手法の効果が高い" (where the jitter's influence is large the proposed method's effect is high): a rising trend across the figures, ρ ≥ 0.5`}
	claimGridMax = verdict.Claim{What: "the largest speedup over the whole grid", Paper: claimAbout10.Paper, Lo: 5, Hi: 20,
		Words: claimAbout10.Words + ` ("本論文中でシミュレーションした条件下では", under the conditions the paper simulated: its grid, whose axes did not survive, likely reached set B's corner, where Fig. 8's z range tops at 120)`}
	claimImproves = verdict.Claim{What: "the median speedup over the cells with duration > Tcomm and P ≥ 2^7", Paper: "a strong effect for duration > Tcomm and P ≥ 2^7 (abstract)", Lo: 2, Hi: math.Inf(1),
		Words: `the abstract's "ジッタの長さが 1対 1通信の時間よりも長く，かつプロセッサ数が 2^7 以上の場合に，従来手法はジッタの影響を特に大きく受けるが，提案手法ではそれを改善することができる" (where the jitter is longer than a message and P ≥ 2^7 the conventional method suffers especially, and the proposed method can improve it): a speedup of 2, half the time, the threshold of "far faster" (大変小さく) in Fig. 12's text`}
)

func (s *Sweep) findingHelpsWhereHurts(cells []*cell, def readingResult) report.Finding {
	var infl, speed []float64
	var all []stats.Interval
	var allPts []int
	for pt, c := range cells {
		if s.points[pt].reading != s.def {
			continue
		}
		infl, speed = append(infl, c.influence(s.params[pt]).Mean), append(speed, c.Speedup.Mean)
		all, allPts = append(all, c.Speedup), append(allPts, pt)
	}
	rho, err := spearmanOver(infl, speed)
	chRho := verdict.Compare(claimTracks, rho)
	if err != nil {
		chRho = notCheckable(claimTracks)
	}
	top, at := extreme(all, 1)
	chMax := verdict.Compare(claimGridMax, top)
	ref := s.points[allPts[at]]
	topSet := s.sets[ref.set]
	where := fmt.Sprintf("set %s, %s = %s, P = %s", topSet.Name, topSet.X, topSet.Label(ref.xi), kLabel(topSet.K[ref.ki]))
	cut := def.cuts[0]
	chCut := withFigCheck(cut.peakCheck, 12)
	var region []float64
	for pt, c := range cells {
		if p := s.params[pt]; s.points[pt].reading == s.def && p.Duration > p.Tcomm() && p.K() >= 7 {
			region = append(region, c.Speedup.Mean)
		}
	}
	med, err := medianOver(region)
	chOn := verdict.Compare(claimImproves, med)
	if err != nil {
		chOn = notCheckable(claimImproves)
	}
	if !s.paperP() {
		chMax = notCheckable(claimGridMax)
	}
	checks := []verdict.Check{chMax, chCut, chRho, chOn}
	return report.Finding{
		Claim:   "2. The proposed method helps most exactly where jitter hurts most (duration > Tcomm, P ≥ 2^7): up to about 10x faster than the conventional butterfly.",
		Verdict: combine(checks...),
		Paper:   "about 10x at most; a strong effect for duration > Tcomm and P ≥ 2^7 (abstract)",
		Ours: fmt.Sprintf("%s at most over the grid (%s); %s in Fig. 12's cut (at %s); ρ(influence, speedup) = %s; median %s where duration > Tcomm and P ≥ 2^7 (%d cells)",
			verdict.Number(top), where, verdict.Number(cut.peak), kLabel(cut.peakK), verdict.Number(rho), verdict.Number(med), len(region)),
		Evidence:  evidence(fmt.Sprintf("the paper's largest speedups may lie beyond this grid's P = %s", kLabel(s.sets[0].K[len(s.sets[0].K)-1])), checks...) + fmt.Sprintf(" The speedups are Fieller's intervals over each cell's paired trials; the largest over the grid and over the cut are the envelopes of the cells' intervals, ρ's and the median's intervals bootstraps over the %d and %d cells.", len(all), len(region)),
		Tolerance: tolerance(claimGridMax, claimAbout10, claimTracks, claimImproves),
		Figures:   []string{figID(6), figID(10), figID(12), figID(15), figID(19)},
	}
}

func withFigCheck(ch verdict.Check, fig int) verdict.Check {
	ch.Claim = withFig(ch.Claim, fig)
	return ch
}

// 3. Cutting α tenfold makes the influence of jitter roughly tenfold.
var claimLatency = verdict.Claim{What: "the median over cells of set B's influence over set A's at the same Tcomm/duration and P", Paper: "about 10x (Fig. 5 against Fig. 8; summary: nearly 10x)", Lo: 5, Hi: 20,
	Words: `"ネットワークレイテンシーを 10分の 1にするとジッタの影響はおよそ 10倍にまで大きくなる" (a tenth of the latency makes the influence about 10 times larger) and the summary's "10倍近く" (nearly 10 times): "about" read as within a factor 2`}

func (s *Sweep) findingLatency(cells []*cell) report.Finding {
	a, b := s.setIndex("A"), s.setIndex("B")
	setA, setB := s.sets[a], s.sets[b]
	var ratios []float64
	for xi, e := range setA.XExp {
		xj := slices.Index(setB.XExp, e)
		if xj < 0 || e > 1e-9 { // where the jitter is not hidden: Tcomm ≤ duration
			continue
		}
		for ki, k := range setA.K {
			kj := slices.Index(setB.K, k)
			pa, pb := s.point(a, xi, ki, s.def), s.point(b, xj, kj, s.def)
			if kj < 0 || pa < 0 || pb < 0 {
				continue
			}
			ratios = append(ratios, cells[pb].influence(s.params[pb]).Mean/cells[pa].influence(s.params[pa]).Mean)
		}
	}
	med, err := medianOver(ratios)
	ch := verdict.Compare(claimLatency, med)
	if err != nil {
		ch = notCheckable(claimLatency)
	}
	maxOf := func(si int) stats.Interval {
		_, pts := s.region(s.sets[si].Name, cells, func(float64, int) bool { return true })
		var ivs []stats.Interval
		for _, pt := range pts {
			ivs = append(ivs, cells[pt].influence(s.params[pt]))
		}
		m, _ := extreme(ivs, 1)
		return m
	}
	ma, mb := maxOf(a), maxOf(b)
	return report.Finding{
		Claim:   "3. Cutting the network latency α tenfold (set A to set B, which also takes period and duration tenfold) makes the influence of jitter roughly tenfold.",
		Verdict: combine(ch),
		Paper:   "about 10x (Fig. 5 against Fig. 8)",
		Ours:    fmt.Sprintf("%s cell by cell (median over %d cells)", verdict.Number(med), len(ratios)),
		Evidence: evidence("", ch) + fmt.Sprintf(" The cells are those both sets have, where Tcomm ≤ duration (the jitter not hidden), at every P. The ratio of the sets' largest influences, %s in B against %s in A (%.3gx), is no measure of the claim: it compares set B's corner at Tcomm/duration = 10^-3, which set A cannot reach (its α alone is a tenth of its duration), with set A's at 10^-1.",
			verdict.Number(mb), verdict.Number(ma), mb.Mean/ma.Mean),
		Tolerance: tolerance(claimLatency),
		Figures:   []string{figID(5), figID(8)},
	}
}

// 4. Jitter matters once duration/period exceeds about 1/100.
var claimThreshold = verdict.Claim{What: "the duration/period (as a power of ten) at which the influence at the largest P reaches 2", Paper: "10^-2 (Fig. 13, 14, 17, 18)", Lo: -2.5, Hi: -1.5,
	Words: `"ジッタの長さがジッタの周期の 100分の 1よりも小さい場合はジッタの影響は小さいが, 100分の 1よりも大きい場合はジッタの影響が大きくなる" (below a hundredth the influence is small, above it large): the influence reaching 2, the middle of Fig. 14's z range [1, 3], within half a decade of 10^-2`}

func (s *Sweep) findingDurationRatio(cells []*cell) report.Finding {
	var checks []verdict.Check
	var ours []string
	for _, name := range []string{"C1", "C2"} {
		xs, ivs, _ := s.corner(name, math.Inf(-1), s.def, cells)
		x := crossingOf(xs, ivs, 2)
		checks = append(checks, verdict.Compare(withSet(claimThreshold, name), x))
		ours = append(ours, fmt.Sprintf("set %s: %s", name, s.xText(x, name)))
	}
	set := s.sets[s.setIndex("C1")]
	return report.Finding{
		Claim:     "4. Jitter matters once duration/period exceeds about 1/100.",
		Verdict:   combine(checks...),
		Paper:     "duration/period = 10^-2 (Fig. 13, 14, 17, 18)",
		Ours:      fmt.Sprintf("influence 2 at P = %s from duration/period = %s", kLabel(set.K[len(set.K)-1]), strings.Join(ours, "; ")),
		Evidence:  evidence("", checks...) + " The crossing is interpolated in log influence between grid points, its interval from the cells' intervals (the upper ends cross first, the lower ends last).",
		Tolerance: tolerance(claimThreshold),
		Figures:   []string{figID(13), figID(14), figID(17), figID(18)},
	}
}

// 5. For P from 2^7 to 2^14 the proposed method is far faster; beyond
// 2^14 its time climbs steeply too (Fig. 12 and 21 both, in the text).
func (s *Sweep) findingLargeP(def readingResult) report.Finding {
	var checks []verdict.Check
	var ours []string
	kmax := s.sets[s.setIndex("B")].K[len(s.sets[s.setIndex("B")].K)-1]
	for _, c := range def.cuts {
		checks = append(checks, withFigCheck(c.far, c.fig), withFigCheck(c.climb, c.fig))
		if c.far.Verdict == report.NotCheckable {
			ours = append(ours, fmt.Sprintf("Fig. %d: %s", c.fig, c.climbText))
			continue
		}
		ours = append(ours, fmt.Sprintf("Fig. %d: least speedup over 2^7..2^14 %s (at %s); the climb at %s, %s", c.fig, verdict.Number(c.far.Ours), kLabel(c.farAt), kText(c.climb.Ours, kmax), c.climbText))
	}
	// Say plainly which figure fails which half of the claim.
	var fails []string
	for _, c := range def.cuts {
		var what []string
		if c.far.Verdict == report.NotReproduced {
			what = append(what, "far faster over 2^7..2^14")
		}
		if c.climb.Verdict == report.NotReproduced {
			what = append(what, "the climb beyond 2^14")
		}
		if len(what) > 0 {
			fails = append(fails, fmt.Sprintf("Fig. %d fails %s.", c.fig, strings.Join(what, " and ")))
		}
	}
	failText := ""
	if len(fails) > 0 {
		failText = " " + strings.Join(fails, " ")
	}
	return report.Finding{
		Claim:     "5. For P from 2^7 to 2^14 the proposed method is far faster; beyond 2^14 its time climbs steeply too (Fig. 12, 21).",
		Verdict:   combine(checks...),
		Paper:     "much faster for P = 2^7..2^14; the proposed time climbs steeply beyond 2^14 (Fig. 12, 21; abstract: from 2^15 on)",
		Ours:      strings.Join(ours, "; "),
		Evidence:  evidence(fmt.Sprintf("it stops at P = %s", kLabel(kmax)), checks...) + failText + " The paper says both of Fig. 12 and Fig. 21, so each figure is held to both claims, and the finding is reproduced only when both figures pass both. The least speedup is the envelope of the cells' intervals; the climb's place runs from the first doubling whose growth could be steep to the first whose growth surely is.",
		Tolerance: tolerance(claimFarFaster, claimClimb),
		Figures:   []string{figID(12), figID(21), "allreduce-readings"},
	}
}

// 6. The optimal T grows with P.
var claimGrowsT = verdict.Claim{What: "Spearman's ρ between K and the optimal T", Paper: "grows with P (Fig. 7, 16, 20; no number given)", Lo: 0.5, Hi: 1,
	Words: `"プロセッサ数が増えると最適なＴも大きくなる" (as P grows the optimal T grows too, Fig. 7) and "プロセッサ数が多くなると…冗長なデータ送信回数（Ｔ）を大きい値に設定しなければならない" (Fig. 16, 20): a rising trend across the figure, ρ ≥ 0.5`}

func (s *Sweep) findingOptimalT(cells []*cell) report.Finding {
	var checks []verdict.Check
	var ours []string
	for _, name := range []string{"A", "C1", "C2"} { // the sets of Fig. 7, 16 and 20
		cs, pts := s.region(name, cells, func(float64, int) bool { return true })
		var ks, ts []float64
		for i, c := range cs {
			if c.Effect.Hi < 0.95 { // the method surely saves 5 % or more
				ks, ts = append(ks, float64(s.params[pts[i]].K())), append(ts, float64(c.OptimalT))
			}
		}
		rho, err := spearmanOver(ks, ts)
		cl := withSet(claimGrowsT, name)
		ch := verdict.Compare(cl, rho)
		if err != nil {
			ch = notCheckable(cl)
		}
		checks = append(checks, ch)
		ours = append(ours, fmt.Sprintf("%s %s (%d cells)", name, verdict.Number(rho), len(ks)))
	}
	return report.Finding{
		Claim:     "6. The optimal number of redundant exchanges T grows with P.",
		Verdict:   combine(checks...),
		Paper:     "grows with P (Fig. 7, 16, 20; no number given)",
		Ours:      "ρ(K, optimal T): " + strings.Join(ours, ", "),
		Evidence:  evidence("too few cells where the method saves", checks...) + " Over the cells where the proposed method surely saves 5 % or more (its effect's interval below 0.95); ρ's interval is a bootstrap over those cells.",
		Tolerance: tolerance(claimGrowsT),
		Figures:   []string{figID(7), figID(16), figID(20)},
	}
}

// Fig. 10: in set B the effect is poor where Tcomm ≈ duration whatever P;
// large for P > 2^8 and Tcomm < duration/10; largest for P = 2^10..2^14
// and Tcomm < duration/100.
var (
	claimPoor = verdict.Claim{What: "the largest speedup at Tcomm = duration", Paper: "poor at Tcomm ≈ duration at any P (Fig. 10)", Lo: math.Inf(-1), Hi: 2,
		Words: `"通信時間がジッタの長さと同じぐらいである場合, プロセッサ数に関わらず提案手法の効果があまり良くない" (where Tcomm is about the jitter's length the effect is not good at any P): short of the speedup of 2 that "far faster" asks`}
	claimLarge = verdict.Claim{What: "the median speedup over P = 2^9..2^14 and Tcomm ≤ duration/10", Paper: "large for P > 2^8 and Tcomm < duration/10 (Fig. 10)", Lo: 2, Hi: math.Inf(1),
		Words: `"プロセッサ数が 2^8 より大きく, かつ通信時間がジッタの長さの 10分の 1より小さい場合に, 提案手法の効果が大きい" (the effect is large for P above 2^8 and Tcomm below a tenth of the duration; up to 2^14, beyond which Fig. 12's text has the proposed time climb): a speedup of 2 or more`}
	claimWindow = verdict.Claim{What: "the P (as K) of the largest speedup where Tcomm ≤ duration/100", Paper: "largest for P = 2^10..2^14 and Tcomm < duration/100 (Fig. 10)", Lo: 10, Hi: 14,
		Words: `"特にプロセッサ数が 2^10 から 2^14 であり, かつ通信時間がジッタの長さの 100分の 1より小さい場合に効果が特に大きい" (especially large for 2^10..2^14 processors and Tcomm below a hundredth of the duration)`}
)

func (s *Sweep) findingFig10Window(cells []*cell) report.Finding {
	si := s.setIndex("B")
	set := s.sets[si]
	kmax := set.K[len(set.K)-1]
	// Per K, the largest speedup over the cells of an x range.
	byK := func(keep func(e float64) bool) []stats.Interval {
		out := make([]stats.Interval, len(set.K))
		for ki := range set.K {
			var ivs []stats.Interval
			for xi, e := range set.XExp {
				if pt := s.point(si, xi, ki, s.def); pt >= 0 && keep(e) {
					ivs = append(ivs, cells[pt].Speedup)
				}
			}
			out[ki], _ = extreme(ivs, 1)
		}
		return out
	}
	even, _ := extreme(byK(func(e float64) bool { return math.Abs(e) < 1e-9 }), 1)
	chPoor := verdict.Compare(claimPoor, even)
	var large []float64
	cs, _ := s.region("B", cells, func(e float64, k int) bool { return e <= -1+1e-9 && k >= 9 && k <= 14 })
	for _, c := range cs {
		large = append(large, c.Speedup.Mean)
	}
	med, err := medianOver(large)
	chLarge := verdict.Compare(claimLarge, med)
	if err != nil || kmax < 14 {
		chLarge = notCheckable(claimLarge)
	}
	// The window: the K whose largest speedup (Tcomm ≤ duration/100) could
	// be the largest of all: its upper end reaches the largest lower end.
	deep := byK(func(e float64) bool { return e <= -2+1e-9 })
	top, at := extreme(deep, 1)
	lo, hi := math.Inf(1), math.Inf(-1)
	for ki, iv := range deep {
		if iv.Hi >= top.Lo {
			lo, hi = math.Min(lo, float64(set.K[ki])), math.Max(hi, float64(set.K[ki]))
		}
	}
	window := envelope(float64(set.K[at]), lo, hi, top.N)
	chWin := verdict.Compare(claimWindow, window)
	if kmax < 15 { // a peak at the grid's top may lie beyond it
		chWin = notCheckable(claimWindow)
	}
	checks := []verdict.Check{chPoor, chLarge, chWin}
	return report.Finding{
		Claim:   "Fig. 10. With α = 1e-7 (set B) the method does little where Tcomm ≈ duration at any P; it helps much for P > 2^8 and Tcomm < duration/10, most for P = 2^10..2^14 and Tcomm < duration/100.",
		Verdict: combine(checks...),
		Paper:   "little at Tcomm ≈ duration; large for P > 2^8, Tcomm < duration/10; largest for P = 2^10..2^14, Tcomm < duration/100",
		Ours: fmt.Sprintf("%s at most at Tcomm = duration; median %s over P = 2^9..2^14 and Tcomm ≤ duration/10; largest %s at %s where Tcomm ≤ duration/100",
			verdict.Number(even), verdict.Number(med), verdict.Number(top), kText(window, kmax)),
		Evidence:  evidence(fmt.Sprintf("it stops at P = %s", kLabel(kmax)), checks...) + " The largest speedups are envelopes of the cells' Fieller intervals; the median's interval a bootstrap over the cells; the window's place runs over every P whose speedup could be the largest (its interval's upper end reaches the largest lower end).",
		Tolerance: tolerance(claimPoor, claimLarge, claimWindow),
		Figures:   []string{figID(10), figID(12)},
	}
}

// Fig. 11: at a given P, the smaller Tcomm is against the duration, the
// fewer redundant exchanges it takes (the optimal T rises along
// Tcomm/duration).
var claimFig11 = verdict.Claim{What: "the median over P of Spearman's ρ between Tcomm/duration and the optimal T", Paper: "smaller optimal T for smaller Tcomm/duration at the same P (Fig. 11; no number given)", Lo: 0.5, Hi: 1,
	Words: `"プロセッサ数が同じとき, 通信時間がジッタの長さよりも小さいほど, より少ない回数の冗長なデータ交換で効果が出る傾向がある" (at the same P, the smaller Tcomm is against the jitter's length, the fewer redundant exchanges give the effect): a rising trend along x, ρ ≥ 0.5`}

func (s *Sweep) findingFig11Trend(cells []*cell) report.Finding {
	si := s.setIndex("B")
	set := s.sets[si]
	var rhos []float64
	up, down := 0, 0
	for ki, k := range set.K {
		if k < 4 { // T ranges over 0..K: too few values to rank
			continue
		}
		var xs, ts []float64
		for xi, e := range set.XExp {
			if pt := s.point(si, xi, ki, s.def); pt >= 0 && cells[pt].Effect.Hi < 0.95 {
				xs, ts = append(xs, e), append(ts, float64(cells[pt].OptimalT))
			}
		}
		rho := verdict.Spearman(xs, ts)
		if math.IsNaN(rho) {
			continue
		}
		rhos = append(rhos, rho)
		if rho > 0 {
			up++
		} else if rho < 0 {
			down++
		}
	}
	med, err := medianOver(rhos)
	ch := verdict.Compare(claimFig11, med)
	if err != nil {
		ch = notCheckable(claimFig11)
	}
	return report.Finding{
		Claim:     "Fig. 11. At a given P, the smaller Tcomm is against the jitter's duration, the fewer redundant exchanges are needed: the optimal T rises along Tcomm/duration.",
		Verdict:   combine(ch),
		Paper:     "optimal T smaller for smaller Tcomm/duration at the same P (Fig. 11; no number given)",
		Ours:      fmt.Sprintf("median ρ %s over %d values of P (rising at %d, falling at %d)", verdict.Number(med), len(rhos), up, down),
		Evidence:  evidence("too few values of P with three cells where the method saves", ch) + " Set B, for each P ≥ 2^4 with at least three cells where the method surely saves 5 %: Spearman's ρ between Tcomm/duration and the optimal T; the median's interval is a bootstrap over the values of P.",
		Tolerance: tolerance(claimFig11),
		Figures:   []string{figID(11)},
	}
}
