package nbc

import (
	"fmt"
	"math"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	engine "commlab/engine/nbc"
)

// Thresholds of the NBC page, stated in its captions and evidence.
const (
	// nbcSpeedupTol is how far a simulated speedup may be from the paper's
	// to agree: the paper's bars are single runs on a shared cluster,
	// whose run-to-run spread is a few per cent of the time, so a few
	// hundredths of the speedup.
	nbcSpeedupTol = 0.05
	// nbcSame is the relative time difference below which two cases count
	// as "about the same" (the paper: "ほぼ同じ", or "同等").
	nbcSame = 0.03
	// nbcLarge is the relative time difference from which two cases count
	// as "a large difference" (the paper: "大きな差").
	nbcLarge = 0.10
	// nbcTie is the margin under which the recommender calls a tie.
	nbcTie = 0.01
	// nbcPartMs is the smallest part difference (ms) the recommender's
	// reason names.
	nbcPartMs = 0.01
)

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

// 7. The mechanisms the paper names (Section IV-C and V), with the
// magnitudes calibrated on the 2-node figure, predict the 32-node figure.
func findingPrediction(s *nbcStudy, r *nbcResults) report.Finding {
	var ok, all int
	var paper, ours, other, plaus []string
	worst := 0.0
	for _, p := range s.predictions(r) {
		if !p.Predicted {
			continue
		}
		all++
		e := p.Err(nbcVarAll)
		if math.Abs(e) <= nbcSpeedupTol {
			ok++
		}
		worst = max(worst, math.Abs(e))
		paper = append(paper, fmt.Sprintf("%s %.3f", caseName(p.Method), p.Paper))
		ours = append(ours, fmt.Sprintf("%s %.3f (%+.3f)", caseName(p.Method), p.Cal[nbcVarAll], e))
		other = append(other, fmt.Sprintf("%s %.3f (%+.3f)", caseName(p.Method), p.Cal[nbcVarMaster], p.Err(nbcVarMaster)))
		plaus = append(plaus, fmt.Sprintf("%s %.3f (%+.3f)", caseName(p.Method), p.Cal[nbcVarPlausible], p.Err(nbcVarPlausible)))
	}
	var cal []string
	for i, u := range nbcUnknowns {
		v := s.calib[nbcVarAll].Values[i]
		_, why := u.plausible(v)
		cal = append(cal, fmt.Sprintf("%s = %s %s (%s)", u.Field, fmtUnit(u, v), u.Unit, why))
	}
	pc := s.calib[nbcVarPlausible]
	var pfit, pvals []string
	for i, m := range nbcCalibMethods {
		pfit = append(pfit, fmt.Sprintf("%s %+.3f", caseName(m), pc.Fit.Residuals[i]))
	}
	for i, u := range nbcUnknowns {
		pvals = append(pvals, fmt.Sprintf("%s = %s %s", u.Field, fmtUnit(u, pc.Values[i]), u.Unit))
	}
	return report.Finding{
		Claim:   "The mechanisms the paper names for the smaller speedups (thread creation and mutual exclusion, one compute thread fewer, synchronisation between the progress thread and the compute threads, NBC_Test once per outer-loop iteration), with magnitudes calibrated on the 2-node figure, account for the 32-node figure.",
		Verdict: verdict.Of(ok == all, 2*ok >= all),
		Paper:   "32 nodes: " + strings.Join(paper, ", ") + " (Section V)",
		Ours:    "predicted: " + strings.Join(ours, ", "),
		Evidence: fmt.Sprintf("Calibrated on the 2-node speedups alone (every thread tests): %s. Predicted at 32 nodes with them: %s; with the main thread testing (calibrated on its own): %s. Held to their plausible ranges (%s) the magnitudes miss the 2-node figure itself by %s, and predict %s at 32 nodes. Reproduced means every prediction within %g of the paper's, partially at least half; %d of %d are, the worst off by %.3f. The sensitivity maps show how far the speedups move with the compute/communication ratio the lost absolute times would have fixed.",
			strings.Join(cal, "; "), strings.Join(ours, ", "), strings.Join(other, ", "), strings.Join(pvals, ", "), strings.Join(pfit, ", "), strings.Join(plaus, ", "), nbcSpeedupTol, ok, all, worst),
	}
}

// relDiff is |a − b| / min(a, b).
func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Min(a, b) }

// 1. Section IV-C: overlapping is faster than, or as fast as, not
// overlapping, in every case.
func findingOverlapPays(s *nbcStudy, r *nbcResults) report.Finding {
	var ok, all int
	var ev []string
	minSp := math.Inf(1)
	for si, set := range nbcSetups {
		var parts []string
		for _, m := range overlapMethods {
			sp := r.at(s.paperCase(si, m)).Speedup
			minSp = min(minSp, sp)
			all++
			if sp >= 1-nbcSame {
				ok++
			}
			parts = append(parts, fmt.Sprintf("%s %.3f", caseName(m), sp))
		}
		ev = append(ev, fmt.Sprintf("%d nodes: %s", set.Nodes, strings.Join(parts, ", ")))
	}
	return report.Finding{
		Claim:   "Overlap pays: in every case the overlapping version is faster than the one without overlap, or as fast (Section IV-C).",
		Verdict: verdict.Of(ok == all, 2*ok >= all),
		Paper:   "every overlapping case as fast or faster (Fig. 1 and 2)",
		Ours:    fmt.Sprintf("%d of %d cases with speedup ≥ %g; the lowest %.3f", ok, all, 1-nbcSame, minSp),
		Evidence: fmt.Sprintf("Overlap speedups against each case's baseline: %s. Reproduced means every speedup ≥ %g (as fast within %g %%); %d of %d are.",
			strings.Join(ev, "; "), 1-nbcSame, 100*nbcSame, ok, all),
	}
}

// 2. Section IV-C: LibNBC's progress function is faster than its progress
// thread.
func findingFunctionBeatsThread(s *nbcStudy, r *nbcResults) report.Finding {
	var n int
	var ev, ours, paper []string
	for si, set := range nbcSetups {
		f, t := r.at(s.paperCase(si, engine.NBCFTest)), r.at(s.paperCase(si, engine.NBCT))
		if f.Total < t.Total {
			n++
		}
		ours = append(ours, fmt.Sprintf("%d nodes: NBCF %.3f, NBCT %.3f", set.Nodes, f.Speedup, t.Speedup))
		paper = append(paper, fmt.Sprintf("%d nodes: NBCF %.3f, NBCT %.3f", set.Nodes, paperSpeedups[set.Nodes][engine.NBCFTest], paperSpeedups[set.Nodes][engine.NBCT]))
		ev = append(ev, fmt.Sprintf("%d nodes: NBCF-ovlp-test %s, NBCT-ovlp %s (%s; NBCT's computation on %d threads is %s, its overheads %s)",
			set.Nodes, fmtMs(f.Total), fmtMs(t.Total), signed(t.Total-f.Total, "for NBCT"),
			s.paperCase(si, engine.NBCT).ComputeThreads(), signed(t.Compute-f.Compute, "than NBCF's"), signed(t.Overhead-f.Overhead, "than NBCF's")))
	}
	return report.Finding{
		Claim:    "LibNBC with the progress function is faster than LibNBC with the progress thread, at both node counts; the paper suspects the thread's creation and synchronisation costs, and Section V the core it takes from the computation.",
		Verdict:  verdict.Of(n == len(nbcSetups), n > 0),
		Paper:    strings.Join(paper, "; ") + " (Section V)",
		Ours:     strings.Join(ours, "; "),
		Evidence: strings.Join(ev, "; ") + ". Reproduced means NBCF-ovlp-test faster than NBCT-ovlp at both node counts.",
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
	same32, large2 := gap[1] <= nbcSame, gap[0] >= nbcLarge
	return report.Finding{
		Paper:   "about the same at 32 nodes, a large difference at 2 (Fig. 1 and 2; the times were lost)",
		Ours:    fmt.Sprintf("%.1f %% apart at 32 nodes, %.1f %% at 2", 100*gap[1], 100*gap[0]),
		Claim:   "With and without progress calls, NBCF takes about the same time at 32 nodes but differs a lot at 2 nodes (the paper expected no difference, since LibNBC posts all of the Alltoall's messages at once, and leaves the cause to future analysis).",
		Verdict: verdict.Of(same32 && large2, same32 || large2),
		Evidence: strings.Join(ev, "; ") + fmt.Sprintf(". Reproduced means within %g %% at 32 nodes and at least %g %% apart at 2 nodes. In the model, a rendezvous message moves only after its handshake is answered inside the library, so without progress calls the data of a large message waits for the wait.",
			100*nbcSame, 100*nbcLarge),
	}
}

// nbcClearly is how much larger one speedup must be than another to count
// as larger: the model is deterministic, but 0.1 % (TCC 1.352 against
// NBCT 1.351 at 2 nodes) is no win a measurement like the paper's could
// show, and the paper's smallest margin is 3.5 %.
const nbcClearly = 0.01

// 4. Section IV-C and V: TCC overlaps at both node counts, with a larger
// speedup than NBCT's.
func findingTCCOverlaps(s *nbcStudy, r *nbcResults) report.Finding {
	var over, beats int
	var ev []string
	for si, set := range nbcSetups {
		tc, nt := r.at(s.paperCase(si, engine.TCC)), r.at(s.paperCase(si, engine.NBCT))
		if tc.Speedup > 1 {
			over++
		}
		if tc.Speedup > nt.Speedup*(1+nbcClearly) {
			beats++
		}
		ev = append(ev, fmt.Sprintf("%d nodes: TCC %.3f (paper %.3f), NBCT %.3f (paper %.3f)", set.Nodes, tc.Speedup, paperSpeedups[set.Nodes][engine.TCC], nt.Speedup, paperSpeedups[set.Nodes][engine.NBCT]))
	}
	n := len(nbcSetups)
	return report.Finding{
		Paper: fmt.Sprintf("TCC %.3f, NBCT %.3f at 2 nodes; TCC %.3f, NBCT %.3f at 32 (Section V)",
			paperSpeedups[2][engine.TCC], paperSpeedups[2][engine.NBCT], paperSpeedups[32][engine.TCC], paperSpeedups[32][engine.NBCT]),
		Ours: fmt.Sprintf("TCC %.3f, NBCT %.3f at 2 nodes; TCC %.3f, NBCT %.3f at 32",
			r.at(s.paperCase(0, engine.TCC)).Speedup, r.at(s.paperCase(0, engine.NBCT)).Speedup, r.at(s.paperCase(1, engine.TCC)).Speedup, r.at(s.paperCase(1, engine.NBCT)).Speedup),
		Claim:    "TCC hides communication at both node counts, and its overlap speedup exceeds that of LibNBC's progress thread (its structure is simpler, so its overheads are lower).",
		Verdict:  verdict.Of(over == n && beats == n, over+beats > 0),
		Evidence: strings.Join(ev, "; ") + fmt.Sprintf(". Reproduced means TCC's speedup above 1 and more than %g %% above NBCT's at both (the paper's smallest margin is 3.5 %%, at 2 nodes); a closer pair is a tie, not a win.", 100*nbcClearly),
	}
}

// 5. The six speedups themselves.
func findingSpeedups(s *nbcStudy, r *nbcResults) report.Finding {
	var ok, all int
	var ev, paper, ours []string
	for si := range nbcSetups {
		for _, m := range []engine.Method{engine.NBCFTest, engine.NBCT, engine.TCC} {
			sp := s.speedupRow(r, si, m)
			all++
			if sp.agrees() {
				ok++
			}
			ev = append(ev, fmt.Sprintf("%s at %d nodes %.3f against %.3f", caseName(m), sp.Nodes, sp.Sim, sp.Paper))
			paper = append(paper, fmt.Sprintf("%s %d: %.3f", caseName(m), sp.Nodes, sp.Paper))
			ours = append(ours, fmt.Sprintf("%s %d: %.3f", caseName(m), sp.Nodes, sp.Sim))
		}
	}
	return report.Finding{
		Paper:   strings.Join(paper, ", ") + " (Section V)",
		Ours:    strings.Join(ours, ", ") + " (hardware defaults)",
		Claim:   "The overlap speedups: 2 nodes NBCF 1.346, NBCT 1.127, TCC 1.166; 32 nodes NBCF 1.338, NBCT 1.020, TCC 1.271 (Section V).",
		Verdict: verdict.Of(ok == all, 2*ok >= all),
		Evidence: fmt.Sprintf("Simulated against the paper: %s. Reproduced means all within %g, partially at least half; %d of %d are. The table above says why each one differs.",
			strings.Join(ev, "; "), nbcSpeedupTol, ok, all),
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
	var one, gains int
	var ev, ours []string
	for si, set := range nbcSetups {
		ratio := func(k int) float64 { // T(TCC) / T(NBCT)
			return r.at(s.inflightPoint(si, engine.TCC, k)).Total / r.at(s.inflightPoint(si, engine.NBCT, k)).Total
		}
		r1, rk := ratio(1), ratio(kmax)
		if r1 < 1 {
			one++
		}
		if rk > r1 {
			gains++
		}
		ev = append(ev, fmt.Sprintf("%d nodes: T(TCC)/T(NBCT) = %.3f with 1 in flight, %.3f with %d", set.Nodes, r1, rk, kmax))
		ours = append(ours, fmt.Sprintf("T(TCC)/T(NBCT) at %d nodes: %.3f (1 in flight), %.3f (%d)", set.Nodes, r1, rk, kmax))
	}
	n := len(nbcSetups)
	return report.Finding{
		Paper:    "an expectation, no number (Section IV-C and V)",
		Ours:     strings.Join(ours, "; "),
		Claim:    claim,
		Verdict:  verdict.Of(one == n && gains == n, one+gains > 0),
		Evidence: strings.Join(ev, "; ") + fmt.Sprintf(". Reproduced means the ratio below 1 with one in flight and higher with %d, at both setups.", kmax),
	}
}
