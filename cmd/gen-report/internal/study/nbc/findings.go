package nbc

import (
	"fmt"
	"math"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	engine "commlab/engine/nbc"
)

// The page's tolerances, each from the paper's words. The engine draws no
// random numbers, so every number of ours is exact (verdict.Exact) and a
// verdict turns on the tolerance alone: each is one rule, used everywhere
// it applies.
const (
	// nbcAbout is the paper's precision. It gives each speedup to three
	// decimals and calls it "約" (about): "約1.127" vouches for the figure
	// rounded to two decimals (1.13), not for its third. A speedup of ours
	// within half a unit of the second decimal is the paper's; two of
	// ours closer than that are a tie. The paper's own smallest
	// distinction between two of its numbers, TCC's 1.166 over NBCT's
	// 1.127 at 2 nodes, is eight times as large.
	nbcAbout = 0.005
	// nbcTie is the same band as a ratio: two times (or two speedups)
	// whose ratio lies within 1 ± nbcTie are the same ("ほぼ同じ", "同等"),
	// half a unit of the second decimal of a speedup near 1 (the paper's
	// lie in 1.020–1.346). The recommender calls its ties by it too.
	nbcTie = nbcAbout
	// nbcPartMs is the smallest part difference (ms) the recommender's
	// reason names: a display threshold, not a verdict's.
	nbcPartMs = 0.01
)

// nbcTieWords is where nbcTie comes from, for a claim's Words.
const nbcTieWords = `the paper gives its speedups to three decimals and calls each "約" (about), "約1.127": we read that as vouching for the figure to two decimals, so a difference under half a unit of the second, 0.5 % of a speedup near 1, is one its numbers do not establish: a tie (its smallest distinction, 1.166 against 1.127, is eight times that)`

// nbcLarge is how far apart two times must be for the paper's "大きな差"
// (a large difference) between NBCF with and without progress calls at 2
// nodes: at least the gap it reads, in the same experiment, as NBCT's
// speedup being smaller than NBCF's ("約1.127 … 約1.346に比べて小さい"),
// 1.346 / 1.127: 19.4 % of the time. Its 32-node gap, 1.338 / 1.020 (31 %),
// it calls larger still ("差が大きくなっている").
func nbcLarge() float64 {
	return paperSpeedups[2][engine.NBCFTest]/paperSpeedups[2][engine.NBCT] - 1
}

// aboutClaim is the paper's speedup x as its words allow it: "約x",
// within half a unit of the second decimal (nbcAbout).
func aboutClaim(what string, x float64, where string) verdict.Claim {
	return verdict.Claim{
		What: what, Paper: fmt.Sprintf("約 %.3f (%s)", x, where),
		Lo: x - nbcAbout, Hi: x + nbcAbout,
		Words: fmt.Sprintf(`"約%.3f" (about %.3f): within half a unit of the second decimal, ±%g`, x, x, nbcAbout),
	}
}

// aboutTolerance is a Finding.Tolerance for speedups compared with aboutClaim.
var aboutTolerance = fmt.Sprintf(`±%g on each speedup: %s`, nbcAbout, nbcTieWords)

// tieTolerance is a Finding.Tolerance for the tie band.
var tieTolerance = fmt.Sprintf("a ratio within 1 ± %g is a tie (the same time), beyond it a difference: %s", nbcTie, nbcTieWords)

// nbcEvidence lists the checks, one sentence each, and then the paper's
// words behind their ranges, each once (a finding's checks often share
// them).
func nbcEvidence(checks ...verdict.Check) string {
	return verdict.EvidenceFrom("the paper's", checks...)
}

// nbcFindings checks the paper's claims against the study's numbers.
func nbcFindings(s *nbcStudy, r *nbcResults) []report.Finding {
	return []report.Finding{
		findingOverlapPays(s, r),
		findingFunctionBeatsThread(s, r),
		findingTestNoTest(s, r),
		findingTCCOverlaps(s, r),
		findingSpeedups(s, r),
		findingInflight(s, r),
		findingPrediction(s, r),
	}
}

// relDiff is |a − b| / min(a, b).
func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Min(a, b) }

// 1. Section IV-C: in LibNBC, overlapping is faster than, or as fast as,
// not overlapping, in every case.
func findingOverlapPays(s *nbcStudy, r *nbcResults) report.Finding {
	var checks []verdict.Check
	var ours []string
	for si, set := range nbcSetups {
		var parts []string
		for _, m := range []engine.Method{engine.NBCFTest, engine.NBCFNoTest, engine.NBCT} {
			sp := r.at(s.paperCase(si, m)).Speedup
			checks = append(checks, verdict.Compare(verdict.Claim{
				What:  fmt.Sprintf("%s's overlap speedup at %d nodes", caseName(m), set.Nodes),
				Paper: fmt.Sprintf("faster or the same (Fig. %d)", si+1),
				Lo:    1 - nbcTie, Hi: math.Inf(1),
				Words: fmt.Sprintf(`"どのケースでも通信隠蔽する場合の方が通信隠蔽しない場合より速いか，もしくは同等の所要時間" (in every case faster with overlap than without, or the same time): a speedup of at least 1 − %g, "the same" being the tie band`, nbcTie),
			}, verdict.Exact(sp)))
			parts = append(parts, fmt.Sprintf("%s %.3f", caseName(m), sp))
		}
		ours = append(ours, fmt.Sprintf("%d nodes: %s", set.Nodes, strings.Join(parts, ", ")))
	}
	return report.Finding{
		Claim:     "Overlap pays in LibNBC: in every case the overlapping version is faster than the one without overlap, or as fast (Section IV-C).",
		Verdict:   verdict.Combine(checks...),
		Paper:     "every overlapping LibNBC case as fast or faster (Fig. 1 and 2; the times were lost)",
		Ours:      "overlap speedups, " + strings.Join(ours, "; "),
		Tolerance: fmt.Sprintf("speedup ≥ %g: %s", 1-nbcTie, tieTolerance),
		Figures:   []string{"nbc-fig1", "nbc-fig2", "nbc-speedups"},
		Evidence:  nbcEvidence(checks...) + " Each speedup is against the case's own baseline, NBCF-noovlp.",
	}
}

// 2. Section IV-C: LibNBC's progress function is faster than its progress
// thread.
func findingFunctionBeatsThread(s *nbcStudy, r *nbcResults) report.Finding {
	var checks []verdict.Check
	var ev, ours, paper []string
	for si, set := range nbcSetups {
		f, t := r.at(s.paperCase(si, engine.NBCFTest)), r.at(s.paperCase(si, engine.NBCT))
		pf, pt := paperSpeedups[set.Nodes][engine.NBCFTest], paperSpeedups[set.Nodes][engine.NBCT]
		checks = append(checks, verdict.Compare(verdict.Claim{
			What:  fmt.Sprintf("T(NBCT-ovlp) / T(NBCF-ovlp-test) at %d nodes", set.Nodes),
			Paper: fmt.Sprintf("%.3f (約%.3f / 約%.3f, Section V)", pf/pt, pf, pt),
			Lo:    1 + nbcTie, Hi: math.Inf(1),
			Words: fmt.Sprintf(`"プログレス関数による実装の方が速い" (the progress function's implementation is faster): above 1 + %g, beyond the tie band`, nbcTie),
		}, verdict.Exact(t.Total/f.Total)))
		ours = append(ours, fmt.Sprintf("%d nodes: T(NBCT)/T(NBCF) = %.3f (speedups NBCF %.3f, NBCT %.3f)", set.Nodes, t.Total/f.Total, f.Speedup, t.Speedup))
		paper = append(paper, fmt.Sprintf("%d nodes: NBCF 約%.3f, NBCT 約%.3f", set.Nodes, pf, pt))
		ev = append(ev, fmt.Sprintf("%d nodes: NBCF-ovlp-test %s, NBCT-ovlp %s (%s; NBCT's computation on %d threads is %s, its overheads %s)",
			set.Nodes, fmtMs(f.Total), fmtMs(t.Total), signed(t.Total-f.Total, "for NBCT"),
			s.paperCase(si, engine.NBCT).ComputeThreads(), signed(t.Compute-f.Compute, "than NBCF's"), signed(t.Overhead-f.Overhead, "than NBCF's")))
	}
	return report.Finding{
		Claim:     "LibNBC with the progress function is faster than LibNBC with the progress thread, at both node counts; the paper suspects the thread's creation and synchronisation costs, and Section V the core it takes from the computation.",
		Verdict:   verdict.Combine(checks...),
		Paper:     strings.Join(paper, "; ") + " (Section V)",
		Ours:      strings.Join(ours, "; "),
		Tolerance: fmt.Sprintf("T(NBCT) / T(NBCF) > 1 + %g: %s", nbcTie, tieTolerance),
		Figures:   []string{"nbc-fig1", "nbc-fig2", "nbc-speedups"},
		Evidence:  nbcEvidence(checks...) + " " + strings.Join(ev, "; ") + ".",
	}
}

// 3. Section IV-C: with and without progress calls: about the same at 32
// nodes, a large difference at 2 nodes (which the paper could not
// explain).
func findingTestNoTest(s *nbcStudy, r *nbcResults) report.Finding {
	gap := make([]float64, len(nbcSetups))
	var ev []string
	for si, set := range nbcSetups {
		t, nt := r.at(s.paperCase(si, engine.NBCFTest)), r.at(s.paperCase(si, engine.NBCFNoTest))
		gap[si] = relDiff(t.Total, nt.Total)
		p := s.paperCase(si, engine.NBCFTest)
		proto := "rendezvous"
		if p.Msg <= p.EagerLimit {
			proto = "eager"
		}
		ev = append(ev, fmt.Sprintf("%d nodes (%s messages, %s): NBCF-ovlp-test %s, NBCF-ovlp-notest %s, %.1f %% apart; the overlap hides %.0f %% of the communication with progress calls and %.0f %% without",
			set.Nodes, sizeLabel(p.Msg), proto, fmtMs(t.Total), fmtMs(nt.Total), 100*gap[si], 100*t.Overlap/t.Comm, 100*nt.Overlap/nt.Comm))
	}
	large := nbcLarge()
	same := verdict.Compare(verdict.Claim{
		What: "NBCF with and without progress calls at 32 nodes, relative difference", Paper: "ほぼ同じ所要時間, about the same time (Fig. 2)",
		Lo: 0, Hi: nbcTie,
		Words: fmt.Sprintf(`"32ノードではほぼ同じ所要時間" (about the same time at 32 nodes): within the tie band, %g; %s`, nbcTie, nbcTieWords),
	}, verdict.Exact(gap[1]))
	differ := verdict.Compare(verdict.Claim{
		What: "NBCF with and without progress calls at 2 nodes, relative difference", Paper: "大きな差, a large difference (Fig. 1)",
		Lo: large, Hi: math.Inf(1),
		Words: fmt.Sprintf(`"2ノードにでは大きな差が見られた" (a large difference at 2 nodes): at least the gap the paper reads in the same experiment as NBCT's speedup being smaller than NBCF's, "約1.127 … 約1.346に比べて小さい", 1.346 / 1.127 − 1 = %.3f`, large),
	}, verdict.Exact(gap[0]))
	return report.Finding{
		Claim:     "With and without progress calls, NBCF takes about the same time at 32 nodes but differs a lot at 2 nodes (the paper expected no difference, since LibNBC posts all of the Alltoall's messages at once, and leaves the cause to future analysis).",
		Verdict:   verdict.Combine(same, differ),
		Paper:     "about the same at 32 nodes, a large difference at 2 (Fig. 1 and 2; the times were lost)",
		Ours:      fmt.Sprintf("%.1f %% apart at 32 nodes, %.1f %% at 2", 100*gap[1], 100*gap[0]),
		Tolerance: fmt.Sprintf("32 nodes: at most %.1f %% apart (%s); 2 nodes: at least %.1f %% apart (the paper's NBCF/NBCT gap at 2 nodes, 1.346 / 1.127)", 100*nbcTie, tieTolerance, 100*large),
		Figures:   []string{"nbc-fig1", "nbc-fig2"},
		Evidence: nbcEvidence(same, differ) + " " + strings.Join(ev, "; ") +
			". In the model, a rendezvous message moves only after its handshake is answered inside the library, so without progress calls the data of a large message waits for the wait.",
	}
}

// 4. Section IV-C and V: TCC overlaps at both node counts, with a larger
// speedup than NBCT's.
func findingTCCOverlaps(s *nbcStudy, r *nbcResults) report.Finding {
	var checks []verdict.Check
	var ours, paper []string
	for si, set := range nbcSetups {
		tc, nt := r.at(s.paperCase(si, engine.TCC)), r.at(s.paperCase(si, engine.NBCT))
		ptc, pnt := paperSpeedups[set.Nodes][engine.TCC], paperSpeedups[set.Nodes][engine.NBCT]
		checks = append(checks,
			verdict.Compare(verdict.Claim{
				What:  fmt.Sprintf("TCC-ovlp's overlap speedup at %d nodes", set.Nodes),
				Paper: fmt.Sprintf("約%.3f (Section V)", ptc),
				Lo:    1 + nbcTie, Hi: math.Inf(1),
				Words: fmt.Sprintf(`"TCCにおいても，ノード数2，32の双方で通信隠蔽の効果を確認することができた" (TCC too hides communication at both 2 and 32 nodes): a speedup above 1 + %g, beyond the tie band`, nbcTie),
			}, verdict.Exact(tc.Speedup)),
			verdict.Compare(verdict.Claim{
				What:  fmt.Sprintf("TCC-ovlp's speedup over NBCT-ovlp's at %d nodes", set.Nodes),
				Paper: fmt.Sprintf("%.3f (約%.3f / 約%.3f)", ptc/pnt, ptc, pnt),
				Lo:    1 + nbcTie, Hi: math.Inf(1),
				Words: fmt.Sprintf(`"構造が単純であるためオーバーヘッドが少なく…通信隠蔽の効果が得られやすい" (its structure is simple, so its overhead is lower and the overlap is easier to obtain), with its speedups above NBCT's: a ratio above 1 + %g, beyond the tie band`, nbcTie),
			}, verdict.Exact(tc.Speedup/nt.Speedup)))
		ours = append(ours, fmt.Sprintf("TCC %.3f, NBCT %.3f at %d nodes", tc.Speedup, nt.Speedup, set.Nodes))
		paper = append(paper, fmt.Sprintf("TCC 約%.3f, NBCT 約%.3f at %d nodes", ptc, pnt, set.Nodes))
	}
	return report.Finding{
		Claim:     "TCC hides communication at both node counts, and its overlap speedup exceeds that of LibNBC's progress thread (its structure is simpler, so its overheads are lower).",
		Verdict:   verdict.Combine(checks...),
		Paper:     strings.Join(paper, "; ") + " (Section V)",
		Ours:      strings.Join(ours, "; "),
		Tolerance: fmt.Sprintf("speedup and speedup ratio > 1 + %g: %s", nbcTie, tieTolerance),
		Figures:   []string{"nbc-fig1", "nbc-fig2", "nbc-speedups"},
		Evidence:  nbcEvidence(checks...),
	}
}

// 5. The six speedups themselves.
func findingSpeedups(s *nbcStudy, r *nbcResults) report.Finding {
	var checks []verdict.Check
	var paper, ours []string
	for si := range nbcSetups {
		for _, m := range nbcCalibMethods {
			sp := s.speedupRow(r, si, m)
			checks = append(checks, verdict.Compare(aboutClaim(fmt.Sprintf("%s's speedup at %d nodes", caseName(m), sp.Nodes), sp.Paper, "Section V"), verdict.Exact(sp.Sim)))
			paper = append(paper, fmt.Sprintf("%s %d: 約%.3f", caseName(m), sp.Nodes, sp.Paper))
			ours = append(ours, fmt.Sprintf("%s %d: %.3f", caseName(m), sp.Nodes, sp.Sim))
		}
	}
	return report.Finding{
		Paper:     strings.Join(paper, ", ") + " (Section V)",
		Ours:      strings.Join(ours, ", ") + " (hardware defaults, nothing fitted)",
		Claim:     "The overlap speedups: 2 nodes NBCF 1.346, NBCT 1.127, TCC 1.166; 32 nodes NBCF 1.338, NBCT 1.020, TCC 1.271 (Section V).",
		Verdict:   verdict.Combine(checks...),
		Tolerance: aboutTolerance,
		Figures:   []string{"nbc-speedups", "nbc-calib"},
		Evidence:  nbcEvidence(checks...) + " The table of speedups says why each one differs, part by part.",
	}
}

// 6. Section IV-C and V (an expectation, checked by the sweep the paper
// leaves to future work): TCC suits one collective in flight, LibNBC gains
// where several are.
func findingInflight(s *nbcStudy, r *nbcResults) report.Finding {
	claim := "With one collective in flight TCC's simple structure beats LibNBC's progress thread; with several in flight LibNBC, which advances them all at once while TCC runs them one by one, gains on TCC (Section IV-C and V, an expectation the paper leaves to future work)."
	if len(s.inflight) < 2 || s.inflight[0] != 1 {
		return report.Finding{Claim: claim, Verdict: report.NotCheckable, Evidence: "This report has no sweep over the collectives in flight starting at 1."}
	}
	kmax := s.inflight[len(s.inflight)-1]
	var checks []verdict.Check
	var ours []string
	for si, set := range nbcSetups {
		ratio := func(k int) float64 { // T(TCC) / T(NBCT)
			return r.at(s.inflightPoint(si, engine.TCC, k)).Total / r.at(s.inflightPoint(si, engine.NBCT, k)).Total
		}
		r1, rk := ratio(1), ratio(kmax)
		checks = append(checks,
			verdict.Compare(verdict.Claim{
				What:  fmt.Sprintf("T(TCC) / T(NBCT) with one collective in flight at %d nodes", set.Nodes),
				Paper: "below 1: TCC faster (Section IV-C, an expectation)",
				Lo:    math.Inf(-1), Hi: 1 - nbcTie,
				Words: fmt.Sprintf(`"同時呼び出し数が少ない場合，…LibNBCに比べてTCCの方式が有効だと考えられる" (with few simultaneous calls TCC's method should be more effective than LibNBC's): below 1 − %g, beyond the tie band`, nbcTie),
			}, verdict.Exact(r1)),
			verdict.Compare(verdict.Claim{
				What:  fmt.Sprintf("T(TCC) / T(NBCT) with %d in flight over with one, at %d nodes", kmax, set.Nodes),
				Paper: "above 1: LibNBC gains (Section V, an expectation)",
				Lo:    1 + nbcTie, Hi: math.Inf(1),
				Words: fmt.Sprintf(`"そのような状況ではLibNBCによる通信隠蔽の効果がより顕著に表れる可能性がある" (with several collectives in flight LibNBC's overlap may show more markedly): above 1 + %g, beyond the tie band`, nbcTie),
			}, verdict.Exact(rk/r1)))
		ours = append(ours, fmt.Sprintf("T(TCC)/T(NBCT) at %d nodes: %.4f (1 in flight), %.4f (%d)", set.Nodes, r1, rk, kmax))
	}
	return report.Finding{
		Paper:     "an expectation, no number (Section IV-C and V)",
		Ours:      strings.Join(ours, "; "),
		Claim:     claim,
		Verdict:   verdict.Combine(checks...),
		Tolerance: tieTolerance,
		Figures:   []string{"nbc-inflight-2", "nbc-inflight-32"},
		Evidence:  nbcEvidence(checks...),
	}
}

// 7. The mechanisms the paper names (Section IV-C and V), with the
// magnitudes calibrated on the 2-node figure inside their sourced ranges,
// predict the 32-node figure.
func findingPrediction(s *nbcStudy, r *nbcResults) report.Finding {
	ps := s.predictions(r)
	var checks []verdict.Check
	var paper, ours []string
	for _, p := range ps {
		if !p.Predicted {
			continue
		}
		checks = append(checks, verdict.Compare(aboutClaim(fmt.Sprintf("%s's speedup predicted at %d nodes", caseName(p.Method), p.Nodes), p.Paper, "Section V"), verdict.Exact(p.Cal[nbcVarDefault])))
		paper = append(paper, fmt.Sprintf("%s 約%.3f", caseName(p.Method), p.Paper))
		ours = append(ours, fmt.Sprintf("%s %.3f (%+.3f)", caseName(p.Method), p.Cal[nbcVarDefault], p.Err(nbcVarDefault)))
	}
	c := s.calib[nbcVarDefault]
	var vals []string
	for i, u := range c.Unknowns {
		vals = append(vals, fmt.Sprintf("%s = %s %s (%s, %s)", u.Field, fmtUnit(u, c.Values[i]), u.Unit, u.rangeText(), u.plausibility(c.Values[i])))
	}
	var res []string
	for i, m := range nbcCalibMethods {
		res = append(res, fmt.Sprintf("%s %+.3f", caseName(m), c.Fit.Residuals[i]))
	}
	wide := s.calib[nbcVarWide]
	wideWhy := "every value inside its range"
	if bad := wide.implausible(); len(bad) > 0 {
		wideWhy = strings.Join(bad, ", ") + ": an implausible value stands in for a missing mechanism"
	}
	return report.Finding{
		Claim:     "The mechanisms the paper names for the smaller speedups (thread creation and mutual exclusion, one compute thread fewer, synchronisation between the progress thread and the compute threads, NBC_Test once per outer-loop iteration), with magnitudes calibrated on the 2-node figure inside their physically plausible ranges, account for the 32-node figure.",
		Verdict:   verdict.Combine(checks...),
		Paper:     "32 nodes: " + strings.Join(paper, ", ") + " (Section V)",
		Ours:      "predicted (calibrated on 2 nodes, " + variant(nbcVarDefault).Label + "): " + strings.Join(ours, ", "),
		Tolerance: aboutTolerance,
		Figures:   []string{"nbc-predict", "nbc-calibrated", "nbc-calib", "nbc-missing"},
		Evidence: nbcEvidence(checks...) + fmt.Sprintf(
			" Calibrated on the 2-node speedups alone, every value held to its sourced range, memory bandwidth shared: %s; residuals at 2 nodes %s. "+
				"In the wide box the fit comes to the 2-node figure within %s with %s; it predicts %s at 32 nodes (root mean square %.3f). "+
				"Held to the ranges without memory sharing: residuals %s, 32-node errors %s (root mean square %.3f). With memory sharing: %s (root mean square %.3f). "+
				"The table of probes shows what two mechanisms the model lacks would do at 32 nodes; neither is in the paper's words, and the 2-node figure cannot see either.",
			strings.Join(vals, "; "), strings.Join(res, ", "),
			errs(ps, nbcVarWide, false), wideWhy, errs(ps, nbcVarWide, true), rmsErr(ps, nbcVarWide, true),
			errs(ps, nbcVarPlausible, false), errs(ps, nbcVarPlausible, true), rmsErr(ps, nbcVarPlausible, true),
			errs(ps, nbcVarDefault, true), rmsErr(ps, nbcVarDefault, true)),
	}
}
