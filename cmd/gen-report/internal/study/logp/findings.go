package logp

import (
	"fmt"
	"math"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	"commlab/engine/stats"
)

// The slides' precision, from which every tolerance of the page comes.
const (
	// slidesHalfDigit is half a unit of the last digit the slides print
	// their P = 3 numbers to, "0.76" and "0.87": they vouch for the
	// hundredth, so a number within 0.005 of theirs is theirs, and a
	// difference below 0.005 is one their numbers could not show.
	slidesHalfDigit = 0.005
	// slidesHalfDigitP2 is the same for the P = 2 plot's "+0.7".
	slidesHalfDigitP2 = 0.05
)

// sqrt2Pi is √(2π): the P = 2 excess at the optimum is σ/√(2π).
var sqrt2Pi = math.Sqrt(2 * math.Pi)

// twoDecimals is why slidesHalfDigit, for a claim's Words.
const twoDecimals = `the slides print their P = 3 numbers to two decimals ("0.76", "0.87"), so they vouch for the hundredth: ±0.005`

// logpFindings checks the slides' claims against the study's numbers.
func logpFindings(r *logpResults) []report.Finding {
	return []report.Finding{
		findingP2(r),
		findingP3Above(r),
		findingSlidesSigma(r),
		findingFluctuationMatters(r),
	}
}

// logpEvidence lists the checks, one sentence each, and then the slides'
// words behind their ranges, each once (a finding's checks often share
// them).
func logpEvidence(checks ...verdict.Check) string {
	return verdict.EvidenceFrom("the slides'", checks...)
}

func (r *logpResults) curve(P int) *logpCurve {
	for i := range r.Curves {
		if r.Curves[i].P == P {
			return &r.Curves[i]
		}
	}
	return nil
}

// estimate is one of our numbers as a verdict compares it: the closed
// form's, exact, where the plan is a star, else the Monte Carlo search's
// interval over its replicates; src says which.
type estimate struct {
	iv  stats.Interval
	src string
}

func pick(o logpOptimum, closed float64, mc stats.Interval) estimate {
	if o.HasStar() {
		return estimate{verdict.Exact(closed), "closed form"}
	}
	return estimate{mc, fmt.Sprintf("Monte Carlo, %d replicate searches", len(o.Ls))}
}

// mcBeside says the Monte Carlo search's number beside the closed form's,
// and whether its interval holds it.
func mcBeside(what string, mc stats.Interval, closed float64, star bool) string {
	s := fmt.Sprintf("The Monte Carlo search gives %s = %s", what, verdict.Number(mc))
	switch {
	case !star:
	case mc.Contains(closed):
		s += ", which holds the closed form's"
	default:
		s += fmt.Sprintf(", which misses the closed form's %.4g", closed)
	}
	return s
}

// 1. P = 2: the schedule planned with the mean latency is optimal.
func findingP2(r *logpResults) report.Finding {
	claim := "P = 2: the schedule planned with the mean latency is optimal, L_s* = μ."
	c := r.curve(2)
	if c == nil {
		return report.Finding{Claim: claim, Verdict: report.NotCheckable, Evidence: "This report has no P = 2 curve."}
	}
	o := c.Opt
	off := pick(o, o.StarOffset(), o.OffsetIv())
	words := fmt.Sprintf(`"L_s = L_ave (Lの平均) の時が最適スケジュール" (the schedule is optimal when L_s is the mean of L), at the precision of the slides' other optimum: %s`, twoDecimals)
	ch := verdict.Compare(verdict.Claim{
		What: fmt.Sprintf("L_s* − μ at P = 2 (%s)", off.src), Paper: "L_s = L_ave (P = 2 plot)",
		Lo: -slidesHalfDigit, Hi: slidesHalfDigit, Words: words,
	}, off.iv)
	ev := logpEvidence(ch) + " " + mcBeside("L_s* − μ", o.OffsetIv(), o.StarOffset(), o.HasStar()) + "."
	ev += fmt.Sprintf(" The plot is drawn at σ = %.4g, the σ at which the spec's excess at the optimum, σ/√(2π), is the slides' \"+%g\": a fitted value, so the excess there is no evidence (closed form %.4g; the Monte Carlo search's plan, replayed on fresh draws, %s). \"+%g\" read to its last digit, [%g, %g), allows σ in [%.3f, %.3f).",
		o.Sigma, slidesExcessP2, o.StarExcess(), verdict.Number(o.ExcessIv()),
		slidesExcessP2, slidesExcessP2-slidesHalfDigitP2, slidesExcessP2+slidesHalfDigitP2, (slidesExcessP2-slidesHalfDigitP2)*sqrt2Pi, (slidesExcessP2+slidesHalfDigitP2)*sqrt2Pi)
	ours := fmt.Sprintf("L_s* − μ = %s (%s)", verdict.Number(off.iv), off.src)
	if o.HasStar() {
		ours += fmt.Sprintf("; Monte Carlo %s", verdict.Number(o.OffsetIv()))
	}
	return report.Finding{
		Claim:     claim,
		Verdict:   verdict.Combine(ch),
		Paper:     fmt.Sprintf("L_s* = L_ave; E[T] +%g above LogP with the mean (P = 2 plot)", slidesExcessP2),
		Ours:      ours + fmt.Sprintf(" at σ = %.4g", o.Sigma),
		Tolerance: fmt.Sprintf("|L_s* − μ| ≤ %g: %s", slidesHalfDigit, words),
		Figures:   []string{"logp-p2", "logp-optima"},
		Evidence:  ev,
	}
}

// 2. P = 3: the optimum lies above the mean, by 0.76, at the σ the P = 2
// plot implies.
func findingP3Above(r *logpResults) report.Finding {
	claim := fmt.Sprintf("P = 3: the optimal planning latency lies above the mean latency, L_s* = μ + %g, at the σ of the slides' P = 2 plot (the slides give no σ; their +%g implies σ = %.3f).", slidesOffsetP3, slidesExcessP2, slidesSigmaP2())
	q := r.P3AtP2Sigma
	if len(q.Ls) == 0 {
		return report.Finding{Claim: claim, Verdict: report.NotCheckable, Evidence: "This report has no P = 3 optimum at the P = 2 plot's σ."}
	}
	off := pick(q, q.StarOffset(), q.OffsetIv())
	above := verdict.Compare(verdict.Claim{
		What: fmt.Sprintf("L_s* − μ at P = 3, σ = %.4g (%s)", q.Sigma, off.src), Paper: "above the mean (P = 3 plot)",
		Lo: slidesHalfDigit, Hi: math.Inf(1),
		Words: fmt.Sprintf(`"L_s がLの平均より 0.76 大きいとき最適" (optimal when L_s is 0.76 larger than the mean of L): above μ by more than the slides could fail to show, %s`, twoDecimals),
	}, off.iv)
	lo, hi := slidesOffsetP3-slidesHalfDigit, slidesOffsetP3+slidesHalfDigit
	widen := "(the closed form, which would widen the range by what the rounding of +0.7 moves σ, does not hold here)"
	if f := r.Fit; f.OK && q.HasStar() {
		lo, hi = lo-(f.OffsetAtP2[1]-f.OffsetAtP2[0]), hi+(f.OffsetAtP2[2]-f.OffsetAtP2[1])
		widen = fmt.Sprintf("widened by what \"+%g\"'s own rounding, σ in [%.3f, %.3f), moves the closed-form optimum: %.3f to %.3f", slidesExcessP2, f.SigmaP2[0], f.SigmaP2[2], f.OffsetAtP2[0], f.OffsetAtP2[2])
	}
	magWords := fmt.Sprintf(`"0.76 大きいとき最適" (optimal 0.76 above): %s, %s`, twoDecimals, widen)
	mag := verdict.Compare(verdict.Claim{
		What: fmt.Sprintf("L_s* − μ at P = 3, σ = %.4g (%s)", q.Sigma, off.src), Paper: fmt.Sprintf("%g (P = 3 plot)", slidesOffsetP3),
		Lo: lo, Hi: hi, Words: magWords,
	}, off.iv)
	ev := logpEvidence(above, mag) + " " + mcBeside("L_s* − μ", q.OffsetIv(), q.StarOffset(), q.HasStar()) + "."
	if c := r.curve(3); c != nil {
		o := c.Opt
		e := pick(o, o.StarOffset(), o.OffsetIv())
		ev += fmt.Sprintf(" At the P = 3 plot's σ = %g the optimum lies %s above μ (%s), %.3fσ.", o.Sigma, verdict.Number(e.iv), e.src, e.iv.Mean/o.Sigma)
	}
	if f := r.Fit; f.OK && !math.IsNaN(f.Sigma76[1]) {
		ev += fmt.Sprintf(" The optimum sits where F(L_s)² = 1/3, about 0.195σ above μ, so it grows with σ and reaches %g only at σ = %.3f.", slidesOffsetP3, f.Sigma76[1])
	}
	return report.Finding{
		Claim:     claim,
		Verdict:   verdict.Combine(above, mag),
		Paper:     fmt.Sprintf("L_s* = μ + %g (P = 3 plot; σ not given)", slidesOffsetP3),
		Ours:      fmt.Sprintf("L_s* − μ = %s (%s) at σ = %.4g", verdict.Number(off.iv), off.src, q.Sigma),
		Tolerance: fmt.Sprintf("above μ: L_s* − μ ≥ %g; by 0.76: L_s* − μ in %s. %s", slidesHalfDigit, verdict.Range(lo, hi), magWords),
		Figures:   []string{"logp-p3", "logp-sigma", "logp-optima"},
		Evidence:  ev,
	}
}

// 3. P = 3: is there one σ for both of the slides' numbers?
func findingSlidesSigma(r *logpResults) report.Finding {
	claim := fmt.Sprintf("P = 3: the optimum is %g above the mean and the expected time there %g above LogP's prediction with the mean, both at one σ (the slides do not give σ).", slidesOffsetP3, slidesExcessP3)
	paper := fmt.Sprintf("L_s* = μ + %g and excess %g (P = 3 plot; σ not given)", slidesOffsetP3, slidesExcessP3)
	f := r.Fit
	if !f.OK {
		return report.Finding{Claim: claim, Verdict: report.NotCheckable, Paper: paper, Evidence: "Locating σ needs the closed form: " + f.Why + ". The Monte Carlo sweep is in the chart."}
	}
	if math.IsNaN(f.Sigma76[1]) || math.IsNaN(f.Sigma87[1]) {
		var miss []string
		if math.IsNaN(f.Sigma76[1]) {
			miss = append(miss, fmt.Sprintf("the optimum never lies %g above μ", slidesOffsetP3))
		}
		if math.IsNaN(f.Sigma87[1]) {
			miss = append(miss, fmt.Sprintf("the excess never reaches %g", slidesExcessP3))
		}
		return report.Finding{Claim: claim, Verdict: report.NotReproduced, Paper: paper,
			Ours:      "no σ up to " + fmt.Sprint(fitSigmaMax) + " gives them",
			Tolerance: twoDecimals,
			Figures:   []string{"logp-sigma"},
			Evidence:  fmt.Sprintf("In closed form, for σ up to %d: %s.", fitSigmaMax, strings.Join(miss, " and "))}
	}
	// At the σ one number needs, the other's range: the slides' rounding
	// of it, widened by what the rounding of the first moves it.
	excLo := slidesExcessP3 - slidesHalfDigit - (f.ExcessAt76[1] - f.ExcessAt76[0])
	excHi := slidesExcessP3 + slidesHalfDigit + (f.ExcessAt76[2] - f.ExcessAt76[1])
	offLo := slidesOffsetP3 - slidesHalfDigit - (f.OffsetAt87[1] - f.OffsetAt87[0])
	offHi := slidesOffsetP3 + slidesHalfDigit + (f.OffsetAt87[2] - f.OffsetAt87[1])
	words := fmt.Sprintf(`"L_s がLの平均より 0.76 大きいとき最適" and "平均計算時間は…0.87 大きい" (optimal 0.76 above the mean; the mean time 0.87 above): one plot, so one σ; %s, each range widened by what the other number's rounding moves σ`, twoDecimals)
	excess := verdict.Compare(verdict.Claim{
		What:  fmt.Sprintf("E[T](L_s*) − T_s(μ) at σ = %.4g, where the optimum lies %g above μ (closed form)", f.Sigma76[1], slidesOffsetP3),
		Paper: fmt.Sprintf("%g (P = 3 plot)", slidesExcessP3), Lo: excLo, Hi: excHi, Words: words,
	}, verdict.Exact(f.ExcessAt76[1]))
	offset := verdict.Compare(verdict.Claim{
		What:  fmt.Sprintf("L_s* − μ at σ = %.4g, where the excess is %g (closed form)", f.Sigma87[1], slidesExcessP3),
		Paper: fmt.Sprintf("%g (P = 3 plot)", slidesOffsetP3), Lo: offLo, Hi: offHi, Words: words,
	}, verdict.Exact(f.OffsetAt87[1]))
	v := verdict.Combine(excess, offset)
	ev := logpEvidence(excess, offset)
	ev += fmt.Sprintf(" Rounded as the slides print them, %g needs σ in [%.3f, %.3f) and %g needs σ in [%.3f, %.3f).",
		slidesOffsetP3, f.Sigma76[0], f.Sigma76[2], slidesExcessP3, f.Sigma87[0], f.Sigma87[2])
	if v == report.NotReproduced {
		ev += fmt.Sprintf(" The slides disagree with themselves under this model: with the plan a star, the optimum sits where F(L_s)² = 1/3 whatever σ is, so L_s* − μ and the excess both grow about as σ and their ratio stays near %.2f (at σ = %.3f: %.3f / %.3f), while the slides' numbers need %.2f. The slides' T also counts distributing the numbers to the processors (\"各プロセッサへデータを配付する時間\"), which the spec leaves out; a plan whose T_s depends on L_s differently would move both numbers.",
			f.ExcessAt76[1]/slidesOffsetP3, f.Sigma76[1], f.ExcessAt76[1], slidesOffsetP3, slidesExcessP3/slidesOffsetP3)
	}
	ev += fmt.Sprintf(" At the P = 2 plot's σ = %.3f: L_s* = μ + %.3f and an excess of %.3f.", f.SigmaP2[1], f.OffsetAtP2[1], f.ExcessAtP2[1])
	return report.Finding{
		Claim:   claim,
		Verdict: v,
		Paper:   paper,
		Ours: fmt.Sprintf("%g needs σ = %.4g, %g needs σ = %.4g: at σ = %.4g the excess is %.3g, at σ = %.4g the offset is %.3g (closed form)",
			slidesOffsetP3, f.Sigma76[1], slidesExcessP3, f.Sigma87[1], f.Sigma76[1], f.ExcessAt76[1], f.Sigma87[1], f.OffsetAt87[1]),
		Tolerance: fmt.Sprintf("at the σ of 0.76, the excess in %s; at the σ of 0.87, L_s* − μ in %s: %s", verdict.Range(excLo, excHi), verdict.Range(offLo, offHi), words),
		Figures:   []string{"logp-sigma"},
		Evidence:  ev,
	}
}

// 4. The slides' conclusion: the fluctuation must be taken into account,
// both in the choice of the schedule and in the predicted time.
func findingFluctuationMatters(r *logpResults) report.Finding {
	claim := "The fluctuation must be taken into account: planning with the L_s that σ calls for gives a faster schedule than planning with the mean latency, and the shortest expected time lies above LogP's prediction with the mean (the slides' two questions and their summary)."
	c := r.curve(3)
	if c == nil {
		return report.Finding{Claim: claim, Verdict: report.NotCheckable, Evidence: "This report has no P = 3 curve."}
	}
	o := c.Opt
	sav := pick(o, o.StarSaving(), o.SavingIv())
	exc := pick(o, o.StarExcess(), o.ExcessIv())
	savWords := fmt.Sprintf(`"に応じてLogPモデルに用いるLの値を変えると最適スケジュールが得られる" (changing the L the LogP model uses according to σ gives the optimal schedule): faster than the plan of the mean by at least what the slides' numbers could show, %s`, twoDecimals)
	excWords := fmt.Sprintf(`"予想される最短計算時間にゆらぎは影響するか" (does fluctuation affect the predicted shortest time?), answered "ゆらぎの考慮が重要" (taking it into account is important): above T_s(μ) by at least %g, %s`, slidesHalfDigit, twoDecimals)
	saving := verdict.Compare(verdict.Claim{
		What:  fmt.Sprintf("E[T](μ) − E[T](L_s*) at P = 3, σ = %g (%s)", o.Sigma, sav.src),
		Paper: "positive (summary; no number)", Lo: slidesHalfDigit, Hi: math.Inf(1), Words: savWords,
	}, sav.iv)
	excess := verdict.Compare(verdict.Claim{
		What:  fmt.Sprintf("E[T](L_s*) − T_s(μ) at P = 3, σ = %g (%s)", o.Sigma, exc.src),
		Paper: fmt.Sprintf("%g (P = 3 plot)", slidesExcessP3), Lo: slidesHalfDigit, Hi: math.Inf(1), Words: excWords,
	}, exc.iv)
	ev := logpEvidence(saving, excess)
	ev += fmt.Sprintf(" The saving is %.2g %% of the excess and %.2g %% of E[T]: what the fluctuation chiefly changes is the prediction, not the choice of schedule.",
		100*sav.iv.Mean/exc.iv.Mean, 100*sav.iv.Mean/(o.PlannedMu+exc.iv.Mean))
	if o.HasStar() {
		ev += fmt.Sprintf(" The Monte Carlo search's plan, replayed on fresh draws: saving %s, excess %s.", verdict.Number(o.SavingIv()), verdict.Number(o.ExcessIv()))
	}
	var beyond []string
	for ri, row := range r.ByP {
		for _, b := range row {
			if b.P > 3 && ri == 0 {
				beyond = append(beyond, fmt.Sprintf("P = %d: %s", b.P, verdict.Number(b.SavingIv())))
			}
		}
	}
	if len(beyond) > 0 {
		ev += fmt.Sprintf(" Beyond the slides (Monte Carlo, σ/μ = %g, not judged), the saving of the searched plan over the plan of μ: %s.", r.ByP[0][0].Sigma/r.ByP[0][0].Mu, strings.Join(beyond, ", "))
	}
	return report.Finding{
		Claim:     claim,
		Verdict:   verdict.Combine(saving, excess),
		Paper:     fmt.Sprintf("the optimal schedule needs L_s chosen by σ; E[T] %g above LogP with the mean (P = 3 plot, summary)", slidesExcessP3),
		Ours:      fmt.Sprintf("P = 3, σ = %g: saving %s, excess %s (%s)", o.Sigma, verdict.Number(sav.iv), verdict.Number(exc.iv), sav.src),
		Tolerance: fmt.Sprintf("saving ≥ %g and excess ≥ %g: %s; %s", slidesHalfDigit, slidesHalfDigit, savWords, excWords),
		Figures:   []string{"logp-p3", "logp-optima", "logp-excess"},
		Evidence:  ev,
	}
}
